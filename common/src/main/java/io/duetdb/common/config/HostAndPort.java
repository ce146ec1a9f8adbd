package io.duetdb.common.config;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/** A {@code host:port} address as configs and flags spell it. */
public record HostAndPort(String host, int port) {
    public HostAndPort {
        requireNonNull(host, "host is null");
        if (host.isBlank()) {
            throw new IllegalArgumentException("host is empty");
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port " + port + " is outside 0..65535");
        }
    }

    @JsonCreator
    public static HostAndPort parse(String text) {
        requireNonNull(text, "text is null");
        int colon = text.lastIndexOf(':');
        if (colon <= 0 || colon == text.length() - 1) {
            throw new IllegalArgumentException("'" + text + "' is not host:port");
        }
        String host = text.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port;
        try {
            port = Integer.parseInt(text.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "' has a port that is not a number");
        }
        return new HostAndPort(host, port);
    }

    public HostAndPort withPort(int newPort) {
        return new HostAndPort(host, newPort);
    }

    @JsonValue
    @Override
    public String toString() {
        return host.indexOf(':') >= 0 ? "[" + host + "]:" + port : host + ":" + port;
    }
}
