"""Game records: replay reproduces them byte for byte; the same seed and actions give the same bytes;
a tampered record (an edited action, another seed, a truncation, a reordering) is reported."""

from __future__ import annotations

import json

import pytest

import ttr_bots as bots
from ttr_core import record, variant
from ttr_core.errors import RecordError
from ttr_core.game import Game


def text_of(game: Game) -> str:
    return record.dumps(record.make_record(game))


@pytest.fixture(scope="module")
def usa():
    return variant.load("usa")


@pytest.fixture(scope="module")
def finished(usa) -> Game:
    return bots.play_game(usa, 3, seed=7)


@pytest.mark.slow
def test_replaying_100_recorded_games_gives_byte_identical_records(usa):
    for seed in range(100):
        game = bots.play_game(usa, 2 + seed % 4, seed=1000 + seed)
        original = text_of(game)
        again = record.replay(json.loads(original), f"seed {seed}")
        assert text_of(again) == original, f"seed {1000 + seed}"
        assert again.result == game.result


def test_record_file_round_trip(tmp_path, finished):
    path = tmp_path / "game.json"
    written = record.save(finished, path)
    assert path.read_text(encoding="utf-8") == written
    replayed = record.replay(record.load(path), str(path))
    assert text_of(replayed) == written
    assert replayed.over and replayed.result == finished.result


def test_same_seed_and_same_actions_give_the_same_bytes(usa, finished):
    twin = Game(usa, list(finished.names), finished.seed)
    for seat, action in finished.log:
        twin.apply(seat, action)
    assert text_of(twin) == text_of(finished)
    assert json.dumps(twin.dump(), sort_keys=True) == json.dumps(finished.dump(), sort_keys=True)


def test_another_seed_gives_another_record(usa, finished):
    """The byte comparison above can fail: a game of another seed is recorded differently."""
    other = bots.play_game(usa, 3, seed=finished.seed + 1)
    assert text_of(other) != text_of(finished)


def test_an_unfinished_game_records_and_replays_too(usa):
    game = Game(usa, ["Ann", "Bob"], seed=5)
    bot = bots.bot_class("random")(5, 0)
    for _ in range(25):
        seat = game.to_act()[0]
        game.apply(seat, bot.choose(game.seat_view(seat)))
    data = record.make_record(game)
    assert data["over"] is False and "result" not in data
    assert text_of(record.replay(json.loads(text_of(game)))) == text_of(game)


# --- tampering ----------------------------------------------------------------------------------


def _data(game: Game) -> dict:
    return json.loads(text_of(game))


def _first(data: dict, kind: str) -> int:
    return next(i for i, a in enumerate(data["actions"]) if a["kind"] == kind)


def edit_kept_tickets(data):
    """Still legal (keeping one ticket fewer, above the least: 2 at the start, 1 later), but not what
    was played."""
    setup = len(data["players"])
    i = next(
        i for i, a in enumerate(data["actions"])
        if a["kind"] == "keep-tickets" and len(a["tickets"]) > (2 if i < setup else 1)
    )
    data["actions"][i]["tickets"] = data["actions"][i]["tickets"][:-1]


def edit_drawn_slot(data):
    i = _first(data, "draw-card")
    data["actions"][i]["slot"] = 9


def edit_claim_colour(data):
    i = _first(data, "claim-route")
    data["actions"][i]["color"] = "no-such-colour"


def edit_seat(data):
    i = _first(data, "draw-card")
    data["actions"][i]["seat"] = (data["actions"][i]["seat"] + 1) % len(data["players"])


def change_seed(data):
    data["seed"] += 1


def change_player_names(data):
    data["players"] = list(reversed(data["players"]))


def drop_last_action(data):
    data["actions"].pop()


def drop_all_but_the_setup(data):
    del data["actions"][len(data["players"]):]


def swap_two_turns(data):
    actions = data["actions"]
    i = next(i for i in range(len(data["players"]), len(actions) - 1) if actions[i]["seat"] != actions[i + 1]["seat"])
    actions[i], actions[i + 1] = actions[i + 1], actions[i]


def change_digest(data):
    data["digest"] = "0" * 16


def unknown_rules_version(data):
    data["version"] = 99


def not_a_record(data):
    data["format"] = "chess-pgn"


TAMPERING = [
    edit_kept_tickets, edit_drawn_slot, edit_claim_colour, edit_seat, change_seed, change_player_names,
    drop_last_action, drop_all_but_the_setup, swap_two_turns, change_digest, unknown_rules_version, not_a_record,
]


@pytest.mark.parametrize("tamper", TAMPERING, ids=[t.__name__ for t in TAMPERING])
def test_a_tampered_record_is_reported(tamper, finished):
    data = _data(finished)
    record.replay(json.loads(json.dumps(data)))  # the untouched record replays
    tamper(data)
    with pytest.raises(RecordError) as info:
        record.replay(data, "tampered.json")
    assert all(p.startswith("tampered.json") for p in info.value.problems)


def test_edited_legal_action_is_caught_by_the_digest(usa, finished):
    """An edit that still replays (keeping 2 of 3 drawn tickets instead of 3) changes the state the
    record claims, so the digest reports it; so does cutting off the last action."""
    from ttr_plugins.train_cards import DrawCard
    from ttr_plugins.tickets import DrawTickets, KeepTickets

    game = Game(usa, ["Ann", "Bob"], seed=3)
    for seat in (0, 1):
        offer = game.state.players[seat].decision.offered
        game.apply(seat, KeepTickets(tuple(game.board.tickets[t].id for t in offer)))
    game.apply(0, DrawTickets())
    offer = [game.board.tickets[t].id for t in game.state.players[0].decision.offered]
    game.apply(0, KeepTickets(tuple(offer)))
    game.apply(1, DrawCard(None))
    game.apply(1, DrawCard(None))
    data = _data(game)
    assert data["actions"][3]["tickets"] == offer
    data["actions"][3]["tickets"] = offer[:2]
    with pytest.raises(RecordError, match=r"\$\.digest: .*edited, truncated or reordered"):
        record.replay(data)
    data = _data(finished)
    drop_last_action(data)
    with pytest.raises(RecordError, match=r"\$\.digest: .*edited, truncated or reordered"):
        record.replay(data)


def test_illegal_edited_action_is_located(finished):
    data = _data(finished)
    edit_drawn_slot(data)
    i = _first(data, "draw-card")
    with pytest.raises(RecordError, match=rf"\$\.actions\[{i}\]: does not replay"):
        record.replay(data)


def test_truncated_record_file_is_reported(tmp_path, finished):
    path = tmp_path / "cut.json"
    full = text_of(finished)
    path.write_text(full[: len(full) // 2], encoding="utf-8")
    with pytest.raises(RecordError) as info:
        record.load(path)
    assert info.value.problems[0].startswith(str(path))


def test_record_file_that_is_not_utf8_is_reported(tmp_path):
    path = tmp_path / "bytes.json"
    path.write_bytes(b'{"format": "\xff"}')
    with pytest.raises(RecordError, match="not UTF-8"):
        record.load(path)
