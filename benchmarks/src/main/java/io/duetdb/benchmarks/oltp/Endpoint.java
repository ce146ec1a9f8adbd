package io.duetdb.benchmarks.oltp;

import static java.util.Objects.requireNonNull;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * One MySQL server the benchmark measures, as both sysbench (host, port, user, password) and Connector/J (a URL)
 * reach it; every part works in {@code database}, which {@link #createDatabase} creates.
 */
record Endpoint(String name, String host, int port, String user, String password, String database) {
    private static final String JDBC_PREFIX = "jdbc:mysql://";
    private static final int DEFAULT_PORT = 3306;

    Endpoint {
        requireNonNull(name, "name is null");
        requireNonNull(host, "host is null");
        requireNonNull(user, "user is null");
        requireNonNull(password, "password is null");
        requireNonNull(database, "database is null");
    }

    /**
     * The endpoint a JDBC URL names ({@code jdbc:mysql://host[:port][/db][?user=...&password=...]}); the URL's own
     * database is ignored in favour of {@code database}, its user defaults to root.
     */
    static Endpoint fromJdbcUrl(String name, String url, String database) {
        if (!url.startsWith(JDBC_PREFIX)) {
            throw new IllegalArgumentException("'" + url + "' is not a jdbc:mysql:// URL");
        }
        String rest = url.substring(JDBC_PREFIX.length());
        int query = rest.indexOf('?');
        String parameters = query < 0 ? "" : rest.substring(query + 1);
        String authority = query < 0 ? rest : rest.substring(0, query);
        int slash = authority.indexOf('/');
        if (slash >= 0) {
            authority = authority.substring(0, slash);
        }
        int colon = authority.lastIndexOf(':');
        String host = colon < 0 ? authority : authority.substring(0, colon);
        int port = colon < 0 ? DEFAULT_PORT : Integer.parseInt(authority.substring(colon + 1));
        String user = "root";
        String password = "";
        for (String parameter : parameters.split("&")) {
            int equals = parameter.indexOf('=');
            if (equals < 0) {
                continue;
            }
            String key = parameter.substring(0, equals);
            String value = URLDecoder.decode(parameter.substring(equals + 1), StandardCharsets.UTF_8);
            if (key.equals("user")) {
                user = value;
            } else if (key.equals("password")) {
                password = value;
            }
        }
        return new Endpoint(name == null ? host + ":" + port : name, host, port, user, password, database);
    }

    /** Connector/J with server-side prepared statements, cached per connection, as applications configure it. */
    String jdbcUrl() {
        return JDBC_PREFIX + host + ":" + port + "/" + database + "?" + credentials()
                + "&useSSL=false&allowPublicKeyRetrieval=true&useServerPrepStmts=true&cachePrepStmts=true"
                + "&emulateUnsupportedPstmts=false";
    }

    private String credentials() {
        return "user=" + URLEncoder.encode(user, StandardCharsets.UTF_8)
                + (password.isEmpty() ? "" : "&password=" + URLEncoder.encode(password, StandardCharsets.UTF_8));
    }

    Connection connect() throws SQLException {
        return DriverManager.getConnection(jdbcUrl());
    }

    void createDatabase() throws SQLException {
        String base = JDBC_PREFIX + host + ":" + port + "/?" + credentials() + "&useSSL=false&allowPublicKeyRetrieval=true";
        try (Connection connection = DriverManager.getConnection(base); Statement statement = connection.createStatement()) {
            statement.execute("CREATE DATABASE IF NOT EXISTS " + database);
        }
    }
}
