package io.duetdb.bulk.source;

import static java.util.Objects.requireNonNull;

import java.io.File;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.security.AccessControlException;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;

/**
 * Where import files come from and where export files go: any Hadoop-compatible file system by URI (file:, hdfs:,
 * and what the user's Hadoop configuration adds); a path without a scheme is a local one. A location may name a file,
 * a directory (its files, hidden ones and those starting with '_' left out, as Hadoop tools do) or a glob.
 */
public final class SourceFiles {
    private final Configuration configuration;

    public SourceFiles(Configuration configuration) {
        this.configuration = requireNonNull(configuration, "configuration is null");
    }

    /** The Hadoop configuration from the classpath and HADOOP_CONF_DIR, as Hadoop clients read it. */
    public static SourceFiles withDefaultConfiguration() {
        Configuration configuration = new Configuration();
        String confDir = System.getenv("HADOOP_CONF_DIR");
        if (confDir != null && !confDir.isBlank()) {
            for (String file : List.of("core-site.xml", "hdfs-site.xml")) {
                File site = new File(confDir, file);
                if (site.isFile()) {
                    configuration.addResource(new Path(site.toURI()));
                }
            }
        }
        return new SourceFiles(configuration);
    }

    public Configuration configuration() {
        return configuration;
    }

    /** The files a location names, in name order; fails when it names none. */
    public List<SourceFile> resolve(String location) {
        Path path = path(location);
        try {
            FileSystem fileSystem = path.getFileSystem(configuration);
            FileStatus[] matched = fileSystem.globStatus(path);
            if (matched == null || matched.length == 0) {
                throw new DuetException(ErrorCode.IMPORT_CANNOT_ACCESS, "Access to the source '" + location
                        + "' has been denied. Reason: no file matches it");
            }
            List<SourceFile> files = new ArrayList<>();
            for (FileStatus status : matched) {
                if (status.isDirectory()) {
                    for (FileStatus child : fileSystem.listStatus(status.getPath())) {
                        String name = child.getPath().getName();
                        if (child.isFile() && !name.startsWith(".") && !name.startsWith("_")) {
                            files.add(new SourceFile(child.getPath().toString(), child.getLen()));
                        }
                    }
                } else {
                    files.add(new SourceFile(status.getPath().toString(), status.getLen()));
                }
            }
            if (files.isEmpty()) {
                throw new DuetException(ErrorCode.IMPORT_CANNOT_ACCESS, "Access to the source '" + location
                        + "' has been denied. Reason: it holds no files");
            }
            files.sort(Comparator.comparing(SourceFile::uri));
            return files;
        } catch (AccessControlException e) {
            throw new DuetException(ErrorCode.IMPORT_CANNOT_ACCESS, "Access to the source '" + location
                    + "' has been denied. Reason: " + firstLine(e));
        } catch (IOException e) {
            throw new DuetException(ErrorCode.IMPORT_CANNOT_ACCESS, "Access to the source '" + location
                    + "' has been denied. Reason: " + firstLine(e));
        }
    }

    /** The file's bytes, or a part's lines (see {@link SourceFile#split}). */
    public InputStream open(SourceFile file) {
        Path path = new Path(file.uri());
        try {
            FSDataInputStream in = path.getFileSystem(configuration).open(path);
            return file.isPart() ? new LineRangeInputStream(in, file.start(), file.end()) : in;
        } catch (FileNotFoundException e) {
            throw new DuetException(ErrorCode.IMPORT_CANNOT_ACCESS, "Access to the source '" + file.uri()
                    + "' has been denied. Reason: the file is gone");
        } catch (IOException e) {
            throw new DuetException(ErrorCode.IMPORT_CANNOT_ACCESS, "Access to the source '" + file.uri()
                    + "' has been denied. Reason: " + firstLine(e));
        }
    }

    /** Where output goes: a directory as a Hadoop path (a local path made absolute, or a URI). */
    public static Path outputPath(String location) {
        return path(location);
    }

    /** A location as a Hadoop path: a URI with a scheme as it is, anything else a local path made absolute. */
    static Path path(String location) {
        requireNonNull(location, "location is null");
        if (location.isBlank()) {
            throw new DuetException(ErrorCode.IMPORT_INVALID_URI, "The URI of the source is invalid. Reason: it is empty");
        }
        int colon = location.indexOf(':');
        int slash = location.indexOf('/');
        boolean hasScheme = colon > 1 && (slash < 0 || colon < slash);
        if (!hasScheme) {
            return new Path(new File(location).getAbsoluteFile().toURI().getPath());
        }
        try {
            URI uri = new URI(location.replace("*", "%2A").replace("?", "%3F").replace("[", "%5B").replace("]", "%5D"));
            if (uri.getScheme() == null) {
                throw new URISyntaxException(location, "no scheme");
            }
        } catch (URISyntaxException e) {
            throw new DuetException(ErrorCode.IMPORT_INVALID_URI, "The URI of " + location + " is invalid. Reason: "
                    + e.getReason());
        }
        Path path = new Path(location);
        if (path.toUri().getScheme() == null) {
            throw new DuetException(ErrorCode.IMPORT_INVALID_URI, "The URI of " + location + " is invalid. Reason: no scheme");
        }
        return path;
    }

    private static String firstLine(Exception e) {
        String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }
}
