package io.duetdb.common.config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Pattern;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.PropertyAccessor;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;

/**
 * Reads a component's TOML config file onto its config object, whose field initialisers are the defaults.
 * Keys are the fields' names in kebab-case; unknown keys and malformed values are one-line errors.
 */
public final class ConfigFiles {
    private ConfigFiles() {
    }

    /** Overlays the file's keys on {@code config} (which holds the defaults) and returns it. */
    public static <T> T load(Path file, T config) {
        String text;
        try {
            text = Files.readString(file);
        } catch (NoSuchFileException e) {
            throw new DuetException(ErrorCode.INVALID_CONFIG, "config file " + file + " does not exist");
        } catch (IOException e) {
            throw new DuetException(ErrorCode.INVALID_CONFIG, "cannot read config file " + file + ": " + e.getMessage());
        }
        return overlay(file.toString(), text, config);
    }

    /** As {@link #load}, from text; {@code source} names it in errors. */
    public static <T> T overlay(String source, String text, T config) {
        try {
            return mapper().readerForUpdating(config).readValue(text);
        } catch (UnrecognizedPropertyException e) {
            throw new DuetException(ErrorCode.INVALID_CONFIG, "config file " + source + ": unknown key '"
                    + e.getPropertyName() + "'" + lineOf(text, e.getPropertyName()));
        } catch (JsonMappingException e) {
            String key = e.getPath().isEmpty() ? "?" : String.valueOf(e.getPath().get(e.getPath().size() - 1).getFieldName());
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            String reason = cause == e ? e.getOriginalMessage() : cause.getMessage();
            throw new DuetException(ErrorCode.INVALID_CONFIG, "config file " + source + ": invalid value for '" + key
                    + "'" + lineOf(text, key) + ": " + firstLine(reason));
        } catch (JsonProcessingException e) {
            throw new DuetException(ErrorCode.INVALID_CONFIG, "config file " + source + " is not valid TOML"
                    + where(e.getLocation()) + ": " + firstLine(e.getOriginalMessage()));
        }
    }

    /** The TOML text of a config object: what `--print-defaults` shows. */
    public static String toToml(Object config) {
        try {
            return mapper().writeValueAsString(config);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot render config " + config.getClass().getSimpleName(), e);
        }
    }

    static ObjectMapper mapper() {
        SimpleModule durations = new SimpleModule("duetdb-config");
        durations.addDeserializer(Duration.class, new JsonDeserializer<>() {
            @Override
            public Duration deserialize(JsonParser parser, DeserializationContext context) throws IOException {
                return Durations.parse(parser.getValueAsString());
            }
        });
        durations.addSerializer(Duration.class, new JsonSerializer<>() {
            @Override
            public void serialize(Duration value, com.fasterxml.jackson.core.JsonGenerator generator,
                    SerializerProvider provider) throws IOException {
                generator.writeString(Durations.format(value));
            }
        });
        // Jackson writes paths as file: URIs; a config file should show the path as the user wrote it.
        durations.addSerializer(Path.class, new JsonSerializer<>() {
            @Override
            public void serialize(Path value, com.fasterxml.jackson.core.JsonGenerator generator,
                    SerializerProvider provider) throws IOException {
                generator.writeString(value.toString());
            }
        });
        return TomlMapper.builder()
                .propertyNamingStrategy(PropertyNamingStrategies.KEBAB_CASE)
                .visibility(PropertyAccessor.ALL, JsonAutoDetect.Visibility.NONE)
                .visibility(PropertyAccessor.FIELD, JsonAutoDetect.Visibility.ANY)
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                .addModule(durations)
                .build();
    }

    /** Jackson reads TOML into a tree first and loses positions, so find the key's line in the text. */
    private static String lineOf(String text, String key) {
        Pattern assignment = Pattern.compile("^\\s*[\"']?" + Pattern.quote(key) + "[\"']?\\s*=");
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            if (assignment.matcher(lines[i]).find()) {
                return " (line " + (i + 1) + ")";
            }
        }
        return "";
    }

    private static String where(JsonLocation location) {
        return location == null || location.getLineNr() <= 0 ? "" : " (line " + location.getLineNr() + ")";
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "malformed";
        }
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }
}
