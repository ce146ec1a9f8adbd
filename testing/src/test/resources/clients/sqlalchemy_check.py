"""A small SQLAlchemy ORM application (SQLAlchemy 1.4 over PyMySQL) against DuetDB: python3 sqlalchemy_check.py HOST PORT.

It creates its schema from declarative models, reflects it back, and creates, queries (joins, aggregates,
pagination), updates and deletes rows through a Session, as applications do. Prints one line per step and
"ALL CHECKS PASSED" at the end; any failed check raises (exit status 1).
"""
import datetime
import decimal
import sys

from sqlalchemy import (Column, Date, DateTime, Enum, ForeignKey, Integer, MetaData, Numeric, String, Table, Text,
                        UniqueConstraint, create_engine, func, inspect, select)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import declarative_base, relationship, Session

HOST, PORT = sys.argv[1], int(sys.argv[2])


def step(name):
    print("step:", name, flush=True)


def expect(actual, expected, what):
    if actual != expected:
        raise AssertionError(f"{what}: expected {expected!r}, got {actual!r}")


Base = declarative_base()


class Author(Base):
    __tablename__ = "orm_authors"
    id = Column(Integer, primary_key=True, autoincrement=True)
    name = Column(String(80), nullable=False, unique=True)
    born = Column(Date)
    books = relationship("Book", back_populates="author", cascade="all, delete-orphan", order_by="Book.id")


class Book(Base):
    __tablename__ = "orm_books"
    __table_args__ = (UniqueConstraint("author_id", "title", name="uq_author_title"),)
    id = Column(Integer, primary_key=True, autoincrement=True)
    author_id = Column(Integer, ForeignKey("orm_authors.id"), nullable=False, index=True)
    title = Column(String(200), nullable=False)
    price = Column(Numeric(10, 2), nullable=False)
    kind = Column(Enum("novel", "essay", "poetry", name="book_kind"), nullable=False, default="novel")
    summary = Column(Text)
    added = Column(DateTime, default=datetime.datetime(2026, 1, 2, 3, 4, 5))
    author = relationship("Author", back_populates="books")


engine = create_engine(f"mysql+pymysql://root@{HOST}:{PORT}/test?charset=utf8mb4", future=True)

step("create the schema from the models")
Base.metadata.drop_all(engine)
Base.metadata.create_all(engine)

step("reflect the schema")
inspector = inspect(engine)
tables = set(inspector.get_table_names())
if not {"orm_authors", "orm_books"} <= tables:
    raise AssertionError(f"tables: {sorted(tables)}")
columns = {column["name"]: column for column in inspector.get_columns("orm_books")}
expect(sorted(columns), ["added", "author_id", "id", "kind", "price", "summary", "title"], "orm_books columns")
expect(columns["title"]["nullable"], False, "title nullable")
expect(str(columns["price"]["type"]), "DECIMAL(10, 2)", "price type")
expect(sorted(columns["kind"]["type"].enums), ["essay", "novel", "poetry"], "kind values")
expect(inspector.get_pk_constraint("orm_books")["constrained_columns"], ["id"], "primary key")
unique = {constraint["name"]: constraint["column_names"] for constraint in inspector.get_unique_constraints("orm_books")}
expect(unique.get("uq_author_title"), ["author_id", "title"], "unique constraint")
foreign = inspector.get_foreign_keys("orm_books")
expect([(key["constrained_columns"], key["referred_table"], key["referred_columns"]) for key in foreign],
       [(["author_id"], "orm_authors", ["id"])], "foreign keys")
indexed = [index["column_names"] for index in inspector.get_indexes("orm_books")]
if ["author_id"] not in indexed:
    raise AssertionError(f"indexes: {indexed}")
reflected = MetaData()
books_table = Table("orm_books", reflected, autoload_with=engine)
expect(books_table.c.title.type.length, 200, "reflected title length")

step("create rows through a session")
with Session(engine) as session:
    ann = Author(name="Ann", born=datetime.date(1970, 5, 17))
    bob = Author(name="Bob")
    ann.books = [Book(title="First", price=decimal.Decimal("12.50"), summary="x" * 300),
                 Book(title="Second", price=decimal.Decimal("8.00"), kind="essay")]
    bob.books = [Book(title="Poems", price=decimal.Decimal("20.00"), kind="poetry")]
    session.add_all([ann, bob])
    session.commit()
    if ann.id is None or ann.books[0].id is None:
        raise AssertionError("generated keys were not fetched")
    ann_id = ann.id

step("query with joins, aggregates and pagination")
with Session(engine) as session:
    ann = session.get(Author, ann_id)
    expect([book.title for book in ann.books], ["First", "Second"], "relationship load")
    expect(ann.born, datetime.date(1970, 5, 17), "date round trip")
    rows = session.execute(
        select(Author.name, func.count(Book.id), func.sum(Book.price))
        .join(Book, Book.author_id == Author.id)
        .group_by(Author.name)
        .order_by(Author.name)).all()
    expect([tuple(row) for row in rows], [("Ann", 2, decimal.Decimal("20.50")), ("Bob", 1, decimal.Decimal("20.00"))],
           "join with aggregates")
    page = session.scalars(select(Book).order_by(Book.price.desc()).limit(2).offset(1)).all()
    expect([book.title for book in page], ["First", "Second"], "LIMIT/OFFSET page")
    essays = session.scalars(select(Book).where(Book.kind == "essay")).all()
    expect([(book.title, book.author.name) for book in essays], [("Second", "Ann")], "filter and lazy load")
    expect(essays[0].added, datetime.datetime(2026, 1, 2, 3, 4, 5), "default datetime")
    found = session.scalars(select(Author).where(Author.name.in_(["Bob", "Zed"]))).all()
    expect([author.name for author in found], ["Bob"], "IN list")
    expect(session.scalar(select(func.count()).select_from(Book).where(Book.title.like("%o%"))), 2, "LIKE count")

step("update and see the change")
with Session(engine) as session:
    book = session.scalars(select(Book).where(Book.title == "Second")).one()
    book.price = decimal.Decimal("9.75")
    session.commit()
    expect(session.scalar(select(Book.price).where(Book.id == book.id)), decimal.Decimal("9.75"), "updated price")

step("a unique violation rolls the session back")
with Session(engine) as session:
    session.add(Author(name="Ann"))
    try:
        session.commit()
        raise AssertionError("duplicate author name was accepted")
    except IntegrityError as error:
        expect(error.orig.args[0], 1062, "duplicate key error code")
        session.rollback()
    expect(session.scalar(select(func.count()).select_from(Author)), 2, "authors after rollback")

step("delete with cascade")
with Session(engine) as session:
    session.delete(session.get(Author, ann_id))
    session.commit()
    expect(session.scalar(select(func.count()).select_from(Book)), 1, "books after cascade")
    expect(session.scalar(select(func.count()).select_from(Author)), 1, "authors after delete")

Base.metadata.drop_all(engine)
print("ALL CHECKS PASSED", flush=True)
