package io.duetdb.sql.parser.ddl;

import java.util.List;

import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.duetdb.sql.parser.DuetSqlCall;

/** A MySQL column type as written; precision and scale are -1 when absent, elements those of ENUM and SET. */
public final class SqlMySqlType extends DuetSqlCall {
    private final String typeName;
    private final int precision;
    private final int scale;
    private final boolean unsigned;
    private final String charset;
    private final String collation;
    private final List<String> elements;

    public SqlMySqlType(SqlParserPos pos, String typeName, int precision, int scale, boolean unsigned, String charset,
            String collation, List<String> elements) {
        super(pos, "MY SQL TYPE");
        this.typeName = typeName;
        this.precision = precision;
        this.scale = scale;
        this.unsigned = unsigned;
        this.charset = charset;
        this.collation = collation;
        this.elements = List.copyOf(elements);
    }

    public List<String> elements() {
        return elements;
    }

    public String typeName() {
        return typeName;
    }

    public int precision() {
        return precision;
    }

    public int scale() {
        return scale;
    }

    public boolean unsigned() {
        return unsigned;
    }

    public String charset() {
        return charset;
    }

    public String collation() {
        return collation;
    }

    /** This type with the collation a later COLLATE column option names. */
    public SqlMySqlType withCollation(String newCollation) {
        return new SqlMySqlType(getParserPosition(), typeName, precision, scale, unsigned, charset, newCollation,
                elements);
    }

    @Override
    protected List<SqlNode> operands() {
        return nodes();
    }
}
