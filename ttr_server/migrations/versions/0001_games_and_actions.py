"""Games and their append-only action logs.

Revision ID: 0001
Revises:
Create Date: 2025-11-29
"""

from __future__ import annotations

from alembic import op
import sqlalchemy as sa

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("variant", sa.String(100), nullable=False),
        sa.Column("rules_version", sa.Integer, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("seats", sa.Text, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("digest", sa.String(64), nullable=False),
        sa.Column("phase", sa.String(20), nullable=False),
        sa.Column("to_act", sa.Text, nullable=False),
        sa.Column("bot_turn", sa.Boolean, nullable=False),
        sa.Column("over", sa.Boolean, nullable=False),
        sa.Column("result", sa.Text, nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    # the server resumes bots that were to move when it stopped: find those games quickly
    op.create_index("ix_games_bot_turn", "games", ["bot_turn", "over"])
    op.create_table(
        "actions",
        sa.Column("game_id", sa.String(40), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("n", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("data", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("actions")
    op.drop_index("ix_games_bot_turn", table_name="games")
    op.drop_table("games")
