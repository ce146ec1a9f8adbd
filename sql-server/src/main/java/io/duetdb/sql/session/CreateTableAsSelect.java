package io.duetdb.sql.session;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.common.types.SqlType;
import io.duetdb.common.types.SqlTypeName;
import io.duetdb.sql.parser.ddl.SqlColumnDefinition;
import io.duetdb.sql.parser.ddl.SqlCreateTable;
import io.duetdb.sql.parser.ddl.SqlDropTable;
import io.duetdb.sql.parser.ddl.SqlMySqlType;
import io.duetdb.sql.parser.dml.SqlMySqlInsert;
import io.duetdb.sql.prepare.QueryPlanner;
import io.duetdb.sql.prepare.TypeMapping;

/**
 * CREATE TABLE ... [AS] SELECT: a table of the columns written, then one per column of the query not written
 * (named as the query labels it, typed as the query types it, NOT NULL where the query's column cannot be NULL),
 * filled with the query's rows. As in MySQL 8.0 (atomic DDL), a table whose rows could not all be written is
 * dropped again.
 */
final class CreateTableAsSelect {
    private CreateTableAsSelect() {
    }

    /** The table's definition: the written elements and a column for each query column they lack. */
    record Definition(SqlCreateTable table, SqlNodeList insertColumns) {
    }

    static Definition definition(Session session, SqlCreateTable create, String sql) {
        SqlParserPos pos = SqlParserPos.ZERO;
        QueryPlanner.PlannedQuery planned = session.planner().plan(create.query());
        session.requireSelect(planned);
        List<String> labels = Session.labels(create.query(), sql);
        List<RelDataTypeField> fields = planned.rowType().getFieldList();
        List<String> names = new ArrayList<>();
        Set<String> selected = new HashSet<>();
        for (int i = 0; i < fields.size(); i++) {
            String name = labels != null && labels.size() == fields.size() && fields.get(i).getName().matches("EXPR\\$\\d+")
                    ? labels.get(i) : fields.get(i).getName();
            names.add(name);
            selected.add(name.toLowerCase(Locale.ROOT));
        }
        // As MySQL orders them: columns only written come first, then the query's, a written definition winning.
        List<SqlNode> elements = new ArrayList<>();
        Map<String, SqlColumnDefinition> written = new HashMap<>();
        for (SqlNode element : create.elements()) {
            if (element instanceof SqlColumnDefinition column
                    && selected.contains(column.name().getSimple().toLowerCase(Locale.ROOT))) {
                written.put(column.name().getSimple().toLowerCase(Locale.ROOT), column);
            } else {
                elements.add(element);
            }
        }
        List<SqlNode> insertColumns = new ArrayList<>();
        Set<String> added = new HashSet<>();
        for (int i = 0; i < fields.size(); i++) {
            RelDataTypeField field = fields.get(i);
            SqlIdentifier identifier = new SqlIdentifier(names.get(i), pos);
            insertColumns.add(identifier);
            String key = names.get(i).toLowerCase(Locale.ROOT);
            if (!added.add(key)) {
                throw new DuetException(ErrorCode.DUPLICATE_COLUMN, "Duplicate column name '" + names.get(i) + "'");
            }
            SqlColumnDefinition definition = written.get(key);
            if (definition == null) {
                SqlType type = TypeMapping.fromCalcite(field.getType());
                definition = new SqlColumnDefinition(pos, identifier, writtenType(type),
                        field.getType().isNullable() ? null : Boolean.FALSE, null, false, null, null, false, null,
                        List.of());
            }
            elements.add(definition);
        }
        SqlCreateTable table = new SqlCreateTable(create.getParserPosition(), create.ifNotExists(), create.name(),
                new SqlNodeList(elements, pos), create.options(), null, null);
        return new Definition(table, new SqlNodeList(insertColumns, pos));
    }

    /** The INSERT that fills the table created for {@code definition}. */
    static SqlMySqlInsert insert(SqlCreateTable create, Definition definition) {
        return new SqlMySqlInsert(SqlParserPos.ZERO, false, false, create.name(), definition.insertColumns(),
                create.query(), null);
    }

    /** The DROP TABLE that takes back a table whose rows failed. */
    static SqlDropTable drop(SqlCreateTable create) {
        return new SqlDropTable(SqlParserPos.ZERO, true, new SqlNodeList(List.of(create.name()), SqlParserPos.ZERO));
    }

    /** A query column's type as a column definition writes it. */
    private static SqlMySqlType writtenType(SqlType type) {
        long length = Integer.toUnsignedLong(type.length());
        String name = switch (type.name()) {
            case VARCHAR -> length > 16383 ? textName(length) : "VARCHAR";
            case TEXT -> textName(length);
            case BLOB -> blobName(length);
            // SELECT NULL: MySQL gives such a column the type BINARY(0).
            case NULL -> "BINARY";
            default -> type.name().name();
        };
        int precision = switch (type.name()) {
            case CHAR, VARCHAR, BINARY, VARBINARY -> (int) Math.min(length, 16383);
            case NULL -> 0;
            case DECIMAL -> type.precision();
            case DATETIME, TIMESTAMP, TIME -> type.fractionalSeconds();
            default -> -1;
        };
        int scale = type.name() == SqlTypeName.DECIMAL ? type.scale() : -1;
        return new SqlMySqlType(SqlParserPos.ZERO, name, precision, scale, type.unsigned(), null,
                type.collation() == null ? null : type.collation().collationName(), type.elements());
    }

    private static String textName(long length) {
        return length <= 255 ? "TINYTEXT" : length <= 65535 ? "TEXT" : length <= 16777215 ? "MEDIUMTEXT" : "LONGTEXT";
    }

    private static String blobName(long length) {
        return length <= 255 ? "TINYBLOB" : length <= 65535 ? "BLOB" : length <= 16777215 ? "MEDIUMBLOB" : "LONGBLOB";
    }
}
