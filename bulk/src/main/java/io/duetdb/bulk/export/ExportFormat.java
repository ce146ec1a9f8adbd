package io.duetdb.bulk.export;

import java.io.IOException;
import java.util.List;
import java.util.Locale;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

import io.duetdb.common.catalog.ColumnInfo;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;

/** The file formats an export writes, each read back by IMPORT INTO. */
public enum ExportFormat {
    CSV("csv") {
        @Override
        RowFileWriter open(FileSystem fileSystem, Path file, String table, List<ColumnInfo> columns) throws IOException {
            return new CsvFileWriter(fileSystem.create(file, true), columns);
        }
    },
    PARQUET("parquet") {
        @Override
        RowFileWriter open(FileSystem fileSystem, Path file, String table, List<ColumnInfo> columns) throws IOException {
            Configuration configuration = fileSystem.getConf();
            return new ParquetFileWriter(file, configuration, columns);
        }
    },
    SQL("sql") {
        @Override
        RowFileWriter open(FileSystem fileSystem, Path file, String table, List<ColumnInfo> columns) throws IOException {
            return new SqlFileWriter(fileSystem.create(file, true), table, columns);
        }
    };

    private final String extension;

    ExportFormat(String extension) {
        this.extension = extension;
    }

    public String extension() {
        return extension;
    }

    abstract RowFileWriter open(FileSystem fileSystem, Path file, String table, List<ColumnInfo> columns) throws IOException;

    /** A format by its name, as users write it (csv, parquet, sql). */
    public static ExportFormat of(String name) {
        for (ExportFormat format : values()) {
            if (format.extension.equals(name.toLowerCase(Locale.ROOT))) {
                return format;
            }
        }
        throw new DuetException(ErrorCode.IMPORT_UNSUPPORTED_FORMAT, "The FORMAT '" + name + "' is not supported");
    }
}
