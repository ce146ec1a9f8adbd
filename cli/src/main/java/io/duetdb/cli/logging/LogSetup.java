package io.duetdb.cli.logging;

import java.nio.file.Path;

import org.slf4j.LoggerFactory;
import org.slf4j.bridge.SLF4JBridgeHandler;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.FileAppender;

/** Wires every component's logging into Logback: the console (from logback.xml) plus a file in the data dir. */
public final class LogSetup {
    public static final String PATTERN = "%d{yyyy-MM-dd HH:mm:ss.SSS} %-5level [%node] %logger{0} - %msg [%thread]%n";

    private LogSetup() {
    }

    /** Routes java.util.logging (gRPC, Netty) through SLF4J. */
    public static void bridgeJulToSlf4j() {
        SLF4JBridgeHandler.removeHandlersForRootLogger();
        SLF4JBridgeHandler.install();
    }

    /** Adds a file appender writing the same lines as the console to {@code file}. */
    public static void logToFile(Path file) {
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setPattern(PATTERN);
        encoder.start();
        FileAppender<ILoggingEvent> appender = new FileAppender<>();
        appender.setContext(context);
        appender.setName("FILE");
        appender.setFile(file.toAbsolutePath().toString());
        appender.setAppend(true);
        appender.setEncoder(encoder);
        appender.start();
        context.getLogger(Logger.ROOT_LOGGER_NAME).addAppender(appender);
    }

    /** For commands whose output is data (ctl): only warnings and errors reach the console. */
    public static void quiet() {
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        context.getLogger(Logger.ROOT_LOGGER_NAME).setLevel(Level.WARN);
        context.getLogger("io.grpc").setLevel(Level.ERROR);
    }
}
