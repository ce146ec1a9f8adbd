package io.duetdb.sql.parser.bulk;

import java.util.List;

import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.duetdb.sql.parser.DuetSqlCall;

/** ADMIN CHECKSUM TABLE t [, t ...]. */
public final class SqlAdminChecksumTable extends DuetSqlCall {
    private final SqlNodeList tables;

    public SqlAdminChecksumTable(SqlParserPos pos, SqlNodeList tables) {
        super(pos, "ADMIN CHECKSUM TABLE");
        this.tables = tables;
    }

    public List<SqlIdentifier> tables() {
        return identifiers(tables);
    }

    @Override
    protected List<SqlNode> operands() {
        return nodes(tables);
    }
}
