package io.duetdb.sql.parser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlSnapshot;
import org.apache.calcite.util.Litmus;
import org.junit.jupiter.api.Test;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.sql.parser.account.AccountName;
import io.duetdb.sql.parser.account.SqlAlterUser;
import io.duetdb.sql.parser.account.SqlCreateUser;
import io.duetdb.sql.parser.account.SqlDropUser;
import io.duetdb.sql.parser.account.SqlFlushPrivileges;
import io.duetdb.sql.parser.account.SqlGrant;
import io.duetdb.sql.parser.account.SqlSetPassword;
import io.duetdb.sql.parser.account.SqlShowGrants;
import io.duetdb.sql.parser.account.UserSpecification;
import io.duetdb.sql.parser.bulk.SqlAdminChecksumTable;
import io.duetdb.sql.parser.session.SqlSetTransaction;
import io.duetdb.sql.parser.session.SqlSetVariables;
import io.duetdb.sql.parser.bulk.SqlImportInto;
import io.duetdb.sql.parser.ddl.SqlAdminShowDdlJobs;
import io.duetdb.sql.parser.ddl.SqlAlterTable;
import io.duetdb.sql.parser.ddl.SqlAlterTableAddColumn;
import io.duetdb.sql.parser.ddl.SqlAlterTableCheck;
import io.duetdb.sql.parser.ddl.SqlAlterTableChangeColumn;
import io.duetdb.sql.parser.ddl.SqlAlterTableColumnDefault;
import io.duetdb.sql.parser.ddl.SqlAlterTableIndexVisibility;
import io.duetdb.sql.parser.ddl.SqlAlterTableRename;
import io.duetdb.sql.parser.ddl.SqlAlterTableRenameItem;
import io.duetdb.sql.parser.ddl.SqlCheckConstraint;
import io.duetdb.sql.parser.ddl.SqlColumnDefinition;
import io.duetdb.sql.parser.ddl.SqlCreateDatabase;
import io.duetdb.sql.parser.ddl.SqlCreateTable;
import io.duetdb.sql.parser.ddl.SqlCreateView;
import io.duetdb.sql.parser.ddl.SqlDropView;
import io.duetdb.sql.parser.ddl.SqlIndexDefinition;
import io.duetdb.sql.parser.ddl.SqlTruncateTable;
import io.duetdb.sql.parser.dml.SqlExplainQuery;
import io.duetdb.sql.parser.dml.SqlMySqlDelete;
import io.duetdb.sql.parser.dml.SqlMySqlInsert;
import io.duetdb.sql.parser.dml.SqlMySqlUpdate;
import io.duetdb.sql.parser.dml.SqlMultiTableDelete;
import io.duetdb.sql.parser.dml.SqlMultiTableUpdate;
import io.duetdb.sql.parser.dml.SqlQueryWithLocking;
import io.duetdb.sql.parser.dml.SqlSelectIntoVariables;
import io.duetdb.sql.parser.prepare.SqlDeallocatePrepare;
import io.duetdb.sql.parser.prepare.SqlExecute;
import io.duetdb.sql.parser.prepare.SqlPrepare;
import io.duetdb.sql.parser.ddl.SqlCreateUnsupported;
import io.duetdb.sql.parser.session.SqlKill;
import io.duetdb.sql.parser.session.SqlUseDatabase;
import io.duetdb.sql.parser.show.SqlShow;
import io.duetdb.sql.parser.statistics.SqlAnalyzeTable;
import io.duetdb.sql.parser.txn.SqlEndTransaction;
import io.duetdb.sql.parser.txn.SqlLockTables;
import io.duetdb.sql.parser.txn.SqlStartTransaction;

class StatementParserTest {
    @Test
    void parsesPrepareExecuteAndDeallocate() {
        SqlPrepare prepare = (SqlPrepare) StatementParser.parse("PREPARE s FROM 'SELECT ?'");
        assertThat(prepare.name()).isEqualTo("s");
        assertThat(prepare.source()).isInstanceOf(SqlLiteral.class);
        SqlExecute execute = (SqlExecute) StatementParser.parse("EXECUTE s USING DUET_USER_VARIABLE('a'),"
                + " CAST(DUET_USER_VARIABLE('b') AS BIGINT)");
        assertThat(execute.arguments()).extracting(UserVariables::name).containsExactly("a", "b");
        assertThat(((SqlExecute) StatementParser.parse("EXECUTE s")).arguments()).isEmpty();
        assertThat(((SqlDeallocatePrepare) StatementParser.parse("DEALLOCATE PREPARE s")).name()).isEqualTo("s");
        assertThat(((SqlDeallocatePrepare) StatementParser.parse("DROP PREPARE s")).name()).isEqualTo("s");
        assertThat(StatementParser.parse("DROP TABLE s")).isNotInstanceOf(SqlDeallocatePrepare.class);
    }

    @Test
    void parsesShowStatementsInTheGrammar() {
        SqlShow tables = (SqlShow) StatementParser.parse("show full tables in shop where Table_type = 'VIEW'");
        assertThat(tables.kind()).isEqualTo(SqlShow.Kind.TABLES);
        assertThat(tables.full()).isTrue();
        assertThat(tables.database()).contains("shop");
        assertThat(tables.where()).isPresent();
        SqlShow columns = (SqlShow) StatementParser.parse("SHOW FIELDS FROM shop.items LIKE 'n%'");
        assertThat(columns.kind()).isEqualTo(SqlShow.Kind.COLUMNS);
        assertThat(columns.object().orElseThrow().names).containsExactly("shop", "items");
        assertThat(columns.like()).contains("n%");
        assertThat(((SqlShow) StatementParser.parse("SHOW GLOBAL VARIABLES")).scope()).isEqualTo(SqlShow.Scope.GLOBAL);
        assertThat(((SqlShow) StatementParser.parse("SHOW KEYS IN t FROM d")).database()).contains("d");
        assertThat(((SqlShow) StatementParser.parse("SHOW TABLE STATUS")).kind()).isEqualTo(SqlShow.Kind.TABLE_STATUS);
        assertThat(((SqlShow) StatementParser.parse("SHOW CHARACTER SET")).kind()).isEqualTo(SqlShow.Kind.CHARACTER_SET);
        assertThat(((SqlShow) StatementParser.parse("SHOW STORAGE ENGINES")).kind()).isEqualTo(SqlShow.Kind.ENGINES);
        assertThat(((SqlShow) StatementParser.parse("SHOW COUNT(*) ERRORS")).kind()).isEqualTo(SqlShow.Kind.ERROR_COUNT);
        assertThat(((SqlShow) StatementParser.parse("SHOW CREATE DATABASE IF NOT EXISTS d")).ifNotExists()).isTrue();
        SqlShow describe = (SqlShow) StatementParser.parse("DESCRIBE items name");
        assertThat(describe.kind()).isEqualTo(SqlShow.Kind.COLUMNS);
        assertThat(describe.like()).contains("name");
        assertThat(StatementParser.parse("EXPLAIN SELECT 1")).isNotInstanceOf(SqlShow.class);
        for (String bad : List.of("SHOW", "SHOW BOGUS", "SHOW COLUMNS", "SHOW TABLES LIKE x", "SHOW `TABLES`")) {
            assertThatThrownBy(() -> StatementParser.parse(bad)).as(bad).isInstanceOf(DuetException.class)
                    .hasMessageContaining("SQL syntax");
        }
    }

    @Test
    void createOfObjectsDuetDbLacksNamesThem() {
        assertThat(((SqlCreateUnsupported) StatementParser.parse("CREATE PROCEDURE p() BEGIN SELECT 1; SELECT 2; END"))
                .objects()).isEqualTo("stored procedures");
        assertThat(((SqlCreateUnsupported) StatementParser.parse("CREATE DEFINER=`root`@`%` TRIGGER t BEFORE INSERT"
                + " ON x FOR EACH ROW SET NEW.a = 1")).objects()).isEqualTo("triggers");
        assertThat(((SqlCreateUnsupported) StatementParser.parse("create event e on schedule every 1 hour do select 1"))
                .objects()).isEqualTo("events");
        assertThat(StatementParser.parse("CREATE TABLE procedure_log (a INT)")).isNotInstanceOf(SqlCreateUnsupported.class);
        assertThat(StatementParser.parse("CREATE DEFINER = CURRENT_USER VIEW v AS SELECT 1"))
                .isNotInstanceOf(SqlCreateUnsupported.class);
        assertThatThrownBy(() -> StatementParser.parse("CREATE SEQUENCE s")).isInstanceOf(DuetException.class)
                .hasMessageContaining("SQL syntax");
    }

    @Test
    void statementModifiersAndStorageOptionsAreAccepted() {
        assertThat(((SqlMySqlInsert) StatementParser.parse("INSERT HIGH_PRIORITY IGNORE INTO t VALUES (1)")).ignore())
                .isTrue();
        assertThat(StatementParser.parse("INSERT DELAYED t VALUES (1)")).isInstanceOf(SqlMySqlInsert.class);
        assertThat(StatementParser.parse("REPLACE LOW_PRIORITY INTO t VALUES (1)")).isInstanceOf(SqlMySqlInsert.class);
        assertThat(StatementParser.parse("UPDATE LOW_PRIORITY IGNORE t SET a = 1 LIMIT 1")).isInstanceOf(SqlMySqlUpdate.class);
        for (String delete : List.of("DELETE LOW_PRIORITY QUICK IGNORE FROM t WHERE a = 1 LIMIT 1",
                "DELETE QUICK FROM quick WHERE quick = 1 ORDER BY quick LIMIT 2", "DELETE FROM t LIMIT 1")) {
            assertThat(((SqlMySqlDelete) StatementParser.parse(delete)).limit()).as(delete).isNotNull();
        }
        SqlCreateTable create = (SqlCreateTable) StatementParser.parse("CREATE TABLE t (a INT COLUMN_FORMAT FIXED"
                + " STORAGE DISK NOT NULL, c VARCHAR(9), UNIQUE KEY u USING BTREE (c(3)) KEY_BLOCK_SIZE = 4 VISIBLE,"
                + " KEY k (a) USING HASH INVISIBLE COMMENT 'x') KEY_BLOCK_SIZE=8 STATS_PERSISTENT=0");
        assertThat(create.toString()).contains("CREATE TABLE");
        assertThatThrownBy(() -> StatementParser.parse("CREATE TABLE t (a INT STORAGE NOWHERE)"))
                .isInstanceOf(DuetException.class).hasMessageContaining("SQL syntax");
    }

    @Test
    void alterTableChangesColumnsAndIndexNames() {
        SqlAlterTable alter = (SqlAlterTable) StatementParser.parse("ALTER TABLE t MODIFY a BIGINT NOT NULL FIRST,"
                + " CHANGE COLUMN b c VARCHAR(9) AFTER a, RENAME COLUMN c TO d, RENAME KEY k TO k2, RENAME TO u,"
                + " ALTER d SET DEFAULT 'x', ALTER COLUMN a DROP DEFAULT");
        List<SqlNode> actions = alter.actions().getList();
        SqlAlterTableChangeColumn modify = (SqlAlterTableChangeColumn) actions.get(0);
        assertThat(modify.oldName().getSimple()).isEqualTo("a");
        assertThat(modify.column().nullable()).isFalse();
        assertThat(modify.first()).isTrue();
        SqlAlterTableChangeColumn change = (SqlAlterTableChangeColumn) actions.get(1);
        assertThat(change.oldName().getSimple()).isEqualTo("b");
        assertThat(change.column().name().getSimple()).isEqualTo("c");
        assertThat(change.after().getSimple()).isEqualTo("a");
        SqlAlterTableRenameItem renameColumn = (SqlAlterTableRenameItem) actions.get(2);
        assertThat(renameColumn.item() + " " + renameColumn.from().getSimple() + ">" + renameColumn.to().getSimple())
                .isEqualTo("COLUMN c>d");
        SqlAlterTableRenameItem renameIndex = (SqlAlterTableRenameItem) actions.get(3);
        assertThat(renameIndex.item() + " " + renameIndex.from().getSimple() + ">" + renameIndex.to().getSimple())
                .isEqualTo("INDEX k>k2");
        assertThat(actions.get(4)).isInstanceOf(SqlAlterTableRename.class);
        assertThat(((SqlAlterTableColumnDefault) actions.get(5)).defaultValue()).isInstanceOf(SqlLiteral.class);
        assertThat(((SqlAlterTableColumnDefault) actions.get(5)).defaultText()).isNull();
        assertThat(((SqlAlterTableColumnDefault) actions.get(6)).defaultValue()).isNull();
        SqlAlterTable expressionDefault = (SqlAlterTable) StatementParser.parse(
                "ALTER TABLE t ALTER COLUMN a SET DEFAULT (CONCAT('x', b) )");
        assertThat(((SqlAlterTableColumnDefault) expressionDefault.actions().get(0)).defaultText())
                .isEqualTo("CONCAT('x', b)");
        SqlAlterTable added = (SqlAlterTable) StatementParser.parse("ALTER TABLE t ADD COLUMN (a INT, b INT UNIQUE),"
                + " ADD c INT");
        assertThat(added.actions().getList()).hasSize(3).allMatch(action -> action instanceof SqlAlterTableAddColumn);
        SqlAlterTable visibility = (SqlAlterTable) StatementParser.parse("ALTER TABLE t ALTER INDEX k INVISIBLE");
        assertThat(((SqlAlterTableIndexVisibility) visibility.actions().get(0)).visible()).isFalse();
        assertThatThrownBy(() -> StatementParser.parse("ALTER TABLE t ALTER INDEX k HIDDEN"))
                .isInstanceOfSatisfying(DuetException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.PARSE_ERROR));
        assertThatThrownBy(() -> StatementParser.parse("ALTER TABLE t ALTER a SET 5"))
                .isInstanceOfSatisfying(DuetException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.PARSE_ERROR));
    }

    @Test
    void updateAndDeleteTakeSeveralTables() {
        SqlMySqlUpdate single = (SqlMySqlUpdate) StatementParser.parse("UPDATE shop.t AS x SET a = 1 WHERE b = 2 LIMIT 3");
        assertThat(single.table().names).containsExactly("shop", "t");
        assertThat(single.alias().getSimple()).isEqualTo("x");
        SqlMultiTableUpdate joined = (SqlMultiTableUpdate) StatementParser.parse(
                "UPDATE a JOIN b ON a.id = b.id SET a.v = b.v, b.w = 0 WHERE a.k > 1");
        assertThat(joined.from()).isInstanceOf(org.apache.calcite.sql.SqlJoin.class);
        assertThat(joined.assignments().size()).isEqualTo(2);
        assertThat(((SqlMultiTableUpdate) StatementParser.parse("UPDATE a, b SET a.v = b.v")).orderBy()).isNull();
        SqlMultiTableDelete fromForm = (SqlMultiTableDelete) StatementParser.parse(
                "DELETE a.*, b FROM a JOIN b ON a.id = b.id WHERE a.k = 1");
        assertThat(fromForm.targets()).extracting(SqlIdentifier::getSimple).containsExactly("a", "b");
        SqlMultiTableDelete usingForm = (SqlMultiTableDelete) StatementParser.parse(
                "DELETE QUICK FROM a, b.* USING a LEFT JOIN b ON a.id = b.id");
        assertThat(usingForm.targets()).extracting(SqlIdentifier::getSimple).containsExactly("a", "b");
        assertThat(usingForm.where()).isNull();
        SqlMySqlDelete plain = (SqlMySqlDelete) StatementParser.parse("DELETE FROM t x WHERE x.a = 1 ORDER BY a LIMIT 1");
        assertThat(plain.alias().getSimple()).isEqualTo("x");
    }

    @Test
    void createTableTakesAQuery() {
        assertThat(((SqlCreateTable) StatementParser.parse("CREATE TABLE t AS SELECT 1 AS a")).query())
                .isInstanceOf(SqlSelect.class);
        assertThat(((SqlCreateTable) StatementParser.parse("CREATE TABLE t SELECT a FROM u UNION SELECT 2")).query())
                .isNotNull();
        SqlCreateTable withElements = (SqlCreateTable) StatementParser.parse(
                "CREATE TABLE t (id INT PRIMARY KEY) ENGINE=InnoDB WITH q AS (SELECT 1 AS id) SELECT id FROM q");
        assertThat(withElements.elements().size()).isEqualTo(1);
        assertThat(withElements.query()).isNotNull();
        assertThat(((SqlCreateTable) StatementParser.parse("CREATE TABLE t (a INT)")).query()).isNull();
    }

    @Test
    void sessionStatementsAreInTheGrammar() {
        assertThat(StatementParser.parse("begin")).isInstanceOf(SqlStartTransaction.class);
        assertThat(StatementParser.parse("BEGIN WORK")).isInstanceOf(SqlStartTransaction.class);
        assertThat(((SqlEndTransaction) StatementParser.parse("COMMIT WORK")).commit()).isTrue();
        assertThat(((SqlEndTransaction) StatementParser.parse("rollback")).commit()).isFalse();
        assertThat(((SqlUseDatabase) StatementParser.parse("USE `my db`")).database()).isEqualTo("my db");
        SqlKill kill = (SqlKill) StatementParser.parse("KILL QUERY 42");
        assertThat(kill.queryOnly()).isTrue();
        assertThat(kill.connectionId()).isEqualTo(42);
        assertThat(((SqlKill) StatementParser.parse("KILL CONNECTION 7")).queryOnly()).isFalse();
        assertThat(((SqlAnalyzeTable) StatementParser.parse("ANALYZE TABLE a, d.b")).tables()).hasSize(2);
        for (String analyze : List.of("ANALYZE NO_WRITE_TO_BINLOG TABLE t WITH 10 BUCKETS, 5 TOPN",
                "ANALYZE TABLE t ALL COLUMNS", "ANALYZE TABLE t PREDICATE COLUMNS", "ANALYZE TABLE t COLUMNS a, b",
                "ANALYZE TABLE t INDEX i, j WITH 0.1 SAMPLERATE", "ANALYZE TABLE t UPDATE HISTOGRAM ON a, b WITH 8 BUCKETS",
                "ANALYZE LOCAL TABLE t DROP HISTOGRAM ON a", "ANALYZE TABLE t WITH 4 CMSKETCH DEPTH")) {
            assertThat(StatementParser.parse(analyze)).as(analyze).isInstanceOf(SqlAnalyzeTable.class);
        }
        for (String bad : List.of("USE", "KILL", "KILL QUERY x", "COMMIT 1", "ANALYZE TABLE", "ANALYZE TABLE t WITH BUCKETS")) {
            assertThatThrownBy(() -> StatementParser.parse(bad)).as(bad).isInstanceOf(DuetException.class)
                    .hasMessageContaining("SQL syntax");
        }
    }

    @Test
    void parsesLockAndUnlockTables() {
        SqlLockTables lock = (SqlLockTables) StatementParser.parse("LOCK TABLES `items` READ LOCAL, d.t AS x WRITE,"
                + " u LOW_PRIORITY WRITE, v w READ");
        assertThat(lock.unlock()).isFalse();
        assertThat(lock.tables()).extracting(SqlNode::toString).containsExactly("items", "d.t", "u", "v");
        assertThat(((SqlLockTables) StatementParser.parse("unlock tables")).unlock()).isTrue();
        assertThat(((SqlLockTables) StatementParser.parse("LOCK TABLE t WRITE")).tables()).hasSize(1);
        for (String bad : List.of("LOCK TABLES", "LOCK TABLES t", "LOCK TABLES t READ,", "UNLOCK TABLES t")) {
            assertThatThrownBy(() -> StatementParser.parse(bad)).as(bad).isInstanceOf(DuetException.class)
                    .satisfies(e -> assertThat(((DuetException) e).code()).isEqualTo(ErrorCode.PARSE_ERROR));
        }
    }

    @Test
    void executableCommentsAreStatementText() {
        SqlCreateTable create = (SqlCreateTable) StatementParser.parse("CREATE TABLE t (a INT, b INT,"
                + " PRIMARY KEY (a, b) /*T![clustered_index] NONCLUSTERED */) /*!40101 COMMENT 'x' */");
        assertThat(((SqlIndexDefinition) create.elements().get(2)).clustered()).isFalse();
        assertThat(StatementParser.parse("SELECT 1 /*!80099 + 1 */").toString()).doesNotContain("+");
        SqlSelect select = (SqlSelect) StatementParser.parse("SELECT /*!40001 SQL_NO_CACHE */ `id` FROM `items`");
        assertThat(select.getSelectList()).extracting(SqlNode::toString).containsExactly("id");
        select = (SqlSelect) StatementParser.parse("SELECT sql_no_cache.sql_no_cache AS sql_no_cache FROM sql_no_cache");
        assertThat(select.getSelectList()).extracting(SqlNode::toString)
                .containsExactly("`sql_no_cache`.`sql_no_cache` AS `sql_no_cache`");
        select = (SqlSelect) StatementParser.parse("SELECT sql_buffer_result, 1 FROM t");
        assertThat(select.getSelectList()).hasSize(2);
        select = (SqlSelect) StatementParser.parse("SELECT /*+ MAX_EXECUTION_TIME(5) */ SQL_BUFFER_RESULT DISTINCT a FROM t");
        assertThat(select.isDistinct()).isTrue();
        assertThat(select.getSelectList()).extracting(SqlNode::toString).containsExactly("a");
    }

    @Test
    void parsesImportIntoAndAdminChecksum() {
        SqlImportInto statement = (SqlImportInto) StatementParser.parse(
                "IMPORT INTO d.t (a, b) FROM 'hdfs://nn:8020/x/*.csv' FORMAT 'CSV' WITH SKIP_ROWS=1,"
                        + " FIELDS_TERMINATED_BY='|', DETACHED");
        assertThat(statement.table().names).containsExactly("d", "t");
        assertThat(statement.columns()).containsExactly("a", "b");
        assertThat(statement.location()).isEqualTo("hdfs://nn:8020/x/*.csv");
        assertThat(statement.format()).isEqualTo("csv");
        assertThat(statement.options()).containsExactly(Map.entry("SKIP_ROWS", "1"),
                Map.entry("FIELDS_TERMINATED_BY", "|"), Map.entry("DETACHED", "true"));
        assertThat(((SqlImportInto) StatementParser.parse("import into t from '/tmp/a.csv'"))
                .options()).isEmpty();

        SqlAdminChecksumTable checksum = (SqlAdminChecksumTable)
                StatementParser.parse("ADMIN CHECKSUM TABLE a, d.b");
        assertThat(checksum.tables()).extracting(Object::toString).containsExactly("a", "d.b");
        assertThatThrownBy(() -> StatementParser.parse("ADMIN CHECKSUMS TABLE a")).hasMessageContaining("SQL syntax");
    }

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
    void readsDoubledQuotesAsMySqlDoes() {
        SqlSelect select = (SqlSelect) StatementParser.parse(
                "SELECT 'it''s', \"say \"\"hi\"\"\", '''', 'x\\'y', `q''`");
        assertThat(select.getSelectList().getList().subList(0, 4))
                .extracting(node -> ((SqlLiteral) node).getValueAs(String.class))
                .containsExactly("it's", "say \"hi\"", "'", "x'y");
        assertThat(((SqlIdentifier) select.getSelectList().get(4)).getSimple()).isEqualTo("q''");
    }

    @Test
    void readsAdjacentStringsAsOneAndIntroducedStringsAsTheirText() {
        SqlSelect select = (SqlSelect) StatementParser.parse("SELECT 'a' 'b' \"c\", 'it''s' ' \\'ok\\'',"
                + " 'x\\\\' '\\'y', _utf8mb4'u', _binary 'b', N'n', 'one'\n'two'");
        assertThat(select.getSelectList()).extracting(node -> ((SqlLiteral) node).getValueAs(String.class))
                .containsExactly("abc", "it's 'ok'", "x\\'y", "u", "b", "n", "onetwo");
        // Columns named n or like an introducer stay columns.
        SqlSelect columns = (SqlSelect) StatementParser.parse("SELECT n, _utf8mb4, _other FROM t WHERE n = 'x'");
        assertThat(columns.getSelectList()).extracting(SqlNode::getKind)
                .containsExactly(SqlKind.IDENTIFIER, SqlKind.IDENTIFIER, SqlKind.IDENTIFIER);
    }

    @Test
    void positionsAfterStringLiteralsCountTheirLines() {
        assertThatThrownBy(() -> StatementParser.parse("SELECT 'one\ntwo', \"x\ny\",\n  FROM"))
                .isInstanceOf(DuetException.class)
                .hasMessageContaining("near 'FROM' at line 4");
        for (String unterminated : List.of("SELECT 'never closed", "SELECT 'ends in a backslash\\", "SELECT 'it''")) {
            assertThatThrownBy(() -> StatementParser.parse(unterminated)).as(unterminated)
                    .isInstanceOf(DuetException.class)
                    .satisfies(e -> assertThat(((DuetException) e).code()).isEqualTo(ErrorCode.PARSE_ERROR));
        }
    }

    @Test
    void literalValuesOfInsertRowsAreTheNodesTheExpressionGrammarBuilds() {
        String values = "1, 2.5, 1e3, 'x\\ny', \"d\", NULL, 'it''s', -3, 1 + 2, DATE '2026-01-01', TRUE,"
                + " 'last'";
        SqlMySqlInsert insert = (SqlMySqlInsert) StatementParser.parse("INSERT INTO t VALUES (" + values + "), (7, '')");
        SqlSelect select = (SqlSelect) StatementParser.parse("SELECT " + values);
        List<SqlNode> row = ((SqlCall) ((SqlCall) insert.source()).getOperandList().get(0)).getOperandList();
        assertThat(row).hasSameSizeAs(select.getSelectList());
        for (int i = 0; i < row.size(); i++) {
            SqlNode expected = select.getSelectList().get(i);
            assertThat(row.get(i)).as(expected.toString()).isExactlyInstanceOf(expected.getClass());
            assertThat(row.get(i).equalsDeep(expected, Litmus.IGNORE)).as(expected.toString()).isTrue();
        }
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
        assertThat(StatementParser.parse("TRUNCATE TABLE truncated")).isInstanceOf(SqlTruncateTable.class);
        assertThat(StatementParser.parse("TRUNCATE `t`")).isInstanceOf(SqlTruncateTable.class);
        assertThat(StatementParser.parse("SELECT TRUNCATE(1.55, 1)")).isInstanceOf(SqlSelect.class);
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

    /** A sample of MySQL 8.0's non-reserved keywords that Calcite reserves or reads as something else. */
    private static final List<String> NOT_RESERVED_IN_MYSQL = List.of("no", "sum", "min", "max", "offset", "percent",
            "period", "user", "value", "date", "year", "full", "current", "unknown", "array", "rollup", "stream", "avg",
            "coalesce", "truncate", "begin", "commit", "rollback", "any", "some", "new", "next", "only", "open", "escape",
            "filter", "bit", "boolean", "datetime", "national", "nchar", "skip", "none", "execute", "reset", "json_value");

    @Test
    void keywordsMySqlDoesNotReserveNameDatabasesTablesColumnsAndAliases() {
        for (String w : NOT_RESERVED_IN_MYSQL) {
            assertThat(StatementParser.parse("CREATE DATABASE " + w)).isInstanceOf(SqlCreateDatabase.class);
            assertThat(StatementParser.parse("CREATE TABLE " + w + "." + w + " (" + w + " INT PRIMARY KEY)"))
                    .isInstanceOf(SqlCreateTable.class);
            SqlSelect select = (SqlSelect) StatementParser.parse("SELECT " + w + ", " + w + "." + w + " AS " + w + ", "
                    + w + " + 1 FROM " + w + "." + w + " " + w + " WHERE " + w + " = 1 GROUP BY " + w + " HAVING " + w + " > 0");
            assertThat(select.getSelectList().get(0)).as(w).isInstanceOf(SqlIdentifier.class);
            assertThat(((SqlIdentifier) operand(select.getSelectList().get(1), 1)).getSimple()).as(w).isEqualTo(w);
            assertThat(operand(select.getSelectList().get(2), 0)).as(w).isInstanceOf(SqlIdentifier.class);
            assertThat(operand(select.getWhere(), 0)).as(w).isInstanceOf(SqlIdentifier.class);
            assertThat(((SqlIdentifier) operand(select.getFrom(), 1)).getSimple()).as(w).isEqualTo(w);
            SqlOrderBy ordered = (SqlOrderBy) StatementParser.parse("SELECT " + w + " FROM t ORDER BY " + w + " LIMIT 1");
            assertThat(ordered.orderList.get(0)).as(w).isInstanceOf(SqlIdentifier.class);
            SqlSelect derived = (SqlSelect) StatementParser.parse("SELECT " + w + ".x FROM (SELECT 1 AS x) " + w);
            assertThat(((SqlIdentifier) operand(derived.getFrom(), 1)).getSimple()).as(w).isEqualTo(w);
        }
    }

    private static SqlNode operand(SqlNode call, int ordinal) {
        return ((SqlCall) call).getOperandList().get(ordinal);
    }

    @Test
    void keywordsMySqlReservesNeedBackquotes() {
        for (String w : List.of("select", "key", "index", "desc", "if", "lock", "change", "rename", "database",
                "schema", "mediumtext", "xor", "regexp", "dual", "force", "use", "keys", "int1", "long", "interval",
                "zerofill", "sql_calc_found_rows", "read", "option", "generated")) {
            for (String sql : List.of("CREATE TABLE " + w + " (a INT)", "CREATE TABLE t (" + w + " INT)",
                    "SELECT 1 AS " + w, "CREATE DATABASE " + w)) {
                assertThatThrownBy(() -> StatementParser.parse(sql)).as(sql).isInstanceOf(DuetException.class)
                        .satisfies(e -> assertThat(((DuetException) e).code()).isEqualTo(ErrorCode.PARSE_ERROR));
            }
            assertThat(StatementParser.parse("CREATE TABLE `" + w + "` (`" + w + "` INT)")).isInstanceOf(SqlCreateTable.class);
        }
    }

    @Test
    void keywordsKeepTheirMeaningInExpressions() {
        SqlOrderBy limited = (SqlOrderBy) StatementParser.parse("SELECT COUNT(*), SUM(sum), MAX(max), USER(), DATABASE(),"
                + " IF(a, 1, 2), REPLACE(a, 'x', 'y'), REPEAT('a', 2), DATE '2020-01-01', CASE WHEN a THEN 1 END,"
                + " date + INTERVAL 1 DAY, a IS UNKNOWN, ARRAY[1], value FROM t LIMIT 1 OFFSET 2");
        assertThat(limited.offset).isNotNull();
        SqlSelect select = (SqlSelect) limited.query;
        List<SqlNode> items = select.getSelectList();
        assertThat(items.subList(0, 8)).extracting(item -> ((SqlCall) item).getOperator().getName().toUpperCase())
                .containsExactly("COUNT", "SUM", "MAX", "USER", "DATABASE", "IF", "REPLACE", "REPEAT");
        assertThat(operand(items.get(1), 0)).isInstanceOf(SqlIdentifier.class);
        assertThat(items.get(8)).isInstanceOf(SqlLiteral.class);
        assertThat(items.get(9).getKind()).isEqualTo(SqlKind.CASE);
        assertThat(items.get(10).getKind()).isEqualTo(SqlKind.PLUS);
        assertThat(items.get(11).getKind()).isEqualTo(SqlKind.IS_NULL);
        assertThat(items.get(12).getKind()).isEqualTo(SqlKind.ARRAY_VALUE_CONSTRUCTOR);
        assertThat(items.get(13)).isInstanceOf(SqlIdentifier.class);
        assertThat(((SqlSelect) StatementParser.parse("SELECT 1 FROM DUAL")).getFrom()).isNull();
    }

    @Test
    void mySqlTypeSynonymsThatAreReservedWords() {
        SqlCreateTable create = (SqlCreateTable) StatementParser.parse("CREATE TABLE t (a INT1, b INT8, c MIDDLEINT,"
                + " d FLOAT8, e LONG, f LONG VARBINARY, g MEDIUMTEXT, h VARCHARACTER(3), i BIT, j NCHAR(2))");
        assertThat(create.elements()).extracting(element -> ((SqlColumnDefinition) element).type().typeName())
                .containsExactly("TINYINT", "BIGINT", "MEDIUMINT", "DOUBLE", "MEDIUMTEXT", "MEDIUMBLOB", "MEDIUMTEXT",
                        "VARCHAR", "BIT", "NCHAR");
    }

    @Test
    void parsesMySql80LockingClauses() {
        SqlQueryWithLocking plain = (SqlQueryWithLocking) StatementParser.parse("SELECT * FROM t FOR UPDATE");
        assertThat(plain.mode()).isEqualTo(SqlQueryWithLocking.Mode.FOR_UPDATE);
        assertThat(plain.waitPolicy()).isEqualTo(SqlQueryWithLocking.WaitPolicy.WAIT);
        assertThat(plain.tables()).isEmpty();
        SqlQueryWithLocking of = (SqlQueryWithLocking) StatementParser.parse(
                "SELECT * FROM t a, db.u FOR SHARE OF a, db.u SKIP LOCKED");
        assertThat(of.mode()).isEqualTo(SqlQueryWithLocking.Mode.SHARE);
        assertThat(of.waitPolicy()).isEqualTo(SqlQueryWithLocking.WaitPolicy.SKIP_LOCKED);
        assertThat(of.tables()).extracting(SqlIdentifier::toString).containsExactly("a", "db.u");
        assertThat(of.description()).isEqualTo("for share of a, db.u skip locked");
        SqlQueryWithLocking nowait = (SqlQueryWithLocking) StatementParser.parse(
                "SELECT a FROM t WHERE a = 1 ORDER BY a LIMIT 1 FOR UPDATE NOWAIT");
        assertThat(nowait.waitPolicy()).isEqualTo(SqlQueryWithLocking.WaitPolicy.NOWAIT);
        assertThat(((SqlQueryWithLocking) StatementParser.parse("SELECT * FROM t LOCK IN SHARE MODE")).description())
                .isEqualTo("for share");
        // Calcite's own FOR after a table name still parses.
        assertThat(StatementParser.parse("SELECT SUBSTRING(a FROM 1 FOR 2) FROM t")).isInstanceOf(SqlSelect.class);
    }

    @Test
    void parsesTidbsAsOfTimestampAfterTableNamesAndInStartTransaction() {
        SqlSelect select = (SqlSelect) StatementParser.parse(
                "SELECT o.id FROM orders AS OF TIMESTAMP '2026-11-27 10:00:00' AS o WHERE o.id = 1");
        SqlCall alias = (SqlCall) select.getFrom();
        assertThat(alias.getKind()).isEqualTo(SqlKind.AS);
        SqlSnapshot snapshot = (SqlSnapshot) alias.operand(0);
        assertThat(snapshot.getTableRef().toString()).isEqualTo("orders");
        assertThat(snapshot.getPeriod().toString()).isEqualTo("'2026-11-27 10:00:00'");
        SqlSelect joined = (SqlSelect) StatementParser.parse("SELECT * FROM a AS OF TIMESTAMP NOW() - INTERVAL 5 SECOND"
                + " JOIN b AS OF TIMESTAMP NOW() - INTERVAL 5 SECOND ON a.x = b.x");
        assertThat((SqlNode) ((SqlCall) joined.getFrom()).operand(0)).isInstanceOf(SqlSnapshot.class);
        // AS before anything else keeps its meanings.
        assertThat(StatementParser.parse("SELECT CAST(x AS TIMESTAMP) AS of_day FROM t AS of_t"))
                .isInstanceOf(SqlSelect.class);

        SqlStartTransaction stale = (SqlStartTransaction) StatementParser.parse(
                "START TRANSACTION READ ONLY AS OF TIMESTAMP NOW() - INTERVAL 1 SECOND");
        assertThat(stale.readOnly()).isTrue();
        assertThat(stale.asOf()).isNotNull();
        SqlStartTransaction consistent = (SqlStartTransaction) StatementParser.parse(
                "START TRANSACTION WITH CONSISTENT SNAPSHOT, READ WRITE");
        assertThat(consistent.readOnly()).isFalse();
        assertThat(consistent.asOf()).isNull();
        assertThat(((SqlStartTransaction) StatementParser.parse("start transaction read only")).readOnly()).isTrue();
        for (String wrong : List.of("START TRANSACTION AS OF TIMESTAMP '2026-11-27 10:00:00'",
                "START TRANSACTION WITH SNAPSHOT", "START TRANSACTION READ")) {
            assertThatThrownBy(() -> StatementParser.parse(wrong)).as(wrong).isInstanceOf(DuetException.class)
                    .satisfies(e -> assertThat(((DuetException) e).code()).isEqualTo(ErrorCode.PARSE_ERROR));
        }
    }

    @Test
    void parsesExplainOfAnyQuery() {
        SqlExplainQuery explain = (SqlExplainQuery) StatementParser.parse(
                "EXPLAIN ANALYZE SELECT * FROM t FOR UPDATE SKIP LOCKED");
        assertThat(explain.analyze()).isTrue();
        assertThat(explain.query()).isInstanceOf(SqlQueryWithLocking.class);
        for (String sql : List.of("EXPLAIN SELECT 1", "DESC SELECT 1", "DESCRIBE WITH x AS (SELECT 1) SELECT * FROM x",
                "EXPLAIN FORMAT = 'brief' SELECT 1", "EXPLAIN FORMAT = row (SELECT 1) UNION (SELECT 2)")) {
            assertThat(((SqlExplainQuery) StatementParser.parse(sql)).analyze()).as(sql).isFalse();
        }
        assertThatThrownBy(() -> StatementParser.parse("EXPLAIN 1 + 1")).isInstanceOf(DuetException.class)
                .satisfies(e -> assertThat(((DuetException) e).code()).isEqualTo(ErrorCode.PARSE_ERROR));
    }

    @Test
    void parsesViewsWithMySqlsOptionsAndKeepsTheQuerysText() {
        SqlCreateView create = (SqlCreateView) StatementParser.parse("CREATE OR REPLACE ALGORITHM = MERGE"
                + " DEFINER = 'app'@'%' SQL SECURITY INVOKER VIEW db.v (a, b) AS\n  SELECT x, 'it''s'\n  FROM t"
                + " WITH LOCAL CHECK OPTION");
        assertThat(create.replace()).isTrue();
        assertThat(create.alter()).isFalse();
        assertThat(create.name().names).containsExactly("db", "v");
        assertThat(create.columns()).extracting(SqlNode::toString).containsExactly("a", "b");
        assertThat(create.definition()).isEqualTo("SELECT x, 'it''s'\n  FROM t");
        assertThat(create.options()).isEqualTo(new SqlCreateView.Options("MERGE", "app@%", "INVOKER"));
        assertThat(create.checkOption()).isEqualTo("LOCAL");
        SqlCreateView plain = (SqlCreateView) StatementParser.parse("CREATE VIEW v AS (SELECT 1) UNION (SELECT 2)");
        assertThat(plain.definition()).isEqualTo("(SELECT 1) UNION (SELECT 2)");
        assertThat(plain.options()).isEqualTo(new SqlCreateView.Options(null, null, null));
        assertThat(plain.checkOption()).isNull();
        assertThat(((SqlCreateView) StatementParser.parse("CREATE DEFINER = CURRENT_USER() VIEW v AS SELECT 1"))
                .options().definer()).isEqualTo("CURRENT_USER");
        SqlCreateView alter = (SqlCreateView) StatementParser.parse("ALTER DEFINER = root@localhost VIEW v AS SELECT 2"
                + " WITH CHECK OPTION");
        assertThat(alter.alter()).isTrue();
        assertThat(alter.options().definer()).isEqualTo("root@localhost");
        assertThat(alter.checkOption()).isEqualTo("CASCADED");
        SqlDropView drop = (SqlDropView) StatementParser.parse("DROP VIEW IF EXISTS v, db.w");
        assertThat(drop.ifExists()).isTrue();
        assertThat(drop.views()).extracting(SqlIdentifier::toString).containsExactly("v", "db.w");
        assertThatThrownBy(() -> StatementParser.parse("CREATE VIEW v AS 1 + 1")).isInstanceOf(DuetException.class);
        // ALGORITHM and the words after it stay names MySQL does not reserve.
        assertThat(StatementParser.parse("CREATE TABLE t (algorithm INT, undefined INT, temptable INT)"))
                .isInstanceOf(SqlCreateTable.class);
    }

    @Test
    void reportsSyntaxErrorsAs1064WithWhereTheyAre() {
        assertThatThrownBy(() -> StatementParser.parse("SELECT * FROM t WHERE"))
                .isInstanceOf(DuetException.class)
                .satisfies(e -> assertThat(((DuetException) e).code()).isEqualTo(ErrorCode.PARSE_ERROR))
                .hasMessageContaining("at line 1");
    }

    @Test
    void keepsTheTextOfGeneratedColumnsExpressionDefaultsAndChecks() {
        SqlCreateTable create = (SqlCreateTable) StatementParser.parse("CREATE TABLE t (a INT,"
                + " b INT AS (a  *  2), c VARCHAR(9) GENERATED ALWAYS AS (CONCAT('x)', a)) STORED NOT NULL,"
                + " d INT AS (a) PERSISTENT, e INT DEFAULT (a + 1), f INT DEFAULT (5), g INT DEFAULT 7,"
                + " CONSTRAINT pos CHECK (a > (0)) NOT ENFORCED)");
        List<SqlNode> elements = create.elements().getList();
        SqlColumnDefinition b = (SqlColumnDefinition) elements.get(1);
        assertThat(b.generation().text()).isEqualTo("a  *  2");
        assertThat(b.generation().stored()).isFalse();
        SqlColumnDefinition c = (SqlColumnDefinition) elements.get(2);
        assertThat(c.generation().text()).isEqualTo("CONCAT('x)', a)");
        assertThat(c.generation().stored()).isTrue();
        assertThat(c.nullable()).isFalse();
        assertThat(((SqlColumnDefinition) elements.get(3)).generation().stored()).isTrue();
        assertThat(((SqlColumnDefinition) elements.get(4)).defaultText()).isEqualTo("a + 1");
        assertThat(((SqlColumnDefinition) elements.get(5)).defaultText()).isEqualTo("5");
        assertThat(((SqlColumnDefinition) elements.get(6)).defaultText()).isNull();
        SqlCheckConstraint check = (SqlCheckConstraint) elements.get(7);
        assertThat(check.name().getSimple()).isEqualTo("pos");
        assertThat(check.text()).isEqualTo("a > (0)");
        assertThat(check.enforced()).isFalse();

        SqlAlterTable alter = (SqlAlterTable) StatementParser.parse("ALTER TABLE t ADD CHECK (a < 9),"
                + " ADD CONSTRAINT named CHECK (b > 0), DROP CHECK pos, DROP CONSTRAINT named,"
                + " ALTER CHECK x NOT ENFORCED, ALTER CONSTRAINT y ENFORCED");
        List<SqlNode> actions = alter.actions().getList();
        assertThat(actions).allMatch(action -> action instanceof SqlAlterTableCheck);
        SqlAlterTableCheck add = (SqlAlterTableCheck) actions.get(0);
        assertThat(add.action()).isEqualTo(SqlAlterTableCheck.Action.ADD);
        assertThat(add.name()).isNull();
        assertThat(add.constraint().text()).isEqualTo("a < 9");
        assertThat(((SqlAlterTableCheck) actions.get(1)).name().getSimple()).isEqualTo("named");
        assertThat(((SqlAlterTableCheck) actions.get(2)).action()).isEqualTo(SqlAlterTableCheck.Action.DROP);
        assertThat(((SqlAlterTableCheck) actions.get(4)).enforced()).isFalse();
        assertThat(((SqlAlterTableCheck) actions.get(5)).enforced()).isTrue();
    }

    @Test
    void variablesAreCallsTypedByTheNumbersTheyHold() {
        VariableTypes types = new VariableTypes() {
            @Override
            public NumberType userVariable(String name) {
                return Map.of("n", NumberType.BIGINT, "d", NumberType.decimal(4, 2)).get(name);
            }

            @Override
            public boolean integerSystemVariable(String name) {
                return name.equals("autocommit");
            }
        };
        SqlSelect select = (SqlSelect) StatementParser.parse("SELECT @N + 1, @d, @s, @@time_zone, @@SESSION.autocommit,"
                + " '@n', `@n` FROM t WHERE @a.b$c := 2", types);
        assertThat(select.getSelectList().get(0).toString()).isEqualTo("CAST(`DUET_USER_VARIABLE`('n') AS BIGINT) + 1");
        assertThat(select.getSelectList().get(1).toString()).isEqualTo("CAST(`DUET_USER_VARIABLE`('d') AS DECIMAL(4, 2))");
        assertThat(select.getSelectList().get(2).toString()).isEqualTo("`DUET_USER_VARIABLE`('s')");
        assertThat(select.getSelectList().get(3).toString()).isEqualTo("`DUET_SYSTEM_VARIABLE`('', 'time_zone')");
        assertThat(select.getSelectList().get(4).toString())
                .isEqualTo("`DUET_INTEGER_SYSTEM_VARIABLE`('session', 'autocommit')");
        assertThat(select.getSelectList().get(5)).isInstanceOf(SqlLiteral.class);
        assertThat(select.getSelectList().get(6)).isInstanceOf(SqlIdentifier.class);
        assertThat(UserVariables.name(((SqlCall) select.getWhere()).operand(0))).isEqualTo("a.b$c");
        // Quoted names, as MySQL allows them.
        SqlSelect quoted = (SqlSelect) StatementParser.parse("SELECT @`My Var`, @'a b', @\"c\"", types);
        assertThat(quoted.getSelectList().getList()).extracting(UserVariables::name).containsExactly("my var", "a b", "c");
        // Typed afresh, as SET does before each assignment.
        SqlNode retyped = VariableReferences.retyped(select.getSelectList().get(2), new VariableTypes() {
            @Override
            public NumberType userVariable(String name) {
                return NumberType.DOUBLE;
            }

            @Override
            public boolean integerSystemVariable(String name) {
                return false;
            }
        });
        assertThat(retyped.toString()).isEqualTo("CAST(`DUET_USER_VARIABLE`('s') AS DOUBLE)");
        assertThat(VariableReferences.retyped(select.getSelectList().get(0), VariableTypes.NONE).toString())
                .isEqualTo("`DUET_USER_VARIABLE`('n') + 1");
        // Without a session's types, user variables are text and system variables too.
        SqlSelect untyped = (SqlSelect) StatementParser.parse("SELECT @n, @@autocommit");
        assertThat(untyped.getSelectList().get(0).toString()).isEqualTo("`DUET_USER_VARIABLE`('n')");
        assertThat(untyped.getSelectList().get(1).toString()).isEqualTo("`DUET_SYSTEM_VARIABLE`('', 'autocommit')");
        // The position of a reference is its token's, so that a select item's label is its text.
        assertThat(select.getSelectList().get(3).getParserPosition().getColumnNum()).isEqualTo(24);
        assertThat(select.getSelectList().get(3).getParserPosition().getEndColumnNum()).isEqualTo(34);
    }

    @Test
    void aQueryMayEndWithIntoVariables() {
        SqlSelectIntoVariables into = (SqlSelectIntoVariables) StatementParser.parse("SELECT count(*), max(a) FROM t"
                + " WHERE a > 1 FOR UPDATE INTO @N, @`max a`");
        assertThat(into.variables()).containsExactly("n", "max a");
        assertThat(into.query()).isInstanceOf(SqlQueryWithLocking.class);
        assertThat(((SqlSelectIntoVariables) StatementParser.parse("SELECT 1 INTO @one")).query())
                .isInstanceOf(SqlSelect.class);
        for (String bad : List.of("SELECT 1 INTO", "SELECT 1 INTO one", "SELECT 1 INTO @a,")) {
            assertThatThrownBy(() -> StatementParser.parse(bad)).as(bad).isInstanceOf(DuetException.class)
                    .hasMessageContaining("SQL syntax");
        }
    }

    @Test
    void accountsAreNotVariables() {
        SqlCreateView view = (SqlCreateView) StatementParser.parse("CREATE DEFINER = 'app'@localhost VIEW v AS SELECT 1");
        assertThat(view.options().definer()).isEqualTo("app@localhost");
        SqlCreateView quoted = (SqlCreateView) StatementParser.parse("CREATE DEFINER = 'app'@'10.0.0.1' VIEW v AS SELECT 1");
        assertThat(quoted.options().definer()).isEqualTo("app@10.0.0.1");
        SqlCreateView spaced = (SqlCreateView) StatementParser.parse("CREATE DEFINER = 'app' @ '%' VIEW v AS SELECT 1");
        assertThat(spaced.options().definer()).isEqualTo("app@%");
    }

    @Test
    void setAssignsVariablesLeftToRightWithTheScopeLastNamed() {
        SqlSetVariables set = (SqlSetVariables) StatementParser.parse("SET @OLD_SQL_MODE = @@SQL_MODE,"
                + " sql_mode = 'NO_AUTO_VALUE_ON_ZERO', GLOBAL max_connections = 10, time_zone = DEFAULT,"
                + " @@session.autocommit := ON, @x := (SELECT 1), LOCAL `wait_timeout` = 5, PERSIST a.b = x");
        List<SqlSetVariables.Assignment> assignments = set.assignments();
        assertThat(assignments).hasSize(8);
        SqlSetVariables.UserVariable old = (SqlSetVariables.UserVariable) assignments.get(0);
        assertThat(old.name()).isEqualTo("old_sql_mode");
        assertThat(old.value().toString()).isEqualTo("`DUET_SYSTEM_VARIABLE`('', 'sql_mode')");
        assertThat(assignments.get(1)).isEqualTo(new SqlSetVariables.SystemVariable(SqlSetVariables.Scope.SESSION,
                "sql_mode", ((SqlSetVariables.SystemVariable) assignments.get(1)).value()));
        assertThat(((SqlSetVariables.SystemVariable) assignments.get(1)).value()).isInstanceOf(SqlLiteral.class);
        SqlSetVariables.SystemVariable global = (SqlSetVariables.SystemVariable) assignments.get(2);
        assertThat(global.scope()).isEqualTo(SqlSetVariables.Scope.GLOBAL);
        SqlSetVariables.SystemVariable carried = (SqlSetVariables.SystemVariable) assignments.get(3);
        assertThat(carried.scope()).isEqualTo(SqlSetVariables.Scope.GLOBAL);
        assertThat(carried.isDefault()).isTrue();
        SqlSetVariables.SystemVariable autocommit = (SqlSetVariables.SystemVariable) assignments.get(4);
        assertThat(autocommit.scope()).isEqualTo(SqlSetVariables.Scope.SESSION);
        assertThat(autocommit.value().toString()).isEqualTo("ON");
        assertThat(((SqlSetVariables.UserVariable) assignments.get(5)).value().getKind()).isEqualTo(SqlKind.SELECT);
        SqlSetVariables.SystemVariable local = (SqlSetVariables.SystemVariable) assignments.get(6);
        assertThat(local.scope()).isEqualTo(SqlSetVariables.Scope.SESSION);
        assertThat(local.name()).isEqualTo("wait_timeout");
        SqlSetVariables.SystemVariable persisted = (SqlSetVariables.SystemVariable) assignments.get(7);
        assertThat(persisted.scope()).isEqualTo(SqlSetVariables.Scope.PERSIST);
        assertThat(persisted.name()).isEqualTo("a.b");
        // A number alone is its text as written; in an expression it is a number.
        SqlSetVariables numbers = (SqlSetVariables) StatementParser.parse("SET a = 1e9, b = 1e9 + 1");
        assertThat(((SqlSetVariables.SystemVariable) numbers.assignments().get(0)).value().toString()).isEqualTo("'1e9'");
        assertThat(((SqlSetVariables.SystemVariable) numbers.assignments().get(1)).value().getKind())
                .isEqualTo(SqlKind.PLUS);
        // A scope keyword is a name where = follows it.
        SqlSetVariables.SystemVariable named = (SqlSetVariables.SystemVariable)
                ((SqlSetVariables) StatementParser.parse("SET global = 1")).assignments().get(0);
        assertThat(named.name()).isEqualTo("global");
    }

    @Test
    void setNamesCharacterSetAndTransactionAreInTheGrammar() {
        assertThat(((SqlSetVariables) StatementParser.parse("SET NAMES utf8mb4 COLLATE 'utf8mb4_bin'")).assignments())
                .containsExactly(new SqlSetVariables.CharacterSet(true, "utf8mb4", "utf8mb4_bin"));
        assertThat(((SqlSetVariables) StatementParser.parse("SET NAMES binary, CHARACTER SET DEFAULT")).assignments())
                .containsExactly(new SqlSetVariables.CharacterSet(true, "binary", null),
                        new SqlSetVariables.CharacterSet(false, null, null));
        assertThat(((SqlSetVariables) StatementParser.parse("SET CHARSET 'latin1'")).assignments())
                .containsExactly(new SqlSetVariables.CharacterSet(false, "latin1", null));
        SqlSetTransaction transaction = (SqlSetTransaction) StatementParser.parse(
                "SET GLOBAL TRANSACTION READ ONLY, ISOLATION LEVEL READ COMMITTED");
        assertThat(transaction.scope()).isEqualTo(SqlSetTransaction.Scope.GLOBAL);
        assertThat(transaction.readOnly()).isTrue();
        assertThat(transaction.isolation()).isEqualTo(SqlSetTransaction.Isolation.READ_COMMITTED);
        SqlSetTransaction session = (SqlSetTransaction) StatementParser.parse("SET SESSION TRANSACTION ISOLATION LEVEL"
                + " REPEATABLE READ");
        assertThat(session.scope()).isEqualTo(SqlSetTransaction.Scope.SESSION);
        assertThat(session.readOnly()).isNull();
        assertThat(session.isolation()).isEqualTo(SqlSetTransaction.Isolation.REPEATABLE_READ);
        SqlSetTransaction next = (SqlSetTransaction) StatementParser.parse("set transaction read write");
        assertThat(next.scope()).isEqualTo(SqlSetTransaction.Scope.NEXT_TRANSACTION);
        assertThat(next.readOnly()).isFalse();
        for (String bad : List.of("SET", "SET @a", "SET @a = DEFAULT", "SET x", "SET TRANSACTION", "SET NAMES",
                "SET TRANSACTION ISOLATION LEVEL READ", "SET a = 1,", "SET @@ = 1")) {
            assertThatThrownBy(() -> StatementParser.parse(bad)).as(bad).isInstanceOf(DuetException.class)
                    .hasMessageContaining("SQL syntax");
        }
    }

    @Test
    void accountStatementsAreInTheGrammar() {
        SqlCreateUser create = (SqlCreateUser) StatementParser.parse("CREATE USER IF NOT EXISTS 'app'@'%' IDENTIFIED BY"
                + " 's3cret', reader@localhost IDENTIFIED WITH caching_sha2_password BY 'x', `plain`");
        assertThat(create.ifNotExists()).isTrue();
        assertThat(create.users()).containsExactly(
                new UserSpecification(new AccountName("app", "%"), null, "s3cret"),
                new UserSpecification(new AccountName("reader", "localhost"), "caching_sha2_password", "x"),
                new UserSpecification(new AccountName("plain", "%"), null, ""));
        SqlDropUser drop = (SqlDropUser) StatementParser.parse("DROP USER IF EXISTS 'app'@'10.0.0.1', b");
        assertThat(drop.ifExists()).isTrue();
        assertThat(drop.accounts()).containsExactly(new AccountName("app", "10.0.0.1"), new AccountName("b", "%"));
        SqlAlterUser alter = (SqlAlterUser) StatementParser.parse("ALTER USER app IDENTIFIED WITH"
                + " 'mysql_native_password' BY 'new'");
        assertThat(alter.user()).isEqualTo(new UserSpecification(new AccountName("app", "%"), "mysql_native_password",
                "new"));
        SqlSetPassword own = (SqlSetPassword) StatementParser.parse("SET PASSWORD = 'mine'");
        assertThat(own.account()).isNull();
        assertThat(own.password()).isEqualTo("mine");
        SqlSetPassword other = (SqlSetPassword) StatementParser.parse("SET PASSWORD FOR 'app'@'%' = PASSWORD('p')");
        assertThat(other.account()).isEqualTo(new AccountName("app", "%"));
        assertThat(other.password()).isEqualTo("p");
        SqlGrant grant = (SqlGrant) StatementParser.parse("GRANT SELECT, insert, CREATE USER, ALL PRIVILEGES ON"
                + " TABLE `shop`.`orders` TO 'app'@'%' WITH GRANT OPTION");
        assertThat(grant.grant()).isTrue();
        assertThat(grant.privileges()).containsExactly("SELECT", "INSERT", "CREATE USER", "ALL PRIVILEGES");
        assertThat(grant.level()).isEqualTo("shop.orders");
        assertThat(grant.withGrantOption()).isTrue();
        for (String level : List.of("*", "*.*", "shop.*", "orders")) {
            assertThat(((SqlGrant) StatementParser.parse("GRANT USAGE ON " + level + " TO u")).level()).isEqualTo(level);
        }
        SqlGrant revoke = (SqlGrant) StatementParser.parse("REVOKE GRANT OPTION ON *.* FROM 'app'");
        assertThat(revoke.grant()).isFalse();
        assertThat(revoke.privileges()).containsExactly("GRANT OPTION");
        assertThat(((SqlShowGrants) StatementParser.parse("SHOW GRANTS")).account()).isNull();
        assertThat(((SqlShowGrants) StatementParser.parse("SHOW GRANTS FOR CURRENT_USER()")).account()).isNull();
        assertThat(((SqlShowGrants) StatementParser.parse("SHOW GRANTS FOR app@'%'")).account())
                .isEqualTo(new AccountName("app", "%"));
        assertThat(StatementParser.parse("FLUSH PRIVILEGES")).isInstanceOf(SqlFlushPrivileges.class);
        assertThat(StatementParser.parse("flush local privileges")).isInstanceOf(SqlFlushPrivileges.class);
        assertThat(((SqlAdminShowDdlJobs) StatementParser.parse("ADMIN SHOW DDL JOBS")).limit()).isEqualTo(10);
        assertThat(((SqlAdminShowDdlJobs) StatementParser.parse("admin show ddl jobs 3")).limit()).isEqualTo(3);
        // The words are names elsewhere, as in MySQL.
        assertThat(StatementParser.parse("SELECT password, identified, flush FROM t")).isInstanceOf(SqlSelect.class);
        for (String bad : List.of("GRANT ON t TO u", "GRANT SELECT TO u", "GRANT SELECT ON t", "ALTER USER u",
                "CREATE USER", "DROP USER u,", "FLUSH", "ADMIN SHOW DDL", "SET PASSWORD = 1", "REVOKE SELECT ON t TO u")) {
            assertThatThrownBy(() -> StatementParser.parse(bad)).as(bad).isInstanceOf(DuetException.class)
                    .hasMessageContaining("SQL syntax");
        }
    }
}
