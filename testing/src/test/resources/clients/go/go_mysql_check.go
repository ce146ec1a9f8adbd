// Go's database/sql with github.com/go-sql-driver/mysql against a DuetDB SQL server:
//
//	go run go_mysql_check.go HOST:PORT
//
// Prints one line per step and "ALL CHECKS PASSED" at the end; a failed check exits with status 1.
package main

import (
	"database/sql"
	"errors"
	"fmt"
	"os"
	"reflect"
	"time"

	"github.com/go-sql-driver/mysql"
)

var address string

func step(format string, args ...interface{}) {
	fmt.Printf("step: "+format+"\n", args...)
}

func fail(format string, args ...interface{}) {
	fmt.Printf("FAILED: "+format+"\n", args...)
	os.Exit(1)
}

func check(err error, what string) {
	if err != nil {
		fail("%s: %v", what, err)
	}
}

func expect(actual, expected interface{}, what string) {
	if !reflect.DeepEqual(actual, expected) {
		fail("%s: expected %#v, got %#v", what, expected, actual)
	}
}

func open(user, password string, options string) *sql.DB {
	dsn := fmt.Sprintf("%s:%s@tcp(%s)/test?parseTime=true&loc=UTC&timeout=20s&readTimeout=60s&%s",
		user, password, address, options)
	db, err := sql.Open("mysql", dsn)
	check(err, "sql.Open")
	db.SetMaxOpenConns(4)
	return db
}

type item struct {
	id      int64
	name    string
	price   string
	ratio   float64
	data    []byte
	created time.Time
	born    time.Time
}

var items = []item{
	{1, "apple", "1.25", 0.5, []byte{0, 1, 2, 255}, time.Date(2021, 2, 3, 4, 5, 6, 0, time.UTC),
		time.Date(2020, 1, 31, 0, 0, 0, 0, time.UTC)},
	{2, "Grüße ✓ 漢字 😀", "-99999999.99", -1.5e-3, []byte("bytes"),
		time.Date(1999, 12, 31, 23, 59, 59, 250000000, time.UTC), time.Date(1999, 12, 31, 0, 0, 0, 0, time.UTC)},
	{3, "it's \"quoted\" \\ back", "0.00", 1e10, []byte{}, time.Date(2024, 2, 29, 12, 0, 0, 123456000, time.UTC),
		time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC)},
}

func run(interpolate bool) {
	mode := "server-side prepared statements"
	table := "go_items_prepared"
	if interpolate {
		mode = "interpolated parameters"
		table = "go_items_interpolated"
	}
	db := open("root", "", fmt.Sprintf("interpolateParams=%t", interpolate))
	defer db.Close()

	step("%s: ping", mode)
	check(db.Ping(), "Ping")

	step("%s: DDL", mode)
	_, err := db.Exec("DROP TABLE IF EXISTS " + table)
	check(err, "DROP TABLE")
	_, err = db.Exec("CREATE TABLE " + table + ` (
		id BIGINT PRIMARY KEY,
		name VARCHAR(40) NOT NULL,
		price DECIMAL(10, 2),
		ratio DOUBLE,
		data VARBINARY(16),
		created DATETIME(6),
		born DATE,
		note VARCHAR(20),
		UNIQUE KEY uk_name (name))`)
	check(err, "CREATE TABLE")

	// With interpolateParams the driver quotes the values into the text itself (bytes as _binary'...');
	// without, db.Exec prepares, executes and closes a statement on the server (binary protocol).
	step("%s: INSERT with parameters", mode)
	insertSQL := "INSERT INTO " + table + " (id, name, price, ratio, data, created, born, note)" +
		" VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
	for _, it := range items {
		result, err := db.Exec(insertSQL, it.id, it.name, it.price, it.ratio, it.data, it.created, it.born, nil)
		check(err, fmt.Sprintf("insert row %d", it.id))
		affected, err := result.RowsAffected()
		check(err, "RowsAffected")
		expect(affected, int64(1), "rows affected by one INSERT")
	}

	step("%s: Exec with parameters", mode)
	result, err := db.Exec("UPDATE "+table+" SET note = ? WHERE id >= ? AND name <> ?", "updated", int64(2), "nobody")
	check(err, "UPDATE")
	affected, err := result.RowsAffected()
	check(err, "RowsAffected")
	expect(affected, int64(2), "rows updated")

	step("%s: query with parameters, typed scans", mode)
	query, err := db.Prepare("SELECT id, name, price, ratio, data, created, born, note FROM " + table +
		" WHERE id >= ? ORDER BY id")
	check(err, "Prepare SELECT")
	for round := 0; round < 2; round++ {
		rows, err := query.Query(int64(1))
		check(err, "Query")
		var got []item
		var notes []sql.NullString
		for rows.Next() {
			var it item
			var note sql.NullString
			check(rows.Scan(&it.id, &it.name, &it.price, &it.ratio, &it.data, &it.created, &it.born, &note), "Scan")
			got = append(got, it)
			notes = append(notes, note)
		}
		check(rows.Err(), "rows.Err")
		check(rows.Close(), "rows.Close")
		expect(len(got), len(items), "row count")
		for i := range items {
			if items[i].data == nil || len(items[i].data) == 0 {
				got[i].data = []byte{}
			}
			expect(got[i], items[i], fmt.Sprintf("row %d", items[i].id))
		}
		expect(notes, []sql.NullString{{}, {String: "updated", Valid: true}, {String: "updated", Valid: true}}, "notes")
	}
	check(query.Close(), "Close SELECT")

	var count int64
	var total float64
	var newest time.Time
	check(db.QueryRow("SELECT COUNT(*), SUM(ratio), MAX(created) FROM "+table+" WHERE name <> ?", "nobody").
		Scan(&count, &total, &newest), "aggregate query")
	expect(count, int64(3), "COUNT(*)")
	expect(newest, items[2].created, "MAX(created)")
	var name string
	var price float64
	check(db.QueryRow("SELECT name, price FROM "+table+" WHERE id = ?", 2).Scan(&name, &price), "QueryRow")
	expect(name, items[1].name, "name by id")
	expect(price, -99999999.99, "DECIMAL scanned into float64")
	var missing string
	err = db.QueryRow("SELECT name FROM "+table+" WHERE id = ?", 404).Scan(&missing)
	expect(err, sql.ErrNoRows, "no row")

	step("%s: errors", mode)
	_, err = db.Exec("INSERT INTO "+table+" (id, name) VALUES (?, ?)", 9, "apple")
	var mysqlErr *mysql.MySQLError
	if !errors.As(err, &mysqlErr) {
		fail("duplicate key: expected a *mysql.MySQLError, got %#v", err)
	}
	fmt.Println("duplicate key:", mysqlErr.Number, mysqlErr.Message)
	expect(mysqlErr.Number, uint16(1062), "duplicate key error number")
	_, err = db.Query("SELECT * FROM no_such_table WHERE id = ?", 1)
	if !errors.As(err, &mysqlErr) {
		fail("unknown table: expected a *mysql.MySQLError, got %#v", err)
	}
	expect(mysqlErr.Number, uint16(1146), "unknown table error number")

	step("%s: transactions", mode)
	tx, err := db.Begin()
	check(err, "Begin")
	_, err = tx.Exec("INSERT INTO "+table+" (id, name) VALUES (?, ?)", 10, "rolled back")
	check(err, "insert in transaction")
	_, err = tx.Exec("DELETE FROM "+table+" WHERE id = ?", 1)
	check(err, "delete in transaction")
	check(tx.QueryRow("SELECT COUNT(*) FROM "+table).Scan(&count), "count in transaction")
	expect(count, int64(3), "rows seen inside the transaction")
	check(tx.Rollback(), "Rollback")
	check(db.QueryRow("SELECT COUNT(*) FROM "+table+" WHERE id IN (1, 10)").Scan(&count), "count after rollback")
	expect(count, int64(1), "rows 1 and 10 after rollback")
	tx, err = db.Begin()
	check(err, "Begin")
	stmt, err := tx.Prepare("INSERT INTO " + table + " (id, name) VALUES (?, ?)")
	check(err, "Prepare in transaction")
	for id := int64(20); id < 23; id++ {
		_, err = stmt.Exec(id, fmt.Sprintf("committed %d", id))
		check(err, "insert in transaction")
	}
	check(stmt.Close(), "Close in transaction")
	check(tx.Commit(), "Commit")
	check(db.QueryRow("SELECT COUNT(*) FROM "+table+" WHERE id >= ?", 20).Scan(&count), "count after commit")
	expect(count, int64(3), "rows after commit")

	_, err = db.Exec("DROP TABLE " + table)
	check(err, "DROP TABLE")
}

func sha2Account() {
	step("caching_sha2_password account without TLS (RSA key exchange, then fast authentication)")
	root := open("root", "", "")
	defer root.Close()
	_, err := root.Exec("DROP USER IF EXISTS 'go_sha2'@'%'")
	check(err, "DROP USER")
	_, err = root.Exec("CREATE USER 'go_sha2'@'%' IDENTIFIED WITH caching_sha2_password BY 'go-secret'")
	check(err, "CREATE USER")
	_, err = root.Exec("GRANT SELECT ON test.* TO 'go_sha2'@'%'")
	check(err, "GRANT")
	for _, attempt := range []string{"full", "fast"} {
		db := open("go_sha2", "go-secret", "")
		var one int64
		check(db.QueryRow("SELECT 1").Scan(&one), attempt+" authentication")
		check(db.Close(), "Close")
	}
	db := open("go_sha2", "wrong", "")
	err = db.Ping()
	var mysqlErr *mysql.MySQLError
	if !errors.As(err, &mysqlErr) {
		fail("wrong password: expected a *mysql.MySQLError, got %#v", err)
	}
	expect(mysqlErr.Number, uint16(1045), "access denied error number")
	db.Close()
	_, err = root.Exec("DROP USER 'go_sha2'@'%'")
	check(err, "DROP USER")
}

func main() {
	if len(os.Args) != 2 {
		fail("usage: go_mysql_check HOST:PORT")
	}
	address = os.Args[1]
	run(false)
	run(true)
	sha2Account()
	fmt.Println("ALL CHECKS PASSED")
}
