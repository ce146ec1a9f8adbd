"""MySQL Connector/Python against a DuetDB SQL server: python3 mysql_connector_check.py HOST PORT.

Runs every check with the pure-Python implementation and with the C extension (use_pure=True / False); prints
one line per step and "ALL CHECKS PASSED" at the end; any failed check raises (exit status 1).
"""
import datetime
import decimal
import sys

import mysql.connector
from mysql.connector import errorcode, errors

HOST, PORT = sys.argv[1], int(sys.argv[2])


def step(name):
    print("step:", name, flush=True)


def expect(actual, expected, what):
    if actual != expected:
        raise AssertionError(f"{what}: expected {expected!r}, got {actual!r}")


def connect(use_pure, **options):
    settings = dict(host=HOST, port=PORT, user="root", password="", database="test", use_pure=use_pure,
                    connection_timeout=20)
    settings.update(options)
    conn = mysql.connector.connect(**settings)
    expected_class = "MySQLConnection" if use_pure else "CMySQLConnection"
    expect(type(conn).__name__, expected_class, "connection implementation")
    return conn


ROWS = [
    (1, "apple", decimal.Decimal("1.25"), 10, 0.5, datetime.date(2020, 1, 31),
     datetime.datetime(2021, 2, 3, 4, 5, 6), "plain", b"\x00\x01'\\\xff\xc3"),
    (2, "Grüße ✓ 漢字 😀", decimal.Decimal("-99999999.99"), -5, -1.5e-3, datetime.date(1999, 12, 31),
     datetime.datetime(1999, 12, 31, 23, 59, 59, 250000), "it's \"quoted\" \\ back", b"text"),
    (3, "nulls", None, None, None, None, None, None, None),
]


def check(use_pure):
    table = "mc_items_" + ("pure" if use_pure else "cext")
    label = "pure Python" if use_pure else "C extension"

    step(f"{label}: connect with the default options (TLS offered, caching_sha2_password proposed)")
    conn = connect(use_pure)
    print("server version:", conn.server_info)
    cur = conn.cursor()
    cur.execute("SELECT VERSION(), @@autocommit, @@max_allowed_packet, DATABASE()")
    version, autocommit, max_allowed_packet, database = cur.fetchone()
    expect(autocommit, 0, "@@autocommit (Connector/Python turns autocommit off by default)")
    expect(max_allowed_packet, 67108864, "@@max_allowed_packet")
    expect(database, "test", "DATABASE()")
    expect(conn.is_connected(), True, "is_connected()")
    conn.ping()
    conn.autocommit = True

    step(f"{label}: create table")
    cur.execute(f"DROP TABLE IF EXISTS {table}")
    cur.execute(f"""CREATE TABLE {table} (
        id INT PRIMARY KEY,
        name VARCHAR(40) NOT NULL,
        price DECIMAL(10, 2),
        qty BIGINT,
        ratio DOUBLE,
        born DATE,
        updated DATETIME(6),
        note TEXT,
        data VARBINARY(16),
        UNIQUE KEY uk_name (name))""")

    step(f"{label}: executemany insert")
    cur.executemany(f"INSERT INTO {table} (id, name, price, qty, ratio, born, updated, note, data)"
                    " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)", ROWS)
    expect(cur.rowcount, 3, "rows inserted by executemany")

    step(f"{label}: typed select (text protocol)")
    cur.execute(f"SELECT id, name, price, qty, ratio, born, updated, note, data FROM {table} ORDER BY id")
    fetched = [row[:8] + (bytes(row[8]) if row[8] is not None else None,) for row in cur.fetchall()]
    expect(fetched, ROWS, "rows read back")
    expect([d[0] for d in cur.description], ["id", "name", "price", "qty", "ratio", "born", "updated", "note", "data"],
           "column names")
    cur.execute(f"SELECT COUNT(*), SUM(qty), MAX(born) FROM {table} WHERE price IS NOT NULL")
    expect(cur.fetchone(), (2, decimal.Decimal(5), datetime.date(2020, 1, 31)), "aggregates")
    with conn.cursor(dictionary=True) as dict_cursor:
        dict_cursor.execute(f"SELECT id, name FROM {table} WHERE name = %s", ("Grüße ✓ 漢字 😀",))
        expect(dict_cursor.fetchall(), [{"id": 2, "name": "Grüße ✓ 漢字 😀"}], "dictionary row")

    step(f"{label}: prepared statements (binary protocol)")
    prepared = conn.cursor(prepared=True)
    prepared.execute(f"INSERT INTO {table} (id, name, price, qty, ratio, born, updated, note, data)"
                     " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                     (4, "prepared ✓", decimal.Decimal("12.50"), 2 ** 40, 2.25, datetime.date(2024, 2, 29),
                      datetime.datetime(2024, 2, 29, 12, 30, 45, 123456), None, b"\xfe\x00\xff"))
    expect(prepared.rowcount, 1, "rows inserted by a prepared INSERT")
    prepared.executemany(f"INSERT INTO {table} (id, name, qty) VALUES (?, ?, ?)",
                         [(5, "five", 5), (6, "six", None)])
    prepared.execute(f"SELECT id, name, price, qty, ratio, born, updated, note, data FROM {table}"
                     " WHERE id >= ? ORDER BY id", (4,))
    rows = prepared.fetchall()
    expect(rows[0][:8] + (bytes(rows[0][8]),), (4, "prepared ✓", decimal.Decimal("12.50"), 2 ** 40, 2.25,
                                                 datetime.date(2024, 2, 29),
                                                 datetime.datetime(2024, 2, 29, 12, 30, 45, 123456), None,
                                                 b"\xfe\x00\xff"), "prepared row 4")
    expect([tuple(row[:4]) for row in rows[1:]], [(5, "five", None, 5), (6, "six", None, None)], "prepared rows 5, 6")
    prepared.execute(f"SELECT name, qty FROM {table} WHERE id = ?", (1,))
    expect(prepared.fetchall(), [("apple", 10)], "prepared point query")
    prepared.execute(f"SELECT name, qty FROM {table} WHERE id = ?", (2,))
    expect(prepared.fetchall(), [("Grüße ✓ 漢字 😀", -5)], "the same prepared statement re-executed")
    prepared.execute(f"UPDATE {table} SET qty = qty + ? WHERE id = ?", (100, 5))
    expect(prepared.rowcount, 1, "rows updated by a prepared UPDATE")
    try:
        prepared.execute(f"INSERT INTO {table} (id, name) VALUES (?, ?)", (7, "apple"))
        raise AssertionError("a prepared INSERT of a duplicate name was accepted")
    except errors.IntegrityError as error:
        expect(error.errno, errorcode.ER_DUP_ENTRY, "prepared duplicate key error number")
        expect(error.sqlstate, "23000", "prepared duplicate key SQLSTATE")
    prepared.close()

    step(f"{label}: errors")
    try:
        cur.execute(f"INSERT INTO {table} (id, name) VALUES (%s, %s)", (8, "apple"))
        raise AssertionError("a duplicate name was accepted")
    except errors.IntegrityError as error:
        print("duplicate key:", error.errno, error.sqlstate, error.msg)
        expect(error.errno, 1062, "duplicate key error number")
    try:
        cur.execute("SELECT * FROM no_such_table")
        raise AssertionError("an unknown table was accepted")
    except errors.ProgrammingError as error:
        expect(error.errno, 1146, "unknown table error number")

    step(f"{label}: transactions")
    conn.autocommit = False
    cur.execute(f"INSERT INTO {table} (id, name) VALUES (%s, %s)", (10, "rolled back"))
    cur.execute(f"DELETE FROM {table} WHERE id = 1")
    conn.rollback()
    cur.execute(f"SELECT COUNT(*) FROM {table}")
    expect(cur.fetchone(), (6,), "rows after rollback")
    expect(conn.in_transaction, True, "in_transaction after a SELECT with autocommit off")
    conn.commit()
    conn.autocommit = True
    conn.start_transaction()
    expect(conn.in_transaction, True, "in_transaction after START TRANSACTION")
    cur.execute(f"INSERT INTO {table} (id, name) VALUES (%s, %s)", (11, "committed"))
    conn.commit()
    other = connect(use_pure, autocommit=True)
    other_cursor = other.cursor()
    other_cursor.execute(f"SELECT name FROM {table} WHERE id = 11")
    expect(other_cursor.fetchall(), [("committed",)], "committed row seen by another connection")
    other_cursor.close()
    other.close()

    step(f"{label}: without TLS")
    plain = connect(use_pure, ssl_disabled=True)
    plain_cursor = plain.cursor()
    plain_cursor.execute(f"SELECT COUNT(*) FROM {table}")
    expect(plain_cursor.fetchone(), (7,), "row count over a plain connection")
    plain_cursor.close()
    plain.close()

    step(f"{label}: caching_sha2_password account over TLS (full, then fast authentication)")
    user = "mc_sha2_" + ("pure" if use_pure else "cext")
    cur.execute(f"DROP USER IF EXISTS '{user}'@'%'")
    cur.execute(f"CREATE USER '{user}'@'%' IDENTIFIED WITH caching_sha2_password BY 'mc-secret'")
    cur.execute(f"GRANT SELECT ON test.* TO '{user}'@'%'")
    for attempt in ("full", "fast"):
        secure = connect(use_pure, user=user, password="mc-secret")
        secure_cursor = secure.cursor()
        secure_cursor.execute("SELECT CURRENT_USER")
        expect(secure_cursor.fetchone()[0].split("@")[0], user, f"CURRENT_USER after {attempt} authentication")
        secure_cursor.close()
        secure.close()
    try:
        connect(use_pure, user=user, password="wrong")
        raise AssertionError("a wrong password was accepted")
    except errors.ProgrammingError as error:
        expect(error.errno, 1045, "access denied error number")
    cur.execute(f"DROP USER '{user}'@'%'")

    cur.execute(f"DROP TABLE {table}")
    cur.close()
    conn.close()


if not mysql.connector.HAVE_CEXT:
    raise AssertionError("the C extension of Connector/Python is not available")
print("Connector/Python", mysql.connector.__version__)
for pure in (True, False):
    check(pure)
print("ALL CHECKS PASSED")
