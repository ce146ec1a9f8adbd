package io.duetdb.cli.ctl;

import java.time.Duration;
import java.util.List;

import io.duetdb.cli.HostAndPortConverter;
import io.duetdb.cli.logging.LogSetup;
import io.duetdb.client.placement.GrpcPlacementClient;
import io.duetdb.client.placement.PlacementClient;
import io.duetdb.client.placement.PlacementClientConfig;
import io.duetdb.common.config.HostAndPort;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code duet ctl}: cluster inspection and operations; every command prints JSON. */
@Command(name = "ctl", mixinStandardHelpOptions = true,
        description = "Inspect and operate a cluster through its placement driver. Output is JSON.",
        subcommands = {MembersCommand.class, TsoCommand.class, StoresCommand.class, RegionsCommand.class,
                RegionCommand.class, HealthCommand.class, SplitCommand.class, TransferLeaderCommand.class,
                MergeCommand.class, RawCommand.class, TxnCommand.class, GcCommand.class, LearnersCommand.class})
public final class CtlCommand implements Runnable {
    @Option(names = "--pd", split = ",", paramLabel = "HOST:PORT", defaultValue = "127.0.0.1:2379",
            converter = HostAndPortConverter.class, scope = CommandLine.ScopeType.INHERIT,
            description = "placement member(s) to ask (default: ${DEFAULT-VALUE})")
    List<HostAndPort> endpoints;

    @Option(names = "--timeout", defaultValue = "5s", paramLabel = "DURATION", scope = CommandLine.ScopeType.INHERIT,
            converter = DurationConverter.class, description = "how long to keep trying (default: ${DEFAULT-VALUE})")
    Duration timeout;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing command (expected one of: "
                + String.join(", ", spec.commandLine().getSubcommands().keySet()) + ")");
    }

    PlacementClient connect() {
        LogSetup.quiet();
        return new GrpcPlacementClient(PlacementClientConfig.of(endpoints).withRequestTimeout(timeout), "ctl");
    }

    List<HostAndPort> endpoints() {
        return endpoints;
    }

    Duration timeout() {
        return timeout;
    }

    /** Reads "5s", "500ms". */
    public static final class DurationConverter implements CommandLine.ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            try {
                return io.duetdb.common.config.Durations.parse(value);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }
}
