package io.duetdb.common.catalog;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.duetdb.common.keys.Keys;
import io.duetdb.common.types.Collation;
import io.duetdb.common.types.SqlType;
import io.duetdb.common.types.SqlTypeName;

class CatalogRecordsTest {
    private static final ColumnInfo ID = new ColumnInfo(1, "id", 0, SqlType.BIGINT_UNSIGNED, true, false, null, false,
            true, false, "key", SchemaState.PUBLIC);
    private static final ViewInfo VIEW = new ViewInfo("select id from items", "shop", "UNDEFINED", "'root'@'%'",
            "DEFINER", "CASCADED", "utf8mb4", "utf8mb4_bin");

    private final CatalogRecords records = new CatalogRecords();

    @Test
    void aTableReadsBackAsItWasWritten() {
        List<ColumnInfo> columns = List.of(ID,
                new ColumnInfo(2, "price", 1, SqlType.decimal(10, 2), true, true, "1.50", false, false, false, "",
                        SchemaState.PUBLIC),
                new ColumnInfo(4, "name", 2, SqlType.varchar(40), false, true, null, false, false, false, "é \"q\"",
                        SchemaState.WRITE_ONLY),
                new ColumnInfo(5, "at", 3, SqlType.datetime(3), false, false, null, true, false, true, "",
                        SchemaState.DELETE_ONLY),
                new ColumnInfo(6, "y", 4, new SqlType(SqlTypeName.YEAR, 4, 0, false), false, false, null, false, false,
                        false, "", SchemaState.WRITE_REORGANIZATION),
                new ColumnInfo(7, "size", 5, SqlType.withElements(SqlTypeName.ENUM, List.of("s", "it's")), true, true,
                        "s", false, false, false, "", SchemaState.PUBLIC),
                new ColumnInfo(8, "tags", 6, SqlType.withElements(SqlTypeName.SET, List.of("a", "b")), false, false,
                        null, false, false, false, "", SchemaState.PUBLIC));
        List<IndexInfo> indexes = List.of(
                new IndexInfo(1, IndexInfo.PRIMARY_NAME, List.of("id"), true, true, SchemaState.PUBLIC),
                new IndexInfo(3, "by_name", List.of("name", "at"), true, false, SchemaState.WRITE_REORGANIZATION));
        TableInfo table = new TableInfo(42, 7, "items", columns, indexes, "id", 9, 4, "stock", 30000);

        TableInfo read = records.read(records.write(table), TableInfo.class);

        assertThat(read).isEqualTo(table);
        assertThat(read.rowColumns()).isEqualTo(table.rowColumns());
    }

    @Test
    void aViewReadsBackAsItWasWritten() {
        TableInfo view = TableInfo.view(43, 7, "v", List.of(ID), VIEW);

        assertThat(records.read(records.write(view), TableInfo.class)).isEqualTo(view);
    }

    /** The JSON existing clusters hold (as the SQL layer's catalog wrote it before these records moved here). */
    @Test
    void recordsAreStoredInTheCatalogsJson() {
        assertThat(new String(records.write(new DatabaseInfo(7, "shop")), UTF_8))
                .isEqualTo("{\"id\":7,\"name\":\"shop\"}");
        assertThat(new String(records.write(TableInfo.view(43, 7, "v", List.of(ID), VIEW)), UTF_8)).isEqualTo(
                "{\"id\":43,\"databaseId\":7,\"name\":\"v\",\"columns\":[{\"id\":1,\"name\":\"id\",\"position\":0,"
                + "\"type\":{\"name\":\"BIGINT\",\"length\":20,\"scale\":0,\"unsigned\":true},\"notNull\":true,"
                + "\"hasDefault\":false,\"defaultValue\":null,\"defaultCurrentTimestamp\":false,\"autoIncrement\":true,"
                + "\"onUpdateCurrentTimestamp\":false,\"comment\":\"key\",\"state\":\"PUBLIC\",\"originFrozen\":false,"
                + "\"originValue\":null}],\"indexes\":[],"
                + "\"handleColumn\":null,\"nextColumnId\":2,\"nextIndexId\":1,\"comment\":\"\","
                + "\"autoIncrementBase\":0,\"view\":{\"definition\":\"select id from items\",\"resolveIn\":\"shop\","
                + "\"algorithm\":\"UNDEFINED\","
                + "\"definer\":\"'root'@'%'\",\"security\":\"DEFINER\",\"checkOption\":\"CASCADED\","
                + "\"characterSetClient\":\"utf8mb4\",\"collationConnection\":\"utf8mb4_bin\"},"
                + "\"columnarReplicas\":0,\"commonHandle\":false}");
    }

    /** A changed default keeps the origin default of rows written before the column was added. */
    @Test
    void aColumnKeepsItsOriginDefaultWhenItsDefaultChanges() {
        ColumnInfo added = new ColumnInfo(3, "e", 1, SqlType.INT, false, true, "4", false, false, false, "",
                SchemaState.PUBLIC);
        ColumnInfo changed = added.withDefault(true, "9", false).withOriginOf(added);
        assertThat(changed.originDefault()).isEqualTo(4L);
        assertThat(changed.withDefault(false, null, false).withOriginOf(changed).originDefault()).isEqualTo(4L);
        ColumnInfo nullable = new ColumnInfo(3, "e", 1, SqlType.INT, false, false, null, false, false, false, "",
                SchemaState.PUBLIC).withOriginOf(added.withDefault(true, null, false));
        assertThat(nullable.withDefault(true, "5", false).originDefault()).isNull();
        TableInfo table = new TableInfo(46, 7, "t", List.of(ID, changed), List.of(), "id", 4, 1, "", 0);
        assertThat(records.read(records.write(table), TableInfo.class)).isEqualTo(table);
        String old = new String(records.write(new TableInfo(46, 7, "t", List.of(added), List.of(), null, 4, 1, "", 0)),
                UTF_8).replace(",\"originFrozen\":false,\"originValue\":null", "");
        assertThat(old).doesNotContain("origin");
        assertThat(records.read(old.getBytes(UTF_8), TableInfo.class).columns().get(0)).isEqualTo(added);
    }

    /** Tables written before column learner replicas existed read as asking for none. */
    @Test
    void aRecordWithoutColumnarReplicasAsksForNone() {
        TableInfo table = new TableInfo(44, 7, "t", List.of(ID), List.of(), "id", 2, 1, "", 0).withColumnarReplicas(2);
        String json = new String(records.write(table), UTF_8).replace(",\"commonHandle\":false", "");
        assertThat(json).contains("\"columnarReplicas\":2");
        String old = json.replace(",\"columnarReplicas\":2", "");
        assertThat(old).doesNotContain("columnarReplicas");
        assertThat(records.read(old.getBytes(UTF_8), TableInfo.class))
                .isEqualTo(table.withColumnarReplicas(0));
        assertThat(records.read(json.getBytes(UTF_8), TableInfo.class).columnarReplicas()).isEqualTo(2);
    }

    /** Tables written before clustered keys of other columns existed read as keyed by a handle as before. */
    @Test
    void aRecordWithoutCommonHandleIsNotClusteredOnOtherColumns() {
        IndexInfo primary = new IndexInfo(1, IndexInfo.PRIMARY_NAME, List.of("id"), true, true, SchemaState.PUBLIC);
        TableInfo clustered = new TableInfo(45, 7, "t", List.of(ID), List.of(primary), null, 2, 2, "", 0, null, 0, true);
        String json = new String(records.write(clustered), UTF_8);
        assertThat(json).endsWith(",\"commonHandle\":true}");
        assertThat(records.read(json.getBytes(UTF_8), TableInfo.class)).isEqualTo(clustered);
        String old = json.replace(",\"commonHandle\":true", "");
        assertThat(records.read(old.getBytes(UTF_8), TableInfo.class).commonHandle()).isFalse();
        assertThat(records.read(old.getBytes(UTF_8), TableInfo.class).hasClusteredPrimaryKey()).isFalse();
    }

    @Test
    void keysAreTheCatalogsMetaLayout() {
        assertThat(CatalogRecords.schemaVersionKey()).isEqualTo(Keys.metaKey("SchemaVersion".getBytes(UTF_8)));
        assertThat(CatalogRecords.databaseKey(7)).isEqualTo(
                Keys.metaHashFieldKey("DBs".getBytes(UTF_8), new byte[] {0, 0, 0, 0, 0, 0, 0, 7}));
        assertThat(CatalogRecords.tableKey(7, 300)).isEqualTo(
                Keys.metaHashFieldKey("DB:7".getBytes(UTF_8), new byte[] {0, 0, 0, 0, 0, 0, 1, 44}));
    }

    @Test
    void expressionsOfColumnsAndChecksReadBackAndOldRecordsHaveNone() {
        ColumnInfo price = new ColumnInfo(2, "price", 1, SqlType.INT, false, true, null, false, false, false, "",
                SchemaState.PUBLIC, false, null, new ColumnExpression("id * 2", ColumnExpression.Kind.DEFAULT));
        ColumnInfo total = new ColumnInfo(3, "total", 2, SqlType.INT, false, false, null, false, false, false, "",
                SchemaState.PUBLIC, false, null, new ColumnExpression("price + 1", ColumnExpression.Kind.STORED));
        TableInfo table = new TableInfo(47, 7, "t", List.of(ID, price, total), List.of(), "id", 4, 1, "", 0, null, 0,
                false, List.of(new CheckConstraint("t_chk_1", "price > 0", true),
                        new CheckConstraint("named", "total < 9", false)));
        assertThat(records.read(records.write(table), TableInfo.class)).isEqualTo(table);
        assertThat(table.hasWriteExpressions()).isTrue();
        assertThat(total.generated()).isTrue();
        assertThat(price.defaultExpression().text()).isEqualTo("id * 2");
        assertThat(price.withDefault(true, "4", false).expression()).isNull();
        assertThat(total.withDefault(true, "4", false).expression()).isEqualTo(total.expression());

        TableInfo plain = new TableInfo(48, 7, "p", List.of(ID), List.of(), "id", 2, 1, "", 0);
        String json = new String(records.write(plain), UTF_8);
        assertThat(json).doesNotContain("checks").doesNotContain("expression");
        assertThat(records.read(json.getBytes(UTF_8), TableInfo.class).checks()).isEmpty();
        assertThat(plain.hasWriteExpressions()).isFalse();
    }

    @Test
    void collationsAndForeignKeysRoundTripAndOldRecordsLackThem() {
        ColumnInfo name = new ColumnInfo(2, "name", 1,
                SqlType.varchar(20).withCollation(Collation.UTF8MB4_GENERAL_CI), false, true,
                null, false, false, false, "", SchemaState.PUBLIC);
        ForeignKey foreignKey = new ForeignKey("t_ibfk_1", List.of("name"), "db", "parent", List.of("code"), "CASCADE",
                null);
        TableInfo table = new TableInfo(49, 7, "t", List.of(ID, name), List.of(), "id", 3, 1, "", 0, null, 0, false,
                List.of(), Collation.UTF8MB4_0900_AI_CI, List.of(foreignKey));
        TableInfo read = records.read(records.write(table), TableInfo.class);
        assertThat(read).isEqualTo(table);
        assertThat(read.column("name").orElseThrow().type().effectiveCollation())
                .isEqualTo(Collation.UTF8MB4_GENERAL_CI);
        assertThat(read.foreignKeys().get(0).onUpdate()).isEqualTo("NO ACTION");
        assertThat(CreateTableText.of(read)).contains("`name` varchar(20) COLLATE utf8mb4_general_ci DEFAULT NULL")
                .contains("CONSTRAINT `t_ibfk_1` FOREIGN KEY (`name`) REFERENCES `parent` (`code`) ON DELETE CASCADE")
                .endsWith("COLLATE=utf8mb4_0900_ai_ci");

        String old = new String(records.write(new TableInfo(50, 7, "p", List.of(ID), List.of(), "id", 2, 1, "", 0)),
                UTF_8);
        assertThat(old).doesNotContain("collation").doesNotContain("foreignKeys");
    }
}
