package io.duetdb.sql.parser.ddl;

import java.util.List;

import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlTruncate;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.duetdb.sql.parser.DuetSqlCall;

/** TRUNCATE [TABLE] name. */
public final class SqlTruncateTable extends SqlTruncate {
    private static final SqlSpecialOperator OPERATOR = new SqlSpecialOperator("TRUNCATE TABLE", SqlKind.OTHER_DDL);

    private final SqlIdentifier table;

    public SqlTruncateTable(SqlParserPos pos, SqlIdentifier table) {
        super(OPERATOR, pos);
        this.table = table;
    }

    public SqlIdentifier table() {
        return table;
    }

    @Override
    public List<SqlNode> getOperandList() {
        return DuetSqlCall.nonNull(table);
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
        DuetSqlCall.unparseStatement(writer, OPERATOR, getOperandList());
    }
}
