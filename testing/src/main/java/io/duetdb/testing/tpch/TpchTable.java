package io.duetdb.testing.tpch;

import java.util.List;
import java.util.stream.Collectors;

/**
 * The eight TPC-H tables with the specification's columns (clause 1.4) and primary keys. The DDL is the same
 * for MySQL, MariaDB, DuetDB and DuckDB: CHAR, VARCHAR, INTEGER, DECIMAL(15,2) and DATE, primary keys only.
 */
public enum TpchTable {
    REGION("r_", List.of(
            Column.integer("r_regionkey"), Column.chars("r_name", 25), Column.varchar("r_comment", 152)),
            "r_regionkey"),
    NATION("n_", List.of(
            Column.integer("n_nationkey"), Column.chars("n_name", 25), Column.integer("n_regionkey"),
            Column.varchar("n_comment", 152)),
            "n_nationkey"),
    PART("p_", List.of(
            Column.integer("p_partkey"), Column.varchar("p_name", 55), Column.chars("p_mfgr", 25),
            Column.chars("p_brand", 10), Column.varchar("p_type", 25), Column.integer("p_size"),
            Column.chars("p_container", 10), Column.decimal("p_retailprice"), Column.varchar("p_comment", 23)),
            "p_partkey"),
    SUPPLIER("s_", List.of(
            Column.integer("s_suppkey"), Column.chars("s_name", 25), Column.varchar("s_address", 40),
            Column.integer("s_nationkey"), Column.chars("s_phone", 15), Column.decimal("s_acctbal"),
            Column.varchar("s_comment", 101)),
            "s_suppkey"),
    PARTSUPP("ps_", List.of(
            Column.integer("ps_partkey"), Column.integer("ps_suppkey"), Column.integer("ps_availqty"),
            Column.decimal("ps_supplycost"), Column.varchar("ps_comment", 199)),
            "ps_partkey, ps_suppkey"),
    CUSTOMER("c_", List.of(
            Column.integer("c_custkey"), Column.varchar("c_name", 25), Column.varchar("c_address", 40),
            Column.integer("c_nationkey"), Column.chars("c_phone", 15), Column.decimal("c_acctbal"),
            Column.chars("c_mktsegment", 10), Column.varchar("c_comment", 117)),
            "c_custkey"),
    ORDERS("o_", List.of(
            Column.integer("o_orderkey"), Column.integer("o_custkey"), Column.chars("o_orderstatus", 1),
            Column.decimal("o_totalprice"), Column.date("o_orderdate"), Column.chars("o_orderpriority", 15),
            Column.chars("o_clerk", 15), Column.integer("o_shippriority"), Column.varchar("o_comment", 79)),
            "o_orderkey"),
    LINEITEM("l_", List.of(
            Column.integer("l_orderkey"), Column.integer("l_partkey"), Column.integer("l_suppkey"),
            Column.integer("l_linenumber"), Column.decimal("l_quantity"), Column.decimal("l_extendedprice"),
            Column.decimal("l_discount"), Column.decimal("l_tax"), Column.chars("l_returnflag", 1),
            Column.chars("l_linestatus", 1), Column.date("l_shipdate"), Column.date("l_commitdate"),
            Column.date("l_receiptdate"), Column.chars("l_shipinstruct", 25), Column.chars("l_shipmode", 10),
            Column.varchar("l_comment", 44)),
            "l_orderkey, l_linenumber");

    /** How a column's values are typed: Integer, BigDecimal (scale 2), String or LocalDate. */
    public enum Kind { INTEGER, DECIMAL, STRING, DATE }

    /** One column: its name, SQL type and the Java kind of its values. */
    public record Column(String name, String sqlType, Kind kind) {
        static Column integer(String name) {
            return new Column(name, "INTEGER", Kind.INTEGER);
        }

        static Column decimal(String name) {
            return new Column(name, "DECIMAL(15,2)", Kind.DECIMAL);
        }

        static Column chars(String name, int length) {
            return new Column(name, "CHAR(" + length + ")", Kind.STRING);
        }

        static Column varchar(String name, int length) {
            return new Column(name, "VARCHAR(" + length + ")", Kind.STRING);
        }

        static Column date(String name) {
            return new Column(name, "DATE", Kind.DATE);
        }
    }

    private final String prefix;
    private final List<Column> columns;
    private final String primaryKey;

    TpchTable(String prefix, List<Column> columns, String primaryKey) {
        this.prefix = prefix;
        this.columns = columns;
        this.primaryKey = primaryKey;
    }

    /** The table's name in SQL, lower case. */
    public String sqlName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    /** The column name prefix ({@code l_}, {@code ps_}, ...). */
    public String prefix() {
        return prefix;
    }

    public List<Column> columns() {
        return columns;
    }

    /** {@code CREATE TABLE} with every column NOT NULL and the primary key; no secondary indexes. */
    public String createTableSql() {
        return "CREATE TABLE " + sqlName() + " ("
                + columns.stream().map(c -> c.name() + " " + c.sqlType() + " NOT NULL").collect(Collectors.joining(", "))
                + ", PRIMARY KEY (" + primaryKey + "))";
    }

    /** The column names joined by commas, for INSERT statements. */
    public String columnList() {
        return columns.stream().map(Column::name).collect(Collectors.joining(", "));
    }
}
