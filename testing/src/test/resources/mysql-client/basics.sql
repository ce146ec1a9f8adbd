-- Run by ItMysqlClientScript through the mysql command-line client: mysql --batch --force < basics.sql.
-- Its standard output must equal basics.expected and its standard error basics.expected-errors.
SELECT @@version_comment LIMIT 1;
SELECT DATABASE(), 1 + 1 AS two, NULL AS nothing;
CREATE DATABASE cli_script;
USE cli_script;
SELECT DATABASE();
CREATE TABLE people (id INT PRIMARY KEY, name VARCHAR(40) NOT NULL, city VARCHAR(40), born DATE,
    score DECIMAL(5,2));
INSERT INTO people VALUES (1, 'Ada', 'London', '1815-12-10', 99.5), (2, 'Zoë', NULL, NULL, NULL),
    (3, '李雷', '北京', '1990-01-01', 71.25), (4, 'O''Brien', 'Dublin', NULL, 0);
SELECT id, name, city, born, score FROM people ORDER BY id;
SELECT COUNT(*), COUNT(city), SUM(score), MAX(name) FROM people;
SELECT name FROM people WHERE city IS NULL;
SELECT * FROM missing_table;
UPDATE people SET city = 'Paris' WHERE id = 2;
SELECT name, city, CHAR_LENGTH(name) AS characters FROM people WHERE id IN (2, 3) ORDER BY id;
-- In batch mode the client escapes tabs, newlines and backslashes in values.
SELECT 'tab\there' AS tabbed, 'two\nlines' AS multiline, 'back\\slash' AS backslash;
SELECT id FROM people WHERE id > 100;
SHOW TABLES;
DESCRIBE people;
SELEC 1;
INSERT INTO people VALUES (1, 'Again', NULL, NULL, NULL);
DELETE FROM people WHERE score IS NULL OR score < 1;
SELECT id, name FROM people ORDER BY id DESC;
DROP DATABASE cli_script;
SELECT 'done' AS status;
