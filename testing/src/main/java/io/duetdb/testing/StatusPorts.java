package io.duetdb.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.duetdb.common.config.HostAndPort;

/** Reads components' {@code /status} documents: whether they serve yet, and what they wait for. */
public final class StatusPorts {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofMillis(500)).build();

    private StatusPorts() {
    }

    /** The status document, or empty while the port does not answer. */
    public static Optional<JsonNode> status(HostAndPort address) {
        try {
            HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create("http://" + address + "/status"))
                    .timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.ofString());
            return response.statusCode() == 200 ? Optional.of(JSON.readTree(response.body())) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UncheckedIOException(new IOException("interrupted while reading " + address + "/status", e));
        }
    }

    /** "serving", "waiting: placement leader", ... or empty while the port does not answer. */
    public static Optional<String> state(HostAndPort address) {
        return status(address).map(status -> status.path("state").asText()
                + (status.has("waitingFor") ? ": " + status.get("waitingFor").asText() : ""));
    }

    /** Waits until any of {@code addresses} says it serves. */
    public static void awaitAnyServing(String what, Duration timeout, List<HostAndPort> addresses) {
        LocalCluster.await(what, timeout, () -> addresses.stream()
                .anyMatch(address -> state(address).filter("serving"::equals).isPresent()));
    }
}
