package io.duetdb.cli.ctl;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Optional;
import java.util.concurrent.Callable;

import io.duetdb.client.placement.PlacementClient;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.proto.placement.RegionInfo;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

@Command(name = "region", description = "One region, by id (digits) or by a key it holds.")
final class RegionCommand implements Callable<Integer> {
    @ParentCommand
    CtlCommand ctl;

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "ID|KEY", description = "a region id, or a key (raw text; hex with --hex)")
    String target;

    @Option(names = "--hex", description = "KEY is hexadecimal")
    boolean hex;

    @Option(names = "--key", description = "treat a numeric argument as a key, not an id")
    boolean forceKey;

    @Override
    public Integer call() {
        boolean isId = !hex && !forceKey && target.matches("\\d{1,19}");
        try (PlacementClient client = ctl.connect()) {
            Optional<RegionInfo> region;
            if (isId) {
                region = client.getRegionById(Long.parseLong(target));
            } else {
                byte[] key;
                try {
                    key = hex ? HexFormat.of().parseHex(target) : target.getBytes(StandardCharsets.UTF_8);
                } catch (IllegalArgumentException e) {
                    throw new CommandLine.ParameterException(spec.commandLine(), "'" + target + "' is not hexadecimal");
                }
                region = client.getRegion(key);
            }
            RegionInfo info = region.orElseThrow(() -> new DuetException(ErrorCode.INVALID_ARGUMENT,
                    isId ? "no region with id " + target : "no region holds key '" + target + "' (cluster not bootstrapped?)"));
            Json.print(spec.commandLine().getOut(), Json.region(info));
        }
        return 0;
    }
}
