package io.duetdb.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;

/**
 * A DuetDB command in its own JVM, on this JVM's class path, with its output in a file: for tests that
 * kill processes (kill -9 is {@link #kill()}).
 */
public final class JavaProcess implements AutoCloseable {
    private final Process process;
    private final Path output;

    private JavaProcess(Process process, Path output) {
        this.process = process;
        this.output = output;
    }

    /** Starts {@code io.duetdb.cli.Main} with the given arguments. */
    public static JavaProcess startDuet(Path output, List<String> arguments) throws IOException {
        return startDuet(output, arguments, List.of());
    }

    /** As {@link #startDuet(Path, List)} with extra JVM flags (tests that start many JVMs at once trim their JIT). */
    public static JavaProcess startDuet(Path output, List<String> arguments, List<String> jvmFlags) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx512m");
        command.addAll(jvmFlags);
        command.add("--add-opens=java.base/java.nio=ALL-UNNAMED");
        command.add("-Dorg.apache.ratis.thirdparty.io.netty.tryReflectionSetAccessible=true");
        command.add("-Djava.util.concurrent.ForkJoinPool.common.parallelism=4");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add("io.duetdb.cli.Main");
        command.addAll(arguments);
        Files.createDirectories(output.getParent());
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(output.toFile()).start();
        return new JavaProcess(process, output);
    }

    /** SIGKILL: no shutdown hooks, no flushing; what was not durable is lost. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** Waits up to {@code timeout} for the process to end; its exit code, or empty if it still runs. */
    public OptionalInt awaitExit(Duration timeout) throws InterruptedException {
        return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)
                ? OptionalInt.of(process.exitValue()) : OptionalInt.empty();
    }

    public String output() throws IOException {
        return Files.exists(output) ? Files.readString(output) : "";
    }

    public long pid() {
        return process.pid();
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            kill();
        }
    }
}
