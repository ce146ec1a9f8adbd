package io.duetdb.sql.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.duetdb.common.catalog.ColumnInfo;
import io.duetdb.common.catalog.DatabaseInfo;
import io.duetdb.common.catalog.SchemaState;
import io.duetdb.common.catalog.TableInfo;
import io.duetdb.common.types.SqlType;

class InfoSchemaTest {
    private static final DatabaseInfo APP = new DatabaseInfo(1, "app");
    private static final String HOLDER = InfoSchema.temporaryTablesDatabase("0f-1e", 7, APP.id());
    private static final DatabaseInfo TEMPORARY = new DatabaseInfo(2, HOLDER);

    private static TableInfo table(long id, long databaseId, String name) {
        ColumnInfo column = new ColumnInfo(1, "id", 0, SqlType.INT, true, false, null, false, false, false, "",
                SchemaState.PUBLIC);
        return new TableInfo(id, databaseId, name, List.of(column), List.of(), null, 2, 1, "", 0);
    }

    @Test
    void temporaryTablesDatabasesAreNamedAfterTheirServerAndNotListed() {
        assertThat(HOLDER).isEqualTo("__duet_temporary_0f1e_7_1");
        assertThat(InfoSchema.holdsTemporaryTables(HOLDER)).isTrue();
        assertThat(InfoSchema.holdsTemporaryTables("app")).isFalse();
        assertThat(InfoSchema.temporaryTablesServer(HOLDER)).isEqualTo("0f1e");
        InfoSchema schema = new InfoSchema(3, List.of(APP, TEMPORARY), List.of());
        assertThat(schema.databases()).containsExactly(APP);
        assertThat(schema.allDatabases()).containsExactly(TEMPORARY, APP);
        assertThat(schema.database(HOLDER)).contains(TEMPORARY);
    }

    @Test
    void aSessionsTemporaryTableIsFoundByNameBeforeTheTableItHides() {
        TableInfo permanent = table(10, APP.id(), "t");
        TableInfo temporary = table(20, TEMPORARY.id(), "t");
        InfoSchema schema = new InfoSchema(3, List.of(APP, TEMPORARY), List.of(permanent, temporary));
        assertThat(schema.table("app", "T")).contains(permanent);
        InfoSchema seen = schema.withTemporaryTables(Map.of("app", Map.of("t", temporary)));
        assertThat(seen.table("APP", "t")).contains(temporary);
        assertThat(seen.table(10)).contains(permanent);
        assertThat(seen.tables(APP)).containsExactly(permanent);
        assertThat(seen.version()).isEqualTo(schema.version());
        assertThat(schema.withTemporaryTables(Map.of())).isSameAs(schema);
    }
}
