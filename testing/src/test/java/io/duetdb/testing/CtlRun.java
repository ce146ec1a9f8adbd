package io.duetdb.testing;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;

import org.slf4j.LoggerFactory;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.duetdb.cli.Main;
import picocli.CommandLine;

/** One `duet ctl` invocation in this JVM: exit code, standard output and standard error. */
public record CtlRun(int exitCode, String out, String err) {
    private static final ObjectMapper JSON = new ObjectMapper();

    public static CtlRun run(String pdAddress, String... arguments) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine commandLine = Main.commandLine();
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        List<String> all = new ArrayList<>(List.of("ctl", "--pd", pdAddress));
        all.addAll(List.of(arguments));
        // ctl quiets the JVM's logging as a command-line tool should; tests that run after it in this JVM still
        // read INFO lines, so the levels come back afterwards.
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        Logger grpc = context.getLogger("io.grpc");
        Level rootLevel = root.getLevel();
        Level grpcLevel = grpc.getLevel();
        try {
            int code = commandLine.execute(all.toArray(String[]::new));
            return new CtlRun(code, out.toString(), err.toString());
        } finally {
            root.setLevel(rootLevel);
            grpc.setLevel(grpcLevel);
        }
    }

    public JsonNode json() throws Exception {
        if (exitCode != 0) {
            throw new AssertionError("ctl failed with exit code " + exitCode + ": " + err);
        }
        return JSON.readTree(out);
    }
}
