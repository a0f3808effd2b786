"""CLOCK-STATE imports, generated: refused whole or taken whole, never half-written.

Hypothesis mutates docs/clock-spec.md §10.2's example (`SKILL_FILE`): a few values anywhere in it are
replaced with other JSON (wrong types, huge numbers, bad zones and instants, deep nesting),
keys are dropped or added. Each document goes through `InteractionWrapper.import_state` into
one SQLite store:

- refused: `StateImportError` naming at least one problem, and the store exports exactly
  what it did before;
- taken: the store's export is a valid v3 document, and importing that export again
  changes nothing.

No other exception is allowed. 1,000 examples in CI (`FUZZ_EXAMPLES` changes it).
"""

from __future__ import annotations

import asyncio
import copy
import os
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from clockcore import load_state
from tests.support.fuzz_store import fuzz_store
from tests.wrapper.test_state_io import SKILL_FILE
from wrapper import InteractionWrapper, StateImportError

pytestmark = [
    pytest.mark.slow,  # fuzz: `make test-fast` leaves it out
    # A hang guard, not a speed check: a thousand examples took 130 s beside the kill tests
    # on two loaded cores (the default bound is 120 s), and about half that alone.
    pytest.mark.timeout(600),
]

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "1000"))
NOW = datetime(2026, 2, 9, 12, 0, tzinfo=UTC)

_leaf = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False),
    st.text(max_size=30),
    st.sampled_from(
        ["Asia/Tokyo", "Mars/Olympus", "EST", "2026-02-30T10:00:00+09:00", "2026-02-09T10:00",
         "9999-12-31T23:59:59+14:00", "", "planned", "gone", "x" * 5000]
    ),
)  # fmt: skip
_json = st.recursive(
    _leaf,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=12), inner, max_size=4)
    ),
    max_leaves=12,
)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a value inside `value` (dict keys and list indexes), `value` itself first."""
    found = [prefix]
    if isinstance(value, dict):
        for key, child in value.items():
            found += _paths(child, (*prefix, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            found += _paths(child, (*prefix, index))
    return found


@st.composite
def mutated(draw: st.DrawFn) -> dict[str, Any]:
    document: dict[str, Any] = copy.deepcopy(SKILL_FILE)
    for _ in range(draw(st.integers(min_value=1, max_value=4))):
        path = draw(st.sampled_from(_paths(document)[1:] or [("version",)]))
        *parents, last = path
        holder: Any = document
        for step in parents:
            holder = holder[step]
        action = draw(st.sampled_from(["replace", "drop", "add"]))
        if action == "drop" and isinstance(holder, dict):
            holder.pop(last, None)
        elif action == "add" and isinstance(holder, dict):
            holder[draw(st.text(max_size=12))] = draw(_json)
        else:
            holder[last] = draw(_json)
    return document


@pytest.fixture(scope="module")
def store(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[asyncio.Runner, InteractionWrapper]]:
    with fuzz_store(tmp_path_factory, "state-fuzz", now=NOW) as pair:
        yield pair


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(document=mutated())
def test_an_import_is_refused_whole_or_taken_whole(
    store: tuple[asyncio.Runner, InteractionWrapper], document: dict[str, Any]
) -> None:
    runner, wrapper = store
    before = runner.run(wrapper.export_state())
    refused: StateImportError | None = None
    try:
        runner.run(wrapper.import_state(document))
    except StateImportError as exc:
        refused = exc
    event("refused" if refused else "taken")
    if refused is not None:
        assert refused.problems
        assert runner.run(wrapper.export_state()) == before, "a refused file changed the store"
        return
    after = runner.run(wrapper.export_state())
    load_state(after)  # the store still exports a valid document
    runner.run(wrapper.import_state(after))
    assert runner.run(wrapper.export_state()) == after
