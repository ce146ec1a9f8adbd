package io.duetdb.common.status;

import static java.util.Objects.requireNonNull;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import io.duetdb.common.concurrent.NamedThreadFactory;
import io.duetdb.common.config.HostAndPort;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

/**
 * A component's status port: Prometheus metrics at {@code /metrics} and a JSON document at {@code /status}.
 */
public final class StatusServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(StatusServer.class);

    private final HostAndPort address;
    private final PrometheusRegistry registry;
    private final Supplier<Object> status;
    private final String component;
    private final String node;
    private final ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private HttpServer server;
    private ExecutorService executor;

    public StatusServer(String component, String node, HostAndPort address, PrometheusRegistry registry,
            Supplier<Object> status) {
        this.component = requireNonNull(component, "component is null");
        this.node = requireNonNull(node, "node is null");
        this.address = requireNonNull(address, "address is null");
        this.registry = requireNonNull(registry, "registry is null");
        this.status = requireNonNull(status, "status is null");
    }

    public void start() {
        try {
            server = HttpServer.create(new InetSocketAddress(address.host(), address.port()), 16);
        } catch (BindException e) {
            throw new DuetException(ErrorCode.ADDRESS_IN_USE,
                    "status address " + address + " is already in use (" + component + " " + node + ")");
        } catch (IOException e) {
            throw new DuetException(ErrorCode.ADDRESS_IN_USE,
                    "cannot listen on status address " + address + ": " + e.getMessage());
        }
        executor = Executors.newFixedThreadPool(2, new NamedThreadFactory(component, node, "status"));
        server.setExecutor(executor);
        server.createContext("/metrics", this::metrics);
        server.createContext("/status", this::status);
        server.start();
        LOG.info("status server listening on http://{}/ (metrics, status)", boundAddress());
    }

    /** The address actually bound (the port differs from the configured one when that was 0). */
    public HostAndPort boundAddress() {
        return new HostAndPort(address.host(), server.getAddress().getPort());
    }

    private void metrics(HttpExchange exchange) throws IOException {
        try (exchange) {
            ByteArrayOutputStream body = new ByteArrayOutputStream(8192);
            PrometheusTextFormatWriter.create().write(body, registry.scrape());
            respond(exchange, 200, PrometheusTextFormatWriter.CONTENT_TYPE, body.toByteArray());
        }
    }

    private void status(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] body;
            int code = 200;
            try {
                body = json.writeValueAsBytes(status.get());
            } catch (RuntimeException e) {
                code = 500;
                body = json.writeValueAsBytes(java.util.Map.of("error", String.valueOf(e.getMessage())));
            }
            respond(exchange, code, "application/json", body);
        }
    }

    private static void respond(HttpExchange exchange, int code, String contentType, byte[] body) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", contentType);
        exchange.sendResponseHeaders(code, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    @Override
    public void close() {
        if (server != null) {
            server.stop(0);
            executor.shutdownNow();
            LOG.info("status server on {} stopped", address);
        }
    }

}
