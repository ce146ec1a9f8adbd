package io.duetdb.sql.session;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.duetdb.common.types.SqlType;
import io.duetdb.sql.catalog.DdlJob;
import io.duetdb.sql.catalog.UserInfo;

/** TiDB's ADMIN statements: ADMIN SHOW DDL JOBS [n]. */
final class AdminStatements {
    private static final Pattern SHOW_DDL_JOBS = Pattern.compile("(?is)admin\\s+show\\s+ddl\\s+jobs(?:\\s+(\\d+))?");
    /** TiDB shows ten jobs unless told how many. */
    private static final int DEFAULT_JOBS = 10;

    private AdminStatements() {
    }

    /** Runs the statement if it is one of these; null otherwise. */
    static StatementResult tryExecute(Session session, String sql) {
        Matcher matcher = SHOW_DDL_JOBS.matcher(sql);
        if (!matcher.matches()) {
            return null;
        }
        int limit = matcher.group(1) == null ? DEFAULT_JOBS : (int) Math.min(Integer.MAX_VALUE,
                Long.parseLong(matcher.group(1)));
        return showDdlJobs(session, limit);
    }

    /** The newest jobs first, those on databases the account may use (its global privileges show all). */
    private static QueryResult showDdlJobs(Session session, int limit) {
        UserInfo account = session.account();
        List<Object[]> rows = new ArrayList<>();
        for (DdlJob job : session.manager().catalog().ddlJobs(Integer.MAX_VALUE)) {
            if (rows.size() >= limit) {
                break;
            }
            if (!account.canUse(job.databaseName())) {
                continue;
            }
            rows.add(new Object[] {job.id(), job.databaseName(), job.tableName(), job.type(), job.schemaState(),
                    job.schemaId(), job.tableId(), job.rowCount(), time(job.createTimeMillis()),
                    time(job.startTimeMillis()), job.endTimeMillis() == 0 ? null : time(job.endTimeMillis()),
                    job.state().text()});
        }
        SqlType name = SqlType.varchar(64);
        SqlType time = SqlType.datetime(0);
        List<ResultColumn> columns = List.of(ResultColumn.computed("JOB_ID", SqlType.BIGINT),
                ResultColumn.computed("DB_NAME", name), ResultColumn.computed("TABLE_NAME", name),
                ResultColumn.computed("JOB_TYPE", name), ResultColumn.computed("SCHEMA_STATE", name),
                ResultColumn.computed("SCHEMA_ID", SqlType.BIGINT), ResultColumn.computed("TABLE_ID", SqlType.BIGINT),
                ResultColumn.computed("ROW_COUNT", SqlType.BIGINT), ResultColumn.computed("CREATE_TIME", time),
                ResultColumn.computed("START_TIME", time), ResultColumn.computed("END_TIME", time),
                ResultColumn.computed("STATE", name));
        return new QueryResult(columns, rows);
    }

    private static LocalDateTime time(long epochMillis) {
        // UTC, as NOW() and the server's system_time_zone.
        return LocalDateTime.ofInstant(Instant.ofEpochMilli(epochMillis), ZoneOffset.UTC).withNano(0);
    }
}
