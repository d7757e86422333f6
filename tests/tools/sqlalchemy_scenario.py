"""SQLAlchemy 2.1 and Alembic run end to end against one server (argv: a
SQLAlchemy URL): ``create_all`` of a schema ORMs use (identity keys,
foreign keys, unique and check constraints, named indexes, JSONB,
numeric, timestamptz), Core inserts/selects/updates in transactions,
a key from a Sequence (CREATE SEQUENCE, nextval inside INSERT), a native
Enum (CREATE TYPE ... AS ENUM; ordered by its labels, bad labels refused),
reflection through the inspector, Alembic operations (add/alter/drop
column, create index and unique constraint) and Alembic's autogenerate
comparison of the reflected schema with the model. It prints what it
saw; the test compares the printout from txngate and from PostgreSQL."""

import sys

import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.operations import Operations
from sqlalchemy.dialects.postgresql import JSONB


def model() -> sa.MetaData:
    md = sa.MetaData()
    sa.Table("author", md,
             sa.Column("id", sa.Integer, sa.Identity(), primary_key=True),
             sa.Column("name", sa.String(50), nullable=False),
             sa.Column("email", sa.String(100), unique=True),
             sa.Column("born", sa.DateTime(timezone=True)),
             sa.CheckConstraint("length(name) > 0", name="author_name_check"))
    sa.Table("book", md,
             sa.Column("id", sa.BigInteger, sa.Identity(), primary_key=True),
             sa.Column("author_id", sa.Integer, sa.ForeignKey("author.id", ondelete="CASCADE"), nullable=False),
             sa.Column("title", sa.Text, nullable=False),
             sa.Column("price", sa.Numeric(8, 2)),
             sa.Column("meta", JSONB),
             sa.Index("book_title_idx", "title"),
             sa.UniqueConstraint("author_id", "title", name="book_author_title_key"))
    # SQLAlchemy's plain Integer key is a serial (Alembic looks its sequence up through pg_depend and regclass),
    # a String without a length a varchar (autogenerate compares it with what the catalog reports)
    sa.Table("note", md, sa.Column("id", sa.Integer, primary_key=True), sa.Column("title", sa.String()))
    # a key from a Sequence of its own: CREATE SEQUENCE, then INSERT ... VALUES (nextval('ticket_id_seq'), ...)
    sa.Table("ticket", md, sa.Column("id", sa.Integer, sa.Sequence("ticket_id_seq", start=10, increment=5), primary_key=True),
             sa.Column("subject", sa.Text),
             # a native enum: CREATE TYPE ticket_state AS ENUM (...), reflected back through pg_type and pg_enum
             sa.Column("state", sa.Enum("new", "open", "closed", name="ticket_state"), nullable=False, server_default="new"))
    return md


def main(url: str) -> None:
    engine = sa.create_engine(url)
    md = model()
    md.create_all(engine)
    author, book = md.tables["author"], md.tables["book"]
    with engine.begin() as conn:
        ids = conn.execute(sa.insert(author).returning(author.c.id), [{"name": "Ann", "email": "a@x"}, {"name": "Bob", "email": "b@x"}]).scalars().all()
        conn.execute(sa.insert(book), [{"author_id": ids[0], "title": f"t{i}", "price": i + 0.5, "meta": {"n": i}} for i in range(3)])
        conn.execute(sa.update(book).where(book.c.title == "t1").values(price=book.c.price * 2))
    ticket = md.tables["ticket"]
    with engine.begin() as conn:
        print("tickets", conn.execute(sa.insert(ticket).returning(ticket.c.id), [{"subject": "a", "state": "open"}, {"subject": "b", "state": "new"}]).scalars().all(),
              conn.execute(sa.insert(ticket).values(subject="c").returning(ticket.c.id)).scalar_one(),
              conn.execute(sa.select(sa.func.nextval("ticket_id_seq"))).scalar_one(),
              conn.execute(sa.Sequence("ticket_id_seq").next_value().select()).scalar_one())
    with engine.connect() as conn:
        print("states", conn.execute(sa.select(ticket.c.subject, ticket.c.state).order_by(ticket.c.state.desc(), ticket.c.subject)).all(),
              conn.execute(sa.select(sa.func.count()).where(ticket.c.state > "new")).scalar_one())
        try:
            conn.execute(sa.insert(ticket).values(subject="x", state=sa.literal_column("'gone'")))
        except sa.exc.DataError as e:
            print("bad state", e.orig.sqlstate)
    with engine.connect() as conn:
        print(conn.execute(sa.select(author.c.name, sa.func.count(book.c.id), sa.func.sum(book.c.price))
                           .select_from(author.outerjoin(book)).group_by(author.c.name).order_by(author.c.name)).all())
        print(conn.execute(sa.select(book.c.title).where(book.c.meta["n"].as_integer() > 0).order_by(book.c.title)).scalars().all())
    insp = sa.inspect(engine)
    print("sequences", sorted(insp.get_sequence_names()), insp.has_sequence("ticket_id_seq"), insp.has_sequence("nope_seq"))
    print("enums", [(e["name"], e["labels"]) for e in insp.get_enums()])
    for table in ("author", "book", "note", "ticket"):
        print(table, [(c["name"], str(c["type"]), c["nullable"]) for c in insp.get_columns(table)])
        print(" pk", insp.get_pk_constraint(table)["constrained_columns"])
        print(" fk", [(f["constrained_columns"], f["referred_table"], f["referred_columns"]) for f in insp.get_foreign_keys(table)])
        print(" unique", sorted((u["name"], u["column_names"]) for u in insp.get_unique_constraints(table)))
        print(" indexes", sorted((i["name"], i["column_names"], i["unique"]) for i in insp.get_indexes(table)))
        print(" checks", sorted(c["name"] for c in insp.get_check_constraints(table)))
    with engine.begin() as conn:
        print("autogenerate diff", compare_metadata(MigrationContext.configure(conn), md))
        op = Operations(MigrationContext.configure(conn))
        op.add_column("author", sa.Column("bio", sa.Text, server_default=""))
        op.alter_column("author", "bio", nullable=False)
        op.create_index("author_name_idx", "author", ["name"])
        op.create_unique_constraint("author_name_born_key", "author", ["name", "born"])
        op.drop_column("book", "meta")
    insp = sa.inspect(engine)
    print("after", [(c["name"], c["nullable"]) for c in insp.get_columns("author")], [c["name"] for c in insp.get_columns("book")])
    print(" indexes", sorted((i["name"], i["column_names"], i["unique"]) for i in insp.get_indexes("author")))


if __name__ == "__main__":
    main(sys.argv[1])
