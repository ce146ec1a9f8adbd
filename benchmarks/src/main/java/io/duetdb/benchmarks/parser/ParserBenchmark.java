package io.duetdb.benchmarks.parser;

import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;

import org.apache.calcite.sql.SqlNode;

import io.duetdb.sql.parser.StatementParser;

/**
 * The SQL parser on one core (issue 19's bulk INSERTs): a multi-row INSERT as sysbench's prepare step writes it,
 * {@code rows} rows of an integer and two strings of 119 and 59 characters, and a TPC-C New-Order statement.
 * Prints microseconds per statement. Run with {@code benchmarks/bench parser} (JMH options pass through).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class ParserBenchmark {
    @Param({"1000"})
    int rows;

    private String insert;

    @Setup
    public void setUp() {
        Random random = new Random(7);
        StringBuilder sql = new StringBuilder("INSERT INTO sbtest1(k, c, pad) VALUES");
        for (int i = 0; i < rows; i++) {
            sql.append(i == 0 ? "" : ",").append('(').append(random.nextInt(50_000)).append(", '")
                    .append(digitGroups(random, 11)).append("', '").append(digitGroups(random, 5)).append("')");
        }
        insert = sql.toString();
    }

    /** sysbench's c and pad values: groups of eleven digits joined by dashes. */
    private static String digitGroups(Random random, int groups) {
        StringBuilder value = new StringBuilder();
        for (int g = 0; g < groups; g++) {
            if (g > 0) {
                value.append('-');
            }
            for (int d = 0; d < 11; d++) {
                value.append((char) ('0' + random.nextInt(10)));
            }
        }
        return value.toString();
    }

    @Benchmark
    public SqlNode multiRowInsert() {
        return StatementParser.parse(insert);
    }

    @Benchmark
    public SqlNode newOrderStockQuery() {
        return StatementParser.parse("SELECT s_i_id, s_quantity, s_data, s_dist_01, s_dist_02, s_dist_03, s_dist_04,"
                + " s_dist_05, s_dist_06, s_dist_07, s_dist_08, s_dist_09, s_dist_10 FROM stock"
                + " WHERE (s_w_id, s_i_id) IN ((?, ?), (?, ?), (?, ?), (?, ?), (?, ?), (?, ?), (?, ?), (?, ?), (?, ?),"
                + " (?, ?)) FOR UPDATE");
    }

    public static void main(String[] args) throws RunnerException, CommandLineOptionException {
        String[] withInclude = Arrays.copyOf(args, args.length + 1);
        withInclude[args.length] = ParserBenchmark.class.getName();
        new Runner(new CommandLineOptions(withInclude)).run();
    }
}
