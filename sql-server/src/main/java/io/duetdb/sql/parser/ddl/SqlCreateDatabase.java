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

/** CREATE DATABASE [IF NOT EXISTS] name [options] (CHARACTER SET and COLLATE count; others are ignored). */
public final class SqlCreateDatabase extends SqlCreate {
    private static final SqlSpecialOperator OPERATOR = new SqlSpecialOperator("CREATE DATABASE", SqlKind.OTHER_DDL);

    private final SqlIdentifier name;
    private final SqlNodeList options;

    public SqlCreateDatabase(SqlParserPos pos, boolean ifNotExists, SqlIdentifier name, SqlNodeList options) {
        super(OPERATOR, pos, false, ifNotExists);
        this.name = name;
        this.options = options;
    }

    public SqlNodeList options() {
        return options;
    }

    public boolean ifNotExists() {
        return ifNotExists;
    }

    public SqlIdentifier name() {
        return name;
    }

    @Override
    public List<SqlNode> getOperandList() {
        return DuetSqlCall.nonNull(name);
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
        DuetSqlCall.unparseStatement(writer, OPERATOR, getOperandList());
    }
}
