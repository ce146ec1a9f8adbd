package io.duetdb.spark.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;

import org.apache.spark.sql.connector.catalog.Column;
import org.apache.spark.sql.connector.expressions.Expressions;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.Test;

class CatalogDdlTest {
    @Test
    void aSparkSchemaBecomesMySqlColumns() {
        Column[] columns = {
                Column.create("id", DataTypes.LongType, false),
                Column.create("name", DataTypes.createVarcharType(20)),
                Column.create("price", DataTypes.createDecimalType(10, 2)),
                Column.create("flag", DataTypes.BooleanType),
                Column.create("at", DataTypes.TimestampType),
                Column.create("local", DataTypes.TimestampNTZType),
                Column.create("raw", DataTypes.BinaryType),
                Column.create("note", DataTypes.StringType, true, "it's free", null)};
        assertThat(CatalogDdl.createTableStatement("db", "t`x", columns, new Transform[0],
                Map.of("primary_key", "id", "comment", "made by Spark")))
                .isEqualTo("CREATE TABLE `db`.`t``x` (`id` BIGINT NOT NULL, `name` VARCHAR(20),"
                        + " `price` DECIMAL(10,2), `flag` BOOLEAN, `at` TIMESTAMP(6) NULL, `local` DATETIME(6),"
                        + " `raw` LONGBLOB, `note` LONGTEXT COMMENT 'it''s free', PRIMARY KEY (`id`))"
                        + " COMMENT 'made by Spark'");
    }

    @Test
    void whatDuetDbTablesCannotHoldIsRefused() {
        Column[] plain = {Column.create("id", DataTypes.IntegerType)};
        assertThatThrownBy(() -> CatalogDdl.createTableStatement("db", "t", plain,
                new Transform[] {Expressions.identity("id")}, Map.of())).hasMessageContaining("PARTITIONED BY");
        Column[] array = {Column.create("tags", DataTypes.createArrayType(DataTypes.StringType))};
        assertThatThrownBy(() -> CatalogDdl.createTableStatement("db", "t", array, new Transform[0], Map.of()))
                .hasMessageContaining("column tags: Spark type ARRAY<STRING> has no DuetDB column type");
        assertThatThrownBy(() -> CatalogDdl.of(Map.of("pd", "127.0.0.1:2379"), "CREATE TABLE"))
                .hasMessageContaining("needs a DuetDB SQL server");
    }
}
