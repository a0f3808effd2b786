"""Scenarios as data: one YAML file each, validated into `Scenario` with clear errors.

A file holds the person (zone, contact window, channel, language), where the
clock starts, the steps (a line the person writes, or the clock moving on) and
the expectations, judged from the store (`bot.evaluation.judge`). Each step
may carry an ``oracle`` and a ``clumsy`` script: the model's answers that do
the right thing and that make the typical mistake. The test suite plays both
through a fake model to show each scenario can pass and can fail
(``tests/bot/test_eval_scenarios.py``); a real model ignores them.

The file format is in docs/eval.md.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from clockcore import require_zone

__all__ = [
    "UNSEEN",
    "Call",
    "Expectation",
    "Person",
    "Scenario",
    "ScenarioError",
    "ScriptEntry",
    "Step",
    "duration",
    "load_scenarios",
    "shipped_scenarios",
]

UNSEEN = "unseen"
"""The subfolder of scenarios written by someone who had not seen the others: reported apart,
since a figure on scenarios we tuned against is not a figure (docs/eval.md)."""

_DURATION = re.compile(
    r"^\s*+(?:(\d+)\s*d\s*+)?(?:(\d+)\s*h\s*+)?(?:(\d+)\s*m\s*+)?(?:(\d+)\s*s\s*+)?$"
)


def duration(text: str) -> timedelta:
    """``"90s"``, ``"2m"``, ``"3h"``, ``"1d 2h"``, ``"1h30m"`` as a timedelta.

    Raises:
        ValueError: not such a duration, or zero.
    """
    found = _DURATION.match(text)
    if found is None or not any(found.groups()):
        raise ValueError(f"{text!r} is not a duration like '90s', '2m', '3h' or '1d 2h'")
    days, hours, minutes, seconds = (int(g or 0) for g in found.groups())
    span = timedelta(days=days, hours=hours, minutes=minutes, seconds=seconds)
    if span <= timedelta(0):
        raise ValueError(f"{text!r} does not move the clock")
    return span


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Person(_Strict):
    """Who writes: their zone (None: not known yet), contact window, channel, language."""

    zone: str | None = None
    window: str | None = None
    channel: Literal["console", "telegram", "slack", "email"] = "console"
    language: str = "en"
    group: bool = False  # a group thread rather than a direct one

    @field_validator("zone")
    @classmethod
    def _zone(cls, value: str | None) -> str | None:
        return None if value is None else require_zone(value)

    @field_validator("window")
    @classmethod
    def _window(cls, value: str | None) -> str | None:
        if value is not None and not re.fullmatch(r"\d{2}:\d{2}-\d{2}:\d{2}", value):
            raise ValueError(f"window must look like '09:00-21:00', not {value!r}")
        return value


class Call(_Strict):
    """One tool call in a scripted answer."""

    name: str
    args: dict[str, Any] = Field(default_factory=dict)

    @field_validator("args")
    @classmethod
    def _no_empty_argument(cls, value: dict[str, Any]) -> dict[str, Any]:
        # `{text: buy milk, tomorrow}` is YAML for text "buy milk" and a key "tomorrow"
        # with no value: the oracle would then be judged on a text cut at the comma.
        empty = sorted(name for name, given in value.items() if given is None)
        if empty:
            raise ValueError(
                f"argument {', '.join(map(repr, empty))} has no value: a comma in an "
                "unquoted value of a {…} mapping starts a new key; quote the value"
            )
        return value


class ScriptEntry(_Strict):
    """One scripted model answer: tool calls (`call` or `calls`), or text (`reply`)."""

    call: Call | None = None
    calls: tuple[Call, ...] = ()
    reply: str | None = None

    @model_validator(mode="after")
    def _one(self) -> ScriptEntry:
        given = [self.call is not None, bool(self.calls), self.reply is not None]
        if sum(given) != 1:
            raise ValueError("a script entry is one of call, calls or reply")
        return self

    @property
    def tool_calls(self) -> tuple[Call, ...]:
        return (self.call,) if self.call is not None else self.calls


class Step(_Strict):
    """A line the person writes (`say`), or the clock moving on (`advance`).

    While the clock moves, every job that falls due is handled at its own
    instant (a proactive turn, then the send), as it would be in real time.
    `oracle` and `clumsy` are the fake models' answers for this step, in order.
    """

    say: str | None = None
    advance: str | None = None
    oracle: tuple[ScriptEntry, ...] = ()
    clumsy: tuple[ScriptEntry, ...] | None = None  # None: as the oracle

    @model_validator(mode="after")
    def _one(self) -> Step:
        if (self.say is None) == (self.advance is None):
            raise ValueError("a step is either say or advance")
        if self.advance is not None:
            duration(self.advance)
        return self

    @property
    def span(self) -> timedelta:
        assert self.advance is not None
        return duration(self.advance)


ExpectationKind = Literal[
    "reminder",
    "repeating",
    "no_reminder",
    "sent",
    "deferred",
    "reply",
    "memory",
    "mentions",
    "zone",
    "window",
    "action",
    "canceled",
    "compacted",
    "answered",
]


class Expectation(_Strict):
    """One thing the store must show afterwards; `kind` says which (docs/eval.md)."""

    kind: ExpectationKind
    text: str | None = None
    at: datetime | None = None
    rule: tuple[str, ...] = ()
    step: int | None = None
    times: tuple[str, ...] = ()
    any: tuple[str, ...] = ()
    none: tuple[str, ...] = ()
    count: int | None = None
    reminded: bool | None = None
    after: datetime | None = None
    before: datetime | None = None
    home: str | None = None
    thread: str | None = None
    window: str | None = None
    status: str | None = None

    @field_validator("at", "after", "before")
    @classmethod
    def _aware(cls, value: datetime | None) -> datetime | None:
        if value is not None and value.tzinfo is None:
            raise ValueError("give instants with an offset, e.g. 2026-03-09T09:02:00+01:00")
        return value


class Scenario(_Strict):
    """One conversation and what must hold after it."""

    name: str
    capability: str
    description: str = ""
    person: Person = Person()
    start: datetime
    steps: tuple[Step, ...]
    expect: tuple[Expectation, ...]
    path: str = ""
    unseen: bool = False
    """Loaded from the `UNSEEN` subfolder (set by the loader, never by the file)."""

    @field_validator("start")
    @classmethod
    def _start(cls, value: datetime) -> datetime:
        if value.tzinfo is None:
            raise ValueError("start needs an offset, e.g. 2026-03-09T08:00:00Z")
        return value

    @model_validator(mode="after")
    def _steps(self) -> Scenario:
        says = sum(1 for step in self.steps if step.say is not None)
        if not says:
            raise ValueError("a scenario needs at least one say step")
        for expectation in self.expect:
            if expectation.step is not None and not 0 <= expectation.step < len(self.steps):
                raise ValueError(f"step {expectation.step} is not a step of this scenario")
        return self


class ScenarioError(ValueError):
    """A scenario file that cannot be read; the message names the file and the field."""


def _expectations(raw: object) -> list[dict[str, Any]]:
    """``- reminder: {at: …}`` (one key per item) as ``{"kind": "reminder", "at": …}``."""
    if not isinstance(raw, list):
        raise ValueError("expect is a list")
    out: list[dict[str, Any]] = []
    for item in raw:
        if not isinstance(item, dict) or len(item) != 1:
            raise ValueError(f"each expectation is one kind with its fields, not {item!r}")
        ((kind, fields),) = item.items()
        fields = {} if fields is True else fields
        if not isinstance(fields, dict):
            raise ValueError(f"the fields of {kind!r} are a mapping (or true)")
        out.append({"kind": kind, **fields})
    return out


def load_scenario(path: Path, *, unseen: bool = False) -> Scenario:
    """One scenario file; `unseen`: it lies in the `UNSEEN` subfolder.

    Raises:
        ScenarioError: unreadable YAML, or a field that does not validate.
    """
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
        if not isinstance(raw, dict):
            raise ValueError("the file is not a mapping")
        raw["expect"] = _expectations(raw.get("expect", []))
        if "unseen" in raw:
            raise ValueError(f"'unseen' is not a field: put the file in the {UNSEEN}/ folder")
        raw["path"] = str(path)
        raw["unseen"] = unseen
        raw.setdefault("name", path.stem)
        return Scenario.model_validate(raw)
    except (OSError, yaml.YAMLError, ValueError, ValidationError) as exc:
        raise ScenarioError(f"{path}: {exc}") from exc


def shipped_scenarios() -> Path:
    """The directory of the scenarios clockbot ships (package data, beside this module)."""
    return Path(__file__).resolve().parent / "scenarios"


def load_scenarios(directory: Path, only: Sequence[str] = ()) -> list[Scenario]:
    """Every ``*.yaml`` in `directory`, by name, then those of its `UNSEEN` subfolder; with
    `only`, those whose name contains one.

    Raises:
        ScenarioError: no such directory, no scenarios, a bad file, or two with one name.
    """
    if not directory.is_dir():
        raise ScenarioError(f"{directory}: no such directory (give --scenarios DIR)")
    scenarios = [load_scenario(path) for path in sorted(directory.glob("*.yaml"))]
    scenarios += [
        load_scenario(path, unseen=True) for path in sorted((directory / UNSEEN).glob("*.yaml"))
    ]
    names = [s.name for s in scenarios]
    if len(set(names)) != len(names):
        raise ScenarioError(f"{directory}: two scenarios share a name")
    if only:
        scenarios = [s for s in scenarios if any(word in s.name for word in only)]
    if not scenarios:
        matching = f" matching {list(only)}" if only else ""
        raise ScenarioError(f"{directory}: no scenarios{matching}")
    return scenarios
