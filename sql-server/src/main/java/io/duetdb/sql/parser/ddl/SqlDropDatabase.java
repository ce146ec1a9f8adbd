package io.duetdb.sql.parser.ddl;

import java.util.ArrayList;
import java.util.List;

import org.apache.calcite.sql.SqlDrop;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;

/** DROP DATABASE [IF EXISTS] name. */
public final class SqlDropDatabase extends SqlDrop {
    private static final SqlSpecialOperator OPERATOR = new SqlSpecialOperator("DROP DATABASE", SqlKind.OTHER_DDL);

    private final SqlIdentifier name;

    public SqlDropDatabase(SqlParserPos pos, boolean ifExists, SqlIdentifier name) {
        super(OPERATOR, pos, ifExists);
        this.name = name;
    }

    public boolean ifExists() {
        return ifExists;
    }

    public SqlIdentifier name() {
        return name;
    }

    @Override
    public List<SqlNode> getOperandList() {
        List<SqlNode> operands = new ArrayList<>();
        if (name != null) {
            operands.add(name);
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
