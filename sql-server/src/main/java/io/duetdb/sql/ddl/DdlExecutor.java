package io.duetdb.sql.ddl;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Semaphore;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;


import io.duetdb.client.txn.Isolation;
import io.duetdb.client.txn.Transaction;
import io.duetdb.client.txn.TxnClient;
import io.duetdb.client.txn.TxnMode;
import io.duetdb.common.catalog.CheckConstraint;
import io.duetdb.common.catalog.ColumnInfo;
import io.duetdb.common.catalog.DatabaseInfo;
import io.duetdb.common.catalog.ForeignKey;
import io.duetdb.common.catalog.IndexInfo;
import io.duetdb.common.catalog.SchemaState;
import io.duetdb.common.catalog.TableInfo;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.common.types.Collation;
import io.duetdb.common.types.SqlTypeName;
import io.duetdb.sql.catalog.Catalog;
import io.duetdb.sql.catalog.DdlJob;
import io.duetdb.sql.catalog.InfoSchema;
import io.duetdb.sql.exec.ForeignKeyEnforcer;
import io.duetdb.sql.parser.DuetSqlCall;
import io.duetdb.sql.parser.ddl.SqlAlterDatabaseOptions;
import io.duetdb.sql.parser.ddl.SqlAlterDatabaseSetReplica;
import io.duetdb.sql.parser.ddl.SqlAlterTable;
import io.duetdb.sql.parser.ddl.SqlAlterTableAddColumn;
import io.duetdb.sql.parser.ddl.SqlAlterTableAddIndex;
import io.duetdb.sql.parser.ddl.SqlAlterTableChangeColumn;
import io.duetdb.sql.parser.ddl.SqlAlterTableColumnDefault;
import io.duetdb.sql.parser.ddl.SqlAlterTableCheck;
import io.duetdb.sql.parser.ddl.SqlAlterTableDropColumn;
import io.duetdb.sql.parser.ddl.SqlAlterTableDropIndex;
import io.duetdb.sql.parser.ddl.SqlAlterTableIndexVisibility;
import io.duetdb.sql.parser.ddl.SqlAlterTableKeys;
import io.duetdb.sql.parser.ddl.SqlAlterTableOptions;
import io.duetdb.sql.parser.ddl.SqlAlterTableRename;
import io.duetdb.sql.parser.ddl.SqlAlterTableRenameItem;
import io.duetdb.sql.parser.ddl.SqlAlterTableSetReplica;
import io.duetdb.sql.parser.ddl.SqlCheckConstraint;
import io.duetdb.sql.parser.ddl.SqlAlterTableForeignKey;
import io.duetdb.sql.parser.ddl.SqlForeignKey;
import io.duetdb.sql.parser.ddl.SqlColumnDefinition;
import io.duetdb.sql.parser.ddl.SqlCreateDatabase;
import io.duetdb.sql.parser.ddl.SqlCreateIndex;
import io.duetdb.sql.parser.ddl.SqlCreateTable;
import io.duetdb.sql.parser.ddl.SqlCreateView;
import io.duetdb.sql.parser.ddl.SqlDropDatabase;
import io.duetdb.sql.parser.ddl.SqlDropIndex;
import io.duetdb.sql.parser.ddl.SqlDropTable;
import io.duetdb.sql.parser.ddl.SqlDropView;
import io.duetdb.sql.parser.ddl.SqlIndexDefinition;
import io.duetdb.sql.parser.ddl.SqlRenameTable;
import io.duetdb.sql.parser.ddl.SqlTableOption;
import io.duetdb.sql.parser.ddl.SqlTruncateTable;
import io.duetdb.sql.variables.TidbVariables;

/**
 * Carries out DDL statements on the catalog. Adding an index walks it through the online schema states
 * (delete-only, write-only, write-reorganization with a backfill of existing rows, public), one schema version
 * per state, so that writers on every server maintain the index before it is backfilled and read.
 */
public final class DdlExecutor {
    private static final Logger LOG = LoggerFactory.getLogger(DdlExecutor.class);
    private final Catalog catalog;
    private final TxnClient client;
    private static final int DEFAULT_BACKFILL_WORKERS = 4;
    /** Backfill page transactions of all jobs at once: as many as one job's default workers. */
    private final Semaphore backfillSlots = new Semaphore(DEFAULT_BACKFILL_WORKERS, true);

    private final int backfillBatchSize;
    private final ViewDdl views;
    private final ColumnarReplicas replicas;
    private final ColumnChanges columnChanges;
    private final CheckConstraintChanges checks;
    private final BackfillObserver observer;

    /** Told of each backfill transaction that committed, with its rows. */
    public interface BackfillObserver {
        BackfillObserver NONE = rows -> { };

        void batchCommitted(int rows);
    }

    /**
     * {@code backfillBatchSize}: the rows an index backfill indexes per transaction, unless SET GLOBAL
     * tidb_ddl_reorg_batch_size says otherwise.
     */
    public DdlExecutor(Catalog catalog, TxnClient client, int backfillBatchSize, BackfillObserver observer) {
        this.catalog = requireNonNull(catalog, "catalog is null");
        this.client = requireNonNull(client, "client is null");
        this.observer = requireNonNull(observer, "observer is null");
        if (backfillBatchSize < 1) {
            throw new IllegalArgumentException("backfillBatchSize must be positive");
        }
        this.backfillBatchSize = backfillBatchSize;
        this.views = new ViewDdl(catalog);
        this.replicas = new ColumnarReplicas(catalog, client.placement());
        this.columnChanges = new ColumnChanges(catalog, client, observer, this::backfillBatchSize);
        this.checks = new CheckConstraintChanges(catalog, client);
    }

    public ColumnarReplicas columnarReplicas() {
        return replicas;
    }

    /** Physical imports (IMPORT INTO) as DDL jobs. */
    public TableImport tableImport() {
        return new TableImport(catalog, client, replicas);
    }

    /**
     * Runs a DDL statement; returns the warnings it raised (unsupported options accepted). {@code cancelled}
     * turns true on KILL QUERY: an index being added is removed again, a statement that moved nothing yet stops.
     */
    public List<DdlWarning> execute(SqlNode statement, String currentDatabase, BooleanSupplier cancelled) {
        return execute(statement, currentDatabase, cancelled, DdlSettings.DEFAULT);
    }

    /**
     * As {@link #execute(SqlNode, String, BooleanSupplier)}, with the session's tidb_enable_clustered_index deciding
     * whether a primary key that says neither CLUSTERED nor NONCLUSTERED keys the rows.
     */
    public List<DdlWarning> execute(SqlNode statement, String currentDatabase, BooleanSupplier cancelled,
            DdlSettings settings) {
        List<DdlWarning> warnings = new ArrayList<>();
        if (statement instanceof SqlCreateDatabase create) {
            runJob("create schema", job -> createDatabase(create, warnings, job));
        } else if (statement instanceof SqlDropDatabase drop) {
            runJob("drop schema", job -> dropDatabase(drop, warnings, job));
            replicas.sync();
        } else if (statement instanceof SqlCreateTable create) {
            runJob("create table", job -> createTable(create, currentDatabase, warnings, settings, job));
        } else if (statement instanceof SqlCreateView create) {
            runJob(create.alter() ? "alter view" : "create view", job -> views.create(create, currentDatabase, job));
        } else if (statement instanceof SqlDropView drop) {
            for (SqlIdentifier view : drop.views()) {
                runJob("drop view", job -> views.drop(view, drop.ifExists(), currentDatabase, warnings, job));
            }
        } else if (statement instanceof SqlDropTable drop) {
            if (settings.foreignKeyChecks()) {
                ForeignKeys.checkDroppable(catalog.current(), drop.tables().stream()
                        .map(table -> qualified((SqlIdentifier) table, currentDatabase)).toList());
            }
            for (SqlNode table : drop.tables()) {
                runJob("drop table", job -> dropTable((SqlIdentifier) table, drop.ifExists(), currentDatabase, warnings,
                        job));
            }
        } else if (statement instanceof SqlTruncateTable truncate) {
            if (settings.foreignKeyChecks()) {
                ForeignKeys.checkTruncatable(catalog.current(), qualified(truncate.table(), currentDatabase));
            }
            runJob("truncate table", job -> truncate(truncate, currentDatabase, job));
        } else if (statement instanceof SqlCreateIndex create) {
            SqlIndexDefinition.Kind kind = create.unique() ? SqlIndexDefinition.Kind.UNIQUE : SqlIndexDefinition.Kind.INDEX;
            runJob("add index", job -> addIndex(create.table(), currentDatabase, kind, create.name().getSimple(),
                    columnNames(create.columns()), create.ifNotExists(), cancelled, job));
        } else if (statement instanceof SqlDropIndex drop) {
            runJob("drop index", job -> dropIndex(drop.table(), currentDatabase, drop.name().getSimple(),
                    drop.ifExists(), job));
        } else if (statement instanceof SqlRenameTable rename) {
            for (int i = 0; i < rename.from().size(); i++) {
                SqlIdentifier from = (SqlIdentifier) rename.from().get(i);
                SqlIdentifier to = (SqlIdentifier) rename.to().get(i);
                runJob("rename table", job -> rename(from, to, currentDatabase, job));
            }
        } else if (statement instanceof SqlAlterDatabaseOptions alter) {
            runJob("alter schema", job -> alterDatabase(alter, job));
        } else if (statement instanceof SqlAlterDatabaseSetReplica alter) {
            for (SqlIdentifier table : replicas.baseTables(alter.name().getSimple())) {
                runJob("set tiflash replica", job -> replicas.set(table, alter.count(), alter.name().getSimple(), job));
            }
        } else if (statement instanceof SqlAlterTable alter) {
            for (SqlNode action : alter.actions()) {
                if (action instanceof SqlAlterTableAddIndex add) {
                    SqlIndexDefinition index = add.index();
                    if (index.kind() == SqlIndexDefinition.Kind.PRIMARY) {
                        throw new DuetException(ErrorCode.NOT_SUPPORTED_YET, "adding a primary key to an existing"
                                + " table is not supported");
                    }
                    List<String> columns = columnNames(index.columns());
                    String name = index.name() != null ? index.name().getSimple() : columns.get(0);
                    runJob("add index", job -> addIndex(alter.table(), currentDatabase, index.kind(), name, columns,
                            false, cancelled, job));
                } else if (action instanceof SqlAlterTableDropIndex drop) {
                    runJob("drop index", job -> dropIndex(alter.table(), currentDatabase, drop.name().getSimple(),
                            drop.ifExists(), job));
                } else if (action instanceof SqlAlterTableAddColumn add) {
                    runJob("add column", job -> addColumn(alter.table(), currentDatabase, add, settings, cancelled,
                            job));
                    for (SqlCheckConstraint check : add.column().checks()) {
                        runJob("add check", job -> checks.add(qualified(alter.table(), currentDatabase), check,
                                add.column().name().getSimple(), cancelled, job));
                    }
                    if (add.column().key() == SqlIndexDefinition.Kind.UNIQUE) {
                        // ADD COLUMN c ... UNIQUE: the column, then its unique index (named after it), as MySQL does.
                        String column = add.column().name().getSimple();
                        String[] name = qualified(alter.table(), currentDatabase);
                        String indexName = uniqueName(column, indexNames(catalog.current(), name));
                        runJob("add index", job -> addIndex(alter.table(), currentDatabase,
                                SqlIndexDefinition.Kind.UNIQUE, indexName, List.of(column), false, cancelled, job));
                    }
                } else if (action instanceof SqlAlterTableCheck check) {
                    String[] name = qualified(alter.table(), currentDatabase);
                    switch (check.action()) {
                        case ADD -> runJob("add check", job -> checks.add(name, check.constraint(), null, cancelled, job));
                        case DROP -> runJob("drop check", job -> checks.drop(name, check.name().getSimple(), job));
                        case ALTER -> runJob("alter check", job -> checks.alter(name, check.name().getSimple(),
                                check.enforced(), cancelled, job));
                        default -> throw new IllegalStateException("unknown check action " + check.action());
                    }
                } else if (action instanceof SqlAlterTableDropColumn drop) {
                    runJob("drop column", job -> dropColumn(alter.table(), currentDatabase, drop.name().getSimple(),
                            drop.ifExists(), job));
                } else if (action instanceof SqlAlterTableSetReplica setReplica) {
                    runJob("set tiflash replica", job -> replicas.set(alter.table(), setReplica.count(), currentDatabase,
                            job));
                } else if (action instanceof SqlAlterTableRename rename) {
                    runJob("rename table", job -> rename(alter.table(), rename.name(), currentDatabase, job));
                } else if (action instanceof SqlAlterTableChangeColumn change) {
                    runJob("modify column", job -> columnChanges.change(qualified(alter.table(), currentDatabase), change,
                            settings.rowCompletion(), cancelled, job));
                } else if (action instanceof SqlAlterTableRenameItem rename
                        && rename.item() == SqlAlterTableRenameItem.Item.COLUMN) {
                    runJob("rename column", job -> columnChanges.renameColumn(qualified(alter.table(), currentDatabase),
                            rename.from().getSimple(), rename.to().getSimple(), job));
                } else if (action instanceof SqlAlterTableColumnDefault columnDefault) {
                    runJob("modify column", job -> columnChanges.setDefault(qualified(alter.table(), currentDatabase),
                            columnDefault, job));
                } else if (action instanceof SqlAlterTableRenameItem rename) {
                    runJob("rename index", job -> columnChanges.renameIndex(qualified(alter.table(), currentDatabase),
                            rename.from().getSimple(), rename.to().getSimple(), job));
                } else if (action instanceof SqlAlterTableIndexVisibility visibility) {
                    String[] name = qualified(alter.table(), currentDatabase);
                    String index = visibility.index().getSimple();
                    if (table(catalog.current(), name).index(index).isEmpty()) {
                        throw new DuetException(ErrorCode.KEY_DOES_NOT_EXIST, "Key '" + index
                                + "' doesn't exist in table '" + name[1] + "'");
                    }
                    if (!visibility.visible()) {
                        warnings.add(DdlWarning.warning("Invisible indexes are accepted and not built: the optimizer"
                                + " still uses index '" + index + "'"));
                    }
                } else if (action instanceof SqlAlterTableKeys) {
                    // As MySQL answers it for InnoDB: indexes are always maintained.
                    warnings.add(DdlWarning.warning("Table storage engine for '"
                            + alter.table().names.get(alter.table().names.size() - 1) + "' doesn't have this option"));
                } else if (action instanceof SqlAlterTableForeignKey foreignKey) {
                    String[] name = qualified(alter.table(), currentDatabase);
                    if (foreignKey.added() != null) {
                        List<String> columns = new ArrayList<>();
                        if (settings.foreignKeyChecks()) {
                            checkExistingRows(name, foreignKey.added());
                        }
                        runJob("add foreign key", job -> columns.addAll(addForeignKey(name, foreignKey.added(),
                                settings.foreignKeyChecks(), job)));
                        if (table(catalog.current(), name).indexes().stream()
                                .noneMatch(index -> index.startsWith(columns))) {
                            String indexName = uniqueName(columns.get(0), indexNames(catalog.current(), name));
                            runJob("add index", job -> addIndex(alter.table(), currentDatabase,
                                    SqlIndexDefinition.Kind.INDEX, indexName, columns, false, cancelled, job));
                        }
                    } else {
                        runJob("drop foreign key", job -> dropForeignKey(name, foreignKey.dropped().getSimple(), job));
                    }
                } else if (action instanceof SqlAlterTableOptions options) {
                    boolean collationNamed = false;
                    for (SqlNode option : options.options()) {
                        SqlTableOption tableOption = (SqlTableOption) option;
                        if (tableOption.name().equals("CHARACTER SET") || tableOption.name().equals("COLLATE")) {
                            collationNamed = true;
                        } else {
                            warnings.add(DdlWarning.warning("The table option " + tableOption.name() + "="
                                    + tableOption.value() + " is accepted and ignored"));
                        }
                    }
                    if (collationNamed) {
                        Collation collation = tableCollation(options.options(), Collation.DEFAULT);
                        runJob("alter table", job -> setDefaultCollation(qualified(alter.table(), currentDatabase),
                                collation, job));
                    }
                } else {
                    throw new DuetException(ErrorCode.NOT_SUPPORTED_YET, "ALTER TABLE " + ((DuetSqlCall) action).getOperator().getName()
                            + " is not supported yet");
                }
            }
        } else {
            throw new DuetException(ErrorCode.NOT_SUPPORTED_YET, "statement not supported yet: "
                    + statement.getKind());
        }
        return warnings;
    }

    /** Runs one DDL job (one per action of a statement, as TiDB does), recording how it ends. */
    private void runJob(String type, Consumer<DdlJobRecord> body) {
        DdlJobRecord job = new DdlJobRecord(catalog, type);
        try {
            body.accept(job);
        } catch (RuntimeException e) {
            job.finish(e);
            throw e;
        }
        job.finish(null);
    }

    private void createDatabase(SqlCreateDatabase create, List<DdlWarning> warnings, DdlJobRecord job) {
        String name = create.name().getSimple();
        Collation collation = tableCollation(create.options(), Collation.DEFAULT);
        job.runDdl("create database " + name, (ddl, current) -> {
            if (current.database(name).isPresent()) {
                if (create.ifNotExists()) {
                    warnings.add(DdlWarning.note(ErrorCode.DATABASE_EXISTS, "Can't create database '" + name
                            + "'; database exists"));
                    return null;
                }
                throw new DuetException(ErrorCode.DATABASE_EXISTS, "Can't create database '" + name
                        + "'; database exists");
            }
            DatabaseInfo database = new DatabaseInfo(ddl.nextId(), name, collation);
            ddl.putDatabase(database);
            job.describe(name, "", database.id(), 0, DdlJob.schemaStateText(SchemaState.PUBLIC));
            return null;
        });
    }

    /** ALTER DATABASE ... [DEFAULT] CHARACTER SET / COLLATE: the collation of tables created later that name none. */
    private void alterDatabase(SqlAlterDatabaseOptions alter, DdlJobRecord job) {
        String name = alter.name().getSimple();
        job.runDdl("alter database " + name, (ddl, current) -> {
            DatabaseInfo database = database(current, name);
            Collation collation = tableCollation(alter.options(), database.collation());
            ddl.putDatabase(new DatabaseInfo(database.id(), database.name(), collation));
            job.describe(database.name(), "", database.id(), 0, DdlJob.schemaStateText(SchemaState.PUBLIC));
            return null;
        });
    }

    private void dropDatabase(SqlDropDatabase drop, List<DdlWarning> warnings, DdlJobRecord job) {
        String name = drop.name().getSimple();
        job.runDdl("drop database " + name, (ddl, current) -> {
            DatabaseInfo database = current.database(name).orElse(null);
            if (database == null) {
                if (drop.ifExists()) {
                    warnings.add(DdlWarning.note(ErrorCode.DATABASE_DROP_UNKNOWN, "Can't drop database '" + name
                            + "'; database doesn't exist"));
                    return null;
                }
                throw new DuetException(ErrorCode.DATABASE_DROP_UNKNOWN, "Can't drop database '" + name
                        + "'; database doesn't exist");
            }
            for (TableInfo table : current.tables(database)) {
                ddl.deleteTable(database.id(), table.id());
            }
            ddl.deleteDatabase(database.id());
            job.describe(database.name(), "", database.id(), 0, DdlJob.NO_SCHEMA_STATE);
            return null;
        });
    }

    private void createTable(SqlCreateTable create, String currentDatabase, List<DdlWarning> warnings,
            DdlSettings settings, DdlJobRecord job) {
        String[] name = qualified(create.name(), currentDatabase);
        if (create.likeTable() != null) {
            String[] like = qualified(create.likeTable(), currentDatabase);
            job.runDdl("create table " + name[0] + "." + name[1] + " like " + like[1], (ddl, current) -> {
                DatabaseInfo database = database(current, name[0]);
                if (current.table(name[0], name[1]).isPresent()) {
                    if (create.ifNotExists()) {
                        return null;
                    }
                    throw new DuetException(ErrorCode.TABLE_EXISTS, "Table '" + name[1] + "' already exists");
                }
                TableInfo source = table(current, like);
                long tableId = ddl.nextId();
                // The copies of the source's CHECK constraints take generated names: names are unique in a database.
                Set<String> taken = checkNames(current, database);
                List<CheckConstraint> checks = new ArrayList<>();
                int number = 0;
                for (CheckConstraint check : source.checks()) {
                    String checkName;
                    do {
                        checkName = name[1] + "_chk_" + ++number;
                    } while (!taken.add(checkName.toLowerCase(Locale.ROOT)));
                    checks.add(new CheckConstraint(checkName, check.text(), check.enforced()));
                }
                ddl.putTable(new TableInfo(tableId, database.id(), name[1], source.columns(), source.indexes(),
                        source.handleColumn(), source.nextColumnId(), source.nextIndexId(), source.comment(), 0, null, 0,
                        source.commonHandle(), checks, source.collation()));
                job.describe(database.name(), name[1], database.id(), tableId, DdlJob.schemaStateText(SchemaState.PUBLIC));
                return null;
            });
            return;
        }
        List<SqlColumnDefinition> columnDefinitions = new ArrayList<>();
        List<SqlIndexDefinition> indexDefinitions = new ArrayList<>();
        List<SqlCheckConstraint> checks = new ArrayList<>();
        List<String> checkColumns = new ArrayList<>();
        List<SqlForeignKey> foreignKeyDefinitions = new ArrayList<>();
        for (SqlNode element : create.elements()) {
            if (element instanceof SqlColumnDefinition column) {
                columnDefinitions.add(column);
                for (SqlCheckConstraint check : column.checks()) {
                    checks.add(check);
                    checkColumns.add(column.name().getSimple());
                }
            } else if (element instanceof SqlCheckConstraint check) {
                checks.add(check);
                checkColumns.add(null);
            } else if (element instanceof SqlForeignKey foreignKey) {
                foreignKeyDefinitions.add(foreignKey);
            } else {
                indexDefinitions.add((SqlIndexDefinition) element);
            }
        }
        List<String> primaryKey = null;
        Boolean clustered = null;
        for (SqlColumnDefinition column : columnDefinitions) {
            if (column.key() == SqlIndexDefinition.Kind.PRIMARY) {
                if (primaryKey != null) {
                    throw new DuetException(ErrorCode.MULTIPLE_PRIMARY_KEY, "Multiple primary key defined");
                }
                primaryKey = List.of(column.name().getSimple());
                clustered = column.clustered();
            }
        }
        for (SqlIndexDefinition index : indexDefinitions) {
            if (index.kind() == SqlIndexDefinition.Kind.PRIMARY) {
                if (primaryKey != null) {
                    throw new DuetException(ErrorCode.MULTIPLE_PRIMARY_KEY, "Multiple primary key defined");
                }
                primaryKey = columnNames(index.columns());
                clustered = index.clustered();
            }
        }
        Set<String> primaryColumns = new HashSet<>();
        if (primaryKey != null) {
            for (String column : primaryKey) {
                primaryColumns.add(column.toLowerCase(Locale.ROOT));
            }
        }
        Collation tableCollation = tableCollation(create.options(), catalog.current().database(name[0])
                .map(DatabaseInfo::defaultCollation).orElse(Collation.DEFAULT));
        List<ColumnInfo> columns = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        int autoIncrementColumns = 0;
        for (SqlColumnDefinition definition : columnDefinitions) {
            String columnName = definition.name().getSimple();
            if (!seen.add(columnName.toLowerCase(Locale.ROOT))) {
                throw new DuetException(ErrorCode.DUPLICATE_COLUMN, "Duplicate column name '" + columnName + "'");
            }
            ColumnInfo column = ColumnDefinitions.column(definition, columns.size() + 1, columns.size(),
                    primaryColumns.contains(columnName.toLowerCase(Locale.ROOT)), tableCollation);
            if (column.autoIncrement()) {
                autoIncrementColumns++;
            }
            columns.add(column);
        }
        if (columns.isEmpty()) {
            throw new DuetException(ErrorCode.PARSE_ERROR, "A table must have at least 1 column");
        }
        TableExpressions.checkColumns(columns);
        long nextIndexId = 1;
        List<IndexInfo> indexes = new ArrayList<>();
        Set<String> indexNames = new HashSet<>();
        if (primaryKey != null) {
            checkColumnsExist(primaryKey, seen);
            checkIndexable(primaryKey, columns);
            indexes.add(new IndexInfo(nextIndexId++, IndexInfo.PRIMARY_NAME, primaryKey, true, true, SchemaState.PUBLIC));
            indexNames.add("primary");
        }
        for (SqlColumnDefinition column : columnDefinitions) {
            if (column.key() == SqlIndexDefinition.Kind.UNIQUE) {
                checkIndexable(List.of(column.name().getSimple()), columns);
                String indexName = uniqueName(column.name().getSimple(), indexNames);
                indexes.add(new IndexInfo(nextIndexId++, indexName, List.of(column.name().getSimple()), true, false,
                        SchemaState.PUBLIC));
            }
        }
        for (SqlIndexDefinition index : indexDefinitions) {
            if (index.kind() == SqlIndexDefinition.Kind.PRIMARY) {
                continue;
            }
            List<String> indexColumns = columnNames(index.columns());
            checkColumnsExist(indexColumns, seen);
            checkIndexable(indexColumns, columns);
            // An unnamed index is named after its first column, made unique (uniqueName takes the name).
            String indexName = index.name() != null ? index.name().getSimple() : uniqueName(indexColumns.get(0), indexNames);
            if (index.name() != null && !indexNames.add(indexName.toLowerCase(Locale.ROOT))) {
                throw new DuetException(ErrorCode.DUPLICATE_KEY_NAME, "Duplicate key name '" + indexName + "'");
            }
            indexes.add(new IndexInfo(nextIndexId++, indexName, indexColumns, index.kind() == SqlIndexDefinition.Kind.UNIQUE,
                    false, SchemaState.PUBLIC));
        }
        List<ForeignKey> foreignKeys = ForeignKeys.declared(name, foreignKeyDefinitions, seen);
        for (ForeignKey foreignKey : foreignKeys) {
            // MySQL indexes a foreign key's columns unless an index starts with them.
            if (indexes.stream().noneMatch(index -> index.startsWith(foreignKey.columns()))) {
                String indexName = uniqueName(foreignKey.columns().get(0), indexNames);
                indexes.add(new IndexInfo(nextIndexId++, indexName, foreignKey.columns(), false, false,
                        SchemaState.PUBLIC));
            }
        }
        if (autoIncrementColumns > 1) {
            throw new DuetException(ErrorCode.WRONG_AUTO_KEY, "Incorrect table definition; there can be only one auto"
                    + " column and it must be defined as a key");
        }
        for (ColumnInfo column : columns) {
            if (column.autoIncrement() && indexes.stream().noneMatch(index -> index.columns().get(0)
                    .equalsIgnoreCase(column.name()))) {
                throw new DuetException(ErrorCode.WRONG_AUTO_KEY, "Incorrect table definition; there can be only one"
                        + " auto column and it must be defined as a key");
            }
        }
        String handleColumn = null;
        boolean commonHandle = false;
        if (primaryKey != null) {
            ColumnInfo first = columns.stream().filter(c -> c.name().equalsIgnoreCase(primaryKey0(primaryColumns)))
                    .findFirst().orElseThrow();
            boolean integerKey = primaryKey.size() == 1 && first.type().name().isInteger()
                    && !(first.type().unsigned() && first.type().name() == SqlTypeName.BIGINT);
            if (clustered == null ? settings.clusteredIndexDefault().clusters(integerKey) : clustered) {
                if (integerKey) {
                    handleColumn = first.name();
                } else {
                    commonHandle = true;
                }
            }
        }
        String comment = "";
        long autoIncrementBase = 0;
        for (SqlNode option : create.options()) {
            SqlTableOption tableOption = (SqlTableOption) option;
            switch (tableOption.name()) {
                case "COMMENT" -> comment = tableOption.value();
                case "AUTO_INCREMENT" -> autoIncrementBase = Long.parseLong(tableOption.value()) - 1;
                case "CHARACTER SET", "COLLATE" -> {
                    // tableCollation above
                }
                case "ENGINE", "ROW_FORMAT", "CHECKSUM", "STATS_PERSISTENT",
                        "KEY_BLOCK_SIZE" -> {
                    if (!tableOption.name().equals("ENGINE") || !tableOption.value().equalsIgnoreCase("InnoDB")) {
                        warnings.add(DdlWarning.warning("The table option " + tableOption.name() + "="
                                + tableOption.value() + " is accepted and ignored"));
                    }
                }
                default -> warnings.add(DdlWarning.warning("The table option " + tableOption.name()
                        + " is accepted and ignored"));
            }
        }
        String finalHandle = handleColumn;
        boolean finalCommonHandle = commonHandle;
        String finalComment = comment;
        long finalBase = autoIncrementBase;
        long firstIndexIdAfter = nextIndexId;
        int nextColumnId = columns.size() + 1;
        job.runDdl("create table " + name[0] + "." + name[1], (ddl, current) -> {
            DatabaseInfo database = database(current, name[0]);
            if (current.table(name[0], name[1]).isPresent()) {
                if (create.ifNotExists()) {
                    warnings.add(DdlWarning.note(ErrorCode.TABLE_EXISTS, "Table '" + name[1] + "' already exists"));
                    return null;
                }
                throw new DuetException(ErrorCode.TABLE_EXISTS, "Table '" + name[1] + "' already exists");
            }
            long tableId = ddl.nextId();
            List<CheckConstraint> tableChecks = TableExpressions.checks(name[1], checks, checkColumns, columns,
                    checkNames(current, database));
            TableInfo table = new TableInfo(tableId, database.id(), name[1], columns, indexes, finalHandle,
                    nextColumnId, firstIndexIdAfter, finalComment, finalBase, null, 0, finalCommonHandle, tableChecks,
                    tableCollation, foreignKeys);
            ForeignKeys.validate(current, database.name(), table, foreignKeys, settings.foreignKeyChecks());
            TableExpressions.plan(database, table);
            job.describe(database.name(), name[1], database.id(), tableId, DdlJob.schemaStateText(SchemaState.PUBLIC));
            ddl.putTable(table);
            return null;
        });
    }

    /** ALTER TABLE ADD FOREIGN KEY: kept in the table; the columns it names. */
    private List<String> addForeignKey(String[] name, SqlForeignKey definition, boolean foreignKeyChecks,
            DdlJobRecord job) {
        return job.runDdl("add foreign key to " + name[1], (ddl, current) -> {
            TableInfo table = table(current, name);
            ForeignKey added = foreignKeyAdded(table, name, definition);
            ForeignKeys.validate(current, name[0], table, List.of(added), foreignKeyChecks);
            List<ForeignKey> foreignKeys = new ArrayList<>(table.foreignKeys());
            foreignKeys.add(added);
            ddl.putTable(table.withForeignKeys(foreignKeys));
            job.describe(name[0], table.name(), table.databaseId(), table.id(),
                    DdlJob.schemaStateText(SchemaState.PUBLIC));
            return added.columns();
        });
    }

    private static ForeignKey foreignKeyAdded(TableInfo table, String[] name, SqlForeignKey definition) {
        Set<String> columns = new HashSet<>();
        table.publicColumns().forEach(column -> columns.add(column.name().toLowerCase(Locale.ROOT)));
        return ForeignKeys.added(name, definition, columns, table.foreignKeys());
    }

    /** ALTER TABLE ADD FOREIGN KEY with foreign_key_checks on: every row present must find the row it references. */
    private void checkExistingRows(String[] name, SqlForeignKey definition) {
        InfoSchema current = catalog.current();
        TableInfo table = table(current, name);
        ForeignKey added = foreignKeyAdded(table, name, definition);
        ForeignKeys.validate(current, name[0], table, List.of(added), true);
        try (Transaction snapshot = client.begin(TxnMode.OPTIMISTIC, Isolation.REPEATABLE_READ)) {
            ForeignKeyEnforcer.checkExistingRows(snapshot, current, table, added);
        }
    }

    private void dropForeignKey(String[] name, String constraint, DdlJobRecord job) {
        job.runDdl("drop foreign key " + constraint + " of " + name[1], (ddl, current) -> {
            TableInfo table = table(current, name);
            List<ForeignKey> kept = table.foreignKeys().stream()
                    .filter(foreignKey -> !foreignKey.name().equalsIgnoreCase(constraint)).toList();
            if (kept.size() == table.foreignKeys().size()) {
                throw new DuetException(ErrorCode.CANNOT_DROP_FIELD_OR_KEY, "Can't DROP '" + constraint
                        + "'; check that column/key exists");
            }
            ddl.putTable(table.withForeignKeys(kept));
            job.describe(name[0], table.name(), table.databaseId(), table.id(),
                    DdlJob.schemaStateText(SchemaState.PUBLIC));
            return null;
        });
    }

    /** ALTER TABLE ... [DEFAULT] COLLATE: the collation of columns added or redefined later without one. */
    private void setDefaultCollation(String[] name, Collation collation, DdlJobRecord job) {
        job.runDdl("set default collation of " + name[1], (ddl, current) -> {
            TableInfo table = table(current, name);
            ddl.putTable(table.withCollation(collation));
            job.describe(name[0], table.name(), table.databaseId(), table.id(),
                    DdlJob.schemaStateText(SchemaState.PUBLIC));
            return null;
        });
    }

    /** The default collation that a table's CHARACTER SET and COLLATE options choose ({@code fallback} without). */
    static Collation tableCollation(List<SqlNode> options, Collation fallback) {
        String characterSet = null;
        String collation = null;
        for (SqlNode option : options) {
            SqlTableOption tableOption = (SqlTableOption) option;
            if (tableOption.name().equals("CHARACTER SET")) {
                characterSet = tableOption.value();
            } else if (tableOption.name().equals("COLLATE")) {
                collation = tableOption.value();
            }
        }
        return CharacterSets.collation(characterSet, collation, fallback);
    }

    /** The CHECK constraint names (lower case) in use in a database: MySQL keeps them unique there. */
    static Set<String> checkNames(InfoSchema schema, DatabaseInfo database) {
        Set<String> names = new HashSet<>();
        for (TableInfo table : schema.tables(database)) {
            table.checks().forEach(check -> names.add(check.name().toLowerCase(Locale.ROOT)));
        }
        return names;
    }

    private static String primaryKey0(Set<String> primaryColumns) {
        return primaryColumns.iterator().next();
    }

    private static String uniqueName(String base, Set<String> taken) {
        String candidate = base;
        int suffix = 2;
        while (taken.contains(candidate.toLowerCase(Locale.ROOT))) {
            candidate = base + "_" + suffix++;
        }
        taken.add(candidate.toLowerCase(Locale.ROOT));
        return candidate;
    }

    /** The names of a table's indexes, lower case. */
    private static Set<String> indexNames(InfoSchema schema, String[] name) {
        Set<String> names = new HashSet<>();
        for (IndexInfo index : table(schema, name).indexes()) {
            names.add(index.name().toLowerCase(Locale.ROOT));
        }
        return names;
    }

    /** MySQL indexes a JSON document only through a generated column that extracts a scalar from it. */
    private static void checkIndexable(List<String> keyColumns, List<ColumnInfo> columns) {
        for (String name : keyColumns) {
            for (ColumnInfo column : columns) {
                if (column.name().equalsIgnoreCase(name) && column.type().name() == SqlTypeName.JSON) {
                    throw new DuetException(ErrorCode.JSON_USED_AS_KEY, "JSON column '" + column.name()
                            + "' supports indexing only via generated columns on a specified JSON path.");
                }
            }
        }
    }

    private static void checkColumnsExist(List<String> columns, Set<String> existing) {
        for (String column : columns) {
            if (!existing.contains(column.toLowerCase(Locale.ROOT))) {
                throw new DuetException(ErrorCode.KEY_COLUMN_DOES_NOT_EXIST, "Key column '" + column
                        + "' doesn't exist in table");
            }
        }
    }

    private void dropTable(SqlIdentifier tableName, boolean ifExists, String currentDatabase, List<DdlWarning> warnings,
            DdlJobRecord job) {
        String[] name = qualified(tableName, currentDatabase);
        Integer replicaCount = job.runDdl("drop table " + name[0] + "." + name[1], (ddl, current) -> {
            TableInfo table = current.table(name[0], name[1]).orElse(null);
            if (table == null || table.view() != null) {
                // DROP TABLE of a view is MySQL's "unknown table" too (DROP VIEW drops it).
                if (ifExists) {
                    warnings.add(DdlWarning.note(ErrorCode.BAD_TABLE, "Unknown table '" + name[0] + "." + name[1]
                            + "'"));
                    return 0;
                }
                throw new DuetException(ErrorCode.BAD_TABLE, "Unknown table '" + name[0] + "." + name[1] + "'");
            }
            ddl.deleteTable(table.databaseId(), table.id());
            job.describe(name[0], table.name(), table.databaseId(), table.id(), DdlJob.NO_SCHEMA_STATE);
            return table.columnarReplicas();
        });
        if (replicaCount != null && replicaCount > 0) {
            replicas.sync();
        }
    }

    /** TRUNCATE gives the table a new id: its old rows become unreachable at once. */
    private void truncate(SqlTruncateTable truncate, String currentDatabase, DdlJobRecord job) {
        String[] name = qualified(truncate.table(), currentDatabase);
        int replicaCount = job.runDdl("truncate table " + name[0] + "." + name[1], (ddl, current) -> {
            TableInfo table = table(current, name);
            ddl.deleteTable(table.databaseId(), table.id());
            ddl.putTable(new TableInfo(ddl.nextId(), table.databaseId(), table.name(), table.columns(), table.indexes(),
                    table.handleColumn(), table.nextColumnId(), table.nextIndexId(), table.comment(), 0, null,
                    table.columnarReplicas(), table.commonHandle(), table.checks(), table.collation(),
                    table.foreignKeys()));
            job.describe(name[0], table.name(), table.databaseId(), table.id(), DdlJob.schemaStateText(SchemaState.PUBLIC));
            return table.columnarReplicas();
        });
        if (replicaCount > 0) {
            replicas.sync();
        }
    }

    private void addIndex(SqlIdentifier tableName, String currentDatabase, SqlIndexDefinition.Kind kind, String indexName,
            List<String> columns, boolean ifNotExists, BooleanSupplier cancelled, DdlJobRecord job) {
        String[] name = qualified(tableName, currentDatabase);
        Long indexId = job.runDdl("add index " + indexName + " on " + name[1] + " (delete only)", (ddl, current) -> {
            TableInfo table = table(current, name);
            if (table.index(indexName).isPresent()) {
                if (ifNotExists) {
                    return null;
                }
                throw new DuetException(ErrorCode.DUPLICATE_KEY_NAME, "Duplicate key name '" + indexName + "'");
            }
            for (String column : columns) {
                if (table.column(column).isEmpty()) {
                    throw new DuetException(ErrorCode.KEY_COLUMN_DOES_NOT_EXIST, "Key column '" + column
                            + "' doesn't exist in table");
                }
            }
            checkIndexable(columns, table.columns());
            List<IndexInfo> indexes = new ArrayList<>(table.indexes());
            IndexInfo index = new IndexInfo(table.nextIndexId(), indexName, columns,
                    kind == SqlIndexDefinition.Kind.UNIQUE, false, SchemaState.DELETE_ONLY);
            indexes.add(index);
            ddl.putTable(table.withColumnsAndIndexes(table.columns(), indexes, table.nextColumnId(),
                    table.nextIndexId() + 1));
            job.describe(name[0], table.name(), table.databaseId(), table.id(),
                    DdlJob.schemaStateText(SchemaState.DELETE_ONLY));
            return index.id();
        });
        if (indexId == null) {
            return;
        }
        try {
            checkNotCancelled(cancelled);
            moveIndex(name, indexId, SchemaState.WRITE_ONLY, job);
            checkNotCancelled(cancelled);
            TableInfo reorganizing = moveIndex(name, indexId, SchemaState.WRITE_REORGANIZATION, job);
            backfill(reorganizing, indexId, cancelled, job);
        } catch (RuntimeException e) {
            // Leave no half-built index behind: remove it again.
            job.runDdl("add index " + indexName + " on " + name[1] + " (rolled back)", (ddl, current) -> {
                TableInfo table = table(current, name);
                List<IndexInfo> indexes = new ArrayList<>(table.indexes());
                indexes.removeIf(index -> index.id() == indexId);
                ddl.putTable(table.withColumnsAndIndexes(table.columns(), indexes, table.nextColumnId(),
                        table.nextIndexId()));
                job.schemaState(DdlJob.NO_SCHEMA_STATE);
                return null;
            });
            throw e;
        }
        moveIndex(name, indexId, SchemaState.PUBLIC, job);
    }

    /**
     * ADD COLUMN: delete-only, write-only, public (rows written before read the column's original default). A
     * generated column, or one with an expression default, is computed by every writer once write-only, and in the
     * rows written before by a backfill (write reorganization) before it becomes public.
     */
    private void addColumn(SqlIdentifier tableName, String currentDatabase, SqlAlterTableAddColumn add,
            DdlSettings settings, BooleanSupplier cancelled, DdlJobRecord job) {
        String[] name = qualified(tableName, currentDatabase);
        String columnName = add.column().name().getSimple();
        boolean computed = ColumnDefinitions.column(add.column(), 1, 0, false, Collation.DEFAULT).expression() != null;
        Integer columnId = job.runDdl("add column " + columnName + " to " + name[1], (ddl, current) -> {
            TableInfo table = table(current, name);
            if (table.column(columnName).isPresent()) {
                if (add.ifNotExists()) {
                    return null;
                }
                throw new DuetException(ErrorCode.DUPLICATE_COLUMN, "Duplicate column name '" + columnName + "'");
            }
            if (add.column().key() == SqlIndexDefinition.Kind.PRIMARY) {
                throw new DuetException(ErrorCode.NOT_SUPPORTED_YET, "adding a primary key to an existing table is not"
                        + " supported");
            }
            ColumnInfo column = ColumnDefinitions.column(add.column(), table.nextColumnId(), 0, false,
                    table.defaultCollation());
            if (column.autoIncrement()) {
                throw new DuetException(ErrorCode.NOT_SUPPORTED_YET, "adding an AUTO_INCREMENT column is not"
                        + " supported");
            }
            if (column.expression() != null) {
                List<ColumnInfo> withAdded = new ArrayList<>(table.publicColumns());
                withAdded.add(column);
                TableExpressions.checkColumns(withAdded);
            }
            List<ColumnInfo> ordered = new ArrayList<>(table.publicColumns());
            int position = ordered.size();
            if (add.first()) {
                position = 0;
            } else if (add.after() != null) {
                String after = add.after().getSimple();
                position = -1;
                for (int i = 0; i < ordered.size(); i++) {
                    if (ordered.get(i).name().equalsIgnoreCase(after)) {
                        position = i + 1;
                    }
                }
                if (position < 0) {
                    throw new DuetException(ErrorCode.UNKNOWN_COLUMN, "Unknown column '" + after + "' in '"
                            + table.name() + "'");
                }
            }
            ordered.add(position, column.withState(SchemaState.DELETE_ONLY));
            List<ColumnInfo> columns = ColumnChanges.inPublicOrder(table, ordered);
            ddl.putTable(table.withColumnsAndIndexes(columns, table.indexes(), table.nextColumnId() + 1,
                    table.nextIndexId()));
            job.describe(name[0], table.name(), table.databaseId(), table.id(),
                    DdlJob.schemaStateText(SchemaState.DELETE_ONLY));
            return column.id();
        });
        if (columnId == null) {
            return;
        }
        ColumnStates.move(name, columnId, SchemaState.WRITE_ONLY, job);
        if (computed) {
            ColumnStates.move(name, columnId, SchemaState.WRITE_REORGANIZATION, job);
            try {
                TableInfo reorganizing = table(catalog.current(), name);
                new ColumnBackfill(client, observer).run(reorganizing, settings.rowCompletion().forTable(reorganizing),
                        backfillBatchSize(), cancelled, job);
            } catch (RuntimeException e) {
                ColumnStates.remove(name, columnId, "add column " + columnName + " to " + name[1] + " (rolled back)", job);
                throw e;
            }
        }
        ColumnStates.move(name, columnId, SchemaState.PUBLIC, job);
    }

    /** DROP COLUMN: write-only, delete-only, gone (rows keep the value until rewritten; readers skip it). */
    private void dropColumn(SqlIdentifier tableName, String currentDatabase, String columnName, boolean ifExists,
            DdlJobRecord job) {
        String[] name = qualified(tableName, currentDatabase);
        Integer columnId = job.runDdl("drop column " + columnName + " of " + name[1] + " (write only)",
                (ddl, current) -> {
                    TableInfo table = table(current, name);
                    ColumnInfo column = table.column(columnName).orElse(null);
                    if (column == null || column.state() != SchemaState.PUBLIC) {
                        if (ifExists) {
                            return null;
                        }
                        throw new DuetException(ErrorCode.CANNOT_DROP_FIELD_OR_KEY, "Can't DROP '" + columnName
                                + "'; check that column/key exists");
                    }
                    if (table.publicColumns().size() == 1) {
                        throw new DuetException(ErrorCode.CANNOT_DROP_FIELD_OR_KEY, "You can't delete all columns"
                                + " with ALTER TABLE; use DROP TABLE instead");
                    }
                    TableExpressions.checkNoDependents(table, column);
                    for (IndexInfo index : table.indexes()) {
                        for (String indexed : index.columns()) {
                            if (indexed.equalsIgnoreCase(columnName)) {
                                throw new DuetException(ErrorCode.NOT_SUPPORTED_YET, "can't drop column " + columnName
                                        + ": index " + index.name() + " covers it; drop the index first");
                            }
                        }
                    }
                    List<ColumnInfo> columns = new ArrayList<>();
                    for (ColumnInfo existing : table.columns()) {
                        columns.add(existing.id() == column.id() ? existing.withState(SchemaState.WRITE_ONLY) : existing);
                    }
                    ddl.putTable(table.withColumnsAndIndexes(columns, table.indexes(), table.nextColumnId(),
                            table.nextIndexId()));
                    job.describe(name[0], table.name(), table.databaseId(), table.id(),
                            DdlJob.schemaStateText(SchemaState.WRITE_ONLY));
                    return column.id();
                });
        if (columnId == null) {
            return;
        }
        ColumnStates.move(name, columnId, SchemaState.DELETE_ONLY, job);
        ColumnStates.remove(name, columnId, "drop column " + columnName + " of " + name[1] + " (removed)", job);
    }

    private void rename(SqlIdentifier from, SqlIdentifier to, String currentDatabase, DdlJobRecord job) {
        String[] source = qualified(from, currentDatabase);
        String[] target = qualified(to, currentDatabase);
        job.runDdl("rename table " + source[0] + "." + source[1] + " to " + target[0] + "." + target[1],
                (ddl, current) -> {
                    TableInfo table = tableOrView(current, source);
                    DatabaseInfo database = database(current, target[0]);
                    if (current.table(target[0], target[1]).isPresent()) {
                        throw new DuetException(ErrorCode.TABLE_EXISTS, "Table '" + target[1] + "' already exists");
                    }
                    ddl.deleteTable(table.databaseId(), table.id());
                    ddl.putTable(table.withDatabase(database.id(), target[1]));
                    job.describe(database.name(), target[1], database.id(), table.id(),
                            DdlJob.schemaStateText(SchemaState.PUBLIC));
                    return null;
                });
    }

    private TableInfo moveIndex(String[] name, long indexId, SchemaState state, DdlJobRecord job) {
        return job.runDdl("index " + indexId + " of " + name[1] + " to " + state, (ddl, current) -> {
            TableInfo table = table(current, name);
            List<IndexInfo> indexes = new ArrayList<>();
            for (IndexInfo index : table.indexes()) {
                indexes.add(index.id() == indexId ? index.withState(state) : index);
            }
            TableInfo updated = table.withColumnsAndIndexes(table.columns(), indexes, table.nextColumnId(),
                    table.nextIndexId());
            ddl.putTable(updated);
            job.schemaState(DdlJob.schemaStateText(state));
            return updated;
        });
    }

    /** Writes the index entries of every existing row, a page per transaction, reporting progress. */
    private void backfill(TableInfo table, long indexId, BooleanSupplier cancelled, DdlJobRecord job) {
        new IndexBackfill(client, observer, backfillSlots).run(table, indexId, backfillBatchSize(), backfillWorkers(),
                fastReorg(), cancelled, job);
    }

    /** SET GLOBAL tidb_ddl_enable_fast_reorg's value (ON by default, as TiDB's): non-unique indexes are imported. */
    private boolean fastReorg() {
        String value = catalog.current().globalVariables().get(TidbVariables.DDL_ENABLE_FAST_REORG);
        return value == null || !value.equalsIgnoreCase("OFF");
    }

    /** SET GLOBAL tidb_ddl_reorg_worker_cnt's value (4 by default, as TiDB's): backfill transactions at once. */
    private int backfillWorkers() {
        String value = catalog.current().globalVariables().get(TidbVariables.DDL_REORG_WORKER_COUNT);
        return value == null ? DEFAULT_BACKFILL_WORKERS : Integer.parseInt(value);
    }

    /** SET GLOBAL tidb_ddl_reorg_batch_size's value, else the server's configured backfill batch size. */
    private int backfillBatchSize() {
        String value = catalog.current().globalVariables().get(TidbVariables.DDL_REORG_BATCH_SIZE);
        return value == null ? backfillBatchSize : Integer.parseInt(value);
    }

    private static void checkNotCancelled(BooleanSupplier cancelled) {
        if (cancelled.getAsBoolean()) {
            throw new DuetException(ErrorCode.QUERY_INTERRUPTED, "Query execution was interrupted");
        }
    }

    private void dropIndex(SqlIdentifier tableName, String currentDatabase, String indexName, boolean ifExists,
            DdlJobRecord job) {
        String[] name = qualified(tableName, currentDatabase);
        job.runDdl("drop index " + indexName + " on " + name[1], (ddl, current) -> {
            TableInfo table = table(current, name);
            IndexInfo index = table.index(indexName).orElse(null);
            if (index == null) {
                if (ifExists) {
                    return null;
                }
                throw new DuetException(ErrorCode.CANNOT_DROP_FIELD_OR_KEY, "Can't DROP '" + indexName
                        + "'; check that column/key exists");
            }
            if (index.primary()) {
                throw new DuetException(ErrorCode.NOT_SUPPORTED_YET, "dropping a primary key is not supported");
            }
            List<IndexInfo> indexes = new ArrayList<>(table.indexes());
            indexes.remove(index);
            ddl.putTable(table.withColumnsAndIndexes(table.columns(), indexes, table.nextColumnId(),
                    table.nextIndexId()));
            job.describe(name[0], table.name(), table.databaseId(), table.id(), DdlJob.NO_SCHEMA_STATE);
            return null;
        });
    }

    static List<String> columnNames(SqlNodeList list) {
        List<String> names = new ArrayList<>();
        for (SqlNode node : list) {
            names.add(((SqlIdentifier) node).getSimple());
        }
        return names;
    }

    static String[] qualified(SqlIdentifier identifier, String currentDatabase) {
        if (identifier.names.size() >= 2) {
            return new String[] {identifier.names.get(identifier.names.size() - 2),
                    identifier.names.get(identifier.names.size() - 1)};
        }
        if (currentDatabase == null) {
            throw new DuetException(ErrorCode.NO_DATABASE_SELECTED, "No database selected");
        }
        return new String[] {currentDatabase, identifier.getSimple()};
    }

    private static DatabaseInfo database(InfoSchema schema, String name) {
        return schema.database(name).orElseThrow(() -> new DuetException(ErrorCode.UNKNOWN_DATABASE,
                "Unknown database '" + name + "'"));
    }

    /** A base table: a view is MySQL's 1347 to the statements that change tables' definitions or rows. */
    static TableInfo table(InfoSchema schema, String[] name) {
        TableInfo table = tableOrView(schema, name);
        if (table.view() != null) {
            throw new DuetException(ErrorCode.WRONG_OBJECT, "'" + name[0] + "." + name[1] + "' is not BASE TABLE");
        }
        return table;
    }

    private static TableInfo tableOrView(InfoSchema schema, String[] name) {
        database(schema, name[0]);
        return schema.table(name[0], name[1]).orElseThrow(() -> new DuetException(ErrorCode.UNKNOWN_TABLE,
                "Table '" + name[0] + "." + name[1] + "' doesn't exist"));
    }
}
