package io.duetdb.benchmarks.oltp;

import static java.util.Objects.requireNonNull;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Runs Debian's sysbench against one endpoint the way users run it ({@code sysbench oltp_point_select
 * --mysql-host=... --tables=4 --table-size=50000 --threads=16 --time=60 run}, prepared statements where the server
 * has them), relays its progress lines and reads its report. Needs the sysbench package:
 * {@code bin/setup-test-tools sysbench}.
 */
final class Sysbench {
    /** sysbench's prepare prints this when a table's rows are in and its CREATE INDEX starts. */
    private static final String INDEX_LINE = "Creating a secondary index on";
    private static final Duration PREPARE_LIMIT = Duration.ofMinutes(30);
    /** How much longer than its --time a run may take before it is stopped (sysbench waits for slow statements). */
    private static final Duration RUN_MARGIN = Duration.ofMinutes(3);

    private final Path program;
    private final Endpoint endpoint;
    private final int tables;
    private final int tableSize;
    private final PrintStream progress;

    /** The timing of sysbench's prepare: every table's rows, then CREATE INDEX on each. */
    record Prepare(double seconds, double insertSeconds, long rows, Optional<String> failure) {
        Prepare {
            requireNonNull(failure, "failure is null");
        }
    }

    Sysbench(Endpoint endpoint, int tables, int tableSize, PrintStream progress) {
        this.program = find();
        this.endpoint = requireNonNull(endpoint, "endpoint is null");
        this.tables = tables;
        this.tableSize = tableSize;
        this.progress = requireNonNull(progress, "progress is null");
    }

    /** The sysbench program on PATH, or an error that says how to install it. */
    static Path find() {
        return Stream.of(Optional.ofNullable(System.getenv("PATH")).orElse("").split(":"))
                .filter(entry -> !entry.isEmpty()).map(folder -> Path.of(folder, "sysbench"))
                .filter(Files::isExecutable).findFirst()
                .orElseThrow(() -> new IllegalStateException("sysbench is not installed (looked on PATH); "
                        + "bin/setup-test-tools sysbench installs Debian's sysbench"));
    }

    /** Drops the tables (sysbench's cleanup), then times sysbench's prepare with {@code threads} loading threads. */
    Prepare prepare(int threads) throws IOException, InterruptedException {
        Output cleanup = execute("oltp_common", threads, List.of("cleanup"), false, PREPARE_LIMIT);
        if (cleanup.exitCode() != 0) {
            return new Prepare(Double.NaN, Double.NaN, 0, Optional.of("sysbench cleanup failed: " + cleanup.text()));
        }
        progress.printf("%s: sysbench prepare, %d tables x %,d rows, %d threads%n", endpoint.name(), tables,
                tableSize, threads);
        Output output = execute("oltp_common", threads, List.of("prepare"), true, PREPARE_LIMIT);
        double seconds = output.seconds();
        double insertSeconds = output.lastIndexLineSeconds() < 0 ? seconds : output.lastIndexLineSeconds();
        SysbenchResult parsed = SysbenchResult.parse(output.text(), output.exitCode());
        Optional<String> failure = output.exitCode() == 0 && parsed.fatalErrors().isEmpty() ? Optional.empty()
                : Optional.of(parsed.fatalErrors().isEmpty() ? "sysbench prepare exited with code " + output.exitCode()
                        : parsed.fatalErrors().get(0));
        return new Prepare(seconds, insertSeconds, (long) tables * tableSize, failure);
    }

    /** One measured (or warm-up) run of {@code workload} (oltp_point_select, oltp_read_only, oltp_read_write). */
    SysbenchResult run(String workload, int threads, int seconds, int reportInterval)
            throws IOException, InterruptedException {
        Output output = execute(workload, threads, List.of("--time=" + seconds, "--report-interval=" + reportInterval,
                "run"), true, Duration.ofSeconds(seconds).plus(RUN_MARGIN));
        return SysbenchResult.parse(output.text(), output.exitCode());
    }

    private record Output(String text, int exitCode, double seconds, double lastIndexLineSeconds) {
    }

    /** Runs sysbench, stopping it when it has not ended within {@code limit} (its output then ends early). */
    private Output execute(String script, int threads, List<String> arguments, boolean relay, Duration limit)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(program.toString(), script,
                "--db-driver=mysql",
                "--mysql-host=" + endpoint.host(),
                "--mysql-port=" + endpoint.port(),
                "--mysql-user=" + endpoint.user(),
                "--mysql-password=" + endpoint.password(),
                "--mysql-db=" + endpoint.database(),
                "--db-ps-mode=auto",
                "--tables=" + tables,
                "--table-size=" + tableSize,
                "--threads=" + threads));
        command.addAll(arguments);
        long start = System.nanoTime();
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        Thread watchdog = new Thread(() -> {
            try {
                if (!process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
                    progress.printf("%s: sysbench did not end within %d s; stopping it%n", endpoint.name(),
                            limit.toSeconds());
                    process.destroyForcibly();
                }
            } catch (InterruptedException ended) {
                // the process ended (or this JVM is stopping) before the limit
            }
        }, "sysbench-limit");
        watchdog.setDaemon(true);
        watchdog.start();
        StringBuilder text = new StringBuilder();
        double lastIndexLine = -1;
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                text.append(line).append('\n');
                double elapsed = (System.nanoTime() - start) / 1e9;
                if (line.startsWith(INDEX_LINE)) {
                    lastIndexLine = elapsed;
                }
                if (relay && (line.startsWith("[") || line.startsWith("Inserting") || line.startsWith(INDEX_LINE)
                        || line.startsWith("FATAL"))) {
                    progress.printf("%s: %6.1f s  %s%n", endpoint.name(), elapsed, line);
                }
            }
        } finally {
            process.getOutputStream().close();
        }
        int exitCode = process.waitFor();
        watchdog.interrupt();
        return new Output(text.toString(), exitCode, (System.nanoTime() - start) / 1e9, lastIndexLine);
    }
}
