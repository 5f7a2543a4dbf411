"""The rules in players' words (ttr_server/plugin_words.py, GET /api/variants/{id}/board: ``rules``):
every built-in rule and bonus has a name a person reads, given by its plugin; no text carries a
rule id or a plugin's name; a refusal's reason comes without its rule ids too, which it keeps apart."""

from __future__ import annotations

import json
import re

import pytest

from ttr_core import variant
from ttr_core.claims import claim_options
from ttr_core.table import Refusal
from ttr_server.plugin_words import rules_words

RULE_ID = re.compile(r"\bR-[A-Z]+(-[\w.]+)?")
SHIPPED = sorted(variant.available())


@pytest.mark.parametrize("variant_id", SHIPPED)
def test_every_rule_in_play_has_a_title_and_its_parameters_in_words(variant_id):
    rs = variant.load(variant_id)
    words = rules_words(rs)
    assert len(words["plugins"]) == len(rs.plugins)
    for (name, plugin), said in zip(rs.rules.plugins(), words["plugins"]):
        assert plugin.title and said["title"] == plugin.title, name  # every built-in plugin names itself
        assert all(q["doc"] and q["value"] for q in said["parameters"]), name
    text = json.dumps([[p["title"], *(q["doc"] + " " + q["value"] for q in p["parameters"])] for p in words["plugins"]])
    text += json.dumps(list(words["bonuses"].values()))
    assert not RULE_ID.search(text)
    assert [p for p in rs.plugins if "-" in p and p in text] == []
    assert [b for b in words["bonuses"] if "-" in b and b in text] == []


def test_the_bonuses_are_named_by_their_plugins():
    assert rules_words(variant.load("europe"))["bonuses"] == {"longest-path": "Longest route", "unused-stations": "Stations kept"}
    assert rules_words(variant.load("europe"))["facts"] == {"longest-path": "Longest trail"}
    assert rules_words(variant.load("wor"))["bonuses"]["ticket-leader"] == "Most tickets"
    ussr = rules_words(variant.load("ussr"))["bonuses"]
    assert ussr["most-tickets"] == "Most tickets completed" and ussr["most-ferries"] == "Most ferries"


def test_a_refusal_keeps_its_rule_ids_apart_from_its_words():
    refusal = Refusal("own-parallel", "you own the parallel route A-B/1 (R-PAR-1, R-PAR-2)")
    assert refusal.words == "you own the parallel route A-B/1" and refusal.rules == ("R-PAR-1", "R-PAR-2")
    data = claim_options("usa", 0, "Denver-Omaha", hand={}).to_data()["refusal"]
    assert data["rules"] and all(r in data["reason"] for r in data["rules"])
    assert not RULE_ID.search(data["words"]) and data["words"] in data["reason"]
