package io.duetdb.sql.parser.ddl;

import java.util.List;

import org.apache.calcite.sql.SqlDrop;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.duetdb.sql.parser.DuetSqlCall;

/** DROP INDEX [IF EXISTS] name ON table. */
public final class SqlDropIndex extends SqlDrop {
    private static final SqlSpecialOperator OPERATOR = new SqlSpecialOperator("DROP INDEX", SqlKind.OTHER_DDL);

    private final SqlIdentifier name;
    private final SqlIdentifier table;

    public SqlDropIndex(SqlParserPos pos, boolean ifExists, SqlIdentifier name, SqlIdentifier table) {
        super(OPERATOR, pos, ifExists);
        this.name = name;
        this.table = table;
    }

    public boolean ifExists() {
        return ifExists;
    }

    public SqlIdentifier name() {
        return name;
    }

    public SqlIdentifier table() {
        return table;
    }

    @Override
    public List<SqlNode> getOperandList() {
        return DuetSqlCall.nonNull(name, table);
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
        DuetSqlCall.unparseStatement(writer, OPERATOR, getOperandList());
    }
}
