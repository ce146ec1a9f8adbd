package io.duetdb.sql.ddl;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.duetdb.common.catalog.ColumnInfo;
import io.duetdb.common.catalog.DatabaseInfo;
import io.duetdb.common.catalog.SchemaState;
import io.duetdb.common.catalog.TableInfo;
import io.duetdb.common.catalog.ViewInfo;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.sql.catalog.Catalog;
import io.duetdb.sql.catalog.DdlJob;
import io.duetdb.sql.catalog.InfoSchema;
import io.duetdb.sql.parser.StatementParser;
import io.duetdb.sql.parser.ddl.SqlCreateView;
import io.duetdb.sql.prepare.CalciteCatalog;
import io.duetdb.sql.prepare.QueryPlanner;
import io.duetdb.sql.prepare.TypeMapping;

/**
 * CREATE [OR REPLACE] VIEW, ALTER VIEW and DROP VIEW. A view is a catalog table with view info (as TiDB stores it):
 * its query's text, the database its unqualified names resolve in, MySQL's view attributes, and its columns, named
 * by the column list or the select items and typed by the query, which is planned first so that a view over an
 * unknown table (1146) or column (1054) is never created.
 */
final class ViewDdl {
    private static final Logger LOG = LoggerFactory.getLogger(ViewDdl.class);
    /** MySQL names a view column after a longer expression Name_exp_N. */
    private static final int MAX_EXPRESSION_NAME = 64;

    private final Catalog catalog;

    ViewDdl(Catalog catalog) {
        this.catalog = requireNonNull(catalog, "catalog is null");
    }

    void create(SqlCreateView create, String currentDatabase, DdlJobRecord job) {
        String[] name = DdlExecutor.qualified(create.name(), currentDatabase);
        InfoSchema schema = catalog.current();
        QueryPlanner.PlannedQuery planned = new QueryPlanner(new CalciteCatalog(schema), currentDatabase)
                .plan(StatementParser.parse(create.definition()));
        List<ColumnInfo> columns = columns(create, planned);
        SqlCreateView.Options options = create.options();
        ViewInfo view = new ViewInfo(create.definition(), currentDatabase,
                options.algorithm() == null ? "UNDEFINED" : options.algorithm(),
                requireNonNull(options.definer(), "the session sets the definer"),
                options.security() == null ? "DEFINER" : options.security(),
                create.checkOption() == null ? "NONE" : create.checkOption(), "utf8mb4", "utf8mb4_bin");
        Optional<TableInfo> replaced = schema.table(name[0], name[1]).filter(table -> table.view() != null);
        if (replaced.isPresent() && create.replace()) {
            refuseRecursion(schema, replaced.get(), columns, view, name);
        }
        job.runDdl((create.alter() ? "alter view " : "create view ") + name[0] + "." + name[1], (ddl, current) -> {
            DatabaseInfo database = current.database(name[0]).orElseThrow(() -> new DuetException(
                    ErrorCode.UNKNOWN_DATABASE, "Unknown database '" + name[0] + "'"));
            TableInfo existing = current.table(name[0], name[1]).orElse(null);
            long id;
            if (existing == null) {
                if (create.alter()) {
                    throw new DuetException(ErrorCode.UNKNOWN_TABLE, "Table '" + name[0] + "." + name[1]
                            + "' doesn't exist");
                }
                id = ddl.nextId();
            } else if (existing.view() == null) {
                if (create.alter() || create.replace()) {
                    throw notView(name);
                }
                throw new DuetException(ErrorCode.TABLE_EXISTS, "Table '" + name[1] + "' already exists");
            } else if (!create.replace()) {
                throw new DuetException(ErrorCode.TABLE_EXISTS, "Table '" + name[1] + "' already exists");
            } else {
                id = existing.id();
            }
            ddl.putTable(TableInfo.view(id, database.id(), existing == null ? name[1] : existing.name(), columns, view));
            job.describe(database.name(), name[1], database.id(), id, DdlJob.schemaStateText(SchemaState.PUBLIC));
            return null;
        });
        LOG.info("View {}.{} defined with {} column(s)", name[0], name[1], columns.size());
    }

    /**
     * MySQL's 1462 for a view whose new query reads the view itself: the query planned against the schema with the
     * new definition in place meets the view again while deriving its columns.
     */
    private static void refuseRecursion(InfoSchema schema, TableInfo replaced, List<ColumnInfo> columns, ViewInfo view,
            String[] name) {
        List<TableInfo> tables = new ArrayList<>();
        for (DatabaseInfo database : schema.allDatabases()) {
            for (TableInfo table : schema.tables(database)) {
                tables.add(table.id() == replaced.id()
                        ? TableInfo.view(table.id(), table.databaseId(), table.name(), columns, view) : table);
            }
        }
        InfoSchema withView = new InfoSchema(schema.version(), schema.allDatabases(), tables, schema.users());
        new QueryPlanner(new CalciteCatalog(withView), name[0]).plan(StatementParser.parse(
                "SELECT * FROM `" + name[0].replace("`", "``") + "`.`" + name[1].replace("`", "``") + "`"));
    }

    /** The view's columns: named by the column list or as MySQL names the select items, typed by the query. */
    private static List<ColumnInfo> columns(SqlCreateView create, QueryPlanner.PlannedQuery planned) {
        List<RelDataTypeField> fields = planned.rowType().getFieldList();
        List<String> names;
        if (create.columns() != null) {
            if (create.columns().size() != fields.size()) {
                throw new DuetException(ErrorCode.VIEW_WRONG_LIST, "In definition of view, derived table or common"
                        + " table expression, SELECT list and column names list have different column counts");
            }
            names = create.columns().stream().map(column -> ((SqlIdentifier) column).getSimple()).toList();
        } else {
            names = selectItemNames(create.definition(), fields);
        }
        List<ColumnInfo> columns = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < fields.size(); i++) {
            String name = names.get(i);
            if (!seen.add(name.toLowerCase(Locale.ROOT))) {
                throw new DuetException(ErrorCode.DUPLICATE_COLUMN, "Duplicate column name '" + name + "'");
            }
            RelDataTypeField field = fields.get(i);
            columns.add(new ColumnInfo(i + 1, name, i, TypeMapping.fromCalcite(field.getType()),
                    !field.getType().isNullable(), false, null, false, false, false, "", SchemaState.PUBLIC));
        }
        return columns;
    }

    /**
     * The names MySQL gives a view's columns without a column list: a select item's alias, its column's name, or its
     * text (Name_exp_N when longer than 64 characters); for other queries (UNION, SELECT *) the planner's names.
     */
    private static List<String> selectItemNames(String definition, List<RelDataTypeField> fields) {
        List<String> planned = fields.stream().map(RelDataTypeField::getName).toList();
        SqlNode query = StatementParser.parse(definition);
        SqlNode body = query instanceof SqlOrderBy orderBy ? orderBy.query : query;
        if (!(body instanceof SqlSelect select) || select.getSelectList().size() != fields.size()) {
            return planned;
        }
        List<String> names = new ArrayList<>();
        for (int i = 0; i < fields.size(); i++) {
            SqlNode item = select.getSelectList().get(i);
            if (item instanceof SqlIdentifier identifier) {
                if (identifier.isStar()) {
                    return planned;
                }
                names.add(identifier.names.get(identifier.names.size() - 1));
            } else if (item.getKind() == SqlKind.AS) {
                names.add(((SqlIdentifier) ((SqlCall) item).operand(1)).getSimple());
            } else {
                String text = text(definition, item.getParserPosition());
                names.add(text == null || text.length() > MAX_EXPRESSION_NAME ? "Name_exp_" + (i + 1) : text);
            }
        }
        return names;
    }

    private static String text(String sql, SqlParserPos position) {
        try {
            return SqlCreateView.text(sql, position.getLineNum(), position.getColumnNum(), position.getEndLineNum(),
                    position.getEndColumnNum());
        } catch (IndexOutOfBoundsException e) {
            return null;
        }
    }

    void drop(SqlIdentifier viewName, boolean ifExists, String currentDatabase, List<DdlWarning> warnings,
            DdlJobRecord job) {
        String[] name = DdlExecutor.qualified(viewName, currentDatabase);
        job.runDdl("drop view " + name[0] + "." + name[1], (ddl, current) -> {
            TableInfo table = current.table(name[0], name[1]).orElse(null);
            if (table == null) {
                if (ifExists) {
                    warnings.add(DdlWarning.note(ErrorCode.BAD_TABLE, "Unknown table '" + name[0] + "." + name[1] + "'"));
                    return null;
                }
                throw new DuetException(ErrorCode.BAD_TABLE, "Unknown table '" + name[0] + "." + name[1] + "'");
            }
            if (table.view() == null) {
                throw notView(name);
            }
            ddl.deleteTable(table.databaseId(), table.id());
            job.describe(name[0], table.name(), table.databaseId(), table.id(), DdlJob.NO_SCHEMA_STATE);
            return null;
        });
    }

    static DuetException notView(String[] name) {
        return new DuetException(ErrorCode.WRONG_OBJECT, "'" + name[0] + "." + name[1] + "' is not VIEW");
    }
}
