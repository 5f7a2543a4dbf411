"""Records you can trust: interrupted games continue exactly, old rules versions keep replaying after
a variant moves on, and a damaged record is refused with a located ``RecordError``, never half-loaded.

(The basic record tests, on ``usa``, are in ``test_core_records.py``; this file goes over every
variant, every cut point and random damage.)
"""

from __future__ import annotations

import copy
import functools
import json
import random
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ttr_core import record, variant
from ttr_analysis.rescore import Target, rescore_position, rescore_record
from ttr_cli.main import main
from ttr_core.errors import RecordError
from ttr_core.game import Game
from ttr_core.position import position_of
from ttr_core.state import digest

VARIANTS = sorted(variant.available())
PROFILE = settings(max_examples=60, deadline=None, derandomize=True, database=None,
                   suppress_health_check=list(HealthCheck))


def policy(game: Game) -> tuple[int, object]:
    """A player that remembers nothing: its choice depends only on the game (seed and log length),
    so a game continued after a reload makes exactly the choices the uninterrupted one made."""
    seat = game.to_act()[0]
    rng = random.Random(f"{game.seed}:{len(game.log)}")
    return seat, rng.choice(game.legal_actions(seat))


def play(game: Game, upto: int | None = None) -> Game:
    while not game.over and (upto is None or len(game.log) < upto):
        game.apply(*policy(game))
    return game


def new(variant_id: str, players: int = 3, seed: int = 7) -> Game:
    return Game(variant.load(variant_id), [f"P{i + 1}" for i in range(players)], seed)


def text(game: Game) -> str:
    return record.dumps(record.make_record(game))


@pytest.fixture(scope="module")
def finished() -> dict[str, str]:
    """One finished game per variant, as record text."""
    return {vid: text(play(new(vid))) for vid in VARIANTS}


# --- save, reload, continue -------------------------------------------------------------------


@pytest.mark.parametrize("variant_id", VARIANTS)
def test_a_game_saved_reloaded_and_continued_gives_the_uninterrupted_record(variant_id, finished, tmp_path):
    whole = finished[variant_id]
    length = len(json.loads(whole)["actions"])
    # cut anywhere: in the setup, mid-turn (a second card, a tunnel, an offer pending), near the end
    cuts = sorted({1, 2, length // 3, length // 2, length - 2, *random.Random(variant_id).sample(range(1, length), 3)})
    for cut in cuts:
        game = play(new(variant_id), upto=cut)
        path = tmp_path / f"cut-{cut}.json"
        record.save(game, path)
        loaded = record.replay(record.load(path), str(path))
        assert text(loaded) == path.read_text(encoding="utf-8"), f"cut {cut}: the reload differs"
        assert loaded.over is False or cut == length
        assert text(play(loaded)) == whole, f"{variant_id}: a game interrupted after action {cut} ended differently"


@pytest.mark.parametrize("variant_id", VARIANTS)
def test_saving_twice_and_reloading_twice_changes_nothing(variant_id, finished, tmp_path):
    data = json.loads(finished[variant_id])
    for _ in range(2):
        again = text(record.replay(data))
        assert again == finished[variant_id]
        data = json.loads(again)


def test_ttr_replay_accepts_an_unfinished_record(tmp_path):
    game = play(new("usa"), upto=25)
    path = tmp_path / "half.json"
    record.save(game, path)
    result = CliRunner().invoke(main, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    assert "the game is not over" in result.output


# --- rules versions ---------------------------------------------------------------------------


def _copy_variant(variant_id: str, folder: Path) -> tuple[str, Path]:
    """The variant's file under a new id (so it cannot clash with the installed one), in ``folder``."""
    new_id = f"{variant_id}-moving"
    source = variant.available()[variant_id].read_text(encoding="utf-8")
    copied = re.sub(r'^id = ".*"$', f'id = "{new_id}"', source, count=1, flags=re.M)
    path = folder / f"{new_id}.toml"
    path.write_text(copied, encoding="utf-8")
    maps = variant.available()[variant_id].parent / "maps"
    if maps.is_dir() and not (folder / "maps").exists():
        shutil.copytree(maps, folder / "maps")
    return new_id, path


def _publish_version(path: Path, rules: str) -> int:
    """Add the next rules version with ``rules`` (TOML tables) and make it current."""
    text_ = path.read_text(encoding="utf-8")
    numbers = [int(n) for n in re.findall(r"^\[versions\.(\d+)\]", text_, flags=re.M)]
    nxt = max(numbers) + 1
    if re.search(r"^current = \d+", text_, flags=re.M):
        text_ = re.sub(r"^current = \d+", f"current = {nxt}", text_, flags=re.M)
    else:
        text_ = re.sub(r'^(id = ".*")$', rf"\1\ncurrent = {nxt}", text_, count=1, flags=re.M)
    text_ += f'\n[versions.{nxt}]\nnote = "a later rules version"\n{rules.replace("{n}", str(nxt))}\n'
    path.write_text(text_, encoding="utf-8")
    return nxt


@pytest.fixture
def variants_in(tmp_path, monkeypatch):
    """Make ``tmp_path`` a variant folder, as an installed package's folder would be."""
    installed = variant.variant_dirs()
    monkeypatch.setattr(variant, "variant_dirs", functools.cache(lambda: (*installed, tmp_path)))
    variant.clear_caches()
    yield tmp_path
    variant.clear_caches()


@pytest.mark.parametrize("variant_id", VARIANTS)
def test_a_record_keeps_its_rules_version_after_the_variant_moves_on(variant_id, variants_in):
    moving, path = _copy_variant(variant_id, variants_in)
    first = variant.load(moving)
    game = play(Game(first, ["A", "B", "C"], 11))
    old = json.loads(text(game))
    assert old["variant"] == moving and old["version"] == first.version

    # the next version ends games much earlier: the same actions cannot lead to the same state
    nxt = _publish_version(path, "[versions.{n}.rules.final-round]\ntrains_threshold = 30")
    variant.clear_caches()
    assert variant.load(moving).version == nxt
    assert variant.load(moving).configs["final-round"].trains_threshold == 30

    replayed = record.replay(old)
    assert replayed.ruleset.version == first.version
    assert replayed.ruleset.configs["final-round"] == first.configs["final-round"]
    assert text(replayed) == text(game)
    with pytest.raises(RecordError):  # proof that the version mattered
        record.replay({**old, "version": nxt})


def test_records_of_every_version_replay_once_three_versions_exist(variants_in):
    moving, path = _copy_variant("usa", variants_in)
    records = [json.loads(text(play(Game(variant.load(moving), ["A", "B"], 3))))]
    for threshold in (6, 12):
        _publish_version(path, f"[versions.{{n}}.rules.final-round]\ntrains_threshold = {threshold}")
        variant.clear_caches()
        records.append(json.loads(text(play(Game(variant.load(moving), ["A", "B"], 3)))))
    assert [r["version"] for r in records] == [1, 2, 3]
    assert len({r["digest"] for r in records}) == 3
    for data in records:
        assert text(record.replay(data)) == record.dumps(data)


# --- damaged records --------------------------------------------------------------------------


def _kinds(data, kind):
    return [i for i, a in enumerate(data["actions"]) if a.get("kind") == kind]


def truncated(data, rng):
    del data["actions"][rng.randrange(len(data["actions"])):]


def one_action_dropped(data, rng):
    del data["actions"][rng.randrange(len(data["actions"]))]


def reordered(data, rng):
    actions = data["actions"]
    pairs = [i for i in range(len(actions) - 1) if actions[i] != actions[i + 1]]
    i = rng.choice(pairs)
    actions[i], actions[i + 1] = actions[i + 1], actions[i]


def seed_changed(data, rng):
    data["seed"] += rng.randint(1, 1000)


def claim_edited(data, rng):
    claims = _kinds(data, "claim-route")
    a = data["actions"][rng.choice(claims)]
    a["color"] = rng.choice([c for c in ("red", "blue", "green", "black", None) if c != a.get("color")])


def draw_edited(data, rng):
    draws = _kinds(data, "draw-card")
    a = data["actions"][rng.choice(draws)]
    a["slot"] = rng.choice([s for s in (None, 0, 1, 2, 3, 4) if s != a.get("slot")])


def card_swapped(data, rng):
    """A card of one draw swapped for another: a blind draw said to be from the row, or the reverse."""
    draws = [i for i in _kinds(data, "draw-card") if data["actions"][i].get("slot") is None]
    data["actions"][rng.choice(draws)]["slot"] = rng.randrange(5)


def tickets_edited(data, rng):
    keeps = _kinds(data, "keep-tickets")
    a = data["actions"][rng.choice(keeps)]
    a["tickets"] = a["tickets"][:-1] if len(a["tickets"]) > 1 else ["Atlantis-El Dorado"]


def seat_edited(data, rng):
    a = data["actions"][rng.randrange(len(data["actions"]))]
    a["seat"] = (a["seat"] + 1) % len(data["players"])


def digest_removed(data, rng):
    del data["digest"]


def digest_changed(data, rng):
    data["digest"] = "f" * 16


def players_changed(data, rng):
    data["players"] = data["players"][:-1] if len(data["players"]) > 2 else [*data["players"], "Zed"]


def variant_changed(data, rng):
    data["variant"] = next(v for v in VARIANTS if v != data["variant"])


def variant_is_a_path(data, rng):
    data["variant"] = str(variant.available()[data["variant"]])


def format_removed(data, rng):
    del data["format"]


def action_junk(data, rng):
    data["actions"][rng.randrange(len(data["actions"]))] = rng.choice([None, 3, "pass", [], {"seat": 0}, {"kind": "pass"}])


def total_edited(data, rng):
    name = rng.choice(data["players"])
    data["result"]["scores"][name] += rng.choice([-10, 1, 100])


def winner_edited(data, rng):
    data["result"]["winners"] = [next(p for p in data["players"] if p not in data["result"]["winners"])]


def result_removed(data, rng):
    del data["result"]


def over_flipped(data, rng):
    data["over"] = not data["over"]


REFUSED = [truncated, one_action_dropped, reordered, seed_changed, digest_removed, digest_changed,
           players_changed, variant_changed, variant_is_a_path, format_removed, action_junk,
           total_edited, winner_edited, result_removed, over_flipped]
# An edited action may, rarely, be another legal history to the very same state (a blind draw of
# an orange card edited into taking the orange card that the deck's same top card then replaces):
# such a record is valid as it stands. It must then load exactly as written, never as the original.
EDITED = [claim_edited, draw_edited, card_swapped, tickets_edited, seat_edited]


@pytest.mark.parametrize("damage", REFUSED, ids=[d.__name__ for d in REFUSED])
@pytest.mark.parametrize("variant_id", VARIANTS)
def test_a_damaged_record_is_refused_with_a_located_error(variant_id, damage, finished):
    data = json.loads(finished[variant_id])
    damage(data, random.Random(f"{variant_id}:{damage.__name__}"))
    with pytest.raises(RecordError) as info:
        record.replay(data, "damaged.json")
    assert info.value.problems and all(p.startswith("damaged.json: ") for p in info.value.problems), info.value.problems


@pytest.mark.parametrize("damage", EDITED, ids=[d.__name__ for d in EDITED])
@pytest.mark.parametrize("variant_id", VARIANTS)
def test_an_edited_action_is_refused_or_loads_exactly_as_written(variant_id, damage, finished):
    refused = 0
    for k in range(4):
        data = json.loads(finished[variant_id])
        damage(data, random.Random(f"{variant_id}:{damage.__name__}:{k}"))
        try:
            game = record.replay(data, "edited.json")
        except RecordError as info:
            assert all(p.startswith("edited.json: $.") for p in info.problems), info.problems
            refused += 1
            continue
        assert record.make_record(game)["actions"] == _normalised(game, data["actions"])
        assert text(game) != finished[variant_id]
    assert refused >= 2, f"{damage.__name__} went unnoticed in {4 - refused} of 4 {variant_id} records"


@pytest.mark.parametrize("damage", [truncated, reordered, claim_edited, digest_removed, variant_is_a_path])
def test_ttr_replay_refuses_a_damaged_file_with_exit_code_2(damage, finished, tmp_path):
    data = json.loads(finished["usa"])
    damage(data, random.Random(1))
    path = tmp_path / "damaged.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    result = CliRunner().invoke(main, ["replay", str(path)])
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert f"error: {path}" in result.stderr and "Traceback" not in result.output


def test_a_record_whose_result_was_edited_is_refused_by_ttr_replay(finished, tmp_path):
    """The digest covers the state, not the scoring: the stated result is compared by itself."""
    data = json.loads(finished["usa"])
    first = data["players"][0]
    played = data["result"]["scores"][first]
    data["result"]["scores"][first] += 100
    path = tmp_path / "boasting.json"
    path.write_text(record.dumps(data), encoding="utf-8")
    result = CliRunner().invoke(main, ["replay", str(path)])
    assert result.exit_code == 2 and "Traceback" not in result.output
    expected = f"error: {path}: $.result.scores.{first}: the record says {played + 100}, the actions give {played}"
    assert expected in result.stderr


# --- the stated result -------------------------------------------------------------------------
# The digest covers the state (R-END-1: whether the game is over), not the scoring: the scores and
# winners a record states are compared with what its actions give under its own rules.


def _refused(data, **rules) -> list[str]:
    with pytest.raises(RecordError) as info:
        record.replay(data, "r.json", **rules)
    return info.value.problems


def test_an_edited_total_is_refused_naming_both_numbers(finished):
    data = json.loads(finished["usa"])
    second = data["players"][1]
    played = data["result"]["scores"][second]
    data["result"]["scores"][second] = played + 42
    assert _refused(data) == [
        f"r.json: $.result.scores.{second}: the record says {played + 42}, the actions give {played}"
    ]


@pytest.mark.parametrize("seat", [True, "1", 1.0, None])
def test_a_seat_that_is_not_a_whole_number_is_refused_where_it_is(finished, seat):
    data = json.loads(finished["usa"])
    data["actions"][3]["seat"] = seat  # true would otherwise pass for seat 1
    assert _refused(data) == ["r.json: $.actions[3]: an action is an object with an integer 'seat'"]


def test_every_edited_line_of_a_result_is_reported_at_once(finished):
    data = json.loads(finished["wor"])
    truth = copy.deepcopy(data["result"])
    reason, p1, p3 = json.dumps(truth["reason"]), truth["scores"]["P1"], truth["scores"]["P3"]
    data["result"]["reason"] = "everyone went home"
    data["result"]["scores"]["P1"] = float(truth["scores"]["P1"])  # 57.0 is not the 57 the engine wrote
    del data["result"]["scores"]["P3"]
    data["result"]["scores"]["Mr Nobody"] = 3
    assert _refused(data) == [
        f'r.json: $.result.reason: the record says "everyone went home", the actions give {reason}',
        f"r.json: $.result.scores.P1: the record says {float(p1)}, the actions give {p1}",
        f"r.json: $.result.scores.P3: missing, the actions give {p3}",
        'r.json: $.result.scores["Mr Nobody"]: the record says 3, the actions give no such entry',
    ]


@pytest.mark.parametrize("variant_id", ["usa", "europe"])
def test_an_edited_winner_is_refused(variant_id, finished):
    """usa and europe break ties (the winner table): the named winner is whoever the rules say."""
    data = json.loads(finished[variant_id])
    won = data["result"]["winners"]
    data["result"]["winners"] = [p for p in data["players"] if p not in won][:1]
    assert _refused(data) == [f"r.json: $.result.winners: the record says {json.dumps(data['result']['winners'])}, "
                              f"the actions give {json.dumps(won)}"]


def test_R_END_1_a_finished_game_without_its_result_is_refused(finished):
    data = json.loads(finished["ussr"])
    del data["result"]
    assert _refused(data) == ["r.json: $.result: missing: the actions end the game, and the record of a finished "
                              "game states its result"]


def test_R_END_1_an_unfinished_game_with_a_result_is_refused(finished):
    data = json.loads(text(play(new("usa"), upto=40)))
    data["result"] = json.loads(finished["usa"])["result"]
    assert _refused(data) == ["r.json: $.result: the actions leave the game unfinished, and the record of an "
                              "unfinished game states no result"]


def test_R_END_1_over_flipped_either_way_is_refused(finished):
    done = json.loads(finished["usa"])
    assert _refused({**done, "over": False}) == ["r.json: $.over: the record says false, the actions give true"]
    half = json.loads(text(play(new("usa"), upto=40)))
    assert _refused({**half, "over": True}) == ["r.json: $.over: the record says true, the actions give false"]
    for missing in ({k: v for k, v in half.items() if k != "over"}, {**half, "over": 1}):
        assert _refused(missing) == ["r.json: $.over: missing or not true/false"]


# --- rescoring: the same actions under other rules ----------------------------------------------


def test_R_BON_1_a_record_replayed_under_a_later_version_scores_by_that_version(variants_in, tmp_path):
    """A later version that changes only the scoring: the actions lead to the same state, the
    scores differ. Replaying under it on purpose works; a record that claims it with the old
    scores is an edited record."""
    moving, path = _copy_variant("usa", variants_in)
    game = play(Game(variant.load(moving), ["A", "B", "C"], 5))
    data = json.loads(text(game))
    nxt = _publish_version(path, "[versions.{n}.rules.longest-path]\npoints = 25\neveryone_if_nobody_built = false")
    variant.clear_caches()

    later = record.replay(data, version=nxt)
    assert later.ruleset.version == nxt and digest(later.dump()) == data["digest"]
    bonus = {s.name: s.bonus("longest-path") for s in later.result.scores}
    assert {s.name: s.total for s in later.result.scores} == {
        n: total + (15 if bonus[n] else 0) for n, total in data["result"]["scores"].items()
    }
    assert any(bonus.values())  # so the scores do differ
    assert record.replay(data, version=data["version"]).result == record.replay(data).result == game.result

    holder = next(n for n, b in bonus.items() if b)
    problems = _refused({**data, "version": nxt})
    assert f"r.json: $.result.scores.{holder}: the record says {data['result']['scores'][holder]}, " \
           f"the actions give {data['result']['scores'][holder] + 15}" in problems

    # ttr rescore replays under the recorded version, then scores the position under each target
    saved = tmp_path / "game.json"
    saved.write_text(record.dumps(data), encoding="utf-8")
    targets = ["--variant", f"{moving}@1", "--variant", f"{moving}@{nxt}"]
    result = CliRunner().invoke(main, ["rescore", str(saved), *targets, "--json"])
    assert result.exit_code == 0, result.output
    rescored = json.loads(result.output)["games"][0]["rescored"]
    assert [{s["name"]: s["total"] for s in r["scores"]} for r in rescored] == [
        data["result"]["scores"], {s.name: s.total for s in later.result.scores}]


def test_a_record_replayed_under_a_version_that_plays_differently_says_so(variants_in):
    moving, path = _copy_variant("usa", variants_in)
    data = json.loads(text(play(Game(variant.load(moving), ["A", "B"], 3))))
    # the final round starts later: every action still replays, the game just is not over
    nxt = _publish_version(path, "[versions.{n}.rules.final-round]\ntrains_threshold = 0")
    variant.clear_caches()
    (problem,) = _refused(data, version=nxt)
    assert problem.startswith("r.json: $.digest: ")
    assert problem.endswith(f": {moving} version {nxt} plays these actions differently")


def test_R_BON_2_a_wor_record_replayed_under_wor_legacy_scores_without_the_ticket_leader(finished):
    data = json.loads(finished["wor"])
    legacy = record.replay(data, variant_id="wor-legacy")
    assert legacy.ruleset.variant == "wor-legacy" and digest(legacy.dump()) == data["digest"]
    assert {s.name: s.total for s in legacy.result.scores} == {
        s.name: s.total for s in rescore_position(position_of(record.replay(data)), Target("wor-legacy")).seats
    }
    assert not any(b.name == "ticket-leader" for s in legacy.result.scores for b in s.bonuses)


def test_a_rescored_record_must_itself_be_honest(finished, tmp_path):
    data = json.loads(finished["wor"])
    data["result"]["winners"] = list(data["players"])
    saved = tmp_path / "game.json"
    saved.write_text(record.dumps(data), encoding="utf-8")
    with pytest.raises(RecordError, match=r"\$\.result\.winners"):
        rescore_record(saved, [Target("wor-legacy")])
    result = CliRunner().invoke(main, ["rescore", str(saved), "--variant", "wor-legacy"])
    assert result.exit_code == 2 and f"error: {saved}: $.result.winners: the record says" in result.stderr


@settings(PROFILE)
@given(data=st.data())
def test_random_damage_to_a_record_is_refused_or_changes_nothing(data, finished):
    """Anything done to any field of a record: ``replay`` raises a ``RecordError``, or returns the game
    whose record is exactly the one given (the edit did not matter). Never another exception."""
    vid = data.draw(st.sampled_from(VARIANTS), label="variant")
    rec = json.loads(finished[vid])
    paths = list(_paths(rec))
    path = data.draw(st.sampled_from(paths), label="path")
    new_value = data.draw(st.one_of(
        st.none(), st.booleans(), st.integers(-3, 200), st.text(max_size=8), st.just([]), st.just({}),
        st.sampled_from(["red", "locomotive", "draw-card", "claim-route", "pass", "Denver-Omaha"]),
    ), label="value")
    how = data.draw(st.sampled_from(["set", "delete"]), label="how")
    _change(rec, path, new_value, how)
    try:
        game = record.replay(rec, "r")
    except RecordError as exc:
        assert exc.problems and all(p.startswith("r: ") for p in exc.problems)
        return
    made = record.make_record(game)
    for key in ("variant", "version", "seed", "players", "digest", "over"):
        assert made[key] == rec[key], key
    assert made.get("result") == rec.get("result")
    assert made["actions"] == _normalised(game, rec["actions"])


@settings(PROFILE)
@given(cut=st.integers(0, 10**6), flip=st.integers(0, 10**6), byte=st.integers(0, 255))
def test_a_damaged_record_file_is_refused_or_changes_nothing(cut, flip, byte, finished, tmp_path_factory):
    """The file itself damaged: cut short, or one byte changed."""
    raw = bytearray(finished["wor"].encode())
    folder = tmp_path_factory.mktemp("damaged")
    for name, damaged in (("cut.json", bytes(raw[: cut % len(raw)])), ("flipped.json", _flipped(raw, flip, byte))):
        path = folder / name
        path.write_bytes(damaged)
        try:
            game = record.replay(record.load(path), str(path))
        except RecordError as exc:
            assert all(p.startswith(str(path)) for p in exc.problems)
            continue
        assert record.make_record(game)["digest"] == json.loads(damaged)["digest"]


def _flipped(raw: bytearray, at: int, byte: int) -> bytes:
    out = bytearray(raw)
    out[at % len(out)] = byte
    return bytes(out)


def _paths(obj, prefix=()):
    if prefix:
        yield prefix
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _paths(v, (*prefix, i))


def _change(obj, path, value, how):
    for key in path[:-1]:
        obj = obj[key]
    if how == "delete":
        del obj[path[-1]]
    else:
        obj[path[-1]] = value


def _normalised(game, actions):
    return [{"seat": a["seat"], **game.registry.to_data(game.registry.from_data({k: v for k, v in a.items() if k != "seat"}))}
            for a in actions]


def test_a_deeply_nested_record_file_is_refused(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    with pytest.raises(RecordError, match="nested too deeply"):
        record.load(path)
    result = CliRunner().invoke(main, ["replay", str(path)])
    assert result.exit_code == 2 and "nested too deeply" in result.stderr
