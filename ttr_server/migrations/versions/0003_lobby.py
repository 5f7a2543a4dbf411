"""The lobby: games waiting for their seats to be taken by invitation, and those seats.

Additive: two new tables; nothing existing changes.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30
"""

from __future__ import annotations

from alembic import op
import sqlalchemy as sa

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "lobby_games",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("variant", sa.String(100), nullable=False),
        sa.Column("rules_version", sa.Integer, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("listed", sa.Boolean, nullable=False),
        sa.Column("host_hash", sa.String(64), nullable=False),
        sa.Column("joins", sa.Integer, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_lobby_games_open", "lobby_games", ["started_at", "listed", "created_at"])
    op.create_table(
        "lobby_seats",
        sa.Column("game_id", sa.String(40), sa.ForeignKey("lobby_games.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(40), nullable=True),
        sa.Column("bot", sa.String(40), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=True),
        sa.Column("invite_hash", sa.String(64), nullable=True),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=True),
    )


def downgrade() -> None:
    op.drop_table("lobby_seats")
    op.drop_index("ix_lobby_games_open", table_name="lobby_games")
    op.drop_table("lobby_games")
