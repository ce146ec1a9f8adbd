package io.duetdb.sql.statistics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;

class TableStatisticsTest {
    private final ObjectMapper json = new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    @Test
    void indexTuplesSurviveTheCatalogsJson() throws Exception {
        TableStatistics statistics = new TableStatistics(7, 3_000, 42, "2026-11-23T00:00:00Z", List.of(),
                List.of(new TableStatistics.IndexStatistics(2, "by_depot", List.of(1, 2), List.of(10L, 100L),
                        List.of(List.of(), List.of(new TableStatistics.TopTuple(Arrays.asList("1", null), 1_515))),
                        List.of(new TableStatistics.Bucket("(0, 0)", "(1, 1)", 1_600, 1_515),
                                new TableStatistics.Bucket("(1, NULL)", "(2, 5)", 3_000, 1, Arrays.asList("1", null),
                                        List.of("2", "5"))))));
        TableStatistics read = json.readValue(json.writeValueAsString(statistics), TableStatistics.class);
        assertThat(read).isEqualTo(statistics);
        assertThat(read.indexes().get(0).histogram().get(0).upperValues()).isNull();
        assertThat(read.indexes().get(0).histogram().get(1).lowerValues()).containsExactly("1", null);
        assertThat(read.indexes().get(0).prefixTopTuples().get(1).get(0).values()).containsExactly("1", null);
        assertThat(TableStatistics.tupleText(read.indexes().get(0).prefixTopTuples().get(1).get(0).values()))
                .isEqualTo("(1, NULL)");
    }

    @Test
    void statisticsStoredBeforeIndexTuplesHadHistogramsStillLoad() throws Exception {
        String stored = "{\"tableId\":7,\"rowCount\":10,\"analyzedTs\":1,\"analyzedAt\":\"x\",\"columns\":[],"
                + "\"indexes\":[{\"indexId\":2,\"name\":\"i\",\"columnIds\":[1,2],\"prefixDistinctCounts\":[3,5]}]}";
        TableStatistics read = json.readValue(stored, TableStatistics.class);
        assertThat(read.indexes().get(0).prefixTopTuples()).containsExactly(List.of(), List.of());
        assertThat(read.indexes().get(0).histogram()).isEmpty();
        assertThat(read.indexes().get(0).prefixDistinctCounts()).containsExactly(3L, 5L);
    }
}
