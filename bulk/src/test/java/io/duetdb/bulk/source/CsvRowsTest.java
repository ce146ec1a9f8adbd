package io.duetdb.bulk.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;

class CsvRowsTest {
    @TempDir
    Path directory;

    @Test
    void quotedFieldsNullMarkersAndSkippedHeaders() {
        String text = "id,name,note\n1,\"a, b\",\\N\n2,\"say \"\"hi\"\"\",x\n\n3,c,\n";
        List<String> rows = new ArrayList<>();
        try (CsvRows csv = new CsvRows("t.csv", new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)),
                CsvOptions.DEFAULT.withSkipRows(1))) {
            for (RowReader.Row row = csv.next(); row != null; row = csv.next()) {
                rows.add(String.join("/", java.util.Arrays.stream(row.fields()).map(String::valueOf).toList()));
            }
        }
        assertThat(rows).containsExactly("1/a, b/null", "2/say \"hi\"/x", "3/c/");
    }

    @Test
    void pipeDelimitedWithoutQuotes() {
        String text = "1|x|2.5|\n2|y|3|\n";
        List<Integer> counts = new ArrayList<>();
        try (CsvRows csv = new CsvRows("t.tbl", new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)),
                CsvOptions.DEFAULT.withFieldsTerminatedBy("|").withFieldsEnclosedBy(null))) {
            for (RowReader.Row row = csv.next(); row != null; row = csv.next()) {
                counts.add(row.fields().length);
            }
        }
        assertThat(counts).containsExactly(4, 4);
    }

    @Test
    void splitPartsReadEveryLineOnce() throws Exception {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 5000; i++) {
            text.append(i).append(',').append("x".repeat(i % 37)).append('\n');
        }
        Path file = directory.resolve("split.csv");
        Files.writeString(file, text);
        SourceFiles sources = SourceFiles.withDefaultConfiguration();
        SourceFile whole = sources.resolve(file.toString()).get(0);
        for (long partBytes : new long[] {17, 100, 4096, whole.length()}) {
            List<String> ids = new ArrayList<>();
            for (SourceFile part : whole.split(partBytes)) {
                try (CsvRows rows = new CsvRows(part.describe(), sources.open(part), CsvOptions.DEFAULT)) {
                    for (RowReader.Row row = rows.next(); row != null; row = rows.next()) {
                        ids.add(row.fields()[0]);
                    }
                }
            }
            assertThat(ids).as("parts of %d bytes", partBytes).hasSize(5000)
                    .isEqualTo(java.util.stream.IntStream.range(0, 5000).mapToObj(Integer::toString).toList());
        }
    }

    @Test
    void locationsResolveToFilesDirectoriesAndGlobs() throws Exception {
        Files.writeString(directory.resolve("a.csv"), "1\n");
        Files.writeString(directory.resolve("b.csv"), "2\n");
        Files.writeString(directory.resolve("_SUCCESS"), "");
        Files.writeString(directory.resolve("c.txt"), "3\n");
        SourceFiles sources = SourceFiles.withDefaultConfiguration();
        assertThat(sources.resolve(directory.toString())).extracting(SourceFile::uri)
                .allMatch(uri -> uri.startsWith("file:")).hasSize(3);
        assertThat(sources.resolve(directory + "/*.csv")).extracting(SourceFile::length).containsExactly(2L, 2L);
        assertThat(sources.resolve("file://" + directory + "/a.csv")).hasSize(1);
        assertThatThrownBy(() -> sources.resolve(directory + "/missing.csv")).isInstanceOf(DuetException.class)
                .hasMessageContaining("no file matches")
                .satisfies(e -> assertThat(((DuetException) e).code()).isEqualTo(ErrorCode.IMPORT_CANNOT_ACCESS));
        assertThatThrownBy(() -> sources.resolve("nosuchscheme://host/x.csv")).isInstanceOf(DuetException.class)
                .satisfies(e -> assertThat(((DuetException) e).code()).isEqualTo(ErrorCode.IMPORT_CANNOT_ACCESS));
    }
}
