package io.duetdb.sql.parser.ddl;

import static java.util.Objects.requireNonNull;

import java.util.List;

import org.apache.calcite.sql.SqlCreate;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.duetdb.sql.parser.DuetSqlCall;

/**
 * CREATE PROCEDURE, FUNCTION, TRIGGER or EVENT: MySQL objects DuetDB does not have (nor does TiDB). The statement is
 * read only so far as to name what it creates, so that it is refused with 1235 rather than as a syntax error.
 */
public final class SqlCreateUnsupported extends SqlCreate {
    private static final SqlSpecialOperator OPERATOR = new SqlSpecialOperator("CREATE", SqlKind.OTHER_DDL);

    private final String objects;

    public SqlCreateUnsupported(SqlParserPos pos, String objects) {
        super(OPERATOR, pos, false, false);
        this.objects = requireNonNull(objects, "objects is null");
    }

    /** What the statement would create, as MySQL's 1235 names it ("stored procedures", "triggers"...). */
    public String objects() {
        return objects;
    }

    @Override
    public List<SqlNode> getOperandList() {
        return List.of();
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
        DuetSqlCall.unparseStatement(writer, OPERATOR, getOperandList());
    }
}
