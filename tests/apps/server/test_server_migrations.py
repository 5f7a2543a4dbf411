"""Upgrading a populated database through every migration, on SQLite and PostgreSQL.

A database is built at the first revision and filled as the server of each revision would have
filled it: at 0001 games and their action logs (seeded games played with the engine: finished,
under way, one whose person resigned), at 0002 idempotency keys and an aborted game, at 0003 lobby
games with taken and open seats. It is then upgraded, by the server's own ``db.migrate``, through
every remaining revision to head. Afterwards nothing written earlier is lost or changed, every game
replays to its stored digest, play goes on, the lobby's seats can be taken, the keys still answer
and ``people_playing`` (0004) says how many people play each game.

The same upgrade with a deliberately broken migration on top (in a copy of the scripts) must be
noticed: that is what shows these checks can fail. On SQLite a migration that leaves rows whose
game is gone is refused and undone; a restart, which migrates nothing, does not check every row.
"""

from __future__ import annotations

import hashlib
import json
from datetime import datetime, timezone
from importlib.resources import files

import attrs
import pytest
import sqlalchemy as sa

from server_kit import check_stored, migrations_head, with_migration

from ttr_bots import ask, bot_class
from ttr_core import record, variant
from ttr_core.game import Game
from ttr_core.state import digest

MIGRATIONS = files("ttr_server") / "migrations"
# The columns each table had when it was created; they must come through every upgrade unchanged.
FIRST_COLUMNS = {
    "games": ("id", "variant", "rules_version", "seed", "seats", "version", "digest", "phase", "to_act",
              "bot_turn", "over", "result", "created_at", "updated_at"),
    "actions": ("game_id", "n", "seat", "data", "created_at"),
    "idempotency_keys": ("game_id", "seat", "key", "request_hash", "response", "created_at"),
    "lobby_games": ("id", "variant", "rules_version", "seed", "listed", "host_hash", "joins", "created_at",
                    "started_at"),
    "lobby_seats": ("game_id", "seat", "name", "bot", "token_hash", "invite_hash", "joined_at"),
}
KEYS = {"games": "id", "actions": "game_id, n", "idempotency_keys": "game_id, seat, key",
        "lobby_games": "id", "lobby_seats": "game_id, seat"}


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def now() -> datetime:
    return datetime.now(timezone.utc)


# --- the games, played with the engine before any database is involved ------------------------


@attrs.frozen
class Played:
    """A game as a server of revision 0001 stored it: its record, its seats (a bot's name or
    None for a person) and, after every action, where it stood (for idempotency answers)."""

    id: str
    record: dict
    bots: tuple[str | None, ...]
    after: tuple[dict, ...]  # per action n (from 1): {"version", "phase", "to_act", "over"}

    @property
    def over(self) -> bool:
        return self.record["over"]

    @property
    def people(self) -> int:
        return sum(b is None for b in self.bots)

    def token(self, seat: int) -> str:
        return f"token-{self.id}-{seat}"


def play(game_id: str, variant_id: str, seed: int, bots: tuple[str | None, ...], actions: int | None = None,
         resign_at: int | None = None) -> Played:
    """A seeded game of random players (whether a seat is a person's or a bot's changes only who
    the server thinks plays it), to its end or for ``actions`` actions; seat 0 resigns after
    ``resign_at`` actions."""
    names = ["Ada", "Bob", "Cy", "Dee", "Eve"][:len(bots)]
    game = Game(variant.load(variant_id), names, seed)
    players = [bot_class("random")(seed, seat) for seat in range(len(bots))]
    after = []
    while not game.over and (actions is None or len(game.log) < actions):
        if len(game.log) == resign_at:
            seat, action = 0, game.registry.from_data({"kind": "resign"}, 0)
        else:
            seat = game.to_act()[0]
            action = players[seat].choose(game.seat_view(seat))
        game.apply(seat, action)
        after.append({"version": len(game.log), "phase": game.state.phase, "to_act": list(game.to_act()),
                      "over": game.over})
    return Played(game_id, record.make_record(game), bots, tuple(after))


@pytest.fixture(scope="module")
def played() -> list[Played]:
    return [
        play("done-usa", "usa", 11, ("random", "random")),
        play("done-usa3", "usa", 12, (None, "random", "random")),
        play("done-europe", "europe", 13, (None, None, "random", "random")),
        play("live-usa", "usa", 14, (None, None, "random"), actions=40),
        play("live-europe", "europe", 15, (None, None), actions=25),
        play("live-wor", "wor", 16, (None, "random", "random"), actions=40, resign_at=30),  # bots only now
        play("aborted-usa", "usa", 17, (None, "random"), actions=12),  # aborted at revision 0002
    ]


# --- building the database revision by revision -----------------------------------------------


def upgrade(engine: sa.Engine, scripts: str, revision: str) -> None:
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", scripts)
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, revision)


def tables(conn: sa.Connection) -> dict[str, sa.Table]:
    """The tables as the database has them now (not as ``db.py`` describes the head): a row
    written through these has the columns of the revision the database is at."""
    found = sa.MetaData()
    found.reflect(conn)
    return found.tables


def fill_0001(conn: sa.Connection, games: list[Played]) -> None:
    t = tables(conn)
    assert set(t["games"].c.keys()) == set(FIRST_COLUMNS["games"])  # the 0001 schema, nothing later
    for g in games:
        rec, at = g.record, now()
        to_act = g.after[-1]["to_act"] if g.after else []
        conn.execute(sa.insert(t["games"]).values(
            id=g.id, variant=rec["variant"], rules_version=rec["version"], seed=rec["seed"],
            seats=json.dumps([{"name": name, "bot": bot, "token_hash": None if bot else sha256(g.token(seat))}
                              for seat, (name, bot) in enumerate(zip(rec["players"], g.bots))]),
            version=len(rec["actions"]), digest=rec["digest"], phase=g.after[-1]["phase"], to_act=json.dumps(to_act),
            bot_turn=any(g.bots[s] for s in to_act), over=rec["over"],
            result=json.dumps(rec["result"]) if "result" in rec else None, created_at=at, updated_at=at))
        conn.execute(sa.insert(t["actions"]), [
            {"game_id": g.id, "n": n, "seat": a["seat"], "created_at": at,
             "data": json.dumps({k: v for k, v in a.items() if k != "seat"}, separators=(",", ":"))}
            for n, a in enumerate(rec["actions"], 1)])


def request_hash(version: int, action: dict) -> str:
    """As a server of revision 0002 hashed an action request sent with an Idempotency-Key."""
    return sha256(json.dumps({"version": version, "action": action}, sort_keys=True, separators=(",", ":")))


@attrs.frozen
class Key:
    game: str
    seat: int
    key: str
    based_on: int  # the version the action was sent for
    action: dict
    answer: dict


def fill_0002(conn: sa.Connection, games: list[Played]) -> list[Key]:
    """An idempotency key for the last action of each person still playing; the aborted game."""
    t = tables(conn)
    keys = []
    for g in games:
        if g.over:
            continue
        last = {}
        for n, a in enumerate(g.record["actions"], 1):
            if g.bots[a["seat"]] is None:
                last[a["seat"]] = n
        for seat, n in sorted(last.items()):
            action = {k: v for k, v in g.record["actions"][n - 1].items() if k != "seat"}
            keys.append(Key(g.id, seat, f"retry-{g.id}-{seat}", n - 1, action, g.after[n - 1]))
    conn.execute(sa.insert(t["idempotency_keys"]), [
        {"game_id": k.game, "seat": k.seat, "key": k.key, "request_hash": request_hash(k.based_on, k.action),
         "response": json.dumps(k.answer), "created_at": now()} for k in keys])
    conn.execute(sa.update(t["games"]).where(t["games"].c.id == "aborted-usa").values(ended="aborted"))
    return keys


@attrs.frozen
class Waiting:
    """A lobby game waiting for players: its host's token and its open seats' invitations."""

    id: str
    host: str
    invitations: dict[int, str]
    listed: bool
    seats: int


LOBBY = (
    Waiting("lobby-invited", "host-invited", {1: "invite-a", 2: "invite-b"}, listed=False, seats=3),
    Waiting("lobby-listed", "host-listed", {1: "invite-c"}, listed=True, seats=2),
)


def fill_0003(conn: sa.Connection) -> None:
    """Lobby games whose seat 0 is taken (by Ada) and whose other seats are open."""
    t = tables(conn)
    for w in LOBBY:
        at = now()
        conn.execute(sa.insert(t["lobby_games"]).values(
            id=w.id, variant="usa", rules_version=1, seed=99, listed=w.listed, host_hash=sha256(w.host), joins=1,
            created_at=at, started_at=None))
        conn.execute(sa.insert(t["lobby_seats"]), [
            {"game_id": w.id, "seat": seat, "bot": None, "joined_at": at if seat == 0 else None,
             "name": "Ada" if seat == 0 else None, "token_hash": sha256(f"token-{w.id}-0") if seat == 0 else None,
             "invite_hash": sha256(w.invitations[seat]) if seat in w.invitations else None}
            for seat in range(w.seats)])


def contents(conn: sa.Connection) -> dict[str, list[tuple]]:
    """Every row of every table, in the columns each table was created with."""
    return {name: [tuple(r) for r in conn.execute(sa.text(f"SELECT {', '.join(cols)} FROM {name} ORDER BY {KEYS[name]}"))]
            for name, cols in FIRST_COLUMNS.items()}


@attrs.frozen
class Built:
    games: list[Played]
    keys: list[Key]
    before: dict[str, list[tuple]]  # every row before the last upgrade


def build_and_upgrade(url: str, scripts: str, games: list[Played]) -> Built:
    """A database at 0001 filled with ``games``, upgraded and filled at 0002 and 0003, then
    upgraded to head by the server's own migration step. (A new revision that changes what is
    stored adds its check to ``check_upgraded``; one that adds tables is covered as it is.)"""
    from ttr_server import db

    engine = db.make_engine(url)
    try:
        upgrade(engine, scripts, "0001")
        with engine.begin() as conn:
            fill_0001(conn, games)
        upgrade(engine, scripts, "0002")
        with engine.begin() as conn:
            keys = fill_0002(conn, games)
        upgrade(engine, scripts, "0003")
        with engine.begin() as conn:
            fill_0003(conn)
            before = contents(conn)
        db.migrate(engine, script_location=scripts)  # every remaining revision, as the server starts
        with engine.connect() as conn:
            assert conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalar() == migrations_head(scripts)
    finally:
        engine.dispose()
    return Built(games, keys, before)


# --- what must hold after the upgrade ----------------------------------------------------------


@attrs.frozen
class Ack:  # what check_stored reads: an action stored at ``version``
    game: str
    version: int
    seat: int
    action: dict


def check_upgraded(url: str, built: Built) -> None:
    from ttr_server import db
    from ttr_server.lobby import Lobby
    from ttr_server.errors import Ended
    from ttr_server.service import GameService
    from ttr_server.storage import Status

    games = built.games
    engine = db.make_engine(url)
    service = GameService(engine, run_bots=False)
    try:
        with engine.connect() as conn:
            after = contents(conn)
            people = dict(conn.execute(sa.text("SELECT id, people_playing FROM games")).all())
        for name, rows in built.before.items():
            assert after[name] == rows, f"the upgrade changed or lost rows of {name}"

        # every game's log is stored as it was played, and replays to the stored digest
        acks = [Ack(g.id, n, a["seat"], {k: v for k, v in a.items() if k != "seat"})
                for g in games for n, a in enumerate(g.record["actions"], 1)]
        assert check_stored(url, [g.id for g in games], acks) == len(acks)
        for g in games:
            assert record.dumps(service.stored_record(g.id)) == record.dumps(g.record), g.id

        # every person counts, as the revision says, until the game's next action counts again
        assert people == {g.id: g.people for g in games}, "people_playing is not each game's people"

        # a resent action gets its first answer, and nothing is applied again
        for k in built.keys:
            answer = service.act(k.game, k.seat, k.based_on, k.action, key=k.key)
            assert answer == Status(k.answer["version"], k.answer["phase"], tuple(k.answer["to_act"]),
                                    k.answer["over"]), f"the idempotency key {k.key} no longer answers"
        for g in games:
            assert service.status(g.id).version == len(g.record["actions"]), g.id

        # play goes on in every game still under way; the aborted game stays aborted
        for g in games:
            if g.over:
                continue
            if g.id == "aborted-usa":
                with pytest.raises(Ended):
                    service.act(g.id, 0, len(g.after), {"kind": "draw-tickets"})
                continue
            play_one(service, g)
        with engine.connect() as conn:
            wor = conn.execute(sa.text("SELECT people_playing FROM games WHERE id = 'live-wor'")).scalar()
        assert wor == 0, "the game whose only person resigned is not counted as a game without a person"

        # the lobby's open seats can be taken, and the last one starts the game
        lobby = Lobby(service)
        names = iter(["Bea", "Cal", "Dan"])
        for w in LOBBY:
            assert lobby.reissue(w.id, w.host, 0).token, f"{w.id}: the host's token no longer works"
            for seat, invitation in sorted(w.invitations.items()):
                joined = lobby.join(w.id, next(names), None if w.listed else invitation)
                assert joined.seat == seat, f"{w.id}: the seat taken is not the open one"
            assert joined.started, f"{w.id}: the last seat taken did not start the game"
            assert service.status(w.id).phase == "setup"
            with engine.connect() as conn:
                assert conn.execute(sa.text("SELECT people_playing FROM games WHERE id = :g"),
                                    {"g": w.id}).scalar() == w.seats
        assert check_stored(url, [w.id for w in LOBBY], []) == 0
    finally:
        service.close()
        engine.dispose()


def play_one(service, g: Played) -> None:
    """One more action in ``g``: a person's over the service's ``act``, or its bot's."""
    status = service.status(g.id)
    seat = status.to_act[0]
    if g.bots[seat] is None:
        legal = service.snapshot(g.id, seat).legal
        assert legal, f"{g.id}: seat {seat} is to act and may do nothing"
        moved = service.act(g.id, seat, status.version, legal[0])
    else:
        def choose(meta, game, seat):
            return ask(bot_class(meta.seats[seat].bot)(meta.seed, seat), game, seat)

        moved = service.play_bot_action(g.id, choose, lambda over: None)
    assert moved.version == status.version + 1, f"{g.id}: the action after the upgrade was not applied"
    assert len(service.stored_record(g.id)["actions"]) == status.version + 1


# --- the tests ------------------------------------------------------------------------------------


def test_a_populated_database_upgrades_from_the_first_revision_without_losing_anything(database_url, played):
    built = build_and_upgrade(database_url, str(MIGRATIONS), played)
    check_upgraded(database_url, built)


def broken(folder, sql: str):
    """The server's migrations and, after them, one that runs ``sql``."""
    return with_migration(folder, "A deliberately broken migration (for the test that shows the checks notice it).",
                          f"op.execute({sql!r})")


#: a broken migration's SQL, and what notices it
SABOTAGES = {
    "loses each game's last action": (
        "DELETE FROM actions WHERE n = (SELECT max(a.n) FROM actions a WHERE a.game_id = actions.game_id)",
        "lost rows of actions"),
    "rewinds a game": ("UPDATE games SET version = 0 WHERE id = 'done-usa'", "lost rows of games"),
    "counts no person": ("UPDATE games SET people_playing = 0", "people_playing"),
    "forgets the idempotency keys": ("DELETE FROM idempotency_keys", "lost rows of idempotency_keys"),
    "loses the invitations": ("UPDATE lobby_seats SET invite_hash = NULL", "lost rows of lobby_seats"),
}


@pytest.mark.parametrize("sabotage", SABOTAGES)
def test_a_migration_that_loses_or_corrupts_data_is_noticed(sabotage, tmp_path, played):
    sql, noticed_by = SABOTAGES[sabotage]
    scripts = broken(tmp_path / "migrations", sql)
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    built = build_and_upgrade(url, str(scripts), played)
    with pytest.raises(AssertionError, match=noticed_by):
        check_upgraded(url, built)


def test_a_migration_that_leaves_a_log_without_its_game_is_refused_and_undone(tmp_path, played):
    from ttr_server import db

    scripts = broken(tmp_path / "migrations", "DELETE FROM games WHERE id = 'done-usa'")  # its actions stay
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    build_and_upgrade(url, str(MIGRATIONS), played)
    engine = db.make_engine(url)
    try:
        with pytest.raises(RuntimeError, match="reference is gone"):
            db.migrate(engine, script_location=str(scripts))
        with engine.connect() as conn:
            assert conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalar() == migrations_head()
            assert conn.execute(sa.text("SELECT count(*) FROM games WHERE id = 'done-usa'")).scalar() == 1
    finally:
        engine.dispose()


def test_a_start_on_an_up_to_date_sqlite_file_does_not_check_every_row(tmp_path):
    """The check of every reference after a migration reads the whole file: a restart, which
    migrates nothing, must not pay for it (start-up would grow with the database)."""
    from ttr_server import db

    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    engine = db.make_engine(url)
    statements: list[str] = []

    def seen(conn, cursor, statement, *args) -> None:
        statements.append(statement)

    sa.event.listen(sa.Engine, "before_cursor_execute", seen)
    try:
        db.migrate(engine)  # the first start: every revision runs, then the check
        assert any("foreign_key_check" in s for s in statements)
        statements.clear()
        db.migrate(engine)  # a restart
        assert statements and not any("foreign_key_check" in s for s in statements)
    finally:
        sa.event.remove(sa.Engine, "before_cursor_execute", seen)
        engine.dispose()
