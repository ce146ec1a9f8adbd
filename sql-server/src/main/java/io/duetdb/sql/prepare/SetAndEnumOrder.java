package io.duetdb.sql.prepare;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.metadata.RelColumnOrigin;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeUtil;

import io.duetdb.common.catalog.ColumnInfo;
import io.duetdb.common.types.SqlType;
import io.duetdb.common.types.SqlTypeName;

/**
 * MySQL sorts an ENUM column by its values' places in the column's definition and a SET column by the number its
 * members' bits make, not by their text; comparisons, MIN and MAX use the text. The sort key of an ORDER BY field
 * that is such a column, read as it is stored (not an expression over it).
 */
final class SetAndEnumOrder {
    private SetAndEnumOrder() {
    }

    /** The sort key of {@code field} of {@code input}, or null when it is not an ENUM or SET column. */
    static RexNode sortKey(RelNode input, int field, RexBuilder rexBuilder) {
        if (!SqlTypeUtil.inCharFamily(input.getRowType().getFieldList().get(field).getType())) {
            // ENUM and SET read as text: numbers and dates need no look at where they come from.
            return null;
        }
        SqlType type = columnType(input, field);
        if (type == null || type.name() != SqlTypeName.ENUM && type.name() != SqlTypeName.SET) {
            return null;
        }
        RexNode value = rexBuilder.makeInputRef(input, field);
        RexNode key;
        if (type.name() == SqlTypeName.ENUM) {
            // The empty string a non-strict INSERT stores for a value not in the list is place 0, before the first.
            List<RexNode> operands = new ArrayList<>();
            operands.add(value);
            type.elements().forEach(element -> operands.add(rexBuilder.makeLiteral(element)));
            key = rexBuilder.makeCall(DuetFunctions.FIELD, operands);
        } else {
            List<RexNode> bits = new ArrayList<>();
            for (int i = 0; i < type.elements().size(); i++) {
                RexNode member = rexBuilder.makeCall(SqlStdOperatorTable.GREATER_THAN, rexBuilder.makeCall(
                        DuetFunctions.FIND_IN_SET, rexBuilder.makeLiteral(type.elements().get(i)), value),
                        rexBuilder.makeExactLiteral(BigDecimal.ZERO));
                bits.add(rexBuilder.makeCall(SqlStdOperatorTable.CASE, member,
                        rexBuilder.makeExactLiteral(BigDecimal.valueOf(1L << i)), rexBuilder.makeExactLiteral(BigDecimal.ZERO)));
            }
            key = bits.isEmpty() ? rexBuilder.makeExactLiteral(BigDecimal.ZERO) : bits.get(0);
            for (RexNode bit : bits.subList(Math.min(1, bits.size()), bits.size())) {
                key = rexBuilder.makeCall(SqlStdOperatorTable.PLUS, key, bit);
            }
        }
        RexNode nullKey = rexBuilder.makeNullLiteral(key.getType());
        return rexBuilder.makeCall(SqlStdOperatorTable.CASE, rexBuilder.makeCall(SqlStdOperatorTable.IS_NULL, value),
                nullKey, key);
    }

    /** The type of the table column {@code field} reads as it is, or null for anything else. */
    private static SqlType columnType(RelNode input, int field) {
        RelColumnOrigin origin = input.getCluster().getMetadataQuery().getColumnOrigin(input, field);
        if (origin == null || origin.isDerived()) {
            return null;
        }
        DuetTable table = origin.getOriginTable().unwrap(DuetTable.class);
        if (table == null) {
            return null;
        }
        List<ColumnInfo> columns = table.table().publicColumns();
        int ordinal = origin.getOriginColumnOrdinal();
        return ordinal < columns.size() ? columns.get(ordinal).type() : null;
    }
}
