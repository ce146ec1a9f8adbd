package io.duetdb.benchmarks.oltp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class EndpointTest {
    @Test
    void takesHostPortAndCredentialsFromTheUrlAndItsOwnDatabase() {
        Endpoint endpoint = Endpoint.fromJdbcUrl(null,
                "jdbc:mysql://127.0.0.1:3307/bench?user=bench&password=p%40ss&useSSL=false", "sbtest");

        assertThat(endpoint).isEqualTo(new Endpoint("127.0.0.1:3307", "127.0.0.1", 3307, "bench", "p@ss", "sbtest"));
        assertThat(endpoint.jdbcUrl()).startsWith("jdbc:mysql://127.0.0.1:3307/sbtest?user=bench&password=p%40ss&");
    }

    @Test
    void defaultsToPort3306AndRootWithoutAPassword() {
        Endpoint endpoint = Endpoint.fromJdbcUrl("playground", "jdbc:mysql://db.example", "sbtest");

        assertThat(endpoint).isEqualTo(new Endpoint("playground", "db.example", 3306, "root", "", "sbtest"));
        assertThat(endpoint.jdbcUrl()).startsWith("jdbc:mysql://db.example:3306/sbtest?user=root&useSSL=false");
    }

    @Test
    void refusesOtherUrls() {
        assertThatThrownBy(() -> Endpoint.fromJdbcUrl(null, "jdbc:postgresql://localhost/x", "sbtest"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a jdbc:mysql:// URL");
    }
}
