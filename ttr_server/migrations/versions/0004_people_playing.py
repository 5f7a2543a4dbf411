"""How many seats of a game are people still playing (a person who resigned no longer counts),
so that the cap on games without a person (``--max-bot-games``) counts a game whose people all
resigned.

The new column is filled from each game's seats: every person's seat counts. A game whose people
resigned before this revision is corrected by its next action (bots go on acting in it), which
rewrites the column from the game's state.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

from __future__ import annotations

import json

from alembic import op
import sqlalchemy as sa

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("people_playing", sa.Integer, nullable=False, server_default="0"))
    games = sa.table("games", sa.column("id", sa.String), sa.column("seats", sa.Text),
                     sa.column("people_playing", sa.Integer))
    conn = op.get_bind()
    for row in conn.execute(sa.select(games.c.id, games.c.seats)).all():
        people = sum(1 for seat in json.loads(row.seats) if seat.get("bot") is None)
        conn.execute(sa.update(games).where(games.c.id == row.id).values(people_playing=people))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("people_playing")
