package io.duetdb.sql.parser.ddl;

import java.util.List;

import org.apache.calcite.sql.SqlDrop;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.duetdb.sql.parser.DuetSqlCall;

/** DROP [TEMPORARY] TABLE [IF EXISTS] t1, t2, .... */
public final class SqlDropTable extends SqlDrop {
    private static final SqlSpecialOperator OPERATOR = new SqlSpecialOperator("DROP TABLE", SqlKind.OTHER_DDL);

    private final boolean temporary;
    private final SqlNodeList tables;

    public SqlDropTable(SqlParserPos pos, boolean ifExists, SqlNodeList tables) {
        this(pos, false, ifExists, tables);
    }

    public SqlDropTable(SqlParserPos pos, boolean temporary, boolean ifExists, SqlNodeList tables) {
        super(OPERATOR, pos, ifExists);
        this.temporary = temporary;
        this.tables = tables;
    }

    /** DROP TEMPORARY TABLE: only this session's temporary tables. */
    public boolean temporary() {
        return temporary;
    }

    public boolean ifExists() {
        return ifExists;
    }

    public SqlNodeList tables() {
        return tables;
    }

    @Override
    public List<SqlNode> getOperandList() {
        return DuetSqlCall.nonNull(tables);
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
        DuetSqlCall.unparseStatement(writer, OPERATOR, getOperandList());
    }
}
