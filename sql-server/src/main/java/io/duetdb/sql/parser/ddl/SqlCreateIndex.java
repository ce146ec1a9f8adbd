package io.duetdb.sql.parser.ddl;

import java.util.ArrayList;
import java.util.List;

import org.apache.calcite.sql.SqlCreate;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;

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
        List<SqlNode> operands = new ArrayList<>();
        if (name != null) {
            operands.add(name);
        }
        if (table != null) {
            operands.add(table);
        }
        if (columns != null) {
            operands.add(columns);
        }
        return operands;
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
        writer.keyword(OPERATOR.getName());
        for (SqlNode operand : getOperandList()) {
            operand.unparse(writer, 0, 0);
        }
    }
}
