package io.duetdb.sql.parser.ddl;

import java.util.List;

import org.apache.calcite.sql.SqlCreate;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.duetdb.sql.parser.DuetSqlCall;

/** CREATE [UNIQUE] INDEX [IF NOT EXISTS] name ON table (columns). */
public final class SqlCreateIndex extends SqlCreate {
    private static final SqlSpecialOperator OPERATOR = new SqlSpecialOperator("CREATE INDEX", SqlKind.OTHER_DDL);

    private final boolean unique;
    private final SqlIdentifier name;
    private final SqlIdentifier table;
    private final SqlNodeList columns;

    public SqlCreateIndex(SqlParserPos pos, boolean unique, boolean ifNotExists, SqlIdentifier name, SqlIdentifier table, SqlNodeList columns) {
        super(OPERATOR, pos, false, ifNotExists);
        this.unique = unique;
        this.name = name;
        this.table = table;
        this.columns = columns;
    }

    public boolean unique() {
        return unique;
    }

    public boolean ifNotExists() {
        return ifNotExists;
    }

    public SqlIdentifier name() {
        return name;
    }

    public SqlIdentifier table() {
        return table;
    }

    public SqlNodeList columns() {
        return columns;
    }

    @Override
    public List<SqlNode> getOperandList() {
        return DuetSqlCall.nonNull(name, table, columns);
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
        DuetSqlCall.unparseStatement(writer, OPERATOR, getOperandList());
    }
}
