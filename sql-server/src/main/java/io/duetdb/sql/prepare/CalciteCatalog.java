package io.duetdb.sql.prepare;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Consumer;

import org.apache.calcite.config.CalciteConnectionConfig;
import org.apache.calcite.config.CalciteConnectionConfigImpl;
import org.apache.calcite.config.CalciteConnectionProperty;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.prepare.CalciteCatalogReader;
import org.apache.calcite.prepare.Prepare;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.impl.AbstractSchema;

import io.duetdb.common.catalog.DatabaseInfo;
import io.duetdb.common.catalog.TableInfo;
import io.duetdb.sql.catalog.InfoSchema;

/** Calcite's view of one schema version: a root schema with a sub-schema per database. Immutable, shareable. */
public final class CalciteCatalog {
    private static final CalciteConnectionConfig CONNECTION_CONFIG;

    static {
        Properties properties = new Properties();
        properties.setProperty(CalciteConnectionProperty.CASE_SENSITIVE.camelName(), "false");
        CONNECTION_CONFIG = new CalciteConnectionConfigImpl(properties);
    }

    private final InfoSchema infoSchema;
    private final CalciteSchema rootSchema;
    private final RelDataTypeFactory typeFactory = new JavaTypeFactoryImpl(DuetTypeSystem.INSTANCE) {
        // Strings are UTF-8 (utf8mb4), not Calcite's default ISO-8859-1.
        @Override
        public java.nio.charset.Charset getDefaultCharset() {
            return java.nio.charset.StandardCharsets.UTF_8;
        }

        // Types Calcite finds no common type for (VALUES rows of a number and a string) get MySQL's.
        @Override
        public RelDataType leastRestrictive(List<RelDataType> types) {
            RelDataType type = super.leastRestrictive(types);
            if (type == null) {
                return MySqlTypes.aggregate(this, types);
            }
            // Calcite's unifying of collations cannot tell a column's from a literal's (MySqlCollations).
            return SqlTypeUtil.inCharFamily(type) && !JsonTypes.isJson(type)
                    ? MySqlCollations.unified(this, type, types) : type;
        }
    };

    public CalciteCatalog(InfoSchema infoSchema) {
        this(infoSchema, DuetTable.StatisticsSource.NONE);
    }

    public CalciteCatalog(InfoSchema infoSchema, DuetTable.StatisticsSource statistics) {
        this(infoSchema, statistics, InformationSchema.ReplicaProgress.NONE);
    }

    public CalciteCatalog(InfoSchema infoSchema, DuetTable.StatisticsSource statistics,
            InformationSchema.ReplicaProgress replicaProgress) {
        this.infoSchema = infoSchema;
        this.rootSchema = CalciteSchema.createRootSchema(false, false);
        for (DatabaseInfo database : infoSchema.allDatabases()) {
            Map<String, Table> tables = new HashMap<>();
            for (TableInfo table : infoSchema.tables(database)) {
                tables.put(table.name(), table.view() == null ? new DuetTable(database, table, statistics)
                        : new DuetView(database, table, view -> new QueryPlanner(this, view.view().resolveIn())
                                .queryRowType(view.view().definition())));
            }
            // A session's temporary tables hide the tables of their names (they live in a database of their own).
            for (TableInfo temporary : infoSchema.temporaryTables(database.name()).values()) {
                tables.keySet().removeIf(name -> name.equalsIgnoreCase(temporary.name()));
                tables.put(temporary.name(), new DuetTable(infoSchema.database(temporary.databaseId()).orElseThrow(),
                        temporary, statistics));
            }
            addSchema(rootSchema, database.name(), tables);
        }
        addSchema(rootSchema, InformationSchema.NAME, InformationSchema.tables(infoSchema, replicaProgress));
        if (infoSchema.database(PerformanceSchema.NAME).isEmpty()) {
            addSchema(rootSchema, PerformanceSchema.NAME, PerformanceSchema.tables(infoSchema));
        }
        if (infoSchema.database(MySqlSystemSchema.NAME).isEmpty()) {
            addSchema(rootSchema, MySqlSystemSchema.NAME, MySqlSystemSchema.tables(infoSchema));
        }
    }

    private static void addSchema(CalciteSchema root, String name, Map<String, Table> tables) {
        root.add(name, new AbstractSchema() {
            @Override
            protected Map<String, Table> getTableMap() {
                return tables;
            }
        });
    }

    /** The catalog of {@code infoSchema} with one more schema holding one table (rows the server made, for SHOW). */
    public static CalciteCatalog withTable(InfoSchema infoSchema, String schemaName, String tableName, Table table) {
        CalciteCatalog catalog = new CalciteCatalog(infoSchema);
        addSchema(catalog.rootSchema, schemaName, Map.of(tableName, table));
        return catalog;
    }

    public InfoSchema infoSchema() {
        return infoSchema;
    }

    RelDataTypeFactory typeFactory() {
        return typeFactory;
    }

    /**
     * A catalog reader resolving unqualified names in {@code defaultDatabase} (none when null), telling
     * {@code reads} of every table and view it finds.
     */
    CalciteCatalogReader reader(String defaultDatabase, Consumer<Table> reads) {
        List<String> path = defaultDatabase == null ? List.of() : List.of(defaultDatabase);
        return new CalciteCatalogReader(rootSchema, path, typeFactory, CONNECTION_CONFIG) {
            @Override
            public Prepare.PreparingTable getTable(List<String> names) {
                Prepare.PreparingTable table = super.getTable(names);
                Table found = table == null ? null : table.unwrap(Table.class);
                if (found != null) {
                    reads.accept(found);
                }
                return table;
            }
        };
    }
}
