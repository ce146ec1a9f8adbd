package io.duetdb.sql.session;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

import io.duetdb.common.types.SqlType;
import io.duetdb.sql.catalog.DdlJob;
import io.duetdb.sql.catalog.UserInfo;
import io.duetdb.sql.parser.ddl.SqlAdminShowDdlJobs;

/** TiDB's ADMIN statements: ADMIN SHOW DDL JOBS [n]. */
final class AdminStatements {
    private AdminStatements() {
    }

    /** The newest jobs first, those on databases the account may use (its global privileges show all). */
    static QueryResult showDdlJobs(Session session, SqlAdminShowDdlJobs statement) {
        int limit = statement.limit();
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
