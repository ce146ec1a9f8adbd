package io.duetdb.sql.prepare;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelRoot;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.TranslatableTable;
import org.apache.calcite.schema.impl.AbstractTable;

import io.duetdb.common.catalog.ColumnInfo;
import io.duetdb.common.catalog.DatabaseInfo;
import io.duetdb.common.catalog.TableInfo;
import io.duetdb.common.catalog.ViewInfo;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;

/**
 * A view as Calcite sees it: a table whose rows are its query's. Its columns are the view's names with the types of
 * its query, validated the first time they are asked for; planning replaces the view by its query's plan
 * (QueryPlanner expands it), so filters and projections over the view reach the tables it reads.
 */
public final class DuetView extends AbstractTable implements TranslatableTable {
    private final DatabaseInfo database;
    private final TableInfo table;
    private final Function<DuetView, RelDataType> queryRowType;
    private volatile RelDataType rowType;
    /** The threads deriving the row type now: one that meets the view again is in a recursion. No lock is held. */
    private final Set<Thread> deriving = ConcurrentHashMap.newKeySet();

    /** {@code queryRowType}: the row type of the view's query, validated in the catalog the view belongs to. */
    DuetView(DatabaseInfo database, TableInfo table, Function<DuetView, RelDataType> queryRowType) {
        this.database = requireNonNull(database, "database is null");
        this.table = requireNonNull(table, "table is null");
        this.queryRowType = requireNonNull(queryRowType, "queryRowType is null");
        requireNonNull(table.view(), "table is not a view");
    }

    public DatabaseInfo database() {
        return database;
    }

    public TableInfo table() {
        return table;
    }

    public ViewInfo view() {
        return table.view();
    }

    @Override
    public RelDataType getRowType(RelDataTypeFactory typeFactory) {
        RelDataType known = rowType;
        if (known != null) {
            return known;
        }
        Thread thread = Thread.currentThread();
        if (!deriving.add(thread)) {
            // The view's query reads the view itself, through other views or directly.
            throw new DuetException(ErrorCode.VIEW_RECURSIVE, "`" + database.name() + "`.`" + table.name()
                    + "` contains view recursion");
        }
        RelDataType query;
        try {
            query = queryRowType.apply(this);
        } catch (DuetException e) {
            if (e.code() == ErrorCode.VIEW_RECURSIVE) {
                throw e;
            }
            throw invalid();
        } finally {
            deriving.remove(thread);
        }
        List<ColumnInfo> columns = table.columns();
        if (query.getFieldCount() != columns.size()) {
            throw invalid();
        }
        RelDataTypeFactory.Builder builder = typeFactory.builder();
        for (int i = 0; i < columns.size(); i++) {
            builder.add(columns.get(i).name(), query.getFieldList().get(i).getType());
        }
        RelDataType built = builder.build();
        rowType = built;
        return built;
    }

    /** MySQL's 1356: the view's query no longer validates (a table or column it reads went away). */
    DuetException invalid() {
        return new DuetException(ErrorCode.VIEW_INVALID, "View '" + database.name() + "." + table.name()
                + "' references invalid table(s) or column(s) or function(s) or definer/invoker of view lack rights"
                + " to use them");
    }

    @Override
    public RelNode toRel(RelOptTable.ToRelContext context, RelOptTable relOptTable) {
        ViewInfo view = table.view();
        RelRoot root = context.expandView(relOptTable.getRowType(), view.definition(),
                view.resolveIn() == null ? List.of() : List.of(view.resolveIn()), List.of(database.name(), table.name()));
        return RelOptUtil.createCastRel(root.project(), relOptTable.getRowType(), true);
    }
}
