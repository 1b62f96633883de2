"""PostgreSQL-only parts of the event store: the xid8 column for gap-free log reading, and immutability."""

from django.db import migrations

FORWARD = [
    # the id of the transaction that wrote each event; log readers only trust ids below the oldest in flight
    "ALTER TABLE matches_event ADD COLUMN txid xid8 NOT NULL DEFAULT pg_current_xact_id()",
    "CREATE INDEX event_txid_position_idx ON matches_event (txid, position)",
    """
    CREATE FUNCTION matches_event_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        RAISE EXCEPTION 'matches_event is append-only: % is not allowed (record a correction event instead)', TG_OP
            USING ERRCODE = 'integrity_constraint_violation';
    END;
    $$
    """,
    """
    CREATE TRIGGER matches_event_no_update_delete
        BEFORE UPDATE OR DELETE ON matches_event
        FOR EACH ROW EXECUTE FUNCTION matches_event_immutable()
    """,
]

BACKWARD = [
    "DROP TRIGGER IF EXISTS matches_event_no_update_delete ON matches_event",
    "DROP FUNCTION IF EXISTS matches_event_immutable()",
    "DROP INDEX IF EXISTS event_txid_position_idx",
    "ALTER TABLE matches_event DROP COLUMN IF EXISTS txid",
]


def forward(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    with schema_editor.connection.cursor() as cursor:
        for sql in FORWARD:
            cursor.execute(sql)


def backward(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    with schema_editor.connection.cursor() as cursor:
        for sql in BACKWARD:
            cursor.execute(sql)


class Migration(migrations.Migration):
    dependencies = [("matches", "0001_initial")]

    operations = [migrations.RunPython(forward, backward)]
