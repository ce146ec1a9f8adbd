package io.duetdb.sql.session;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.duetdb.client.txn.TxnClient;
import io.duetdb.common.catalog.ColumnInfo;
import io.duetdb.common.catalog.DatabaseInfo;
import io.duetdb.common.catalog.TableInfo;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.common.types.SqlType;
import io.duetdb.sql.catalog.Catalog;
import io.duetdb.sql.catalog.InfoSchema;
import io.duetdb.sql.catalog.Privilege;
import io.duetdb.sql.catalog.UserInfo;
import io.duetdb.sql.ddl.DdlExecutor;
import io.duetdb.sql.exec.AutoIdAllocator;
import io.duetdb.sql.metrics.SqlMetrics;
import io.duetdb.sql.parser.ddl.SqlDropDatabase;
import io.duetdb.sql.prepare.CalciteCatalog;
import io.duetdb.sql.variables.TidbVariables;

/**
 * What the sessions of one sql-server share: the catalog, the transaction client, the DDL executor, id
 * allocation, users, and the list of open sessions (for SHOW PROCESSLIST and KILL).
 */
public final class SessionManager {
    private static final Logger LOG = LoggerFactory.getLogger(SessionManager.class);
    private final TxnClient client;
    private final Catalog catalog;
    private final DdlExecutor ddl;
    private final GlobalVariables globalVariables;
    private final AutoIdAllocator autoIds;
    private final String serverVersion;
    private final long startMillis = System.currentTimeMillis();
    private final AtomicLong connectionIds = new AtomicLong();
    private final Map<Long, Session> sessions = new ConcurrentHashMap<>();
    private volatile CalciteCatalog calciteCatalog;

    private final SqlMetrics metrics;
    private final io.duetdb.sql.statistics.StatisticsCache statistics;
    private final io.duetdb.sql.statistics.TableAnalyzer analyzer;

    private final ServerSettings settings;

    public SessionManager(TxnClient client, Catalog catalog, String serverVersion, SqlMetrics metrics,
            ServerSettings settings) {
        this.metrics = requireNonNull(metrics, "metrics is null");
        this.settings = requireNonNull(settings, "settings is null");
        metrics.gauge("duet_sql_sessions", "Open client sessions", () -> sessions.size());
        this.client = requireNonNull(client, "client is null");
        this.catalog = requireNonNull(catalog, "catalog is null");
        this.ddl = new DdlExecutor(catalog, client, settings.backfillBatchSize(), rows -> {
            metrics.backfillBatches.inc();
            metrics.backfillRows.inc(rows);
        });
        this.globalVariables = new GlobalVariables(catalog, settings);
        this.autoIds = new AutoIdAllocator(catalog::allocate, catalog::rebase);
        this.statistics = new io.duetdb.sql.statistics.StatisticsCache(catalog);
        this.analyzer = new io.duetdb.sql.statistics.TableAnalyzer(statistics);
        this.serverVersion = requireNonNull(serverVersion, "serverVersion is null");
    }

    public io.duetdb.sql.statistics.StatisticsCache statistics() {
        return statistics;
    }

    public io.duetdb.sql.statistics.TableAnalyzer analyzer() {
        return analyzer;
    }

    /** Analyzes, each in its own transaction, the tables this server wrote enough rows of since their last analysis. */
    public void analyzeModifiedTables() {
        for (long tableId : statistics.dueForAnalysis()) {
            java.util.Optional<TableInfo> table = latestInfoSchema().table(tableId);
            if (table.isEmpty()) {
                continue;
            }
            LOG.info("auto-analyzing table {} after {} modified rows", table.get().name(), statistics.modifyCount(tableId));
            try (io.duetdb.client.txn.Transaction transaction = client.begin(io.duetdb.client.txn.TxnMode.OPTIMISTIC,
                    io.duetdb.client.txn.Isolation.REPEATABLE_READ)) {
                analyzer.analyze(transaction, table.get());
            }
        }
    }

    public SqlMetrics metrics() {
        return metrics;
    }

    public long nextConnectionId() {
        return connectionIds.incrementAndGet();
    }

    public ServerSettings settings() {
        return settings;
    }

    /**
     * The value of a system variable the server's configuration fixes: read-only, the same in every scope.
     * Empty for other variables.
     */
    Optional<String> configuredVariable(String name) {
        return switch (name.toLowerCase(java.util.Locale.ROOT)) {
            case "max_allowed_packet" -> Optional.of(String.valueOf(settings.maxAllowedPacket()));
            case "default_authentication_plugin" -> Optional.of(settings.defaultAuthenticationPlugin().pluginName());
            default -> Optional.empty();
        };
    }

    /** The account a client logging in from {@code host} as {@code user} authenticates as. */
    public Optional<UserInfo> account(String user, String host) {
        return catalog.current().account(user, host);
    }

    /** A new session; {@code disconnect} closes its connection (KILL CONNECTION). */
    public Session open(long connectionId, String user, String host, String database, Runnable disconnect) {
        Session session = new Session(this, connectionId, user, host, null, disconnect);
        if (database != null) {
            session.useDatabase(database);
        }
        sessions.put(connectionId, session);
        return session;
    }

    void closed(Session session) {
        sessions.remove(session.connectionIdValue());
    }

    TxnClient client() {
        return client;
    }

    Catalog catalog() {
        return catalog;
    }

    DdlExecutor ddl() {
        return ddl;
    }

    GlobalVariables globalVariables() {
        return globalVariables;
    }

    /** With tidb_general_log ON (globally), one INFO line per statement, as TiDB's general log. */
    boolean generalLogEnabled() {
        return "ON".equals(globalVariables.current().get(TidbVariables.GENERAL_LOG));
    }

    void generalLog(Session session, String sql) {
        if (generalLogEnabled()) {
            LOG.info("GENERAL_LOG conn={} user={}@{} schema={}: {}", session.connectionIdValue(), session.user(),
                    session.host(), session.currentDatabase(), sql);
        }
    }

    AutoIdAllocator autoIds() {
        return autoIds;
    }

    String serverVersion() {
        return serverVersion;
    }

    long uptimeSeconds() {
        return (System.currentTimeMillis() - startMillis) / 1000;
    }

    int sessionCount() {
        return sessions.size();
    }

    /** The newest schema, read at a fresh snapshot. */
    InfoSchema latestInfoSchema() {
        return catalog.current();
    }

    /** The id this server registers in the catalog under. */
    String serverId() {
        return catalog.serverId();
    }

    /**
     * Drops the temporary tables of sessions of SQL servers that are gone (a session drops its own when it ends; a
     * server that stopped without ending them leaves them behind).
     */
    public void dropOrphanedTemporaryTables() {
        Set<String> live = new HashSet<>();
        catalog.liveServerIds().forEach(id -> live.add(id.replace("-", "")));
        for (DatabaseInfo database : catalog.current().allDatabases()) {
            if (InfoSchema.holdsTemporaryTables(database.name())
                    && !live.contains(InfoSchema.temporaryTablesServer(database.name()))) {
                ddl.execute(new SqlDropDatabase(SqlParserPos.ZERO, true, new SqlIdentifier(database.name(),
                        SqlParserPos.ZERO)), null, () -> false);
                LOG.info("dropped the temporary tables of a session of a SQL server that is gone ({})", database.name());
            }
        }
    }

    /** A catalog of one session's view of a schema (its temporary tables), not kept for other sessions. */
    CalciteCatalog temporaryCalciteCatalog(InfoSchema schema) {
        return new CalciteCatalog(schema, statistics.estimates(), ddl.columnarReplicas()::progress);
    }

    CalciteCatalog calciteCatalog(InfoSchema schema) {
        CalciteCatalog current = calciteCatalog;
        if (current != null && current.infoSchema() == schema) {
            return current;
        }
        CalciteCatalog created = new CalciteCatalog(schema, statistics.estimates(), ddl.columnarReplicas()::progress);
        if (current == null || current.infoSchema().version() <= schema.version()) {
            calciteCatalog = created;
        }
        return created;
    }

    /** The declared type of a result column that comes straight from a table column (origin: db, table, column). */
    SqlType columnType(List<String> origin) {
        CalciteCatalog current = calciteCatalog;
        if (current == null) {
            return null;
        }
        int size = origin.size();
        TableInfo table = current.infoSchema().table(origin.get(size - 3), origin.get(size - 2)).orElse(null);
        if (table == null) {
            return null;
        }
        return table.column(origin.get(size - 1)).map(ColumnInfo::type).orElse(null);
    }

    /**
     * KILL QUERY and KILL [CONNECTION]. As in MySQL, a user may kill the connections of the same user name;
     * those of others need SUPER (1095 otherwise).
     */
    void kill(long connectionId, boolean queryOnly, Session requester) {
        Session target = sessions.get(connectionId);
        if (target == null) {
            throw new DuetException(ErrorCode.UNKNOWN_THREAD_ID, "Unknown thread id: " + connectionId);
        }
        if (!target.userName().equals(requester.userName())
                && !requester.account().global().contains(Privilege.SUPER)) {
            throw new DuetException(ErrorCode.KILL_DENIED, "You are not owner of thread " + connectionId);
        }
        if (queryOnly) {
            boolean running = target.killQuery();
            LOG.info("Connection {} killed the {} of connection {}", requester.connectionIdValue(),
                    running ? "running statement" : "(idle) statement", connectionId);
        } else {
            LOG.info("Connection {} killed connection {}", requester.connectionIdValue(), connectionId);
            target.killConnection();
        }
    }

    /** SHOW PROCESSLIST: every connection with PROCESS, else the connections of the requester's user name. */
    QueryResult processList(Session requester) {
        boolean all = requester.account().global().contains(Privilege.PROCESS);
        List<Object[]> rows = new ArrayList<>();
        for (Session session : sessions.values()) {
            if (!all && !session.userName().equals(requester.userName())) {
                continue;
            }
            String statement = session.runningStatement();
            rows.add(new Object[] {session.connectionIdValue(), session.userName(), session.hostName(),
                    session.databaseName(), statement.isEmpty() ? "Sleep" : "Query", session.runningSeconds(),
                    statement.isEmpty() ? "" : session.runningState(), statement.isEmpty() ? null : statement});
        }
        List<ResultColumn> columns = List.of(ResultColumn.computed("Id", SqlType.BIGINT),
                ResultColumn.computed("User", SqlType.varchar(32)), ResultColumn.computed("Host", SqlType.varchar(64)),
                ResultColumn.computed("db", SqlType.varchar(64)), ResultColumn.computed("Command", SqlType.varchar(16)),
                ResultColumn.computed("Time", SqlType.BIGINT), ResultColumn.computed("State", SqlType.varchar(30)),
                ResultColumn.computed("Info", SqlType.TEXT));
        return new QueryResult(columns, rows);
    }
}
