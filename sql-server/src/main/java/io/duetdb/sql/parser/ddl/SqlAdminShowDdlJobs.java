package io.duetdb.sql.parser.ddl;

import java.util.List;

import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.duetdb.sql.parser.DuetSqlCall;

/** TiDB's ADMIN SHOW DDL JOBS [n]: the newest n jobs (ten when not given). */
public final class SqlAdminShowDdlJobs extends DuetSqlCall {
    /** TiDB shows ten jobs unless told how many. */
    public static final int DEFAULT_JOBS = 10;

    private final int limit;

    public SqlAdminShowDdlJobs(SqlParserPos pos, int limit) {
        super(pos, "ADMIN SHOW DDL JOBS");
        this.limit = limit;
    }

    public int limit() {
        return limit;
    }

    @Override
    protected List<SqlNode> operands() {
        return List.of();
    }
}
