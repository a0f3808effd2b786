"""The time corpus: sentences as people write them, each with what it means.

The files are `tests/clockcore/corpus/<language>.txt`, one sentence a line:

    2026-11-27 09:00 | mañana a las 9 llamo al banco
    none             | cuesta 4,50 euros

Every sentence is read as written on Thursday 2026-11-26 at 10:00 in
Europe/Berlin (`REFERENCE`, `ZONE`). The left side says what it means:

- ``none``: the sentence names no time (a price, a count, a greeting, an ID);
- ``ask``: the only right answer is a question (a weekday and a date that
  disagree, an ambiguous day/month order);
- ``YYYY-MM-DD HH:MM``: that local instant;
- ``YYYY-MM-DD``: that whole local day;
- ``A..B``: from A to B (each either form above; a date alone as an end means
  the end of that day);
- alternatives joined by `` or `` when more than one reading is right
  ("tonight" as a point or as the evening).

A leading ``!`` marks a sentence clockcore misreads today: its test is an
expected failure (strict, so a fix must remove the mark). `judge` gives each
sentence a verdict; `figures` sums them per language, as
`bench/time_bench.py --quality` prints them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

from clockcore import ParseResult, parse_anchored_time

__all__ = [
    "CORPUS",
    "LANGUAGES",
    "REFERENCE",
    "SILENT",
    "ZONE",
    "Expected",
    "Figures",
    "Sentence",
    "all_sentences",
    "figures",
    "judge",
    "parse_line",
    "sentences",
]

CORPUS = Path(__file__).resolve().parents[1] / "clockcore" / "corpus"
LANGUAGES = ("en", "es", "de", "fr", "pt", "it", "nl")
ZONE = "Europe/Berlin"
REFERENCE = datetime(2026, 11, 26, 10, 0, tzinfo=ZoneInfo(ZONE)).astimezone(UTC)


@dataclass(frozen=True, slots=True)
class Expected:
    """One right reading: a start and, for a day or a range, an end (aware UTC)."""

    start: datetime
    end: datetime | None = None


@dataclass(frozen=True, slots=True)
class Sentence:
    """A corpus line: its language, text, what it means and where it stands."""

    language: str
    text: str
    meaning: str  # "none", "ask" or "time"
    readings: tuple[Expected, ...]
    known: bool  # marked "!": misread today
    line: int

    @property
    def where(self) -> str:
        return f"{self.language}.txt:{self.line}"


def _local(text: str) -> tuple[datetime, bool]:
    """A local wall time, and whether it was a date alone."""
    tz = ZoneInfo(ZONE)
    text = text.strip()
    if len(text) == 10:
        return datetime.combine(date.fromisoformat(text), time(), tz), True
    return datetime.fromisoformat(text).replace(tzinfo=tz), False


def _reading(text: str) -> Expected:
    first, _, last = text.partition("..")
    start, whole_day = _local(first)
    if last:
        end, end_is_day = _local(last)
        if end_is_day:
            end = datetime.combine(end.date() + timedelta(days=1), time(), end.tzinfo)
        return Expected(start.astimezone(UTC), end.astimezone(UTC))
    if whole_day:
        end = datetime.combine(start.date() + timedelta(days=1), time(), start.tzinfo)
        return Expected(start.astimezone(UTC), end.astimezone(UTC))
    return Expected(start.astimezone(UTC))


def parse_line(language: str, number: int, line: str) -> Sentence:
    left, bar, text = line.partition(" | ")
    if not bar or not text.strip():
        raise ValueError(f"{language}.txt:{number}: expected 'meaning | sentence', got {line!r}")
    left = left.strip()
    known = left.startswith("!")
    left = left.lstrip("! ")
    if left in ("none", "ask"):
        return Sentence(language, text.strip(), left, (), known, number)
    readings = tuple(_reading(option) for option in left.split(" or "))
    return Sentence(language, text.strip(), "time", readings, known, number)


def sentences(language: str) -> list[Sentence]:
    """Every sentence of one language's corpus, in file order."""
    path = CORPUS / f"{language}.txt"
    found = []
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.strip()
        if line and not line.startswith("#"):
            found.append(parse_line(language, number, line))
    return found


def all_sentences() -> Iterator[Sentence]:
    """Every sentence of every language's corpus."""
    for language in LANGUAGES:
        yield from sentences(language)


def _matches(result: ParseResult, expected: Expected) -> bool:
    if result.start_instant != expected.start:
        return False
    return expected.end is None or result.end_instant == expected.end


def judge(sentence: Sentence) -> tuple[str, ParseResult]:
    """The verdict on how clockcore reads `sentence`, and the reading itself.

    ``read``: the meant time, confidently. ``asked``: a question (right for
    ``ask`` sentences; allowed, not wanted, for timed ones). ``missed``: a
    timed sentence read as no time. ``quiet``: a sentence without a time read
    as none. ``asked-none``: a question about a sentence that names no time.
    The two silent misreads, the worst outcomes: ``another-time`` (a confident
    time other than the meant one, or where a question was due) and
    ``false-time`` (a confident time where the person wrote none).
    """
    result = parse_anchored_time(sentence.text, ZONE, REFERENCE, language=sentence.language)
    confident = (
        not result.needs_clarification
        and result.kind != "invalid"
        and result.start_instant is not None
    )
    if sentence.meaning == "none":
        if confident:
            return "false-time", result
        return ("asked-none" if result.needs_clarification else "quiet"), result
    if sentence.meaning == "ask":
        return ("another-time" if confident else "asked"), result
    if not confident:
        return ("asked" if result.needs_clarification else "missed"), result
    if any(_matches(result, expected) for expected in sentence.readings):
        return "read", result
    return "another-time", result


SILENT = frozenset({"another-time", "false-time"})


@dataclass(frozen=True, slots=True)
class Figures:
    """One language's corpus, summed."""

    language: str
    verdicts: Counter[str]
    timed: int  # sentences that name a time, "ask" ones included
    untimed: int
    rightly_asked: int  # "ask" sentences that were asked about

    @property
    def silent(self) -> int:
        return sum(self.verdicts[v] for v in SILENT)

    @property
    def read_share(self) -> float:
        """Of the timed sentences, the share read as meant or rightly asked about."""
        return (self.verdicts["read"] + self.rightly_asked) / self.timed if self.timed else 0.0


def figures(language: str) -> Figures:
    """Judge every sentence of one language and sum the verdicts."""
    verdicts: Counter[str] = Counter()
    timed = untimed = rightly_asked = 0
    for sentence in sentences(language):
        verdict, _ = judge(sentence)
        verdicts[verdict] += 1
        if sentence.meaning == "none":
            untimed += 1
        else:
            timed += 1
            rightly_asked += sentence.meaning == "ask" and verdict == "asked"
    return Figures(language, verdicts, timed, untimed, rightly_asked)
