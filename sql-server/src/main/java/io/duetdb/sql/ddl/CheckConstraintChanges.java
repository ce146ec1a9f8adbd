package io.duetdb.sql.ddl;

import static java.util.Objects.requireNonNull;

import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.UnaryOperator;

import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.sql.SqlSelect;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.duetdb.client.txn.TxnClient;
import io.duetdb.common.catalog.CheckConstraint;
import io.duetdb.common.catalog.DatabaseInfo;
import io.duetdb.common.catalog.SchemaState;
import io.duetdb.common.catalog.TableInfo;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.sql.catalog.Catalog;
import io.duetdb.sql.catalog.DdlJob;
import io.duetdb.sql.catalog.InfoSchema;
import io.duetdb.sql.exec.ExpressionCompiler;
import io.duetdb.sql.exec.RowExpression;
import io.duetdb.sql.exec.SessionFunctions;
import io.duetdb.sql.exec.TableAccess;
import io.duetdb.sql.parser.StatementParser;
import io.duetdb.sql.parser.ddl.SqlCheckConstraint;
import io.duetdb.sql.prepare.CalciteCatalog;
import io.duetdb.sql.prepare.MySqlConditions;
import io.duetdb.sql.prepare.QueryPlanner;

/**
 * ALTER TABLE's CHECK constraint actions. A constraint that starts to be enforced (ADD, ALTER ... ENFORCED) is
 * published first, so that writers keep to it, and then tested against every row at one snapshot taken after;
 * when a row violates it, the change is put back and the statement fails with 3819, as MySQL's does.
 */
final class CheckConstraintChanges {
    private static final Logger LOG = LoggerFactory.getLogger(CheckConstraintChanges.class);

    private final Catalog catalog;
    private final TxnClient client;

    CheckConstraintChanges(Catalog catalog, TxnClient client) {
        this.catalog = requireNonNull(catalog, "catalog is null");
        this.client = requireNonNull(client, "client is null");
    }

    void add(String[] name, SqlCheckConstraint written, String column, BooleanSupplier cancelled, DdlJobRecord job) {
        CheckConstraint added = change(name, "add check", table -> {
            DatabaseInfo database = catalog.current().database(table.databaseId()).orElseThrow();
            List<CheckConstraint> checks = new ArrayList<>(table.checks());
            CheckConstraint check = TableExpressions.checks(table.name(), List.of(written),
                    Collections.singletonList(column), table.publicColumns(),
                    DdlExecutor.checkNames(catalog.current(), database)).get(0);
            checks.add(check);
            TableInfo changed = table.withChecks(checks);
            TableExpressions.plan(database, changed);
            return changed;
        }, job, written.name() == null ? null : written.name().getSimple());
        if (added.enforced()) {
            verify(name, added, true, cancelled, job);
        }
    }

    void drop(String[] name, String checkName, DdlJobRecord job) {
        change(name, "drop check " + checkName, table -> {
            CheckConstraint check = find(table, checkName);
            List<CheckConstraint> checks = new ArrayList<>(table.checks());
            checks.remove(check);
            return table.withChecks(checks);
        }, job, checkName);
    }

    void alter(String[] name, String checkName, boolean enforced, BooleanSupplier cancelled, DdlJobRecord job) {
        CheckConstraint before = find(DdlExecutor.table(catalog.current(), name), checkName);
        CheckConstraint after = change(name, "alter check " + checkName, table -> replaced(table,
                find(table, checkName).withEnforced(enforced)), job, checkName);
        if (enforced && !before.enforced()) {
            verify(name, after, false, cancelled, job);
        }
    }

    private static TableInfo replaced(TableInfo table, CheckConstraint check) {
        List<CheckConstraint> checks = new ArrayList<>();
        for (CheckConstraint existing : table.checks()) {
            checks.add(existing.name().equalsIgnoreCase(check.name()) ? check : existing);
        }
        return table.withChecks(checks);
    }

    private static CheckConstraint find(TableInfo table, String checkName) {
        return table.checks().stream().filter(check -> check.name().equalsIgnoreCase(checkName)).findFirst()
                .orElseThrow(() -> new DuetException(ErrorCode.CHECK_CONSTRAINT_NOT_FOUND, "Check constraint '"
                        + checkName + "' is not found in the table."));
    }

    /** Publishes {@code change} of the table; returns the constraint named {@code checkName} (or the one added). */
    private CheckConstraint change(String[] name, String description, UnaryOperator<TableInfo> change,
            DdlJobRecord job, String checkName) {
        return job.runDdl(description + " of " + name[0] + "." + name[1], (ddl, current) -> {
            TableInfo table = DdlExecutor.table(current, name);
            TableInfo changed = change.apply(table);
            ddl.putTable(changed);
            job.describe(name[0], table.name(), table.databaseId(), table.id(),
                    DdlJob.schemaStateText(SchemaState.PUBLIC));
            if (checkName == null) {
                return changed.checks().get(changed.checks().size() - 1);
            }
            return changed.checks().stream().filter(check -> check.name().equalsIgnoreCase(checkName)).findFirst()
                    .orElse(null);
        });
    }

    /**
     * Tests every row against {@code check}; on a violation, takes the change back ({@code added}: the constraint
     * is removed, else it is no longer enforced) and fails.
     */
    private void verify(String[] name, CheckConstraint check, boolean added, BooleanSupplier cancelled,
            DdlJobRecord job) {
        TableInfo table = DdlExecutor.table(catalog.current(), name);
        try {
            long rows = scan(table, check, cancelled, job);
            LOG.info("Checked {} rows of {}.{} against CHECK constraint {}", rows, name[0], name[1], check.name());
        } catch (RuntimeException e) {
            job.runDdl("check " + check.name() + " of " + name[1] + " (rolled back)", (ddl, current) -> {
                TableInfo now = DdlExecutor.table(current, name);
                List<CheckConstraint> checks = new ArrayList<>();
                for (CheckConstraint existing : now.checks()) {
                    if (!existing.name().equalsIgnoreCase(check.name())) {
                        checks.add(existing);
                    } else if (!added) {
                        checks.add(existing.withEnforced(false));
                    }
                }
                ddl.putTable(now.withChecks(checks));
                job.schemaState(DdlJob.NO_SCHEMA_STATE);
                return null;
            });
            throw e;
        }
    }

    private long scan(TableInfo table, CheckConstraint check, BooleanSupplier cancelled, DdlJobRecord job) {
        InfoSchema schema = catalog.current();
        DatabaseInfo database = schema.database(table.databaseId()).orElseThrow();
        SqlSelect select = (SqlSelect) StatementParser.parse("SELECT (" + check.text() + ") FROM `"
                + database.name().replace("`", "``") + "`.`" + table.name().replace("`", "``") + "`");
        select.getSelectList().set(0, MySqlConditions.condition(select.getSelectList().get(0)));
        RelNode plan = new QueryPlanner(new CalciteCatalog(schema), database.name()).plan(select).plan();
        if (!(plan instanceof Project project) || !(project.getInput() instanceof TableScan)) {
            throw new DuetException(ErrorCode.NOT_SUPPORTED_YET, "CHECK constraint '" + check.name() + "' needs more"
                    + " than the row; it is not supported yet");
        }
        RowExpression condition = new ExpressionCompiler(plan.getCluster().getRexBuilder(),
                new ConstraintFunctions(database.name()), List.of()).compile(project.getProjects().get(0));
        TableAccess access = new TableAccess(table);
        return new ColumnValueCheck(client).forEachRow(table, cancelled, job, (row, number) -> {
            if (Boolean.FALSE.equals(condition.evaluate(access.publicValues(row)))) {
                throw new DuetException(ErrorCode.CHECK_CONSTRAINT_VIOLATED, "Check constraint '" + check.name()
                        + "' is violated.");
            }
        });
    }

    /** A CHECK condition is deterministic: it reads no session state, so a DDL job's answers stand in. */
    private record ConstraintFunctions(String currentDatabase) implements SessionFunctions {
        @Override
        public long connectionId() {
            return 0;
        }

        @Override
        public long lastInsertId() {
            return 0;
        }

        @Override
        public String user() {
            return "";
        }

        @Override
        public String serverVersion() {
            return "";
        }

        @Override
        public LocalDateTime statementTime() {
            return LocalDateTime.of(1970, 1, 1, 0, 0);
        }

        @Override
        public Object systemVariable(String scope, String name) {
            return null;
        }

        @Override
        public void checkNotKilled() {
        }

        @Override
        public long sleep(double seconds) {
            return 0;
        }
    }
}
