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

/** CREATE TABLE [IF NOT EXISTS] name (elements) options, or CREATE TABLE name LIKE other. */
public final class SqlCreateTable extends SqlCreate {
    private static final SqlSpecialOperator OPERATOR = new SqlSpecialOperator("CREATE TABLE", SqlKind.OTHER_DDL);

    private final SqlIdentifier name;
    private final SqlNodeList elements;
    private final SqlNodeList options;
    private final SqlIdentifier likeTable;

    public SqlCreateTable(SqlParserPos pos, boolean ifNotExists, SqlIdentifier name, SqlNodeList elements, SqlNodeList options, SqlIdentifier likeTable) {
        super(OPERATOR, pos, false, ifNotExists);
        this.name = name;
        this.elements = elements;
        this.options = options;
        this.likeTable = likeTable;
    }

    public boolean ifNotExists() {
        return ifNotExists;
    }

    public SqlIdentifier name() {
        return name;
    }

    public SqlNodeList elements() {
        return elements;
    }

    public SqlNodeList options() {
        return options;
    }

    public SqlIdentifier likeTable() {
        return likeTable;
    }

    @Override
    public List<SqlNode> getOperandList() {
        return DuetSqlCall.nonNull(name, elements, options, likeTable);
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
        DuetSqlCall.unparseStatement(writer, OPERATOR, getOperandList());
    }
}
