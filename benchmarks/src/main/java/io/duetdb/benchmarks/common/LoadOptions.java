package io.duetdb.benchmarks.common;

import picocli.CommandLine.Option;

/** How hard and how long a workload harness drives the cluster; shared by the harnesses as a picocli mixin. */
public final class LoadOptions {
    @Option(names = "--clients", defaultValue = "64", description = "client threads (default: ${DEFAULT-VALUE})")
    public int clients;

    @Option(names = "--seconds", defaultValue = "15", description = "seconds per measured run (default: ${DEFAULT-VALUE})")
    public int seconds;

    @Option(names = "--warmup", defaultValue = "20",
            description = "seconds of load before measuring; the JIT needs a minute or more here (default: ${DEFAULT-VALUE})")
    public int warmupSeconds;
}
