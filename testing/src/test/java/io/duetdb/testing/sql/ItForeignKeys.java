package io.duetdb.testing.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Foreign keys enforced as InnoDB enforces them, through Connector/J: child rows need their parent (1452), RESTRICT
 * and NO ACTION keep referenced parents (1451), CASCADE and SET NULL act on the children (several levels, a table
 * referencing itself), foreign_key_checks turns it all off, and DDL keeps referenced tables (1701, 3730). Where a
 * private MariaDB runs here, it gets the same statements and must give the same answers and error codes.
 */
class ItForeignKeys {
    @RegisterExtension
    static final SqlCluster sqlCluster = new SqlCluster(1);
    @RegisterExtension
    static final MariaDbAnswers mariaDb = new MariaDbAnswers(sqlCluster);

    private static SharedAnswers answers() {
        return mariaDb.answers();
    }

    @Test
    void childRowsNeedTheirParentRow() throws Exception {
        SharedAnswers answers = answers();
        answers.onBoth("CREATE TABLE author (id INT PRIMARY KEY, name VARCHAR(20))",
                "CREATE TABLE book (id INT PRIMARY KEY, author_id INT, title VARCHAR(20),"
                        + " FOREIGN KEY (author_id) REFERENCES author (id))",
                "INSERT INTO author VALUES (1, 'ann'), (2, 'bo')",
                "INSERT INTO book VALUES (10, 1, 'a'), (11, NULL, 'anonymous')");
        String fails = "Cannot add or update a child row: a foreign key constraint fails (`test`.`book`, CONSTRAINT"
                + " `book_ibfk_1` FOREIGN KEY (`author_id`) REFERENCES `author` (`id`))";
        answers.assertError("INSERT INTO book VALUES (12, 9, 'orphan')", 1452, "23000", fails);
        // A statement is all or nothing: the first row had its parent.
        answers.assertError("INSERT INTO book VALUES (13, 2, 'fine'), (14, 9, 'orphan')", 1452, "23000", fails);
        answers.assertError("UPDATE book SET author_id = 7 WHERE id = 10", 1452, "23000", fails);
        answers.onBoth("UPDATE book SET author_id = 2 WHERE id = 10", "UPDATE book SET title = 'b' WHERE id = 10");
        answers.assertShared("SELECT id, author_id, title FROM book ORDER BY id", "10|2|b", "11|null|anonymous");
        try (Connection connection = answers.connect();
                PreparedStatement insert = connection.prepareStatement("INSERT INTO book VALUES (?, ?, ?)")) {
            insert.setInt(1, 15);
            insert.setInt(2, 8);
            insert.setString(3, "prepared");
            assertThatThrownBy(insert::executeUpdate).isInstanceOfSatisfying(SQLException.class,
                    e -> assertThat(e.getErrorCode()).isEqualTo(1452));
            insert.setInt(2, 1);
            assertThat(insert.executeUpdate()).isEqualTo(1);
            connection.setAutoCommit(false);
            try (Statement statement = connection.createStatement()) {
                // Inside a transaction a parent written earlier counts, and the failed statement alone is undone.
                statement.execute("INSERT INTO author VALUES (3, 'cy')");
                statement.execute("INSERT INTO book VALUES (16, 3, 'new')");
                assertThatThrownBy(() -> statement.execute("INSERT INTO book VALUES (17, 4, 'none')"))
                        .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getErrorCode()).isEqualTo(1452));
                connection.commit();
            }
            connection.setAutoCommit(true);
            try (Statement statement = connection.createStatement()) {
                assertThat(SqlTesting.rows(statement, "SELECT id FROM book WHERE id IN (15, 16, 17) ORDER BY id"))
                        .containsExactly("15", "16");
            }
        }
    }

    @Test
    void restrictAndNoActionKeepReferencedParents() throws Exception {
        SharedAnswers answers = answers();
        answers.onBoth("CREATE TABLE team (id INT PRIMARY KEY, code VARCHAR(10) NOT NULL, UNIQUE KEY (code))",
                "CREATE TABLE player (id INT PRIMARY KEY, team_code VARCHAR(10),"
                        + " CONSTRAINT player_team FOREIGN KEY (team_code) REFERENCES team (code) ON DELETE RESTRICT)",
                "INSERT INTO team VALUES (1, 'red'), (2, 'blue'), (3, 'green')",
                "INSERT INTO player VALUES (1, 'red'), (2, 'red'), (3, 'blue')");
        String fails = "Cannot delete or update a parent row: a foreign key constraint fails (`test`.`player`,"
                + " CONSTRAINT `player_team` FOREIGN KEY (`team_code`) REFERENCES `team` (`code`))";
        answers.assertError("DELETE FROM team WHERE id = 1", 1451, "23000", fails);
        answers.assertError("UPDATE team SET code = 'crimson' WHERE id = 1", 1451, "23000", fails);
        answers.assertError("DELETE FROM team", 1451, "23000", fails);
        // What no row references may go; a key that keeps its value is no change.
        answers.onBoth("DELETE FROM team WHERE id = 3", "UPDATE team SET code = 'blue', id = 20 WHERE id = 2");
        answers.assertShared("SELECT id, code FROM team ORDER BY id", "1|red", "20|blue");
        answers.assertError("TRUNCATE TABLE team", 1701, "42000", "Cannot truncate a table referenced in a foreign key"
                + " constraint (`test`.`player`, CONSTRAINT `player_team` FOREIGN KEY (`team_code`) REFERENCES"
                + " `test`.`team` (`code`))");
        answers.assertDuetError("DROP TABLE team", 3730, "HY000",
                "Cannot drop table 'team' referenced by a foreign key constraint 'player_team' on table 'player'.");
        answers.onBoth("DROP TABLE player, team");
    }

    @Test
    void cascadesAndSetNullActOnTheChildren() throws Exception {
        SharedAnswers answers = answers();
        answers.onBoth("CREATE TABLE region (id INT PRIMARY KEY, name VARCHAR(10))",
                "CREATE TABLE store (id INT PRIMARY KEY, region_id INT NOT NULL, manager VARCHAR(10),"
                        + " FOREIGN KEY (region_id) REFERENCES region (id) ON DELETE CASCADE ON UPDATE CASCADE)",
                "CREATE TABLE sale (id INT PRIMARY KEY, store_id INT, amount INT,"
                        + " FOREIGN KEY (store_id) REFERENCES store (id) ON DELETE CASCADE)",
                "CREATE TABLE audit (id INT PRIMARY KEY, region_id INT,"
                        + " FOREIGN KEY (region_id) REFERENCES region (id) ON DELETE SET NULL ON UPDATE SET NULL)",
                "INSERT INTO region VALUES (1, 'north'), (2, 'south'), (3, 'east')",
                "INSERT INTO store VALUES (10, 1, 'a'), (11, 1, 'b'), (20, 2, 'c'), (30, 3, 'd')",
                "INSERT INTO sale VALUES (100, 10, 5), (101, 11, 6), (102, 20, 7), (103, 30, 8), (104, NULL, 9)",
                "INSERT INTO audit VALUES (1, 1), (2, 2), (3, 3)");
        // Two levels of cascaded deletes, and SET NULL beside them.
        answers.onBoth("DELETE FROM region WHERE id = 1");
        answers.assertShared("SELECT id, region_id FROM store ORDER BY id", "20|2", "30|3");
        answers.assertShared("SELECT id, store_id FROM sale ORDER BY id", "102|20", "103|30", "104|null");
        answers.assertShared("SELECT id, region_id FROM audit ORDER BY id", "1|null", "2|2", "3|3");
        // A cascaded update carries the new key to the children; SET NULL clears theirs.
        answers.onBoth("UPDATE region SET id = 22 WHERE id = 2");
        answers.assertShared("SELECT id, region_id FROM store ORDER BY id", "20|22", "30|3");
        answers.assertShared("SELECT id, region_id FROM audit ORDER BY id", "1|null", "2|null", "3|3");
        // REPLACE deletes the old row first, and the delete cascades; a multiple-table DELETE cascades too.
        answers.onBoth("REPLACE INTO region VALUES (3, 'east2')");
        answers.assertShared("SELECT COUNT(*) FROM store WHERE region_id = 3", "0");
        answers.assertShared("SELECT id FROM sale ORDER BY id", "102", "104");
        answers.onBoth("DELETE r FROM region r JOIN audit a ON a.id = 2 WHERE r.id = 22");
        answers.assertShared("SELECT COUNT(*) FROM store", "0");
        answers.assertShared("SELECT id FROM sale ORDER BY id", "104");
    }

    @Test
    void aTableReferencingItselfCascadesDownItsTree() throws Exception {
        SharedAnswers answers = answers();
        answers.onBoth("CREATE TABLE employee (id INT PRIMARY KEY, boss INT,"
                        + " FOREIGN KEY (boss) REFERENCES employee (id) ON DELETE CASCADE)",
                "INSERT INTO employee VALUES (1, NULL), (2, 1), (3, 1), (4, 2), (5, 4), (6, NULL), (7, 7)");
        answers.onBoth("DELETE FROM employee WHERE id = 2", "DELETE FROM employee WHERE id = 7");
        answers.assertShared("SELECT id FROM employee ORDER BY id", "1", "3", "6");
        // Cascades stop at 15 levels, as InnoDB's do.
        try (Connection connection = answers.connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE chain (id INT PRIMARY KEY, up INT,"
                    + " FOREIGN KEY (up) REFERENCES chain (id) ON DELETE CASCADE)");
            statement.execute("INSERT INTO chain VALUES (0, NULL)");
            for (int i = 1; i <= 20; i++) {
                statement.execute("INSERT INTO chain VALUES (" + i + ", " + (i - 1) + ")");
            }
            assertThatThrownBy(() -> statement.execute("DELETE FROM chain WHERE id = 0"))
                    .isInstanceOfSatisfying(SQLException.class, e -> {
                        assertThat(e.getErrorCode()).isEqualTo(3008);
                        assertThat(e.getMessage()).isEqualTo("Foreign key cascade delete/update exceeds max depth of 15.");
                    });
            assertThat(SqlTesting.rows(statement, "SELECT COUNT(*) FROM chain")).containsExactly("21");
            statement.execute("DELETE FROM chain WHERE id = 10");
            assertThat(SqlTesting.rows(statement, "SELECT COUNT(*) FROM chain")).containsExactly("10");
        }
    }

    @Test
    void foreignKeyChecksOffLetsEverythingThrough() throws Exception {
        SharedAnswers answers = answers();
        answers.onBoth("CREATE TABLE owner (id INT PRIMARY KEY)",
                "CREATE TABLE pet (id INT PRIMARY KEY, owner_id INT, FOREIGN KEY (owner_id) REFERENCES owner (id))",
                "INSERT INTO owner VALUES (1)", "INSERT INTO pet VALUES (1, 1)");
        try (Connection connection = answers.connect(); Statement statement = connection.createStatement()) {
            statement.execute("SET foreign_key_checks = 0");
            statement.execute("INSERT INTO pet VALUES (2, 99)");
            statement.execute("DELETE FROM owner WHERE id = 1");
            // As mysqldump's output does: a table created before the one it references.
            statement.execute("CREATE TABLE toy (id INT PRIMARY KEY, kind_id INT,"
                    + " FOREIGN KEY (kind_id) REFERENCES kind (id))");
            statement.execute("CREATE TABLE kind (id INT PRIMARY KEY)");
            statement.execute("INSERT INTO toy VALUES (1, 5)");
            statement.execute("SET foreign_key_checks = 1");
            assertThatThrownBy(() -> statement.execute("INSERT INTO toy VALUES (2, 6)"))
                    .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getErrorCode()).isEqualTo(1452));
            statement.execute("INSERT INTO kind VALUES (6)");
            statement.execute("INSERT INTO toy VALUES (2, 6)");
            assertThat(SqlTesting.rows(statement, "SELECT id, owner_id FROM pet ORDER BY id")).containsExactly("1|1", "2|99");
        }
    }

    @Test
    void definitionsAreCheckedAgainstTheReferencedTable() throws Exception {
        SharedAnswers answers = answers();
        answers.onBoth("CREATE TABLE city (id INT PRIMARY KEY, name VARCHAR(20), zip BIGINT)",
                "CREATE TABLE street (id INT PRIMARY KEY, city_id INT)",
                "INSERT INTO city VALUES (1, 'x', 100)", "INSERT INTO street VALUES (1, 1), (2, 5)");
        answers.assertDuetError("CREATE TABLE house (id INT PRIMARY KEY, street_id INT,"
                + " FOREIGN KEY (street_id) REFERENCES nowhere (id))", 1824, "HY000",
                "Failed to open the referenced table 'nowhere'");
        answers.assertDuetError("CREATE TABLE house (id INT PRIMARY KEY, city_name VARCHAR(20),"
                + " CONSTRAINT by_name FOREIGN KEY (city_name) REFERENCES city (name))", 1822, "HY000",
                "Failed to add the foreign key constraint. Missing index for constraint 'by_name' in the referenced"
                        + " table 'city'");
        answers.assertDuetError("CREATE TABLE house (id INT PRIMARY KEY, big_city BIGINT,"
                + " CONSTRAINT by_id FOREIGN KEY (big_city) REFERENCES city (id))", 3780, "HY000",
                "Referencing column 'big_city' and referenced column 'id' in foreign key constraint 'by_id' are"
                        + " incompatible.");
        answers.assertDuetError("CREATE TABLE house (id INT PRIMARY KEY, city_id INT NOT NULL,"
                + " CONSTRAINT in_city FOREIGN KEY (city_id) REFERENCES city (id) ON DELETE SET NULL)", 1830, "HY000",
                "Column 'city_id' cannot be NOT NULL: needed in a foreign key constraint 'in_city' SET NULL");
        // Rows already there must find their parents when the key is added.
        answers.assertError("ALTER TABLE street ADD CONSTRAINT on_city FOREIGN KEY (city_id) REFERENCES city (id)",
                1452, "23000", "Cannot add or update a child row: a foreign key constraint fails (`test`.`street`,"
                        + " CONSTRAINT `on_city` FOREIGN KEY (`city_id`) REFERENCES `city` (`id`))");
        answers.onBoth("DELETE FROM street WHERE id = 2",
                "ALTER TABLE street ADD CONSTRAINT on_city FOREIGN KEY (city_id) REFERENCES city (id)");
        answers.assertError("DELETE FROM city", 1451, "23000", "Cannot delete or update a parent row: a foreign key"
                + " constraint fails (`test`.`street`, CONSTRAINT `on_city` FOREIGN KEY (`city_id`) REFERENCES `city`"
                + " (`id`))");
        answers.onBoth("ALTER TABLE street DROP FOREIGN KEY on_city", "DELETE FROM city");
        answers.assertShared("SELECT COUNT(*) FROM city", "0");
    }

    @Test
    void aKeyMayReferenceATableOfAnotherDatabase() throws Exception {
        SharedAnswers answers = answers();
        answers.onBoth("CREATE DATABASE geo", "CREATE TABLE geo.country (code CHAR(2) PRIMARY KEY)",
                "INSERT INTO geo.country VALUES ('no')", "CREATE TABLE town (id INT PRIMARY KEY, country CHAR(2),"
                        + " CONSTRAINT in_country FOREIGN KEY (country) REFERENCES geo.country (code))",
                "INSERT INTO town VALUES (1, 'no')");
        answers.assertError("INSERT INTO town VALUES (2, 'se')", 1452, "23000", "Cannot add or update a child row: a"
                + " foreign key constraint fails (`test`.`town`, CONSTRAINT `in_country` FOREIGN KEY (`country`)"
                + " REFERENCES `geo`.`country` (`code`))");
        try (Connection connection = answers.connect(); Statement statement = connection.createStatement()) {
            assertThat(SqlTesting.rows(statement, "SHOW CREATE TABLE town").get(0))
                    .contains("CONSTRAINT `in_country` FOREIGN KEY (`country`) REFERENCES `geo`.`country` (`code`)");
        }
    }

    @Test
    void aParentDeletedWhileAChildIsBeingInsertedStays() throws Exception {
        try (Connection setup = DriverManager.getConnection(sqlCluster.url()); Statement statement = setup.createStatement()) {
            statement.execute("CREATE TABLE account (id INT PRIMARY KEY)");
            statement.execute("CREATE TABLE payment (id INT PRIMARY KEY, account_id INT,"
                    + " FOREIGN KEY (account_id) REFERENCES account (id))");
            statement.execute("INSERT INTO account VALUES (1)");
        }
        ExecutorService executor = Executors.newSingleThreadExecutor();
        try (Connection inserter = DriverManager.getConnection(sqlCluster.url());
                Connection deleter = DriverManager.getConnection(sqlCluster.url());
                Statement insert = inserter.createStatement(); Statement delete = deleter.createStatement()) {
            inserter.setAutoCommit(false);
            insert.execute("INSERT INTO payment VALUES (1, 1)");
            // The delete either waits for the inserter's lock on the parent row or runs after its commit: either
            // way it must see the new child (a read at its own snapshot would miss it and orphan the payment).
            Future<?> deleting = executor.submit(() -> delete.execute("DELETE FROM account WHERE id = 1"));
            inserter.commit();
            assertThatThrownBy(() -> deleting.get(60, TimeUnit.SECONDS)).isInstanceOfSatisfying(ExecutionException.class,
                    e -> assertThat(((SQLException) e.getCause()).getErrorCode()).isEqualTo(1451));
            assertThat(SqlTesting.rows(insert, "SELECT p.id, a.id FROM payment p LEFT JOIN account a"
                    + " ON a.id = p.account_id")).containsExactly("1|1");
        } finally {
            executor.shutdownNow();
        }
    }
}
