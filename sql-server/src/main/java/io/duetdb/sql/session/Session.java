package io.duetdb.sql.session;

import static java.util.Objects.requireNonNull;

import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDdl;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlWith;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.duetdb.client.txn.Isolation;
import io.duetdb.client.txn.PointRead;
import io.duetdb.client.txn.Transaction;
import io.duetdb.client.txn.TxnMode;
import io.duetdb.common.catalog.ColumnInfo;
import io.duetdb.common.catalog.TableInfo;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.common.types.SqlType;
import io.duetdb.sql.catalog.InfoSchema;
import io.duetdb.sql.catalog.Privilege;
import io.duetdb.sql.catalog.UserInfo;
import io.duetdb.sql.ddl.ClusteredIndexDefault;
import io.duetdb.sql.ddl.DdlSettings;
import io.duetdb.sql.ddl.DdlWarning;
import io.duetdb.sql.exec.ExpressionCompiler;
import io.duetdb.sql.exec.ForeignKeyEnforcer;
import io.duetdb.sql.exec.PlanExecutor;
import io.duetdb.sql.exec.ReadEngines;
import io.duetdb.sql.exec.StorageHints;
import io.duetdb.sql.exec.SessionFunctions;
import io.duetdb.sql.parser.StatementParser;
import io.duetdb.sql.parser.VariableTypes;
import io.duetdb.sql.parser.ddl.SqlAlterDatabaseOptions;
import io.duetdb.sql.parser.ddl.SqlAlterDatabaseSetReplica;
import io.duetdb.sql.parser.ddl.SqlAlterTable;
import io.duetdb.sql.parser.ddl.SqlCreateView;
import io.duetdb.sql.parser.ddl.SqlDropView;
import io.duetdb.sql.parser.bulk.SqlAdminChecksumTable;
import io.duetdb.sql.parser.bulk.SqlImportInto;
import io.duetdb.sql.parser.bulk.SqlLoadData;
import io.duetdb.sql.parser.ddl.SqlRenameTable;
import io.duetdb.sql.parser.ddl.SqlCreateTable;
import io.duetdb.sql.parser.ddl.SqlDropTable;
import io.duetdb.sql.parser.dml.SqlExplainQuery;
import io.duetdb.sql.parser.dml.SqlMySqlDelete;
import io.duetdb.sql.parser.dml.SqlMySqlInsert;
import io.duetdb.sql.parser.dml.SqlMySqlUpdate;
import io.duetdb.sql.parser.dml.SqlMultiTableDelete;
import io.duetdb.sql.parser.dml.SqlMultiTableUpdate;
import io.duetdb.sql.parser.dml.SqlQueryWithLocking.WaitPolicy;
import io.duetdb.sql.parser.dml.SqlQueryWithLocking;
import io.duetdb.sql.parser.dml.SqlSelectIntoVariables;
import io.duetdb.sql.parser.prepare.SqlDeallocatePrepare;
import io.duetdb.sql.parser.prepare.SqlExecute;
import io.duetdb.sql.parser.prepare.SqlPrepare;
import io.duetdb.sql.parser.ddl.SqlCreateUnsupported;
import io.duetdb.sql.parser.ddl.SqlAdminShowDdlJobs;
import io.duetdb.sql.parser.session.SqlKill;
import io.duetdb.sql.parser.session.SqlSetTransaction;
import io.duetdb.sql.parser.session.SqlSetVariables;
import io.duetdb.sql.parser.session.SqlUseDatabase;
import io.duetdb.sql.parser.show.SqlShow;
import io.duetdb.sql.parser.statistics.SqlAnalyzeTable;
import io.duetdb.sql.parser.txn.SqlEndTransaction;
import io.duetdb.sql.parser.txn.SqlLockTables;
import io.duetdb.sql.parser.txn.SqlStartTransaction;
import io.duetdb.sql.prepare.CalciteCatalog;
import io.duetdb.sql.prepare.MySqlSystemSchema;
import io.duetdb.sql.prepare.PerformanceSchema;
import io.duetdb.sql.prepare.QueryPlanner;
import io.duetdb.sql.prepare.ReadFromStorageHints;
import io.duetdb.sql.prepare.SqlMode;
import io.duetdb.sql.prepare.StaleReadClause;
import io.duetdb.sql.prepare.TypeMapping;
import io.duetdb.sql.variables.GoDurations;
import io.duetdb.sql.variables.TidbVariables;

/**
 * One client's session: current database, variables, the open transaction, warnings. Statements run one at a
 * time. Autocommit statements run in their own transaction; BEGIN (or autocommit off) keeps one open across
 * statements until COMMIT or ROLLBACK, and closing the session rolls it back, releasing its locks.
 */
public final class Session implements SessionFunctions {
    private final SessionManager manager;
    private final long connectionId;
    private final String user;
    private final String host;
    private final Map<String, String> variables = new HashMap<>();
    private final Map<String, Object> userVariables = new HashMap<>();
    private final NamedPreparedStatements namedPrepared = new NamedPreparedStatements(this);
    /** The cluster's global variable values when the session started, which it starts from (MySQL's rule). */
    private final Map<String, String> globalsAtStart;
    /** Moves on with every change of a session variable; what was derived from them holds until it does. */
    private long variablesVersion;
    private long derivedAtVersion = -1;
    private boolean autocommit;
    private boolean pointReadsAllowed;
    private final ReentrantLock statementLock = new ReentrantLock();
    private final Runnable disconnect;
    private final RunningStatement running = new RunningStatement();
    private final List<Warning> warnings = new ArrayList<>();
    private String database;
    private Transaction transaction;
    private boolean explicitTransaction;
    /** The open transaction writes nothing (START TRANSACTION READ ONLY); reading history, it locks nothing either. */
    private boolean readOnlyTransaction;
    private boolean historicalTransaction;
    /** SET TRANSACTION without a scope: the next transaction's isolation and access mode; null for the session's. */
    private String nextTransactionIsolation;
    private Boolean nextTransactionReadOnly;
    private boolean statementChecksKeysAtPrewrite;
    private long lastInsertId;
    /**
     * Parsed BEGIN and COMMIT texts: clients send them around every transaction, and a parse costs about 50 us
     * (the generated parser is built anew for each statement) where a lookup costs nothing.
     */
    private static final int PARSED_TRANSACTION_CONTROL_TEXTS = 16;
    private final Map<String, SqlNode> parsedTransactionControl = new HashMap<>();
    private volatile long rowCount = -1;
    private volatile long foundRows;
    private LocalDateTime statementTime = LocalDateTime.now(ZoneOffset.UTC);
    private volatile boolean closed;

    Session(SessionManager manager, long connectionId, String user, String host, String database, Runnable disconnect) {
        this.manager = requireNonNull(manager, "manager is null");
        this.disconnect = requireNonNull(disconnect, "disconnect is null");
        this.connectionId = connectionId;
        this.user = requireNonNull(user, "user is null");
        this.host = requireNonNull(host, "host is null");
        this.database = database;
        this.globalsAtStart = manager.globalVariables().current();
    }

    // ---- what the protocol layer uses ----

    /** Statements that read the previous statement's warnings rather than clear them (as in MySQL). */
    /** Longer texts are no point get the event loop should parse: the usual way parses them. */
    public static final int POINT_GET_TEXT_LIMIT = 1024;

    public StatementResult execute(String sql) {
        return counted(() -> executeText(sql));
    }

    /**
     * Runs a statement and keeps what ROW_COUNT() and FOUND_ROWS() answer in the next one: rows changed (-1 after a
     * result set or an error) and rows returned by the last query.
     */
    private StatementResult counted(Supplier<StatementResult> statement) {
        try {
            StatementResult result = statement.get();
            if (result instanceof QueryResult query) {
                rowCount = -1;
                foundRows = query.foundRows();
            } else if (result instanceof UpdateResult update) {
                rowCount = update.affectedRows();
            }
            return result;
        } catch (DuetException e) {
            rowCount = -1;
            // SHOW WARNINGS and SHOW ERRORS list a failed statement's error, as MySQL's do.
            warnings.add(new Warning(Warning.Level.ERROR, e.code().errorNumber(), String.valueOf(e.getMessage())));
            throw e;
        } catch (RuntimeException e) {
            rowCount = -1;
            throw e;
        }
    }

    @Override
    public long rowCount() {
        return rowCount;
    }

    @Override
    public long foundRows() {
        return foundRows;
    }

    private StatementResult executeText(String sql) {
        statementLock.lock();
        try {
            if (closed) {
                throw new DuetException(ErrorCode.CONNECTION_KILLED, "Connection was killed");
            }
            statementTime = LocalDateTime.now(ZoneOffset.UTC);
            startStatement(sql);
            return executeTrimmed(SqlText.trim(sql));
        } catch (RuntimeException e) {
            throw killedOr(e);
        } finally {
            endStatement();
            statementLock.unlock();
        }
    }

    /**
     * A statement prepared by COM_STMT_PREPARE: its text, its placeholder count,
     * and for queries the plan with the placeholders left as dynamic parameters, valid for one schema version.
     */
    private static final class Prepared {
        final String sql;
        final int parameterCount;
        /** A query (planned once with its placeholders); anything else is bound as text at each execution. */
        final boolean query;
        /** A locking read's wait policy; null for statements that lock nothing. */
        final WaitPolicy lockWait;
        /** For UPDATE and DELETE: their plan with placeholders, reused across executions. */
        final DmlStatements.PreparedDml dml;
        /** The statement as parsed at prepare time, never given to the validator (which may rewrite it). */
        final SqlNode parsed;
        QueryPlanner.PlannedQuery plan;
        /** Set when the query is a point get by its clustered key, which runs without the plan. */
        PointGetFastPath pointGet;
        List<ResultColumn> planColumns;
        long planSchemaVersion = -1;

        Prepared(String sql, SqlNode parsed, int parameterCount, boolean query, WaitPolicy lockWait) {
            this.parsed = parsed;
            this.dml = parsed instanceof SqlMySqlUpdate || parsed instanceof SqlMySqlDelete ? new DmlStatements.PreparedDml() : null;
            this.sql = sql;
            this.parameterCount = parameterCount;
            this.query = query;
            this.lockWait = lockWait;
        }
    }

    private final Map<Integer, Prepared> prepared = new HashMap<>();
    /** How the parser types this session's variable references. */
    private final VariableTypes variableTypes = new VariableTypes() {
        @Override
        public NumberType userVariable(String name) {
            return userVariableType(name);
        }

        @Override
        public boolean integerSystemVariable(String name) {
            return SystemVariables.isInteger(name);
        }
    };
    /** The text {@link #executeWithoutBlocking} last parsed and its parse (untouched: only matched), taken once. */
    private String parsedText;
    private SqlNode parsedStatement;
    private final TemporaryTables temporaryTables = new TemporaryTables(this);
    /** The catalog of the schema with this session's temporary tables, while it has some. */
    private CalciteCatalog temporaryCatalog;
    /** The running statement's READ_FROM_STORAGE hints. */
    private StorageHints storageHints = StorageHints.NONE;

    private record PlanCacheKey(String sql, String database, String sqlMode, String userVariableTypes) {
    }

    private static final int PLAN_CACHE_ENTRIES = 100;

    /** Prepared statements by text, least recently prepared first out (TiDB's tidb_prepared_plan_cache_size). */
    private final Map<PlanCacheKey, Prepared> planCache = new java.util.LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<PlanCacheKey, Prepared> eldest) {
            return size() > PLAN_CACHE_ENTRIES;
        }
    };
    /** The definitions of the tables the open transaction wrote, as it wrote them (checked at commit). */
    private final Map<Long, TableInfo> tablesWritten = new HashMap<>();
    private int nextPreparedId = 1;

    public PreparedStatementInfo prepare(String sql) {
        statementLock.lock();
        try {
            return prepareText(sql);
        } catch (DuetException e) {
            // A failed prepare leaves its error for SHOW WARNINGS and SHOW ERRORS, as a failed statement does.
            if (e.code() == ErrorCode.PARSE_ERROR) {
                warnings.clear();
            }
            warnings.add(new Warning(Warning.Level.ERROR, e.code().errorNumber(), String.valueOf(e.getMessage())));
            throw e;
        } finally {
            statementLock.unlock();
        }
    }

    private PreparedStatementInfo prepareText(String sql) {
        String text = SqlText.trim(sql);
        // TiDB's prepared plan cache: the same parameterized text, in the same database and sql_mode (and with its
        // user variables holding the same types), reuses what an earlier PREPARE in this session planned while the
        // schema version stays (checked at execute).
        PlanCacheKey key = new PlanCacheKey(text, database, variable("sql_mode"),
                text.indexOf('@') < 0 ? "" : userVariableTypes());
        Prepared entry = planCache.get(key);
        List<ResultColumn> columns = List.of();
        if (entry != null && (!entry.query || entry.plan != null
                && entry.planSchemaVersion == manager.catalog().current().version())) {
            clearWarningsBefore(entry.parsed);
            manager.metrics().planCache.labelValues("hit").inc();
            columns = entry.query ? entry.planColumns : List.of();
        } else {
            manager.metrics().planCache.labelValues("miss").inc();
            SqlNode statement = StatementParser.parse(text, variableTypes);
            clearWarningsBefore(statement);
            int parameterCount = ParameterBinder.count(statement);
            boolean isQuery = statement.getKind().belongsTo(SqlKind.QUERY) || statement instanceof SqlQueryWithLocking;
            entry = new Prepared(text, statement, parameterCount, isQuery,
                    statement instanceof SqlQueryWithLocking locking ? locking.waitPolicy() : null);
            if (isQuery) {
                columns = planPrepared(entry) ? entry.planColumns : describeQuery(text, parameterCount);
            }
            planCache.put(key, entry);
        }
        int id = nextPreparedId++;
        prepared.put(id, entry);
        return new PreparedStatementInfo(id, entry.parameterCount, columns);
    }

    /**
     * Plans a prepared query once with its placeholders as dynamic parameters (Calcite infers their types from
     * where they stand); false when it cannot (a placeholder whose type nothing determines).
     */
    private boolean planPrepared(Prepared entry) {
        InfoSchema schema = schema();
        try {
            SqlNode statement = StatementParser.parse(entry.sql, variableTypes);
            SqlNode query = statement instanceof SqlQueryWithLocking locking ? locking.query() : statement;
            List<String> labels = labels(query, entry.sql);
            QueryPlanner.PlannedQuery planned = new QueryPlanner(calciteCatalog(schema), database, sqlMode())
                    .plan(query);
            entry.plan = planned;
            // The validator rewrites the tree it plans, so the point get is matched on the untouched parse.
            entry.pointGet = PointGetFastPath.match(entry.parsed, schema, database).orElse(null);
            entry.planColumns = resultColumns(planned, labels);
            entry.planSchemaVersion = schema.version();
            return true;
        } catch (RuntimeException e) {
            // Executions bind their values into the text and plan that until the schema changes: trying again
            // at every execution would plan twice.
            entry.plan = null;
            entry.pointGet = null;
            entry.planSchemaVersion = schema.version();
            return false;
        }
    }

    /** The result columns of a query, planned once with NULL for every placeholder (empty when unknown). */
    private List<ResultColumn> describeQuery(String text, int parameterCount) {
        List<Object> nulls = new ArrayList<>();
        for (int i = 0; i < parameterCount; i++) {
            nulls.add(null);
        }
        try {
            SqlNode bound = StatementParser.parse(ParameterBinder.bindText(text, nulls), variableTypes);
            SqlNode query = bound instanceof SqlQueryWithLocking locking ? locking.query() : bound;
            QueryPlanner.PlannedQuery planned = new QueryPlanner(calciteCatalog(schema()),
                    database, sqlMode()).plan(query);
            return resultColumns(planned, labels(query, text));
        } catch (DuetException e) {
            // MySQL refuses to prepare a statement over names that do not exist; other planning failures (a
            // placeholder whose type nothing determines) leave the columns unknown until execution.
            if (e.code() == ErrorCode.UNKNOWN_DATABASE || e.code() == ErrorCode.UNKNOWN_TABLE
                    || e.code() == ErrorCode.UNKNOWN_COLUMN) {
                throw e;
            }
            return List.of();
        } catch (RuntimeException e) {
            return List.of();
        }
    }

    public StatementResult executePrepared(int id, List<Object> parameters) {
        return counted(() -> executePreparedStatement(id, parameters));
    }

    private StatementResult executePreparedStatement(int id, List<Object> parameters) {
        statementLock.lock();
        try {
            Prepared statement = prepared.get(id);
            if (statement == null) {
                throw new DuetException(ErrorCode.UNKNOWN_STATEMENT_HANDLER, "Unknown prepared statement handler ("
                        + id + ") given to mysqld_stmt_execute");
            }
            if (parameters.size() != statement.parameterCount) {
                throw new DuetException(ErrorCode.WRONG_ARGUMENTS, "Incorrect arguments to mysqld_stmt_execute");
            }
            if (closed) {
                throw new DuetException(ErrorCode.CONNECTION_KILLED, "Connection was killed");
            }
            warnings.clear();
            statementTime = LocalDateTime.now(ZoneOffset.UTC);
            startStatement(statement.sql);
            storageHints = storageHintsOf(statement.parsed, statement.sql);
            if (statement.query) {
                long version = manager.catalog().current().version();
                if (statement.planSchemaVersion != version) {
                    planPrepared(statement);
                }
                java.util.Optional<List<Long>> handles = statement.pointGet == null || !ReadEngines.of(this).rowStore()
                        ? java.util.Optional.empty() : statement.pointGet.handles(parameters);
                if (handles.isPresent()) {
                    return measured("select", () -> pointGet(statement.pointGet, handles.get()));
                }
                if (statement.plan != null) {
                    QueryPlanner.PlannedQuery plan = statement.plan;
                    List<ResultColumn> columns = statement.planColumns;
                    requireSelect(plan);
                    TransactionWork work = transaction -> {
                        ExpressionCompiler compiler = new ExpressionCompiler(plan.plan().getCluster().getRexBuilder(),
                                this, parameters);
                        List<Object[]> rows = LockingQueries.execute(transaction, compiler, statement.lockWait,
                                plan.plan());
                        return new QueryResult(columns, rows);
                    };
                    return measured("select", () -> statement.lockWait != null ? inLockingTransaction(work)
                            : inReadTransaction(work, false));
                }
            }
            if (statement.dml != null && DmlStatements.plan(this, statement.sql, statement.dml)) {
                if (statement.parsed instanceof SqlMySqlUpdate update) {
                    return measured("update", () -> inWriteTransaction(transaction -> new DmlStatements(this, transaction)
                            .update(update, statement.dml, parameters)));
                }
                SqlMySqlDelete delete = (SqlMySqlDelete) statement.parsed;
                return measured("delete", () -> inWriteTransaction(transaction -> new DmlStatements(this, transaction)
                        .delete(delete, statement.dml, parameters)));
            }
            if (statement.parsed instanceof SqlMySqlInsert insert && DmlStatements.insertsDirectly(insert, parameters)) {
                return measured("insert", () -> inWriteTransaction(transaction -> new DmlStatements(this, transaction, parameters)
                        .insert(insert)));
            }
            String bound = ParameterBinder.bindText(statement.sql, parameters);
            return dispatch(StatementParser.parse(bound, variableTypes), bound);
        } catch (RuntimeException e) {
            throw killedOr(e);
        } finally {
            endStatement();
            statementLock.unlock();
        }
    }

    /**
     * A prepared point get of one row, answered without blocking the calling thread (the protocol's event loop):
     * see {@link #readPointWithoutBlocking}. Empty when the statement must run the usual way, and so is an answer
     * of empty: the read met a lock or a region error, which the usual way resolves.
     */
    public Optional<CompletableFuture<Optional<StatementResult>>> executePreparedWithoutBlocking(int id,
            List<Object> parameters) {
        if (!statementLock.tryLock()) {
            return Optional.empty();
        }
        try {
            Prepared statement = prepared.get(id);
            if (statement == null || !statement.query || statement.pointGet == null
                    || parameters.size() != statement.parameterCount
                    || statement.planSchemaVersion != manager.catalog().current().version()) {
                return Optional.empty();
            }
            return readPointWithoutBlocking(statement.pointGet, statement.pointGet.handles(parameters), statement.sql);
        } finally {
            statementLock.unlock();
        }
    }

    /**
     * As {@link #executePreparedWithoutBlocking} for a statement sent as text (COM_QUERY): a SELECT that is a point
     * get of one row by a literal key. The text is parsed here; anything else, and any text the parser refuses,
     * runs the usual way (which gives the error).
     */
    public Optional<CompletableFuture<Optional<StatementResult>>> executeWithoutBlocking(String sql) {
        String trimmed = SqlText.trim(sql);
        if (trimmed.length() < 6 || trimmed.length() > POINT_GET_TEXT_LIMIT
                || !trimmed.regionMatches(true, 0, "SELECT", 0, 6) || trimmed.indexOf('@') >= 0
                || trimmed.indexOf(';') >= 0 || !statementLock.tryLock()) {
            return Optional.empty();
        }
        try {
            Optional<PointGetFastPath> pointGet;
            try {
                SqlNode parsed = StatementParser.parse(trimmed);
                // The usual way takes this parse instead of parsing the text again.
                parsedText = trimmed;
                parsedStatement = parsed;
                pointGet = PointGetFastPath.match(parsed, schema(), database);
            } catch (RuntimeException e) {
                return Optional.empty();
            }
            if (pointGet.isEmpty()) {
                return Optional.empty();
            }
            return readPointWithoutBlocking(pointGet.get(), pointGet.get().handles(List.of()), trimmed);
        } finally {
            statementLock.unlock();
        }
    }

    /**
     * Reads one row of a point get with one asynchronous request, when nothing asks for more (a past or stale read,
     * a storage hint, the general log): in the open transaction at its snapshot (its own writes first), or outside
     * one the row store's newest version. The answer completes on the transport's thread, sparing the two thread
     * hand-offs of a statement thread. The caller holds the statement lock.
     */
    private Optional<CompletableFuture<Optional<StatementResult>>> readPointWithoutBlocking(PointGetFastPath pointGet,
            Optional<List<Long>> handles, String sql) {
        if (closed || handles.isEmpty() || handles.get().size() != 1 || sql.contains("/*+")
                || transaction == null && !autocommit() || manager.generalLogEnabled() || !variablesAllowPointReads()) {
            return Optional.empty();
        }
        Optional<CompletableFuture<PointRead>> read;
        try {
            require(Privilege.SELECT, pointGet.databaseName(), pointGet.table().name());
            byte[] key = pointGet.rowKey(handles.get().get(0));
            read = transaction != null ? transaction.getWithoutBlocking(key)
                    : manager.client().readLatestWithoutBlocking(key);
        } catch (RuntimeException e) {
            // The usual way gives the error (no privilege, a transaction that ended).
            return Optional.empty();
        }
        if (read.isEmpty()) {
            return Optional.empty();
        }
        warnings.clear();
        statementTime = LocalDateTime.now(ZoneOffset.UTC);
        long start = System.nanoTime();
        running.shown(sql, start);
        return Optional.of(read.get().thenApply(answer -> {
            running.hidden();
            if (!answer.answered()) {
                manager.metrics().pointGetsWithoutBlocking.labelValues("retried").inc();
                return Optional.empty();
            }
            manager.metrics().pointGetsWithoutBlocking.labelValues("answered").inc();
            QueryResult result = pointGet.result(answer.value());
            rowCount = -1;
            foundRows = result.foundRows();
            recordStatement("select", "ok", start);
            return Optional.of(result);
        }));
    }

    // ---- the running statement ----

    private void startStatement(String sql) {
        running.start(sql);
        manager.generalLog(this, sql);
    }

    private void endStatement() {
        storageHints = StorageHints.NONE;
        running.end();
    }

    private <T> T interruptibly(Supplier<T> phase) {
        return running.interruptibly(phase);
    }

    private RuntimeException killedOr(RuntimeException failure) {
        return running.killedOr(failure);
    }

    /** KILL QUERY from another connection; false when this session runs no statement. */
    boolean killQuery() {
        return running.kill();
    }

    /** KILL [CONNECTION]: the running statement stops, the connection closes and its transaction rolls back. */
    void killConnection() {
        closed = true;
        // The close goes to the channel before the statement is interrupted, so the interrupted statement's own
        // answer (SLEEP's 1, say) is queued behind it and never reaches the client, which sees the connection end.
        disconnect.run();
        running.kill();
    }

    @Override
    public void checkNotKilled() {
        running.checkNotKilled();
    }

    @Override
    public long sleep(double seconds) {
        return running.sleep(seconds);
    }

    public int preparedParameterCount(int id) {
        Prepared statement = prepared.get(id);
        if (statement == null) {
            throw new DuetException(ErrorCode.UNKNOWN_STATEMENT_HANDLER, "Unknown prepared statement handler (" + id
                    + ") given to mysqld_stmt_execute");
        }
        return statement.parameterCount;
    }

    public void closePrepared(int id) {
        statementLock.lock();
        try {
            prepared.remove(id);
        } finally {
            statementLock.unlock();
        }
    }

    public void useDatabase(String name) {
        InfoSchema schema = manager.latestInfoSchema();
        if (schema.database(name).isEmpty() && !name.equalsIgnoreCase("information_schema")
                && !name.equalsIgnoreCase(MySqlSystemSchema.NAME) && !name.equalsIgnoreCase(PerformanceSchema.NAME)) {
            throw new DuetException(ErrorCode.UNKNOWN_DATABASE, "Unknown database '" + name + "'");
        }
        String resolved = schema.database(name).map(db -> db.name()).orElse(name);
        if (!resolved.equalsIgnoreCase("information_schema") && !account().canUse(resolved)) {
            throw new DuetException(ErrorCode.DATABASE_ACCESS_DENIED, "Access denied for user '" + user + "'@'" + host
                    + "' to database '" + resolved + "'");
        }
        database = resolved;
    }

    public int statusFlags() {
        int flags = 0;
        if (transaction != null && explicitTransaction) {
            flags |= 1;
        }
        if (autocommit()) {
            flags |= 2;
        }
        return flags;
    }

    public int warningCount() {
        return warnings.size();
    }

    public String statistics() {
        return "Uptime: " + manager.uptimeSeconds() + "  Threads: " + manager.sessionCount() + "  Questions: 0";
    }

    public List<ResultColumn> fieldList(String table) {
        QueryResult result = (QueryResult) execute("SELECT * FROM `" + table.replace("`", "``") + "` LIMIT 0");
        return result.columns();
    }

    public void kill(long targetConnectionId, boolean queryOnly) {
        manager.kill(targetConnectionId, queryOnly, this);
    }

    /** Ends the session: rolls back its open transaction. */
    public void close() {
        closed = true;
        statementLock.lock();
        try {
            endTransaction(false);
            temporaryTables.dropAll();
        } finally {
            statementLock.unlock();
            manager.closed(this);
        }
    }

    String host() {
        return host;
    }

    long connectionIdValue() {
        return connectionId;
    }

    String userName() {
        return user;
    }

    String hostName() {
        return host;
    }

    String databaseName() {
        return database;
    }

    String runningStatement() {
        return running.text();
    }

    String runningState() {
        return running.state();
    }

    long runningSeconds() {
        return running.runningSeconds();
    }

    // ---- privileges ----

    /** The account this session runs as, as the current schema knows it (grants apply at once). */
    UserInfo account() {
        return manager.catalog().current().account(user, host).orElseThrow(() -> new DuetException(
                ErrorCode.ACCESS_DENIED, "Access denied for user '" + user + "'@'" + host + "' (the account was dropped)"));
    }

    void requireGlobal(Privilege privilege) {
        if (!account().global().contains(privilege)) {
            throw new DuetException(ErrorCode.SPECIFIC_ACCESS_DENIED, "Access denied; you need (at least one of) the "
                    + privilege.sql() + " privilege(s) for this operation");
        }
    }

    void require(Privilege privilege, String databaseName, String table) {
        // As in MySQL, every account reads information_schema and performance_schema's variables: their rows are
        // what the account may see.
        if (databaseName != null && (databaseName.equalsIgnoreCase("information_schema")
                || privilege == Privilege.SELECT && databaseName.equalsIgnoreCase(PerformanceSchema.NAME))) {
            return;
        }
        if (temporaryTables.owns(databaseName)) {
            // The session's own temporary tables: CREATE on their database was checked when it made them.
            return;
        }
        UserInfo account = account();
        if (!account.can(privilege, databaseName, table)) {
            if (table == null) {
                throw new DuetException(ErrorCode.DATABASE_ACCESS_DENIED, "Access denied for user '" + user + "'@'"
                        + host + "' to database '" + databaseName + "'");
            }
            throw new DuetException(ErrorCode.TABLE_ACCESS_DENIED, privilege.sql() + " command denied to user '" + user
                    + "'@'" + host + "' for table '" + table + "'");
        }
    }

    /**
     * SELECT on every table and view a query names, and on what the SQL SECURITY INVOKER views among them read; the
     * tables a DEFINER view reads are its definer's (checked when the view was created).
     */
    void requireSelect(QueryPlanner.PlannedQuery planned) {
        for (QueryPlanner.TableRead read : planned.reads()) {
            require(Privilege.SELECT, read.database(), read.table());
        }
    }

    /** CREATE TABLE ... SELECT: the table, then its rows in a transaction of their own; no table if they fail. */
    StatementResult createTableAsSelect(SqlCreateTable create, String sql) {
        requireForDdl(create);
        endTransaction(true);
        CreateTableAsSelect.Definition definition = CreateTableAsSelect.definition(this, create, sql);
        String[] name = qualifiedName(create.name());
        boolean existed = schema().table(name[0], name[1]).isPresent();
        DdlSettings settings = ddlSettings();
        manager.ddl().execute(definition.table(), database, running::killed, settings).forEach(this::addWarning);
        if (existed) {
            // CREATE TABLE IF NOT EXISTS ... SELECT of a table that exists: a note, and no rows (MySQL 8.0).
            return UpdateResult.NONE;
        }
        try {
            return inWriteTransaction(transaction -> new DmlStatements(this, transaction)
                    .insert(CreateTableAsSelect.insert(create, definition)));
        } catch (RuntimeException e) {
            manager.ddl().execute(CreateTableAsSelect.drop(create), database, () -> false, settings);
            throw e;
        }
    }

    private void requireForDdl(SqlNode statement) {
        if (statement instanceof io.duetdb.sql.parser.ddl.SqlCreateDatabase create) {
            require(Privilege.CREATE, create.name().getSimple(), null);
        } else if (statement instanceof io.duetdb.sql.parser.ddl.SqlDropDatabase drop) {
            require(Privilege.DROP, drop.name().getSimple(), null);
        } else if (statement instanceof SqlAlterDatabaseSetReplica alter) {
            require(Privilege.ALTER, alter.name().getSimple(), null);
        } else if (statement instanceof SqlAlterDatabaseOptions alter) {
            require(Privilege.ALTER, alter.name().getSimple(), null);
        } else if (statement instanceof io.duetdb.sql.parser.ddl.SqlCreateTable create) {
            String[] name = qualifiedName(create.name());
            require(Privilege.CREATE, name[0], name[1]);
        } else if (statement instanceof io.duetdb.sql.parser.ddl.SqlDropTable drop) {
            for (SqlNode table : drop.tables()) {
                String[] name = qualifiedName((SqlIdentifier) table);
                require(Privilege.DROP, name[0], name[1]);
            }
        } else if (statement instanceof io.duetdb.sql.parser.ddl.SqlTruncateTable truncate) {
            String[] name = qualifiedName(truncate.table());
            require(Privilege.DROP, name[0], name[1]);
        } else if (statement instanceof io.duetdb.sql.parser.ddl.SqlCreateIndex create) {
            String[] name = qualifiedName(create.table());
            require(Privilege.INDEX, name[0], name[1]);
        } else if (statement instanceof io.duetdb.sql.parser.ddl.SqlDropIndex drop) {
            String[] name = qualifiedName(drop.table());
            require(Privilege.INDEX, name[0], name[1]);
        } else if (statement instanceof SqlDropView drop) {
            for (SqlIdentifier view : drop.views()) {
                String[] name = qualifiedName(view);
                require(Privilege.DROP, name[0], name[1]);
            }
        } else if (statement instanceof SqlAlterTable alter) {
            String[] name = qualifiedName(alter.table());
            require(Privilege.ALTER, name[0], name[1]);
        } else if (statement instanceof SqlRenameTable rename) {
            for (SqlNode table : rename.from()) {
                String[] name = qualifiedName((SqlIdentifier) table);
                require(Privilege.ALTER, name[0], name[1]);
                require(Privilege.DROP, name[0], name[1]);
            }
            for (SqlNode table : rename.to()) {
                String[] name = qualifiedName((SqlIdentifier) table);
                require(Privilege.CREATE, name[0], name[1]);
            }
        }
    }

    String[] qualifiedName(SqlIdentifier identifier) {
        if (identifier.names.size() >= 2) {
            return new String[] {identifier.names.get(identifier.names.size() - 2),
                    identifier.names.get(identifier.names.size() - 1)};
        }
        if (database == null) {
            throw new DuetException(ErrorCode.NO_DATABASE_SELECTED, "No database selected");
        }
        return new String[] {database, identifier.getSimple()};
    }

    // ---- SessionFunctions ----

    @Override
    public String currentDatabase() {
        return database;
    }

    @Override
    public long connectionId() {
        return connectionId;
    }

    @Override
    public long lastInsertId() {
        return lastInsertId;
    }

    @Override
    public String user() {
        return user + "@" + host;
    }

    @Override
    public String serverVersion() {
        return manager.serverVersion();
    }

    @Override
    public LocalDateTime statementTime() {
        return statementTime;
    }

    @Override
    public Object userVariable(String name) {
        return userVariables.get(name.toLowerCase(Locale.ROOT));
    }

    /** How the parser types this session's variable references, by the values its user variables hold now. */
    VariableTypes variableTypes() {
        return variableTypes;
    }

    /** The SQL type of a user variable's value for expressions: numbers keep theirs, the rest are text (null). */
    private VariableTypes.NumberType userVariableType(String name) {
        Object value = userVariables.get(name);
        if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
            return VariableTypes.NumberType.BIGINT;
        }
        if (value instanceof BigDecimal decimal) {
            int scale = Math.max(0, Math.min(30, decimal.scale()));
            return VariableTypes.NumberType.decimal(Math.min(65, Math.max(decimal.precision(), scale + 1)), scale);
        }
        if (value instanceof Double || value instanceof Float) {
            return VariableTypes.NumberType.DOUBLE;
        }
        return null;
    }

    /** The types of the numbers this session's user variables hold, in name order: what typed a statement's plan. */
    private String userVariableTypes() {
        StringBuilder types = new StringBuilder();
        new TreeMap<>(userVariables).forEach((name, value) -> {
            VariableTypes.NumberType type = userVariableType(name);
            if (type != null) {
                types.append(name).append(' ').append(type).append(';');
            }
        });
        return types.toString();
    }

    /** Sets a user variable ({@code SET @name = value}); null unsets it, as MySQL shows an unset one. */
    @Override
    public void setUserVariable(String name, Object value) {
        if (value == null) {
            userVariables.remove(name.toLowerCase(Locale.ROOT));
        } else {
            userVariables.put(name.toLowerCase(Locale.ROOT), value);
        }
    }

    /** The value of one expression, as {@code SELECT expression} answers it within the running statement. */
    Object evaluate(SqlNode expression) {
        SqlSelect select = new SqlSelect(expression.getParserPosition(), null, SqlNodeList.of(expression), null, null,
                null, null, null, null, null, null, null, null);
        StatementResult result = dispatch(select, "");
        if (!(result instanceof QueryResult query) || query.rows().size() != 1 || query.columns().size() != 1) {
            throw new DuetException(ErrorCode.OPERAND_COLUMNS, "Operand should contain 1 column(s)");
        }
        return query.rows().get(0)[0];
    }

    @Override
    public Object systemVariable(String scope, String name) {
        String key = name.toLowerCase(Locale.ROOT);
        if (key.equals("version")) {
            return manager.serverVersion();
        }
        Optional<String> configured = manager.configuredVariable(key);
        if (configured.isPresent()) {
            return configured.get();
        }
        return manager.globalVariables().value(scope, key, variables, globalsAtStart);
    }

    String variable(String name) {
        return String.valueOf(systemVariable("", name));
    }

    void addWarning(String message) {
        warnings.add(new Warning(Warning.GENERIC, message));
    }

    @Override
    public void planWarning(String message) {
        addWarning(message);
    }

    void addWarning(ErrorCode code, String message) {
        warnings.add(new Warning(code.errorNumber(), message));
    }

    /** A note (MySQL's lowest level: IF [NOT] EXISTS found its answer already there); none with sql_notes off. */
    void addNote(ErrorCode code, String message) {
        String notes = variable("sql_notes");
        if (!notes.equals("0") && !notes.equalsIgnoreCase("OFF")) {
            warnings.add(new Warning(Warning.Level.NOTE, code.errorNumber(), message));
        }
    }

    void addWarning(DdlWarning warning) {
        if (warning.note()) {
            addNote(warning.code(), warning.message());
        } else {
            addWarning(warning.code(), warning.message());
        }
    }

    /**
     * Whether data conversion errors fail the statement (sql_mode STRICT_TRANS_TABLES or STRICT_ALL_TABLES, the
     * default) or become warnings with the value clamped or cut, as MySQL's non-strict mode does.
     */
    boolean strictMode() {
        String mode = variable("sql_mode").toUpperCase(Locale.ROOT);
        return mode.contains("STRICT_TRANS_TABLES") || mode.contains("STRICT_ALL_TABLES");
    }

    DdlSettings ddlSettings() {
        return new DdlSettings(ClusteredIndexDefault.of(systemVariable("", ClusteredIndexDefault.VARIABLE)),
                foreignKeyChecks(), WriteExpressions.completion(this));
    }

    @Override
    public List<Object[]> processList() {
        return manager.processList(this).rows();
    }

    @Override
    public List<Object[]> variables(boolean global) {
        List<Object[]> rows = new ArrayList<>();
        for (String name : SystemVariables.defaults().keySet()) {
            if (!global || SystemVariables.hasGlobalScope(name)) {
                rows.add(new Object[] {name, String.valueOf(systemVariable(global ? "global" : "", name))});
            }
        }
        rows.add(new Object[] {"version", serverVersion()});
        rows.sort((a, b) -> ((String) a[0]).compareTo((String) b[0]));
        return rows;
    }

    @Override
    public List<Object[]> status() {
        return List.of(new Object[] {"Threads_connected", String.valueOf(manager.sessionCount())},
                new Object[] {"Uptime", String.valueOf(manager.uptimeSeconds())});
    }

    /** Whether foreign keys are checked and their actions run (foreign_key_checks, ON by default). */
    boolean foreignKeyChecks() {
        String value = variable("foreign_key_checks");
        return value.equals("1") || value.equalsIgnoreCase("ON");
    }

    /** The foreign key enforcement of a statement's writes in {@code transaction}; null when there is none. */
    ForeignKeyEnforcer foreignKeys(Transaction transaction) {
        return ForeignKeyEnforcer.of(transaction, schema(), this::foreignKeyChecks);
    }

    List<Warning> warnings() {
        return warnings;
    }

    // ---- statements ----

    private StatementResult executeTrimmed(String sql) {
        if (sql.isEmpty()) {
            warnings.clear();
            throw new DuetException(ErrorCode.PARSE_ERROR, "Query was empty");
        }
        SqlNode transactionControl = parsedTransactionControl.get(sql);
        if (transactionControl != null) {
            warnings.clear();
            return dispatch(transactionControl, sql);
        }
        SqlNode statement;
        try {
            statement = sql.equals(parsedText) ? parsedStatement : StatementParser.parse(sql, variableTypes);
        } catch (RuntimeException e) {
            warnings.clear();
            throw e;
        }
        parsedText = null;
        parsedStatement = null;
        clearWarningsBefore(statement);
        if (isPlainTransactionControl(statement) && parsedTransactionControl.size() < PARSED_TRANSACTION_CONTROL_TEXTS) {
            parsedTransactionControl.put(sql, statement);
        }
        return dispatch(statement, sql);
    }

    /** A statement starts with no warnings, unless it reads those of the statement before it. */
    private void clearWarningsBefore(SqlNode statement) {
        if (!DiagnosticStatements.readsDiagnostics(statement)) {
            warnings.clear();
        }
    }

    /** BEGIN, START TRANSACTION without AS OF, COMMIT and ROLLBACK: nodes no statement changes, the same for a text. */
    private static boolean isPlainTransactionControl(SqlNode statement) {
        return statement instanceof SqlEndTransaction
                || statement instanceof SqlStartTransaction start && start.asOf() == null;
    }

    /** Runs a parsed statement, counted and timed by kind; {@code sql} is its text (for column labels). */
    private StatementResult dispatch(SqlNode statement, String text) {
        storageHints = storageHintsOf(statement, text);
        return measured(kindOf(statement), () -> dispatchUnmeasured(statement, text));
    }

    /** The statement's READ_FROM_STORAGE hints; what they cannot use becomes warnings. */
    private StorageHints storageHintsOf(SqlNode statement, String text) {
        return text.contains("/*+") ? ReadFromStorageHints.of(statement, this::addWarning) : StorageHints.NONE;
    }

    @Override
    public StorageHints storageHints() {
        return storageHints;
    }

    private StatementResult measured(String kind, java.util.function.Supplier<StatementResult> work) {
        long start = System.nanoTime();
        String outcome = "error";
        try {
            StatementResult result = work.get();
            outcome = "ok";
            return result;
        } finally {
            recordStatement(kind, outcome, start);
        }
    }

    private void recordStatement(String kind, String outcome, long startNanos) {
        manager.metrics().statements.labelValues(kind, outcome).inc();
        manager.metrics().statementSeconds.labelValues(kind).observe((System.nanoTime() - startNanos) / 1e9);
    }

    private static String kindOf(SqlNode statement) {
        if (statement instanceof SqlMySqlInsert) {
            return "insert";
        }
        if (statement instanceof SqlMySqlUpdate || statement instanceof SqlMultiTableUpdate) {
            return "update";
        }
        if (statement instanceof SqlMySqlDelete || statement instanceof SqlMultiTableDelete) {
            return "delete";
        }
        if (isDdl(statement)) {
            return "ddl";
        }
        if (statement instanceof SqlQueryWithLocking || statement.getKind().belongsTo(SqlKind.QUERY)) {
            return "select";
        }
        return "other";
    }

    private static boolean isDdl(SqlNode statement) {
        return statement instanceof SqlDdl || statement instanceof SqlAlterTable || statement instanceof SqlRenameTable
                || statement instanceof SqlAlterDatabaseSetReplica || statement instanceof SqlAlterDatabaseOptions;
    }

    private StatementResult ddl(SqlNode statement) {
        SqlNode ddl = statement;
        if (ddl instanceof SqlDropTable drop && (drop.temporary() || !temporaryTables.isEmpty())) {
            // Temporary tables go first, without ending the open transaction (as in MySQL); then the others.
            ddl = temporaryTables.drop(drop);
            if (ddl == null) {
                return UpdateResult.NONE;
            }
        }
        if (!temporaryTables.isEmpty()) {
            TemporaryTableDdl.redirect(ddl, temporaryTables);
        }
        requireForDdl(ddl);
        // DDL commits the open transaction first, as MySQL does.
        endTransaction(true);
        manager.ddl().execute(ddl, database, running::killed, ddlSettings()).forEach(this::addWarning);
        return UpdateResult.NONE;
    }

    private StatementResult dispatchUnmeasured(SqlNode parsed, String text) {
        SqlNode statement = parsed instanceof SqlCreateView create ? ViewPrivileges.checked(this, create) : parsed;
        if (statement instanceof SqlShow show) {
            return ShowStatements.execute(this, show);
        }
        StatementResult accountResult = AccountStatements.tryExecute(this, statement);
        if (accountResult != null) {
            return accountResult;
        }
        if (statement instanceof SqlAdminShowDdlJobs jobs) {
            return AdminStatements.showDdlJobs(this, jobs);
        }
        if (statement instanceof SqlCreateUnsupported unsupported) {
            throw new DuetException(ErrorCode.NOT_SUPPORTED_YET, "This version of DuetDB doesn't yet support '"
                    + unsupported.objects() + "'");
        }
        if (statement instanceof SqlAdminChecksumTable checksum) {
            return BulkStatements.checksum(this, checksum);
        }
        if (statement instanceof SqlLoadData load) {
            return LoadDataStatement.execute(this, load);
        }
        if (statement instanceof SqlImportInto importInto) {
            // A physical import is DDL-like: it commits the open transaction first.
            endTransaction(true);
            return BulkStatements.importInto(this, importInto);
        }
        if (statement instanceof SqlCreateTable create && create.temporary()) {
            return temporaryTables.create(create, text);
        }
        if (statement instanceof SqlCreateTable create && create.query() != null) {
            return createTableAsSelect(create, text);
        }
        if (isDdl(statement)) {
            return ddl(statement);
        }
        if (statement instanceof SqlStartTransaction start) {
            startTransaction(start);
            return UpdateResult.NONE;
        }
        if (statement instanceof SqlEndTransaction end) {
            endTransaction(end.commit());
            return UpdateResult.NONE;
        }
        if (statement instanceof SqlSetVariables set) {
            SetStatements.execute(this, set);
            return UpdateResult.NONE;
        }
        if (statement instanceof SqlSetTransaction set) {
            SetStatements.execute(this, set);
            return UpdateResult.NONE;
        }
        if (statement instanceof SqlUseDatabase use) {
            useDatabase(use.database());
            return UpdateResult.NONE;
        }
        if (statement instanceof SqlKill kill) {
            kill(kill.connectionId(), kill.queryOnly());
            return UpdateResult.NONE;
        }
        if (statement instanceof SqlAnalyzeTable analyze) {
            return analyzeTables(analyze.tables());
        }
        if (statement instanceof SqlPrepare prepare) {
            return namedPrepared.prepare(prepare);
        }
        if (statement instanceof SqlExecute execute) {
            return namedPrepared.execute(execute);
        }
        if (statement instanceof SqlDeallocatePrepare deallocate) {
            return namedPrepared.deallocate(deallocate);
        }
        if (statement instanceof SqlLockTables lock) {
            // LOCK TABLES commits the open transaction, as in MySQL.
            if (!lock.unlock()) {
                endTransaction(true);
            }
            return LockTablesStatement.execute(this, lock);
        }
        if (statement instanceof SqlExplainQuery || statement instanceof SqlQueryWithLocking
                || statement.getKind().belongsTo(SqlKind.QUERY)) {
            Optional<SqlNode> asOf = StaleReadClause.take(statement);
            if (asOf.isPresent()) {
                return staleRead(statement, asOf.get(), text);
            }
        }
        if (statement instanceof SqlMySqlInsert insert) {
            return inWriteTransaction(transaction -> new DmlStatements(this, transaction).insert(insert));
        }
        if (statement instanceof SqlMySqlUpdate update) {
            return inWriteTransaction(transaction -> new DmlStatements(this, transaction).update(update));
        }
        if (statement instanceof SqlMySqlDelete delete) {
            return inWriteTransaction(transaction -> new DmlStatements(this, transaction).delete(delete));
        }
        if (statement instanceof SqlMultiTableUpdate update) {
            return inWriteTransaction(transaction -> new JoinedDml(this, transaction, new DmlStatements(this, transaction))
                    .update(update.from(), update.assignments(), update.where(), update.orderBy(), update.limit(),
                            List.of()));
        }
        if (statement instanceof SqlMultiTableDelete delete) {
            return inWriteTransaction(transaction -> new JoinedDml(this, transaction, new DmlStatements(this, transaction))
                    .delete(delete.targets(), delete.from(), delete.where(), null, null, List.of()));
        }
        if (statement instanceof SqlExplainQuery explain) {
            return inReadTransaction(transaction -> new ExplainStatement(this, transaction).run(explain), false);
        }
        if (statement instanceof SqlSelectIntoVariables into) {
            return SelectInto.store(this, into.variables(), dispatchUnmeasured(into.query(), text));
        }
        if (statement instanceof SqlQueryWithLocking locking) {
            return inLockingTransaction(transaction -> query(transaction, locking.query(), locking.waitPolicy(), text));
        }
        if (statement.getKind().belongsTo(SqlKind.QUERY)) {
            java.util.Optional<PointGetFastPath> pointGet = PointGetFastPath.match(statement, schema(),
                    database);
            if (pointGet.isPresent() && ReadEngines.of(this).rowStore()) {
                return pointGet(pointGet.get(), pointGet.get().handles(List.of()).orElseThrow());
            }
            return inReadTransaction(transaction -> query(transaction, statement, null, text), false);
        }
        throw new DuetException(ErrorCode.NOT_SUPPORTED_YET, "statement not supported yet: " + statement.getKind());
    }

    private interface TransactionWork {
        StatementResult run(Transaction transaction);
    }

    /**
     * A point get outside an explicit transaction reads one key's newest committed version without a timestamp
     * from placement, as TiDB does; several keys are read in one snapshot at a start timestamp.
     */
    private StatementResult pointGet(PointGetFastPath pointGet, List<Long> handles) {
        require(Privilege.SELECT, pointGet.databaseName(), pointGet.table().name());
        return inReadTransaction(transaction -> pointGet.run(transaction, handles), handles.size() == 1);
    }

    private StatementResult inTransaction(TransactionWork work) {
        return inTransaction(work, false, false);
    }

    /** A statement that writes; refused while the session reads history (TiDB's tidb_snapshot). */
    private StatementResult inWriteTransaction(TransactionWork work) {
        if (!variable(TidbVariables.SNAPSHOT).isEmpty()) {
            throw new DuetException(ErrorCode.UNKNOWN_ERROR,
                    "can not execute write statement when 'tidb_snapshot' is set");
        }
        requireWritableTransaction();
        return inTransaction(work);
    }

    private void requireWritableTransaction() {
        if (transaction != null ? readOnlyTransaction : transactionReadOnly()) {
            if (transaction == null) {
                // The statement was the next transaction, read-only and now over.
                forgetNextTransactionCharacteristics();
            }
            throw new DuetException(ErrorCode.READ_ONLY_TRANSACTION, "Cannot execute statement in a READ ONLY transaction.");
        }
    }

    /**
     * START TRANSACTION with its characteristics: READ ONLY refuses writes; AS OF TIMESTAMP (TiDB's stale read,
     * READ ONLY too) reads at that time, which learners serve without the leader below their resolved timestamp.
     */
    private void startTransaction(SqlStartTransaction start) {
        endTransaction(true);
        transaction = start.asOf() == null ? beginTransaction()
                : manager.client().beginAt(AsOfTimestamp.of(start.asOf(), this::evaluateConstants,
                        manager.client()::learnerResolvedTs));
        explicitTransaction = true;
        readOnlyTransaction = start.readOnly() || transactionReadOnly();
        historicalTransaction = start.asOf() != null;
    }

    /** Whether the next transaction is read-only: SET TRANSACTION READ ONLY, or the session's transaction_read_only. */
    private boolean transactionReadOnly() {
        return nextTransactionReadOnly != null ? nextTransactionReadOnly
                : "1".equals(variable(SetStatements.TRANSACTION_READ_ONLY));
    }

    /** SET TRANSACTION without GLOBAL or SESSION: what the next transaction takes (null: the session's value). */
    void characterizeNextTransaction(String isolation, Boolean readOnly) {
        if (transaction != null) {
            throw new DuetException(ErrorCode.TRANSACTION_CHARACTERISTICS_IN_PROGRESS, "Transaction characteristics"
                    + " can't be changed while a transaction is in progress");
        }
        if (isolation != null) {
            nextTransactionIsolation = isolation;
        }
        if (readOnly != null) {
            nextTransactionReadOnly = readOnly;
        }
    }

    /** The next transaction has begun: it took the characteristics SET TRANSACTION gave it. */
    private void forgetNextTransactionCharacteristics() {
        nextTransactionIsolation = null;
        nextTransactionReadOnly = null;
    }

    /**
     * A read with TiDB's AS OF TIMESTAMP after its tables: outside a transaction, and not with tidb_snapshot, it
     * reads at that time in a transaction of its own.
     */
    private StatementResult staleRead(SqlNode statement, SqlNode time, String text) {
        if (transaction != null) {
            throw new DuetException(ErrorCode.INVALID_READ_TIMESTAMP,
                    "invalid as of timestamp: as of timestamp can't be set in transaction.");
        }
        if (!variable(TidbVariables.SNAPSHOT).isEmpty()) {
            throw new DuetException(ErrorCode.INVALID_READ_TIMESTAMP,
                    "invalid as of timestamp: can't use select as of while tidb_snapshot is set");
        }
        if (statement instanceof SqlQueryWithLocking) {
            throw new DuetException(ErrorCode.NOT_SUPPORTED_YET, "a locking read cannot read AS OF TIMESTAMP");
        }
        long readTs = AsOfTimestamp.of(time, this::evaluateConstants, manager.client()::learnerResolvedTs);
        TransactionWork work = statement instanceof SqlExplainQuery explain
                ? transaction -> new ExplainStatement(this, transaction).run(explain)
                : transaction -> query(transaction, statement, null, text);
        return atTimestamp(work, readTs);
    }

    /**
     * The values of expressions without columns, computed by one SELECT; it reads no table, so its transaction takes
     * no timestamp from placement.
     */
    private Object[] evaluateConstants(List<SqlNode> expressions) {
        SqlParserPos pos = SqlParserPos.ZERO;
        SqlSelect select = new SqlSelect(pos, null, new SqlNodeList(expressions, pos), null, null, null, null,
                null, null, null, null, null, null);
        try (Transaction own = manager.client().beginLatestRead()) {
            return ((QueryResult) query(own, select, null, null)).rows().get(0);
        }
    }

    /**
     * A read (SELECT, EXPLAIN, a point get). Outside a transaction it reads at the past timestamp the session asks
     * for, if any: tidb_snapshot (history), or now less tidb_read_staleness seconds (a stale read, which learners
     * serve below their resolved timestamp without a round trip to the region leader).
     */
    private StatementResult inReadTransaction(TransactionWork work, boolean singleKeyRead) {
        long readTs = transaction == null && autocommit() ? PastReadTimestamp.of(variable(TidbVariables.SNAPSHOT),
                Long.parseLong(variable("tidb_read_staleness")), manager.client()::currentTimestamp) : 0;
        if (readTs == 0 && transaction == null && autocommit()) {
            long maxStaleness = GoDurations.parseMillis(variable(TidbVariables.MAX_STALENESS)).orElse(0);
            if (maxStaleness > 0) {
                readTs = BoundedStaleness.within(manager.client().learnerResolvedTs(), System.currentTimeMillis(),
                        maxStaleness);
            }
        }
        if (readTs == 0) {
            return inTransaction(work, singleKeyRead, false);
        }
        return atTimestamp(work, readTs);
    }

    private StatementResult atTimestamp(TransactionWork work, long readTs) {
        Transaction own = manager.client().beginAt(readTs);
        try {
            return interruptibly(() -> work.run(own));
        } finally {
            own.close();
        }
    }


    private StatementResult inTransaction(TransactionWork work, boolean singleKeyRead) {
        return inTransaction(work, singleKeyRead, false);
    }

    /**
     * A locking read (SELECT ... FOR UPDATE | FOR SHARE): outside an explicit transaction it runs in a pessimistic
     * transaction of its own, as in MySQL, so it waits for (or with NOWAIT refuses, with SKIP LOCKED passes by) rows
     * that others hold locked and holds its locks until it ends.
     */
    private StatementResult inLockingTransaction(TransactionWork work) {
        if (transaction != null && historicalTransaction) {
            throw new DuetException(ErrorCode.READ_ONLY_TRANSACTION, "Cannot execute statement in a READ ONLY"
                    + " transaction: a locking read cannot lock at a past timestamp (AS OF TIMESTAMP)");
        }
        return inTransaction(work, false, true);
    }

    /**
     * Runs a statement in the open transaction, or in one of its own that commits when the statement succeeds
     * (with {@code singleKeyRead}, a read of the newest versions: the statement reads one key and writes nothing).
     */
    private StatementResult inTransaction(TransactionWork work, boolean singleKeyRead, boolean lockingRead) {
        if (transaction == null && !autocommit()) {
            transaction = beginTransaction();
            explicitTransaction = true;
            readOnlyTransaction = transactionReadOnly();
        }
        if (transaction != null) {
            Transaction.Savepoint before = transaction.savepoint();
            Transaction open = transaction;
            open.startStatement(LockingQueries.lockWaitTimeout(variable("innodb_lock_wait_timeout")));
            try {
                return interruptibly(() -> work.run(open));
            } catch (DuetException e) {
                if (e.code() == ErrorCode.DEADLOCK || e.code() == ErrorCode.WRITE_CONFLICT
                        || e.code() == ErrorCode.TRANSACTION_RETRYABLE) {
                    // The transaction is gone: MySQL rolls it back on a deadlock.
                    endTransaction(false);
                } else if (transaction != null) {
                    // A failed statement leaves no write behind; the transaction goes on (MySQL's statement atomicity).
                    transaction.rollbackTo(before);
                }
                throw e;
            }
        }
        // An autocommit statement is its own transaction: it runs optimistically (no lock round trips) and is
        // retried from the start on a write conflict, as TiDB does (pessimistic-auto-commit = false). Its INSERTs
        // leave their key checks to the prewrite unless tidb_constraint_check_in_place is on.
        boolean keyChecksAtPrewrite = !"ON".equalsIgnoreCase(variable("tidb_constraint_check_in_place"));
        for (int attempt = 1; ; attempt++) {
            Transaction own = singleKeyRead ? manager.client().beginLatestRead()
                    : manager.client().begin(lockingRead ? TxnMode.PESSIMISTIC : TxnMode.OPTIMISTIC, isolation());
            if (lockingRead) {
                own.startStatement(LockingQueries.lockWaitTimeout(variable("innodb_lock_wait_timeout")));
            }
            tablesWritten.clear();
            statementChecksKeysAtPrewrite = keyChecksAtPrewrite;
            try {
                StatementResult result = interruptibly(() -> work.run(own));
                checkSchemaUnchanged();
                own.commit();
                return result;
            } catch (DuetException e) {
                if (e.code() == ErrorCode.DUPLICATE_ENTRY && keyChecksAtPrewrite && own.presumesAbsentKeys()
                        && !running.killed()) {
                    // The prewrite found a duplicate and wrote nothing: run the statement again reading its keys
                    // first, for MySQL's message naming the entry and key (or success if that row went away).
                    keyChecksAtPrewrite = false;
                    warnings.clear();
                    continue;
                }
                boolean retryable = e.code() == ErrorCode.WRITE_CONFLICT || e.code() == ErrorCode.TRANSACTION_RETRYABLE
                        || e.code() == ErrorCode.SCHEMA_CHANGED;
                if (!retryable || attempt >= AUTOCOMMIT_ATTEMPTS || running.killed()) {
                    throw e;
                }
                warnings.clear();
                backOff(attempt);
            } finally {
                statementChecksKeysAtPrewrite = false;
                own.close();
                forgetNextTransactionCharacteristics();
            }
        }
    }

    /**
     * Whether the running statement's INSERTs may leave their primary and unique key checks to the prewrite (TiDB's
     * lazy uniqueness check): an autocommit statement, on its first run, with tidb_constraint_check_in_place off.
     */
    boolean checksKeysAtPrewrite() {
        return statementChecksKeysAtPrewrite;
    }

    private static final int AUTOCOMMIT_ATTEMPTS = 10;

    private static void backOff(int attempt) {
        try {
            Thread.sleep(Math.min(100, 2L << attempt) + java.util.concurrent.ThreadLocalRandom.current().nextInt(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DuetException(ErrorCode.QUERY_INTERRUPTED, "Query execution was interrupted");
        }
    }

    private Isolation isolation() {
        String isolation = (nextTransactionIsolation != null ? nextTransactionIsolation
                : variable(SetStatements.TRANSACTION_ISOLATION)).toUpperCase(Locale.ROOT);
        return isolation.startsWith("READ-COMMITTED") || isolation.startsWith("READ COMMITTED")
                ? Isolation.READ_COMMITTED : Isolation.REPEATABLE_READ;
    }

    private Transaction beginTransaction() {
        TxnMode mode = variable("tidb_txn_mode").equalsIgnoreCase("optimistic") ? TxnMode.OPTIMISTIC
                : TxnMode.PESSIMISTIC;
        return manager.client().begin(mode, isolation());
    }

    /** Commits (or rolls back) the open transaction, if any. */
    private void endTransaction(boolean commit) {
        Transaction open = transaction;
        transaction = null;
        explicitTransaction = false;
        readOnlyTransaction = false;
        historicalTransaction = false;
        if (open == null) {
            return;
        }
        forgetNextTransactionCharacteristics();
        if (!commit) {
            tablesWritten.clear();
        }
        try {
            if (commit) {
                try {
                    checkSchemaUnchanged();
                } catch (DuetException e) {
                    open.rollback();
                    throw e;
                }
                open.commit();
            } else {
                open.rollback();
            }
        } finally {
            open.close();
        }
    }

    /** DML records each table it writes, with the definition it used. */
    void writing(TableInfo table) {
        tablesWritten.putIfAbsent(table.id(), table);
    }

    /**
     * F1's commit-time check, as TiDB's schema validator does it: a transaction whose tables changed definition
     * (a column or index moved to another state, or the table went away) since it wrote them must not commit
     * what it wrote under the old definition — say, rows without the entries of an index backfilled meanwhile.
     */
    private void checkSchemaUnchanged() {
        if (tablesWritten.isEmpty()) {
            return;
        }
        try {
            InfoSchema latest = manager.catalog().current();
            for (TableInfo used : tablesWritten.values()) {
                Optional<TableInfo> now = latest.table(used.id());
                if (now.isEmpty() || !now.get().equals(used)) {
                    throw new DuetException(ErrorCode.SCHEMA_CHANGED, "Information schema is changed during the execution"
                            + " of the statement(for example, table definition may be updated by other DDL ran in parallel)."
                            + " Table '" + used.name() + "' changed; the transaction was rolled back");
                }
            }
        } finally {
            tablesWritten.clear();
        }
    }

    boolean autocommit() {
        deriveFromVariables();
        return autocommit;
    }

    /**
     * Whether the session's variables let a point read skip the usual way: the row store is an engine it may read,
     * and it reads neither history nor stale data.
     */
    private boolean variablesAllowPointReads() {
        deriveFromVariables();
        return pointReadsAllowed;
    }

    /** What hot paths read from the session's variables, derived again after a variable changed. */
    private void deriveFromVariables() {
        if (derivedAtVersion == variablesVersion) {
            return;
        }
        String value = variable("autocommit");
        autocommit = value.equals("1") || value.equalsIgnoreCase("ON");
        pointReadsAllowed = ReadEngines.of(this).rowStore() && variable(TidbVariables.SNAPSHOT).isEmpty()
                && "0".equals(variable("tidb_read_staleness"))
                && GoDurations.parseMillis(variable(TidbVariables.MAX_STALENESS)).orElse(0) <= 0;
        derivedAtVersion = variablesVersion;
    }

    void setVariable(String name, String value) {
        variables.put(name.toLowerCase(Locale.ROOT), value);
        variablesVersion++;
        if (name.equalsIgnoreCase("autocommit") && (value.equals("1") || value.equalsIgnoreCase("ON"))
                && transaction != null) {
            endTransaction(true);
        }
    }

    void setLastInsertId(long id) {
        lastInsertId = id;
    }

    SessionManager manager() {
        return manager;
    }

    /** The planner for the schema version {@code transaction} reads. */
    QueryPlanner planner() {
        return new QueryPlanner(calciteCatalog(schema()), database, sqlMode());
    }

    /** The newest schema as this session sees it: its temporary tables found by name first. */
    InfoSchema schema() {
        return temporaryTables.overlay(manager.catalog().current());
    }

    /** The Calcite catalog of {@code schema} (this session's own while it has temporary tables). */
    private CalciteCatalog calciteCatalog(InfoSchema schema) {
        if (schema == manager.catalog().current() || temporaryTables.isEmpty()) {
            return manager.calciteCatalog(schema);
        }
        CalciteCatalog current = temporaryCatalog;
        if (current == null || current.infoSchema() != schema) {
            current = manager.temporaryCalciteCatalog(schema);
            temporaryCatalog = current;
        }
        return current;
    }

    private SqlMode sqlMode() {
        return SqlMode.of(variable("sql_mode"));
    }

    /** A query planned against {@code catalog} instead of the session's (SHOW ... WHERE over the rows it lists). */
    QueryResult queryIn(CalciteCatalog catalog, SqlNode query) {
        QueryPlanner.PlannedQuery planned = new QueryPlanner(catalog, database, sqlMode()).plan(query);
        requireSelect(planned);
        return (QueryResult) inReadTransaction(transaction -> {
            ExpressionCompiler compiler = new ExpressionCompiler(planned.plan().getCluster().getRexBuilder(), this,
                    List.of());
            return new QueryResult(resultColumns(planned, null),
                    LockingQueries.execute(transaction, compiler, null, planned.plan()));
        }, false);
    }

    private StatementResult query(Transaction transaction, SqlNode query, WaitPolicy lockWait, String sql) {
        List<String> labels = labels(query, sql);
        FoundRows.Unlimited unlimited = FoundRows.of(query);
        QueryPlanner.PlannedQuery planned = planner().plan(unlimited == null ? query : unlimited.query());
        requireSelect(planned);
        ExpressionCompiler compiler = new ExpressionCompiler(planned.plan().getCluster().getRexBuilder(), this,
                List.of());
        List<Object[]> rows = LockingQueries.execute(transaction, compiler, lockWait, planned.plan());
        if (unlimited != null) {
            return new QueryResult(resultColumns(planned, labels), unlimited.limit(rows), rows.size());
        }
        return new QueryResult(resultColumns(planned, labels), rows);
    }

    private List<ResultColumn> resultColumns(QueryPlanner.PlannedQuery planned, List<String> labels) {
        List<ResultColumn> columns = new ArrayList<>();
        List<RelDataTypeField> fields = planned.rowType().getFieldList();
        for (int i = 0; i < fields.size(); i++) {
            RelDataTypeField field = fields.get(i);
            String label = field.getName();
            if (labels != null && labels.size() == fields.size() && label.matches("EXPR\\$\\d+")) {
                label = labels.get(i);
            }
            List<String> origin = planned.fieldOrigins().get(i);
            SqlType type = TypeMapping.fromCalcite(field.getType());
            if (origin != null && origin.size() >= 3) {
                SqlType columnType = manager.columnType(origin);
                columns.add(new ResultColumn(label, origin.get(origin.size() - 3), origin.get(origin.size() - 2),
                        origin.get(origin.size() - 1), columnType != null ? columnType : type,
                        !field.getType().isNullable()));
            } else {
                columns.add(new ResultColumn(label, "", "", "", type, !field.getType().isNullable()));
            }
        }
        return columns;
    }

    /** ANALYZE TABLE t[, ...]: statistics for each table, reported as MySQL does (Table, Op, Msg_type, Msg_text). */
    private volatile LocalFiles localFiles = LocalFiles.NONE;

    /** Where LOAD DATA LOCAL gets the client's files (the connection's local-infile exchange). */
    public void localFiles(LocalFiles files) {
        this.localFiles = requireNonNull(files, "files is null");
    }

    LocalFiles localFiles() {
        return localFiles;
    }

    /** LOAD DATA's rows in the open transaction or one of their own (autocommit). */
    UpdateResult insertLoadedRows(TableInfo table, List<ColumnInfo> targets, List<Object[]> rows,
            boolean replace, boolean ignore) {
        return (UpdateResult) inWriteTransaction(transaction -> new DmlStatements(this, transaction)
                .insertRows(table, targets, rows, replace, ignore));
    }

    /** An INSERT built by the server (LOAD DATA with SET), in the statement's write transaction. */
    UpdateResult insertStatement(SqlMySqlInsert insert) {
        return (UpdateResult) inWriteTransaction(transaction -> new DmlStatements(this, transaction).insert(insert));
    }

    /** Whether KILL QUERY stopped the running statement. */
    boolean killed() {
        return running.killed();
    }

    /** ANALYZE of a table a physical import filled, so the optimizer knows its rows at once. */
    void analyzeAfterImport(String databaseName, String tableName) {
        manager.latestInfoSchema().table(databaseName, tableName).ifPresent(table -> inTransaction(transaction -> {
            manager.analyzer().analyze(transaction, table);
            return UpdateResult.NONE;
        }));
    }

    private StatementResult analyzeTables(List<SqlIdentifier> names) {
        List<Object[]> rows = new ArrayList<>();
        for (SqlIdentifier name : names) {
            String databaseName = name.names.size() > 1 ? name.names.get(name.names.size() - 2) : database;
            String tableName = name.names.get(name.names.size() - 1);
            if (databaseName == null) {
                throw new DuetException(ErrorCode.NO_DATABASE_SELECTED, "No database selected");
            }
            TableInfo table = manager.latestInfoSchema().table(databaseName, tableName)
                    .orElseThrow(() -> new DuetException(ErrorCode.UNKNOWN_TABLE, "Table '" + databaseName + "."
                            + tableName + "' doesn't exist"));
            if (table.view() != null) {
                throw new DuetException(ErrorCode.WRONG_OBJECT, "'" + databaseName + "." + table.name()
                        + "' is not BASE TABLE");
            }
            require(Privilege.SELECT, databaseName, table.name());
            require(Privilege.INSERT, databaseName, table.name());
            inTransaction(transaction -> {
                manager.analyzer().analyze(transaction, table);
                return UpdateResult.NONE;
            });
            rows.add(new Object[] {databaseName + "." + table.name(), "analyze", "status", "OK"});
        }
        return new QueryResult(List.of(ResultColumn.computed("Table", SqlType.varchar(128)),
                ResultColumn.computed("Op", SqlType.varchar(16)), ResultColumn.computed("Msg_type", SqlType.varchar(16)),
                ResultColumn.computed("Msg_text", SqlType.varchar(256))), rows);
    }

    /**
     * MySQL labels an unaliased select item by its text; the labels of a SELECT's items (a set operation's first
     * SELECT's), or null.
     */
    static List<String> labels(SqlNode query, String sql) {
        SqlNode body = query;
        while (true) {
            if (body instanceof SqlOrderBy orderBy) {
                body = orderBy.query;
            } else if (body instanceof SqlWith with) {
                body = with.body;
            } else if (body.getKind().belongsTo(SqlKind.SET_QUERY) && body instanceof SqlCall setOperation) {
                body = setOperation.operand(0);
            } else {
                break;
            }
        }
        if (!(body instanceof SqlSelect select)) {
            return null;
        }
        List<String> labels = new ArrayList<>();
        for (SqlNode item : select.getSelectList()) {
            if (item instanceof SqlIdentifier identifier) {
                if (identifier.isStar()) {
                    return null;
                }
                labels.add(identifier.names.get(identifier.names.size() - 1));
            } else if (item.getKind() == SqlKind.AS) {
                labels.add(((SqlIdentifier) ((SqlCall) item).operand(1)).getSimple());
            } else {
                var position = item.getParserPosition();
                String text = SqlText.slice(sql, position.getLineNum(), position.getColumnNum(),
                        position.getEndLineNum(), position.getEndColumnNum());
                labels.add(text == null ? item.toString() : text);
            }
        }
        return labels;
    }

}
