package io.duetdb.spark.internal;

import java.util.HashMap;
import java.util.Map;

import org.apache.spark.sql.SparkSession;

import scala.Option;
import scala.jdk.javaapi.CollectionConverters;

/** The active Spark session's {@code spark.duet.*} settings, read when a scan or write is planned. */
public final class SessionSettings {
    private SessionSettings() {
    }

    public static Map<String, String> current() {
        Option<SparkSession> session = SparkSession.getActiveSession();
        if (session.isEmpty()) {
            return Map.of();
        }
        Map<String, String> settings = new HashMap<>();
        for (Map.Entry<String, String> entry : CollectionConverters.asJava(session.get().conf().getAll()).entrySet()) {
            if (entry.getKey().startsWith(ConnectorOptions.SESSION_PREFIX)) {
                settings.put(entry.getKey(), entry.getValue());
            }
        }
        return settings;
    }
}
