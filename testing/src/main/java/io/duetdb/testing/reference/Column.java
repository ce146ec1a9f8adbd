package io.duetdb.testing.reference;

import static java.util.Objects.requireNonNull;

/** One column of a generated table: its name, SQL type, the Java kind of its values and whether it holds NULLs. */
public record Column(String name, String sqlType, Kind kind, boolean nullable) {
    /** How a column's values are typed: Integer, BigDecimal, String, LocalDate or LocalDateTime. */
    public enum Kind { INTEGER, DECIMAL, STRING, DATE, TIMESTAMP }

    public Column {
        requireNonNull(name, "name");
        requireNonNull(sqlType, "sqlType");
        requireNonNull(kind, "kind");
    }

    public static Column integer(String name) {
        return new Column(name, "INTEGER", Kind.INTEGER, false);
    }

    public static Column decimal(String name, int precision, int scale) {
        return new Column(name, "DECIMAL(" + precision + "," + scale + ")", Kind.DECIMAL, false);
    }

    public static Column chars(String name, int length) {
        return new Column(name, "CHAR(" + length + ")", Kind.STRING, false);
    }

    public static Column varchar(String name, int length) {
        return new Column(name, "VARCHAR(" + length + ")", Kind.STRING, false);
    }

    public static Column date(String name) {
        return new Column(name, "DATE", Kind.DATE, false);
    }

    /** A date and time of day: DATETIME, which MySQL, DuetDB and DuckDB (as TIMESTAMP) all accept. */
    public static Column dateTime(String name) {
        return new Column(name, "DATETIME", Kind.TIMESTAMP, false);
    }

    /** This column, allowed to hold NULL. */
    public Column orNull() {
        return new Column(name, sqlType, kind, true);
    }

    /** The column's definition in CREATE TABLE. */
    public String definition() {
        return name + " " + sqlType + (nullable ? "" : " NOT NULL");
    }
}
