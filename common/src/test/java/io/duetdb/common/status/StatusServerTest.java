package io.duetdb.common.status;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.duetdb.common.config.HostAndPort;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

class StatusServerTest {
    @Test
    void servesMetricsAndStatus() throws Exception {
        PrometheusRegistry registry = new PrometheusRegistry();
        Counter counter = Counter.builder().name("duet_test_events_total").help("events").register(registry);
        counter.inc(3);
        try (StatusServer server = new StatusServer("test", "t-1", HostAndPort.parse("127.0.0.1:0"), registry,
                () -> Map.of("role", "leader"))) {
            server.start();
            HttpClient http = HttpClient.newHttpClient();
            String base = "http://" + server.boundAddress();
            HttpResponse<String> metrics = http.send(HttpRequest.newBuilder(URI.create(base + "/metrics")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(metrics.statusCode()).isEqualTo(200);
            assertThat(metrics.body()).contains("duet_test_events_total 3.0");
            HttpResponse<String> status = http.send(HttpRequest.newBuilder(URI.create(base + "/status")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(status.headers().firstValue("Content-Type")).hasValue("application/json");
            assertThat(status.body()).contains("\"role\" : \"leader\"");

            try (StatusServer clash = new StatusServer("test", "t-2", server.boundAddress(), registry, Map::of)) {
                assertThatThrownBy(clash::start).hasMessageContaining("already in use");
            }
        }
    }
}
