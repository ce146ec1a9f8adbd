package io.duetdb.sql.parser.ddl;

import java.util.List;

import org.apache.calcite.sql.SqlDrop;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.duetdb.sql.parser.DuetSqlCall;

/** DROP VIEW [IF EXISTS] v1, v2, .... */
public final class SqlDropView extends SqlDrop {
    private static final SqlSpecialOperator OPERATOR = new SqlSpecialOperator("DROP VIEW", SqlKind.DROP_VIEW);

    private final SqlNodeList views;

    public SqlDropView(SqlParserPos pos, boolean ifExists, SqlNodeList views) {
        super(OPERATOR, pos, ifExists);
        this.views = views;
    }

    public boolean ifExists() {
        return ifExists;
    }

    public List<SqlIdentifier> views() {
        return views.stream().map(SqlIdentifier.class::cast).toList();
    }

    @Override
    public List<SqlNode> getOperandList() {
        return DuetSqlCall.nonNull(views);
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
        DuetSqlCall.unparseStatement(writer, OPERATOR, getOperandList());
    }
}
