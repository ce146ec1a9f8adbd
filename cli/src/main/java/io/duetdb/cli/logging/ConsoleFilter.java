package io.duetdb.cli.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.filter.Filter;
import ch.qos.logback.core.spi.FilterReply;

/**
 * What reaches the console when the log goes to a file: warnings and errors, but not Ratis' warnings, which
 * report replication it retries by itself (a follower not started yet, a new replica catching up, streams
 * cancelled at shutdown). The file keeps all of them.
 */
public final class ConsoleFilter extends Filter<ILoggingEvent> {
    private static final String RATIS = "org.apache.ratis";

    @Override
    public FilterReply decide(ILoggingEvent event) {
        if (!event.getLevel().isGreaterOrEqual(Level.WARN)) {
            return FilterReply.DENY;
        }
        if (event.getLevel() == Level.WARN && event.getLoggerName().startsWith(RATIS)) {
            return FilterReply.DENY;
        }
        return FilterReply.NEUTRAL;
    }
}
