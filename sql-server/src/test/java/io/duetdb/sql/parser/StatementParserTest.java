package io.duetdb.sql.parser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;
import org.junit.jupiter.api.Test;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.sql.parser.ddl.SqlColumnDefinition;
import io.duetdb.sql.parser.ddl.SqlCreateTable;
import io.duetdb.sql.parser.ddl.SqlIndexDefinition;
import io.duetdb.sql.parser.dml.SqlMySqlDelete;
import io.duetdb.sql.parser.dml.SqlMySqlInsert;
import io.duetdb.sql.parser.dml.SqlMySqlUpdate;
import io.duetdb.sql.parser.dml.SqlQueryWithLocking;

class StatementParserTest {
    @Test
    void parsesMySqlStringLiterals() {
        SqlSelect select = (SqlSelect) StatementParser.parse("SELECT 'it\\'s', \"double \\\"q\\\"\", 'a''b'");
        assertThat(((SqlLiteral) select.getSelectList().get(0)).getValueAs(String.class)).isEqualTo("it's");
        assertThat(((SqlLiteral) select.getSelectList().get(1)).getValueAs(String.class)).isEqualTo("double \"q\"");
        assertThat(((SqlLiteral) select.getSelectList().get(2)).getValueAs(String.class)).isEqualTo("a'b");
    }

    @Test
    void readsMySqlBackslashEscapesInStrings() {
        // The Java text below is the SQL with each backslash doubled.
        SqlSelect select = (SqlSelect) StatementParser.parse("SELECT 'tab\\there', 'two\\nlines', 'back\\\\slash',"
                + " 'ends with \\\\', 'slash-quote \\\\\\'', \"dq \\\\\\\"x\\\"\", 'nul\\0 z\\Z',"
                + " 'like a\\_b\\%', 'other \\q', 'it''s \\\\'");
        assertThat(select.getSelectList()).extracting(node -> ((SqlLiteral) node).getValueAs(String.class))
                .containsExactly("tab\there", "two\nlines", "back\\slash", "ends with \\", "slash-quote \\'",
                        "dq \\\"x\"", "nul\0 z\u001A", "like a\\_b\\%", "other q", "it's \\");
    }

    @Test
    void parsesCreateTableWithMySqlTypesKeysAndOptions() {
        SqlCreateTable create = (SqlCreateTable) StatementParser.parse("CREATE TABLE IF NOT EXISTS `db`.t ("
                + " id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT, name VARCHAR(20) CHARACTER SET utf8mb4 DEFAULT 'x',"
                + " amount DECIMAL(65,30) DEFAULT -1.5, created DATETIME(6) DEFAULT CURRENT_TIMESTAMP(6),"
                + " flag BOOL, body TEXT, PRIMARY KEY (id), UNIQUE KEY uk (name), KEY idx_amount (amount, created))"
                + " ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COMMENT='t'");
        assertThat(create.ifNotExists()).isTrue();
        assertThat(create.elements()).hasSize(9);
        SqlColumnDefinition id = (SqlColumnDefinition) create.elements().get(0);
        assertThat(id.type().typeName()).isEqualTo("BIGINT");
        assertThat(id.type().unsigned()).isTrue();
        assertThat(id.autoIncrement()).isTrue();
        assertThat(((SqlIndexDefinition) create.elements().get(7)).kind()).isEqualTo(SqlIndexDefinition.Kind.UNIQUE);
        assertThat(create.options()).hasSize(3);
    }

    @Test
    void parsesMySqlDml() {
        assertThat(StatementParser.parse("TRUNCATE TABLE truncated")).isInstanceOf(io.duetdb.sql.parser.ddl.SqlTruncateTable.class);
        assertThat(StatementParser.parse("TRUNCATE `t`;")).isInstanceOf(io.duetdb.sql.parser.ddl.SqlTruncateTable.class);
        SqlMySqlInsert insert = (SqlMySqlInsert) StatementParser.parse(
                "INSERT IGNORE INTO t (a, b) VALUES (1, DEFAULT), (2, 'x') ON DUPLICATE KEY UPDATE b = 'y'");
        assertThat(insert.ignore()).isTrue();
        assertThat(insert.onDuplicate()).hasSize(1);
        assertThat(((SqlMySqlInsert) StatementParser.parse("REPLACE t SET a = 1")).replace()).isTrue();
        SqlMySqlInsert upsert = (SqlMySqlInsert) StatementParser.parse(
                "INSERT INTO t (a, b) VALUES (1, 2) ON DUPLICATE KEY UPDATE b = VALUES(b) + b, a = a + 1");
        assertThat(upsert.onDuplicate().get(0).toString()).contains("VALUES");
        SqlMySqlUpdate update = (SqlMySqlUpdate) StatementParser.parse(
                "UPDATE t SET a = a + 1 WHERE b > 2 ORDER BY a DESC LIMIT 3");
        assertThat(update.limit()).isNotNull();
        SqlMySqlDelete delete = (SqlMySqlDelete) StatementParser.parse("DELETE FROM t WHERE a = 1 LIMIT 1");
        assertThat(delete.where()).isNotNull();
        SqlNode locking = StatementParser.parse("SELECT * FROM t WHERE id = 1 FOR UPDATE");
        assertThat(locking).isInstanceOf(SqlQueryWithLocking.class);
    }

    @Test
    void acceptsColumnNamesThatMySqlDoesNotReserve() {
        SqlSelect select = (SqlSelect) StatementParser.parse(
                "SELECT day, year, month, hour, value, user, at FROM t WHERE day > DATE '2024-01-01'"
                        + " AND EXTRACT(YEAR FROM at) = 2024 AND at < CURRENT_TIMESTAMP + INTERVAL '1' DAY");
        assertThat(select.getSelectList()).hasSize(7);
        assertThat(StatementParser.parse("CREATE TABLE t (day DATE, value INT, user VARCHAR(10))"))
                .isInstanceOf(SqlCreateTable.class);
    }

    @Test
    void reportsSyntaxErrorsAs1064WithWhereTheyAre() {
        assertThatThrownBy(() -> StatementParser.parse("SELECT * FROM t WHERE"))
                .isInstanceOf(DuetException.class)
                .satisfies(e -> assertThat(((DuetException) e).code()).isEqualTo(ErrorCode.PARSE_ERROR))
                .hasMessageContaining("at line 1");
    }
}
