package io.duetdb.cli.ctl;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Optional;

import io.duetdb.client.placement.PlacementClient;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.proto.placement.RegionInfo;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "region", description = "One region, by id (digits) or by a key it holds.")
final class RegionCommand extends PlacementQuery {
    @Parameters(paramLabel = "ID|KEY", description = "a region id, or a key (raw text; hex with --hex)")
    String target;

    @Option(names = "--hex", description = "KEY is hexadecimal")
    boolean hex;

    @Option(names = "--key", description = "treat a numeric argument as a key, not an id")
    boolean forceKey;

    @Override
    Object query(PlacementClient client) {
        boolean isId = !hex && !forceKey && target.matches("\\d{1,19}");
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
        return Json.region(info);
    }
}
