package io.duetdb.benchmarks.oltp;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SysbenchResultTest {
    private static final String REPORT = """
            sysbench 1.0.20 (using system LuaJIT 2.1.0-beta3)

            Running the test with following options:
            Number of threads: 4
            Report intermediate results every 1 second(s)

            Threads started!

            [ 1s ] thds: 4 tps: 32901.51 qps: 32901.51 (r/w/o: 32901.51/0.00/0.00) lat (ms,95%): 0.23 err/s: 0.00 reconn/s: 0.00
            SQL statistics:
                queries performed:
                    read:                            69330
                    write:                           0
                    other:                           0
                    total:                           69330
                transactions:                        3466   (1155.21 per sec.)
                queries:                             69330  (23029.76 per sec.)
                ignored errors:                      17     (5.66 per sec.)
                reconnects:                          2      (0.67 per sec.)

            General statistics:
                total time:                          3.0088s
                total number of events:              3466

            Latency (ms):
                     min:                                    0.03
                     avg:                                    0.17
                     max:                                   18.45
                     95th percentile:                        0.26
                     sum:                                11977.61
            """;

    @Test
    void readsTheStatisticsAndTheErrorsSysbenchIgnored() {
        SysbenchResult result = SysbenchResult.parse(REPORT, 0);

        assertThat(result.transactionsPerSecond()).isEqualTo(1155.21);
        assertThat(result.queriesPerSecond()).isEqualTo(23029.76);
        assertThat(result.averageMillis()).isEqualTo(0.17);
        assertThat(result.p95Millis()).isEqualTo(0.26);
        assertThat(result.ignoredErrors()).isEqualTo(17);
        assertThat(result.reconnects()).isEqualTo(2);
        assertThat(result.completed()).isTrue();
        assertThat(result.failure()).isEmpty();
    }

    @Test
    void aFatalErrorFailsTheRunWithItsMessage() {
        String output = """
                Threads started!

                FATAL: mysql_stmt_execute() returned error 1054 (Unknown column 'pad' in 'INSERT INTO') for query 'INSERT INTO sbtest2'
                FATAL: `thread_run' function failed: /usr/share/sysbench/oltp_common.lua:488: SQL error, errno = 1054
                """;

        SysbenchResult result = SysbenchResult.parse(output, 1);

        assertThat(result.completed()).isFalse();
        assertThat(result.fatalErrors()).hasSize(2);
        assertThat(result.failure()).hasValue("FATAL: mysql_stmt_execute() returned error 1054 (Unknown column 'pad'"
                + " in 'INSERT INTO') for query 'INSERT INTO sbtest2'");
        assertThat(result.transactionsPerSecond()).isNaN();
    }

    @Test
    void aFatalErrorAfterTheStatisticsStillFailsTheRun() {
        SysbenchResult result = SysbenchResult.parse(REPORT + "FATAL: thread 3 failed\n", 0);

        assertThat(result.completed()).isFalse();
        assertThat(result.failure()).hasValue("FATAL: thread 3 failed");
    }

    @Test
    void anExitWithoutStatisticsIsAFailure() {
        SysbenchResult result = SysbenchResult.parse("Threads started!\n", 137);

        assertThat(result.completed()).isFalse();
        assertThat(result.failure()).hasValue("sysbench exited with code 137 without statistics");
    }
}
