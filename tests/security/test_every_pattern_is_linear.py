"""Every compiled pattern in the four packages reads 10 KB of hostile text in under a CPU
second (docs/SECURITY.md, "Slow input").

test_readers_are_linear.py times the readers a person's text reaches; this one does not
trust a list: it imports every module of clockcore, wrapper, channels and bot, collects
each `re.Pattern` held by a module or a class, and runs it on text built to make
overlapping quantifiers backtrack (runs of spaces, separators, digits, letters, and the
pattern's own words repeated), ending in a character that fails the match. A new pattern
is covered the day it is written.

`search` is the worst way to run a pattern (it starts at every position), and most
patterns here are searched. A pattern that leads with a space run (``\\s*x``) and is only
ever used as `.match(text, position)` is timed as the code uses it, with `match`; the
test checks, in the source, that nothing searches it. A superlinear pattern whose callers
cut the text is listed in CUT with that length and timed on text of it; one not yet
rewritten nor cut is listed in KNOWN_SLOW with its cost, and timed on 2 KB. Both lists
say where the work is and are kept short.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

PACKAGES = ("clockcore", "wrapper", "channels", "bot")
ROOT = Path(__file__).resolve().parents[2]
SIZE = 10_000
BOUND = 1.0  # CPU seconds; a linear pattern takes milliseconds, the slow ones took 10 s and more

# Patterns that still backtrack on hostile text, with the length of text their callers give
# them (and where that cut is). Each is timed on text of that length instead of 10 KB.
CUT: dict[str, tuple[int, str]] = {
    "clockcore.actions._DIRECTIVE_TAIL": (80, "searched from len - _TAIL_WINDOW (80)"),
    "clockcore.actions._SAID_DURATION": (80, "searched from len - _TAIL_WINDOW (80)"),
}
# Patterns still superlinear on 10 KB and not cut by their callers: measured at 2 KB, where
# they take a tenth of the bound, so that one turning worse (exponential) still fails here.
# Each is work left (docs/SECURITY.md, "Slow input"); take it off when it is rewritten.
KNOWN_SLOW: dict[str, str] = {}
SLOW_SIZE = 2_000


def _patterns() -> dict[str, re.Pattern[str]]:
    found: dict[int, tuple[str, re.Pattern[str]]] = {}
    for package in PACKAGES:
        root = importlib.import_module(package)
        for info in pkgutil.walk_packages(root.__path__, package + "."):
            if info.name.endswith("__main__"):
                continue  # runs the command line on import
            module = importlib.import_module(info.name)
            for name, value in vars(module).items():
                if isinstance(value, re.Pattern) and isinstance(value.pattern, str):
                    found.setdefault(id(value), (f"{info.name}.{name}", value))
                elif inspect.isclass(value) and value.__module__ == module.__name__:
                    for attribute, held in vars(value).items():
                        if isinstance(held, re.Pattern) and isinstance(held.pattern, str):
                            found.setdefault(id(held), (f"{info.name}.{name}.{attribute}", held))
    return {name: pattern for name, pattern in found.values()}


PATTERNS = _patterns()
UNITS = ("1", "12", "a", "ab", "1.5", "x1", "@", "'", "-")
GAPS = (" ", "  ", "", ", ", ",", "\t", "\n", " . ", ": ", " - ")
ENDS = ("\x07", " x", "1", "")


def _words(pattern: re.Pattern[str]) -> list[str]:
    """The words a pattern looks for: the letters of its source, escapes left out."""
    source = re.sub(r"\\[a-zA-Z]", " ", pattern.pattern)
    return sorted(set(re.findall(r"[^\W\d_]{2,}", source)))[:12]


def _repeat(unit: str, size: int, end: str) -> str:
    return (unit * (size // max(len(unit), 1) + 1))[:size] + end


def _hostile(pattern: re.Pattern[str], size: int) -> list[str]:
    texts = [
        _repeat(unit + gap, size, "\x07") for unit in ("", "1", "a") for gap in GAPS if unit + gap
    ]
    texts += [_repeat("a", size, "1"), _repeat("1", size, "x"), _repeat("a1", size, " ")]
    for word in _words(pattern):
        texts += [_repeat(word + "  ", size, "\x07"), _repeat(word + " 1 ,", size, "\x07")]
    return texts


def _only_matched(name: str) -> bool:
    """Whether the source uses the pattern only at a position (`.match`, `.fullmatch`)."""
    module, _, attribute = name.rpartition(".")
    path = ROOT / (module.replace(".", "/") + ".py")
    if not path.exists():
        return False
    source = path.read_text(encoding="utf-8")
    uses = re.findall(rf"\b{re.escape(attribute)}\.(\w+)\(", source)
    exported = re.search(rf"^__all__.*\b{re.escape(attribute)}\b", source, re.M)
    return bool(uses) and set(uses) <= {"match", "fullmatch"} and exported is None


def _size(name: str) -> int:
    if name in CUT:
        return CUT[name][0]
    return SLOW_SIZE if name in KNOWN_SLOW else SIZE


def _cost(pattern: re.Pattern[str], text: str, matched_only: bool) -> float:
    started = time.process_time()
    if matched_only:
        pattern.match(text)
    else:
        pattern.search(text)
    return time.process_time() - started


@pytest.mark.parametrize("name", sorted(PATTERNS))
def test_a_pattern_reads_hostile_text_in_linear_time(name: str) -> None:
    pattern = PATTERNS[name]
    size = _size(name)
    matched_only = _only_matched(name)
    for text in _hostile(pattern, size):
        seconds = _cost(pattern, text, matched_only)
        how = "match" if matched_only else "search"
        assert seconds < BOUND, (
            f"{name}.{how} took {seconds:.2f} s on {len(text)} chars of {text[:24]!r}…"
        )


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(sorted(PATTERNS)),
    st.sampled_from(UNITS),
    st.sampled_from(GAPS),
    st.sampled_from(ENDS),
    st.integers(min_value=1, max_value=4),
)
def test_any_pattern_reads_mixed_hostile_text_in_linear_time(
    name: str, unit: str, gap: str, end: str, times: int
) -> None:
    pattern = PATTERNS[name]
    words = _words(pattern) or ["a"]
    size = _size(name)
    text = _repeat((words[times % len(words)] + gap + unit * times + gap), size, end)
    seconds = _cost(pattern, text, _only_matched(name))
    assert seconds < BOUND, f"{name} took {seconds:.2f} s on {text[:24]!r}…"


def test_the_walk_finds_the_patterns_it_must() -> None:
    for name in (
        "clockcore.parsing.cues._MEASURE_BEFORE",
        "clockcore.actions._AFTER_FIRST",
        "bot.llm.rules_agent._TO",
        "bot.evaluation.scenario._DURATION",
    ):
        assert name in PATTERNS
    assert len(PATTERNS) > 200
    assert set(CUT) | set(KNOWN_SLOW) <= set(PATTERNS), "a listed pattern is gone: take it off"
