package io.duetdb.cli;

import java.time.Duration;

import io.duetdb.common.config.Durations;
import picocli.CommandLine;

/** Parses durations written as 500ms, 2s or 1m. */
final class DurationConverter implements CommandLine.ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
        return Durations.parse(value);
    }
}
