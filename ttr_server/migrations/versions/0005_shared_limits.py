"""Limits counted in the database, so that several server processes share them: the games each
client address created recently, and the event streams open (per client address, per game).

Additive: two new tables; nothing existing changes.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

from __future__ import annotations

from alembic import op
import sqlalchemy as sa

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "limit_events",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("kind", sa.String(20), nullable=False),
        sa.Column("client", sa.String(100), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_limit_events_client", "limit_events", ["kind", "client", "at"])
    op.create_table(
        "stream_slots",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("client", sa.String(100), nullable=False),
        sa.Column("game_id", sa.String(40), nullable=False),
        sa.Column("seen_at", sa.Float, nullable=False),
    )
    op.create_index("ix_stream_slots_client", "stream_slots", ["client"])
    op.create_index("ix_stream_slots_game", "stream_slots", ["game_id"])


def downgrade() -> None:
    op.drop_index("ix_stream_slots_game", table_name="stream_slots")
    op.drop_index("ix_stream_slots_client", table_name="stream_slots")
    op.drop_table("stream_slots")
    op.drop_index("ix_limit_events_client", table_name="limit_events")
    op.drop_table("limit_events")
