package io.duetdb.cli;

import io.duetdb.common.config.HostAndPort;
import picocli.CommandLine;

/** Reads HOST:PORT flags. */
public final class HostAndPortConverter implements CommandLine.ITypeConverter<HostAndPort> {
    @Override
    public HostAndPort convert(String value) {
        try {
            return HostAndPort.parse(value);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.TypeConversionException(e.getMessage());
        }
    }
}
