package io.duetdb.benchmarks.common;

/** What benchmarks print of the JDBC URLs they are given. */
public final class JdbcUrls {
    private JdbcUrls() {
    }

    /** An endpoint's name in reports: the URL's host and port ({@code jdbc:mysql://h:p/db?...} gives {@code h:p}). */
    public static String endpointName(String url) {
        String rest = url.replaceFirst("^jdbc:[a-z]+://", "");
        int slash = rest.indexOf('/');
        return slash < 0 ? rest : rest.substring(0, slash);
    }
}
