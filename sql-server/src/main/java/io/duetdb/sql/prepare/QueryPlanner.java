package io.duetdb.sql.prepare;

import static java.util.Objects.requireNonNull;

import java.util.List;

import org.apache.calcite.config.NullCollation;
import org.apache.calcite.plan.ConventionTraitDef;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.hep.HepPlanner;
import org.apache.calcite.plan.hep.HepProgram;
import org.apache.calcite.plan.hep.HepProgramBuilder;
import org.apache.calcite.plan.volcano.VolcanoPlanner;
import org.apache.calcite.prepare.CalciteCatalogReader;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelRoot;
import org.apache.calcite.rel.rules.CoreRules;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.fun.SqlLibrary;
import org.apache.calcite.sql.fun.SqlLibraryOperatorTableFactory;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.util.SqlOperatorTables;
import org.apache.calcite.sql.validate.SqlConformanceEnum;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.SqlValidatorUtil;
import org.apache.calcite.sql2rel.RelDecorrelator;
import org.apache.calcite.sql2rel.SqlToRelConverter;
import org.apache.calcite.rel.core.RelFactories;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.duetdb.common.error.DuetException;

import io.duetdb.sql.parser.StatementParser;

/**
 * Validates a query against one schema version and turns it into a logical plan: Calcite's validator with
 * MySQL's conformance and functions, SQL-to-relational conversion, sub-query removal and decorrelation, then a
 * few rule-based rewrites. One planner per query (Calcite's validator and planners are not thread-safe).
 */
public final class QueryPlanner {
    private static final Logger LOG = LoggerFactory.getLogger(QueryPlanner.class);
    // DuetDB's operators first: the validator re-resolves operators by name, and MySQL's "/" must win.
    private static final SqlOperatorTable OPERATORS = new ColumnsBeforeNiladicFunctions(SqlOperatorTables.chain(
            DuetFunctions.OPERATORS, JsonFunctions.OPERATORS, DateTimeFunctions.OPERATORS, MySqlCollations.OPERATORS,
            SqlStdOperatorTable.instance(),
            SqlLibraryOperatorTableFactory.INSTANCE.getOperatorTable(SqlLibrary.MYSQL)));
    private static final HepProgram SUB_QUERY_PROGRAM = new HepProgramBuilder()
            .addRuleInstance(CoreRules.FILTER_SUB_QUERY_TO_CORRELATE)
            .addRuleInstance(CoreRules.PROJECT_SUB_QUERY_TO_CORRELATE)
            .addRuleInstance(CoreRules.JOIN_SUB_QUERY_TO_CORRELATE)
            .build();
    private static final HepProgram REWRITE_PROGRAM = new HepProgramBuilder()
            .addRuleInstance(CoreRules.PROJECT_TO_LOGICAL_PROJECT_AND_WINDOW)
            .addRuleInstance(CoreRules.FILTER_PROJECT_TRANSPOSE)
            .addRuleInstance(CoreRules.FILTER_INTO_JOIN)
            .addRuleInstance(CoreRules.JOIN_CONDITION_PUSH)
            .addRuleInstance(CoreRules.FILTER_MERGE)
            .addRuleInstance(CoreRules.PROJECT_MERGE)
            .addRuleInstance(CoreRules.PROJECT_REMOVE)
            .build();
    /**
     * Join order: inner joins are gathered into one multi-join and ordered by Calcite's LoptOptimizeJoinRule,
     * which joins the inputs with conditions between them first and weighs their row counts (ANALYZE's, when the
     * tables have statistics); then the filters and projections the reordering leaves are tidied again.
     */
    private static final HepProgram JOIN_ORDER_PROGRAM = new HepProgramBuilder()
            .addMatchOrder(org.apache.calcite.plan.hep.HepMatchOrder.BOTTOM_UP)
            .addRuleInstance(CoreRules.JOIN_TO_MULTI_JOIN)
            .addRuleInstance(CoreRules.PROJECT_MULTI_JOIN_MERGE)
            .addRuleInstance(CoreRules.FILTER_MULTI_JOIN_MERGE)
            .addRuleInstance(CoreRules.MULTI_JOIN_OPTIMIZE)
            .build();

    private final CalciteCatalog catalog;
    private final String defaultDatabase;
    private final SqlMode sqlMode;

    public QueryPlanner(CalciteCatalog catalog, String defaultDatabase) {
        this(catalog, defaultDatabase, SqlMode.DEFAULT);
    }

    public QueryPlanner(CalciteCatalog catalog, String defaultDatabase, SqlMode sqlMode) {
        this.catalog = requireNonNull(catalog, "catalog is null");
        this.defaultDatabase = defaultDatabase;
        this.sqlMode = requireNonNull(sqlMode, "sqlMode is null");
    }

    /**
     * A validated and converted query: its plan and the validated tree (for column labels and origins), and the tables
     * and views whose SELECT privilege a reader needs: those it names, and those that views of SQL SECURITY INVOKER
     * read (a DEFINER view's tables are its definer's business).
     */
    public record PlannedQuery(RelNode plan, RelDataType rowType, List<List<String>> fieldOrigins,
            SqlNode validated, List<TableRead> reads) {
        public PlannedQuery {
            reads = List.copyOf(reads);
        }
    }

    /** A table or view a query reads. */
    public record TableRead(String database, String table, boolean view) {
    }

    public PlannedQuery plan(SqlNode query) {
        try {
            return planValidated(query);
        } catch (DuetException e) {
            throw e;
        } catch (RuntimeException e) {
            // Calcite refused or failed on something its validator let through: say what, in MySQL's terms.
            DuetException unsupported = ValidationErrors.unsupported(query, e);
            LOG.info("Planning failed, reported as {}: {}", unsupported.code().errorNumber(), e.toString());
            throw unsupported;
        }
    }

    private PlannedQuery planValidated(SqlNode query) {
        java.util.Set<TableRead> reads = new java.util.LinkedHashSet<>();
        CalciteCatalogReader reader = catalog.reader(defaultDatabase, table -> record(table, reads));
        SqlValidator validator = validator(reader);
        SqlNode validated = validate(validator, query);
        RelDataType rowType = validator.getValidatedNodeType(validated);
        List<List<String>> origins = validator.getFieldOrigins(validated);

        VolcanoPlanner planner = new VolcanoPlanner();
        planner.addRelTraitDef(ConventionTraitDef.INSTANCE);
        RelOptCluster cluster = RelOptCluster.create(planner, new RexBuilder(catalog.typeFactory()));
        cluster.setMetadataProvider(StatisticsMetadata.PROVIDER);
        cluster.setMetadataQuerySupplier(StatisticsMetadata::query);
        SqlToRelConverter converter = converter(validator, reader, cluster, reads);
        RelRoot root = converter.convertQuery(validated, false, true);
        RelNode plan = root.project();
        if (containsSubQuery(plan)) {
            HepPlanner hep = new HepPlanner(SUB_QUERY_PROGRAM);
            hep.setRoot(plan);
            plan = hep.findBestExp();
            plan = RelDecorrelator.decorrelateQuery(plan, RelFactories.LOGICAL_BUILDER.create(cluster, reader));
        }
        plan = CollationRewrite.rewrite(plan);
        plan = EnumNumbers.rewrite(plan);
        HepPlanner rewriter = new HepPlanner(REWRITE_PROGRAM);
        rewriter.setRoot(plan);
        plan = rewriter.findBestExp();
        if (countJoins(plan) > 1) {
            HepPlanner joinOrder = new HepPlanner(JOIN_ORDER_PROGRAM);
            joinOrder.setRoot(plan);
            plan = joinOrder.findBestExp();
            HepPlanner tidy = new HepPlanner(REWRITE_PROGRAM);
            tidy.setRoot(plan);
            plan = tidy.findBestExp();
        }
        if (countJoins(plan) > 0) {
            // Every join input keeps only the columns above it uses, so each table reads (and the SQL layer
            // holds) just those; then filters go back under the projections the trimming put over the scans.
            plan = new org.apache.calcite.sql2rel.RelFieldTrimmer(validator,
                    RelFactories.LOGICAL_BUILDER.create(cluster, reader)).trim(plan);
            HepPlanner tidy = new HepPlanner(REWRITE_PROGRAM);
            tidy.setRoot(plan);
            plan = tidy.findBestExp();
        }
        return new PlannedQuery(plan, rowType, origins, validated, List.copyOf(reads));
    }

    private SqlValidator validator(CalciteCatalogReader reader) {
        return SqlValidatorUtil.newValidator(OPERATORS, reader, catalog.typeFactory(),
                SqlValidator.Config.DEFAULT
                        .withConformance(SqlConformanceEnum.MYSQL_5)
                        .withDefaultNullCollation(NullCollation.LOW)
                        .withIdentifierExpansion(true)
                        .withTypeCoercionFactory(MySqlTypeCoercion::new));
    }

    /** MySQL's rewrites (functions, GROUP BY, conditions), then Calcite's validation, errors in MySQL's terms. */
    private SqlNode validate(SqlValidator validator, SqlNode query) {
        SqlNode rewritten = query.accept(MySqlFunctionRewrites.INSTANCE);
        GroupByRewrite groupBy = new GroupByRewrite(catalog.infoSchema(), defaultDatabase, sqlMode.onlyFullGroupBy(),
                OPERATORS);
        groupBy.rewrite(rewritten);
        MySqlConditions.wrapConditions(rewritten);
        try {
            return validator.validate(rewritten);
        } catch (CalciteContextException e) {
            throw ValidationErrors.translate(e, new ValidationErrors.Context(rewritten, defaultDatabase,
                    groupBy.violations(), OPERATORS));
        }
    }

    /**
     * A converter whose views expand into their queries' plans in {@code cluster}; {@code reads} hears of what
     * views of SQL SECURITY INVOKER read.
     */
    private SqlToRelConverter converter(SqlValidator validator, CalciteCatalogReader reader, RelOptCluster cluster,
            java.util.Set<TableRead> reads) {
        org.apache.calcite.plan.RelOptTable.ViewExpander views = (rowType, sql, schemaPath, viewPath) -> {
            boolean invoker = catalog.infoSchema().table(viewPath.get(0), viewPath.get(1))
                    .map(table -> table.view() != null && table.view().invokerSecurity()).orElse(false);
            QueryPlanner viewPlanner = new QueryPlanner(catalog, schemaPath.isEmpty() ? null : schemaPath.get(0), sqlMode);
            return viewPlanner.expandView(StatementParser.parse(sql), cluster,
                    invoker ? reads : new java.util.HashSet<>());
        };
        return new SqlToRelConverter(views, validator, reader, cluster, MySqlConvertlets.INSTANCE,
                SqlToRelConverter.config().withTrimUnusedFields(false).withExpand(false));
    }

    /** A view's query converted in the plan that reads the view (its own sub-queries are removed with the plan's). */
    private RelRoot expandView(SqlNode query, RelOptCluster cluster, java.util.Set<TableRead> reads) {
        CalciteCatalogReader reader = catalog.reader(defaultDatabase, table -> record(table, reads));
        SqlValidator validator = validator(reader);
        SqlNode validated = validate(validator, query);
        return converter(validator, reader, cluster, reads).convertQuery(validated, false, true);
    }

    /** The row type of a view's query {@code definition} (its columns' types), validated only. */
    RelDataType queryRowType(String definition) {
        SqlValidator validator = validator(catalog.reader(defaultDatabase, table -> { }));
        return validator.getValidatedNodeType(validate(validator, StatementParser.parse(definition)));
    }

    private static void record(org.apache.calcite.schema.Table table, java.util.Set<TableRead> reads) {
        if (table instanceof DuetTable read) {
            reads.add(new TableRead(read.database().name(), read.table().name(), false));
        } else if (table instanceof DuetView read) {
            reads.add(new TableRead(read.database().name(), read.table().name(), true));
        }
    }

    private static int countJoins(RelNode plan) {
        int[] joins = {0};
        new org.apache.calcite.rel.RelHomogeneousShuttle() {
            @Override
            public RelNode visit(RelNode other) {
                if (other instanceof org.apache.calcite.rel.core.Join) {
                    joins[0]++;
                }
                return super.visit(other);
            }
        }.visit(plan);
        return joins[0];
    }

    private static boolean containsSubQuery(RelNode plan) {
        boolean[] found = {false};
        new org.apache.calcite.rel.RelHomogeneousShuttle() {
            @Override
            public RelNode visit(RelNode other) {
                if (other instanceof org.apache.calcite.rel.core.Filter filter
                        && org.apache.calcite.rex.RexUtil.SubQueryFinder.find(filter.getCondition()) != null) {
                    found[0] = true;
                } else if (other instanceof org.apache.calcite.rel.core.Project project
                        && org.apache.calcite.rex.RexUtil.SubQueryFinder.find(project.getProjects()) != null) {
                    found[0] = true;
                } else if (other instanceof org.apache.calcite.rel.core.Join join
                        && org.apache.calcite.rex.RexUtil.SubQueryFinder.find(join.getCondition()) != null) {
                    found[0] = true;
                }
                return super.visit(other);
            }
        }.visit(plan);
        return found[0];
    }
}
