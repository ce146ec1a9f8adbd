"""PyMySQL against a DuetDB SQL server: python3 pymysql_check.py HOST PORT.

Prints one line per step and "ALL CHECKS PASSED" at the end; any failed check raises (exit status 1).
"""
import datetime
import decimal
import ssl
import sys

import pymysql

HOST, PORT = sys.argv[1], int(sys.argv[2])


def step(name):
    print("step:", name, flush=True)


def expect(actual, expected, what):
    if actual != expected:
        raise AssertionError(f"{what}: expected {expected!r}, got {actual!r}")


def connect(**options):
    settings = dict(host=HOST, port=PORT, user="root", password="", database="test", charset="utf8mb4")
    settings.update(options)
    return pymysql.connect(**settings)


step("connect (mysql_native_password)")
conn = connect(autocommit=True)
cur = conn.cursor()
cur.execute("SELECT VERSION(), @@autocommit, DATABASE()")
version, autocommit, database = cur.fetchone()
print("server version:", version)
expect(autocommit, 1, "@@autocommit")
expect(database, "test", "DATABASE()")
conn.ping(reconnect=False)

step("create table")
cur.execute("DROP TABLE IF EXISTS py_items")
cur.execute("""CREATE TABLE py_items (
    id INT PRIMARY KEY,
    name VARCHAR(40) NOT NULL,
    price DECIMAL(10, 2),
    qty BIGINT,
    ratio DOUBLE,
    born DATE,
    updated DATETIME,
    note TEXT,
    data VARBINARY(16),
    UNIQUE KEY uk_name (name))""")

step("executemany insert")
rows = [
    (1, "apple", decimal.Decimal("1.25"), 10, 0.5, datetime.date(2020, 1, 31),
     datetime.datetime(2021, 2, 3, 4, 5, 6), "plain", b"\x00\x01'\\\xff\xc3"),
    (2, "Grüße ✓ 漢字 😀", decimal.Decimal("-99999999.99"), -5, -1.5e-3, datetime.date(1999, 12, 31),
     datetime.datetime(1999, 12, 31, 23, 59, 59), "it's \"quoted\" \\ back", b"text"),
    (3, "nulls", None, None, None, None, None, None, None),
]
count = cur.executemany(
    "INSERT INTO py_items (id, name, price, qty, ratio, born, updated, note, data)"
    " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)",
    rows)
expect(count, 3, "rows inserted by executemany")

step("typed select")
cur.execute("SELECT id, name, price, qty, ratio, born, updated, note, data FROM py_items ORDER BY id")
fetched = cur.fetchall()
expect([tuple(row) for row in fetched], rows, "rows read back")
expect(type(fetched[0][2]), decimal.Decimal, "DECIMAL type")
expect(type(fetched[0][5]), datetime.date, "DATE type")
expect(type(fetched[0][6]), datetime.datetime, "DATETIME type")
names = [d[0] for d in cur.description]
expect(names, ["id", "name", "price", "qty", "ratio", "born", "updated", "note", "data"], "column names")
cur.execute("SELECT id FROM py_items WHERE data = %s", (b"\x00\x01'\\\xff\xc3",))
expect(cur.fetchall(), ((1,),), "row found by its bytes")

step("parameterised select and dict cursor")
with conn.cursor(pymysql.cursors.DictCursor) as dict_cursor:
    dict_cursor.execute("SELECT id, name, price FROM py_items WHERE name = %s", ("Grüße ✓ 漢字 😀",))
    expect(dict_cursor.fetchall(), [{"id": 2, "name": "Grüße ✓ 漢字 😀", "price": decimal.Decimal("-99999999.99")}],
           "dict row")
cur.execute("SELECT COUNT(*), SUM(qty), MAX(born) FROM py_items WHERE price IS NOT NULL")
expect(cur.fetchone(), (2, decimal.Decimal(5), datetime.date(2020, 1, 31)), "aggregates")
cur.execute("UPDATE py_items SET qty = qty + %s WHERE id IN (%s, %s)", (1, 1, 2))
expect(cur.rowcount, 2, "rows updated")

step("duplicate key error")
try:
    cur.execute("INSERT INTO py_items (id, name) VALUES (%s, %s)", (4, "apple"))
    raise AssertionError("a duplicate name was accepted")
except pymysql.err.IntegrityError as error:
    print("duplicate key:", error.args)
    expect(error.args[0], 1062, "error code")
try:
    cur.execute("SELECT no_such_column FROM py_items")
    raise AssertionError("an unknown column was accepted")
except pymysql.err.OperationalError as error:
    expect(error.args[0], 1054, "unknown column error code")
try:
    cur.execute("SELECT * FROM no_such_table")
    raise AssertionError("an unknown table was accepted")
except pymysql.err.ProgrammingError as error:
    expect(error.args[0], 1146, "unknown table error code")

step("transaction rolled back")
conn.autocommit(False)
cur.execute("SELECT @@autocommit")
expect(cur.fetchone()[0], 0, "@@autocommit after autocommit(False)")
cur.execute("INSERT INTO py_items (id, name) VALUES (%s, %s)", (10, "rolled back"))
cur.execute("DELETE FROM py_items WHERE id = 1")
conn.rollback()
cur.execute("SELECT id FROM py_items ORDER BY id")
expect([row[0] for row in cur.fetchall()], [1, 2, 3], "ids after rollback")

step("transaction committed")
cur.execute("INSERT INTO py_items (id, name) VALUES (%s, %s)", (11, "committed"))
conn.commit()
other = connect()
with other.cursor() as other_cursor:
    other_cursor.execute("SELECT name FROM py_items WHERE id = 11")
    expect(other_cursor.fetchone(), ("committed",), "committed row seen by another connection")
other.close()
conn.autocommit(True)
cur.close()
conn.close()

step("TLS connection (certificate not verified) as a caching_sha2_password account")
admin = connect()
with admin.cursor() as admin_cursor:
    admin_cursor.execute("DROP USER IF EXISTS 'py_sha2'@'%'")
    admin_cursor.execute("CREATE USER 'py_sha2'@'%' IDENTIFIED WITH caching_sha2_password BY 'py-secret'")
    admin_cursor.execute("GRANT SELECT ON test.* TO 'py_sha2'@'%'")
admin.close()
for attempt in ("full authentication", "fast authentication"):
    secure = connect(user="py_sha2", password="py-secret", ssl={"verify_mode": False})
    if not isinstance(secure._sock, ssl.SSLSocket):
        raise AssertionError("the connection is not encrypted")
    with secure.cursor() as secure_cursor:
        secure_cursor.execute("SELECT CURRENT_USER, COUNT(*) FROM py_items")
        user, count = secure_cursor.fetchone()
        expect(user.split("@")[0], "py_sha2", "CURRENT_USER")
    print(attempt, "over", secure._sock.version(), "ok")
    secure.close()

step("wrong password")
try:
    connect(user="py_sha2", password="wrong", ssl={"verify_mode": False})
    raise AssertionError("a wrong password was accepted")
except pymysql.err.OperationalError as error:
    expect(error.args[0], 1045, "access denied error code")

cleanup = connect()
with cleanup.cursor() as cleanup_cursor:
    cleanup_cursor.execute("DROP USER 'py_sha2'@'%'")
    cleanup_cursor.execute("DROP TABLE py_items")
cleanup.close()
print("ALL CHECKS PASSED")
