package io.duetdb.cli.logging;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.util.ContextInitializer;

class LogSetupTest {
    private final PrintStream standardError = System.err;

    @AfterEach
    void restoreConsoleLogging() throws Exception {
        System.setErr(standardError);
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        context.reset();
        new ContextInitializer(context).autoConfig();
    }

    @Test
    void theFileGetsEveryLineAndTheConsoleOneLinePerWarningOrError(@TempDir Path directory) throws Exception {
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        System.setErr(new PrintStream(console, true, StandardCharsets.UTF_8));
        Path file = directory.resolve("logs").resolve("duet.log");
        Files.createDirectories(file.getParent());
        LogSetup.toFile(file);

        Logger component = LoggerFactory.getLogger("io.duetdb.store.StoreServer");
        MDC.put("component", "storage");
        MDC.put("node", "store-7");
        try {
            component.info("store 7 started");
            component.warn("disk almost full\nsecond line of the warning");
            component.error("cannot open the engine", new IllegalStateException("corrupt"));
        } finally {
            MDC.clear();
        }
        LoggerFactory.getLogger("org.apache.ratis.grpc.server.GrpcLogAppender").warn("store-1: follower failed, retrying");
        LoggerFactory.getLogger("org.apache.ratis.server.impl.RaftServerImpl").error("store-1: state machine failed");

        String printed = console.toString(StandardCharsets.UTF_8);
        assertThat(printed.lines()).hasSize(3);
        assertThat(printed).doesNotContain("store 7 started").doesNotContain("second line").doesNotContain("follower")
                .doesNotContain("IllegalStateException");
        assertThat(printed).contains("WARN  [storage/store-7] disk almost full")
                .contains("ERROR [storage/store-7] cannot open the engine")
                .contains("ERROR [storage/store-1] store-1: state machine failed");

        String logged = Files.readString(file);
        assertThat(logged).contains("INFO  [storage/store-7] StoreServer - store 7 started")
                .contains("second line of the warning")
                .contains("java.lang.IllegalStateException: corrupt")
                .contains("follower failed, retrying");
    }
}
