package io.duetdb.sql.ddl;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.duetdb.common.catalog.ColumnExpression;
import io.duetdb.common.catalog.ColumnInfo;
import io.duetdb.common.catalog.SchemaState;
import io.duetdb.common.catalog.TableInfo;
import io.duetdb.common.types.SqlType;

class ColumnTypeRewriteTest {
    private static ColumnInfo column(int id, String name, int position, SqlType type, SchemaState state,
            ColumnExpression expression) {
        return new ColumnInfo(id, name, position, type, false, false, null, false, false, false, "", state, false, null,
                expression);
    }

    @Test
    void theSwapMakesTheChangingColumnPublicAndKeepsTheOldOneComputedBack() {
        ColumnInfo id = column(1, "id", 0, SqlType.INT, SchemaState.PUBLIC, null);
        ColumnInfo a = column(2, "a", 1, SqlType.INT, SchemaState.PUBLIC, null);
        ColumnInfo b = column(3, "b", 2, SqlType.INT, SchemaState.PUBLIC, null);
        ColumnInfo changing = column(4, "_Col$_a", 1, SqlType.varchar(20), SchemaState.WRITE_REORGANIZATION,
                new ColumnExpression("`a`", ColumnExpression.Kind.STORED));
        TableInfo table = new TableInfo(7, 1, "t", List.of(id, a, b, changing), List.of(), "id", 5, 1, "", 0, null,
                0, false, List.of(), null);
        ColumnInfo planned = column(2, "title", 1, SqlType.varchar(20), SchemaState.PUBLIC, null);

        // CHANGE a title VARCHAR(20) AFTER b: the new column goes last among the others.
        TableInfo swapped = ColumnTypeRewrite.swapped(table, 2, 4, planned, 2);

        assertThat(swapped.publicColumns()).extracting(ColumnInfo::name).containsExactly("id", "b", "title");
        ColumnInfo title = swapped.column("title").orElseThrow();
        assertThat(title.id()).isEqualTo(4);
        assertThat(title.type()).isEqualTo(SqlType.varchar(20));
        assertThat(title.expression()).isNull();
        ColumnInfo previous = swapped.columns().stream().filter(column -> column.id() == 2).findFirst().orElseThrow();
        assertThat(previous.name()).isEqualTo("_Col$_a");
        assertThat(previous.state()).isEqualTo(SchemaState.WRITE_ONLY);
        assertThat(previous.type()).isEqualTo(SqlType.INT);
        assertThat(previous.expression()).isEqualTo(new ColumnExpression("`title`", ColumnExpression.Kind.PREVIOUS_TYPE));
        assertThat(swapped.nextColumnId()).isEqualTo(5);
    }
}
