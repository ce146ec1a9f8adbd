package io.duetdb.common.concurrent;

import static java.util.Objects.requireNonNull;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

import org.slf4j.MDC;

/**
 * Daemon threads named {@code <node>-<purpose>-<n>} that carry the component and node in the logging
 * context, so that every log line names where it came from even when several components share a JVM.
 */
public final class NamedThreadFactory implements ThreadFactory {
    public static final String MDC_COMPONENT = "component";
    public static final String MDC_NODE = "node";

    private final String component;
    private final String node;
    private final String purpose;
    private final AtomicInteger counter = new AtomicInteger();

    public NamedThreadFactory(String component, String node, String purpose) {
        this.component = requireNonNull(component, "component is null");
        this.node = requireNonNull(node, "node is null");
        this.purpose = requireNonNull(purpose, "purpose is null");
    }

    @Override
    public Thread newThread(Runnable task) {
        Runnable withContext = () -> {
            MDC.put(MDC_COMPONENT, component);
            MDC.put(MDC_NODE, node);
            task.run();
        };
        Thread thread = new Thread(withContext, node + "-" + purpose + "-" + counter.incrementAndGet());
        thread.setDaemon(true);
        return thread;
    }
}
