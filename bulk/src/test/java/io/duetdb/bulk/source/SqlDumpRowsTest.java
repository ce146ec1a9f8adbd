package io.duetdb.bulk.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;

class SqlDumpRowsTest {
    @Test
    void readsTheInsertsOfAMysqldumpFileAndSkipsEverythingElse() {
        String dump = """
                -- MySQL dump 10.13
                /*!40101 SET @OLD_CHARACTER_SET_CLIENT=@@CHARACTER_SET_CLIENT */;
                DROP TABLE IF EXISTS `t`;
                CREATE TABLE `t` (
                  `id` int NOT NULL, `note` varchar(20) DEFAULT 'a;b', PRIMARY KEY (`id`) /*T![clustered_index] CLUSTERED */
                ) ENGINE=InnoDB;
                # a comment; with a semicolon
                LOCK TABLES `t` WRITE;
                INSERT INTO `t` VALUES (1,'it\\'s',NULL),(2,'two''s\\nline',-3.5e2),
                (3,_binary 'bin',0x4142);
                INSERT IGNORE INTO db.`t` VALUES (4,"dq",TRUE), (5, x'43', b'101');
                UNLOCK TABLES;
                """;
        assertThat(rows(dump)).containsExactly("1|it's|null", "2|two's\nline|-3.5e2", "3|bin|AB", "4|dq|1", "5|C|5");
    }

    @Test
    void aColumnListIsReadAheadAndMustStayTheSame() {
        String dump = "INSERT INTO `t` (`b`,`a`) VALUES (1,2);\nINSERT INTO `t` (`b`,`a`) VALUES (3,4);\n";
        try (SqlDumpRows reader = reader(dump)) {
            assertThat(reader.columns()).containsExactly("b", "a");
            assertThat(reader.next().fields()).containsExactly("1", "2");
            assertThat(reader.next().fields()).containsExactly("3", "4");
            assertThat(reader.next()).isNull();
        }
        assertThatThrownBy(() -> rows("INSERT INTO t (a) VALUES (1);\nINSERT INTO t (b) VALUES (2);"))
                .isInstanceOf(DuetException.class).hasMessageContaining("line 2").hasMessageContaining("[b]");
    }

    @Test
    void anythingButALiteralIsAClearError() {
        for (String bad : List.of("INSERT INTO t VALUES (NOW());", "INSERT INTO t VALUES (1,'open);",
                "INSERT INTO t VALUES (1 2);", "INSERT INTO t SELECT 1;", "INSERT INTO t VALUES (0xZZ);")) {
            assertThatThrownBy(() -> rows(bad)).as(bad).isInstanceOf(DuetException.class)
                    .hasMessageStartingWith("malformed SQL dump t.sql at line 1")
                    .satisfies(e -> assertThat(((DuetException) e).code()).isEqualTo(ErrorCode.IMPORT_WRONG_FORMAT_CONFIG));
        }
    }

    @Test
    void aFileWithoutInsertsHasNoRows() {
        assertThat(rows("CREATE TABLE t (a int);\n/*!40101 SET NAMES binary*/;\n")).isEmpty();
    }

    private static List<String> rows(String dump) {
        List<String> rows = new ArrayList<>();
        try (SqlDumpRows reader = reader(dump)) {
            for (RowReader.Row row = reader.next(); row != null; row = reader.next()) {
                rows.add(String.join("|", Arrays.stream(row.fields()).map(String::valueOf).toList()));
            }
        }
        return rows;
    }

    private static SqlDumpRows reader(String dump) {
        return new SqlDumpRows("t.sql", new ByteArrayInputStream(dump.getBytes(StandardCharsets.UTF_8)));
    }
}
