"""A ruleset's rules in players' words, from its plugins: what the game page's rules panel and
its end-of-game table say, so that the page keeps no table of names and a house rule's bonus
reads as well as a built-in one.

Each plugin says what players call it (``Plugin.title``) and the bonuses it gives
(``Plugin.bonus_titles``, ``Plugin.fact_titles``); its parameters say what they mean where they are declared
(``ttr_core.plugin.parameter``). A plugin that says nothing is named by its name read as words.
No text here carries a rule id or a plugin's name: a parameter's words that name a plugin of the
ruleset name it by its title instead.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import attrs
from pydantic import BaseModel

from ttr_core.parameters import parameters_of
from ttr_core.variant import Ruleset


class ParameterWordsOut(BaseModel):
    doc: str
    value: str


class PluginWordsOut(BaseModel):
    title: str
    parameters: list[ParameterWordsOut]


class RulesWordsOut(BaseModel):
    plugins: list[PluginWordsOut]
    bonuses: dict[str, str]
    facts: dict[str, str]


#: what a parameter's doc says for the engine's readers: its marks, and the rule ids it cites
_ENGINE_MARKS = re.compile(r"\s*\[engine decision\]|`|\s*\((?:R-[A-Z]+(?:-[\w.]+)*(?:[,;] *)?)+\)|\bR-[A-Z]+(?:-[\w.]+)*\b ?")


def as_words(name: str) -> str:
    """``"first-aboard"`` -> ``"First aboard"``: a name nobody gave words to, read as words."""
    text = re.sub(r"[-_]+", " ", name).strip()
    return text[:1].upper() + text[1:]


def rules_words(ruleset: Ruleset) -> dict[str, Any]:
    """``{"plugins": [{"title", "parameters": [{"doc", "value"}]}], "bonuses": {name: title},
    "facts": {key: title}}``: the plugins in the variant's order with their parameters in force,
    and the title of every bonus and final-position fact a plugin names."""
    plugins = ruleset.rules.plugins()
    titles = {name: plugin.title or as_words(name) for name, plugin in plugins}
    bonuses: dict[str, str] = {}
    facts: dict[str, str] = {}
    for _, plugin in plugins:
        bonuses.update(plugin.bonus_titles())
        facts.update(plugin.fact_titles())
    known = {**titles, **bonuses}
    out = []
    for name, plugin in plugins:
        config = ruleset.configs.get(name, plugin.config)
        out.append({"title": titles[name], "parameters": [
            {"doc": _said(p.doc, titles) or as_words(p.name), "value": _value(getattr(config, p.name), known)}
            for p in parameters_of(type(config))
        ]})
    return {"plugins": out, "bonuses": bonuses, "facts": facts}


def _said(doc: str, titles: Mapping[str, str]) -> str:
    """A parameter's doc for players: without the engine's marks, plugins named by their titles."""
    text = re.sub(r"\s{2,}", " ", _ENGINE_MARKS.sub("", doc))
    for name in sorted((n for n in titles if "-" in n), key=len, reverse=True):  # "tickets" is a word too
        title = titles[name]
        text = re.sub(rf"(?<![\w-]){re.escape(name)}(?![\w-])", title[:1].lower() + title[1:], text)
    return text.strip()


def _value(value: Any, known: Mapping[str, str]) -> str:
    """A parameter's value as a player reads it: yes or no, a number, a list, ``key value``; a
    name of a plugin or a bonus by its title, any other name read as words."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str):
        return known.get(value) or (as_words(value).lower() if "-" in value else value)
    if attrs.has(type(value)):
        return _value(attrs.asdict(value, recurse=False), known)
    if isinstance(value, Mapping):
        return ", ".join(f"{as_words(str(k)).lower()} {_value(v, known)}" for k, v in value.items()) or "none"
    if isinstance(value, list | tuple | set | frozenset):
        return "; ".join(_value(v, known) for v in value) or "none"
    return str(value)
