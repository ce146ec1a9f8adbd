package io.duetdb.testing.tpch;

import java.util.List;
import java.util.Locale;

import io.duetdb.testing.reference.Column;
import io.duetdb.testing.reference.Table;

/**
 * The eight TPC-H tables with the specification's columns (clause 1.4) and primary keys. The DDL is the same
 * for MySQL, MariaDB, DuetDB and DuckDB: CHAR, VARCHAR, INTEGER, DECIMAL(15,2) and DATE, primary keys only.
 */
public enum TpchTable implements Table {
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
            Column.chars("p_container", 10), money("p_retailprice"), Column.varchar("p_comment", 23)),
            "p_partkey"),
    SUPPLIER("s_", List.of(
            Column.integer("s_suppkey"), Column.chars("s_name", 25), Column.varchar("s_address", 40),
            Column.integer("s_nationkey"), Column.chars("s_phone", 15), money("s_acctbal"),
            Column.varchar("s_comment", 101)),
            "s_suppkey"),
    PARTSUPP("ps_", List.of(
            Column.integer("ps_partkey"), Column.integer("ps_suppkey"), Column.integer("ps_availqty"),
            money("ps_supplycost"), Column.varchar("ps_comment", 199)),
            "ps_partkey, ps_suppkey"),
    CUSTOMER("c_", List.of(
            Column.integer("c_custkey"), Column.varchar("c_name", 25), Column.varchar("c_address", 40),
            Column.integer("c_nationkey"), Column.chars("c_phone", 15), money("c_acctbal"),
            Column.chars("c_mktsegment", 10), Column.varchar("c_comment", 117)),
            "c_custkey"),
    ORDERS("o_", List.of(
            Column.integer("o_orderkey"), Column.integer("o_custkey"), Column.chars("o_orderstatus", 1),
            money("o_totalprice"), Column.date("o_orderdate"), Column.chars("o_orderpriority", 15),
            Column.chars("o_clerk", 15), Column.integer("o_shippriority"), Column.varchar("o_comment", 79)),
            "o_orderkey"),
    LINEITEM("l_", List.of(
            Column.integer("l_orderkey"), Column.integer("l_partkey"), Column.integer("l_suppkey"),
            Column.integer("l_linenumber"), money("l_quantity"), money("l_extendedprice"),
            money("l_discount"), money("l_tax"), Column.chars("l_returnflag", 1),
            Column.chars("l_linestatus", 1), Column.date("l_shipdate"), Column.date("l_commitdate"),
            Column.date("l_receiptdate"), Column.chars("l_shipinstruct", 25), Column.chars("l_shipmode", 10),
            Column.varchar("l_comment", 44)),
            "l_orderkey, l_linenumber");

    private final String prefix;
    private final List<Column> columns;
    private final String primaryKey;

    TpchTable(String prefix, List<Column> columns, String primaryKey) {
        this.prefix = prefix;
        this.columns = columns;
        this.primaryKey = primaryKey;
    }

    private static Column money(String name) {
        return Column.decimal(name, 15, 2);
    }

    @Override
    public String sqlName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The column name prefix ({@code l_}, {@code ps_}, ...). */
    public String prefix() {
        return prefix;
    }

    @Override
    public List<Column> columns() {
        return columns;
    }

    @Override
    public String primaryKey() {
        return primaryKey;
    }
}
