package io.duetdb.cli.logging;

import java.nio.file.Path;

import org.slf4j.LoggerFactory;
import org.slf4j.bridge.SLF4JBridgeHandler;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.PatternLayout;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.encoder.LayoutWrappingEncoder;
import ch.qos.logback.core.rolling.RollingFileAppender;
import ch.qos.logback.core.rolling.SizeAndTimeBasedRollingPolicy;
import ch.qos.logback.core.util.FileSize;

/**
 * Wires every component's logging into Logback. By default (logback.xml) every line at INFO and above goes to
 * the console, as servers run by orchestrators log; {@link #toFile} moves the full log to a rolling file and
 * keeps only warnings and errors, one line each, on the console.
 */
public final class LogSetup {
    public static final String PATTERN = "%d{yyyy-MM-dd HH:mm:ss.SSS} %-5level [%node] %logger{0} - %msg [%thread]%n";
    /** Console lines beside a log file: the message's first line, no stack trace (the file has them). */
    static final String CONSOLE_PATTERN = "%d{HH:mm:ss} %-5level [%node] %replace(%msg){'(?s)[\\r\\n].*', ''}%n%nopex";
    private static final String CONSOLE = "CONSOLE";
    private static final FileSize MAX_FILE_SIZE = FileSize.valueOf("64MB");
    private static final FileSize TOTAL_SIZE_CAP = FileSize.valueOf("1GB");
    private static final int MAX_HISTORY_DAYS = 14;

    private LogSetup() {
    }

    /** Routes java.util.logging (gRPC, Netty) through SLF4J. */
    public static void bridgeJulToSlf4j() {
        SLF4JBridgeHandler.removeHandlersForRootLogger();
        SLF4JBridgeHandler.install();
    }

    /**
     * Every line to {@code file}, rolled daily and at 64 MB into {@code <name>-<date>.<n>.log.gz} beside it (kept
     * {@value #MAX_HISTORY_DAYS} days, 1 GB at most); the console keeps warnings and errors, one line each.
     */
    public static void toFile(Path file) {
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);

        Path absolute = file.toAbsolutePath();
        String name = absolute.getFileName().toString().replaceFirst("\\.log$", "");
        RollingFileAppender<ILoggingEvent> rolling = new RollingFileAppender<>();
        rolling.setContext(context);
        rolling.setName("FILE");
        rolling.setFile(absolute.toString());
        rolling.setAppend(true);
        SizeAndTimeBasedRollingPolicy<ILoggingEvent> policy = new SizeAndTimeBasedRollingPolicy<>();
        policy.setContext(context);
        policy.setParent(rolling);
        policy.setFileNamePattern(absolute.resolveSibling(name + "-%d{yyyy-MM-dd}.%i.log.gz").toString());
        policy.setMaxFileSize(MAX_FILE_SIZE);
        policy.setMaxHistory(MAX_HISTORY_DAYS);
        policy.setTotalSizeCap(TOTAL_SIZE_CAP);
        policy.start();
        rolling.setRollingPolicy(policy);
        rolling.setEncoder(encoder(context, PATTERN));
        rolling.start();

        ConsoleAppender<ILoggingEvent> console = new ConsoleAppender<>();
        console.setContext(context);
        console.setName(CONSOLE);
        console.setTarget("System.err");
        ConsoleFilter warnings = new ConsoleFilter();
        warnings.start();
        console.addFilter(warnings);
        console.setEncoder(encoder(context, CONSOLE_PATTERN));
        console.start();

        Appender<ILoggingEvent> previous = root.getAppender(CONSOLE);
        root.addAppender(rolling);
        root.addAppender(console);
        if (previous != null) {
            root.detachAppender(previous);
            previous.stop();
        }
    }

    /** For commands whose output is data (ctl): only warnings and errors reach the console. */
    public static void quiet() {
        if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext context)) {
            // Another SLF4J provider (a host application's): its configuration stands.
            return;
        }
        context.getLogger(Logger.ROOT_LOGGER_NAME).setLevel(Level.WARN);
        context.getLogger("io.grpc").setLevel(Level.ERROR);
        // "Unable to load native-hadoop library": the built-in Java code is what bulk commands use.
        context.getLogger("org.apache.hadoop.util.NativeCodeLoader").setLevel(Level.ERROR);
    }

    private static LayoutWrappingEncoder<ILoggingEvent> encoder(LoggerContext context, String pattern) {
        PatternLayout layout = new PatternLayout();
        layout.setContext(context);
        layout.getInstanceConverterMap().put("node", NodeConverter::new);
        layout.setPattern(pattern);
        layout.start();
        LayoutWrappingEncoder<ILoggingEvent> encoder = new LayoutWrappingEncoder<>();
        encoder.setContext(context);
        encoder.setLayout(layout);
        encoder.start();
        return encoder;
    }
}
