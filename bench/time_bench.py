"""Time-parsing throughput, clockcore beside the raw library it falls back to.

Prints, for one core (CPython runs this single-threaded):
- parse_anchored_time over 50 mixed phrasings: parses/s, p50 and p99 latency,
  with the default reader (Duckling where installed, beside the grammar) and
  with the grammar alone, then over the issue's everyday phrasings, and the
  same figures for dateparser.parse on the 50;
- find_time_expressions over realistic ~20-word chat messages, most with no
  time in them: messages/s, beside dateparser's search_dates on a sample;
- mentions_time (the relevance question the wrapper asks of every message) on
  chat that holds a number but no time ("order 12345 shipped").
Targets (issue 2): >= 2,000 parses/s and >= 5,000 messages/s; issue 60:
>= 20,000 messages/s for the relevance question.

With `--quality` it prints, instead, how the corpus in
`tests/clockcore/corpus/` is read, per language: sentences read as meant,
asked about, missed, and the two silent misreads (another time, a time where
none was written). Issue 34's targets: no silent misread, >= 85% read.

Run: `make bench` (or `.venv/bin/python bench/time_bench.py [--quick|--quality]`).
"""

from __future__ import annotations

import argparse
import ast
import random
import re
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

from clockcore import (
    find_time_expressions,
    mentions_time,
    parse_anchored_time,
    parse_recurrence,
)
from clockcore.parsing import duckling_reader
from clockcore.reading import leftover
from clockcore.reading.waking_hour import bare_hour

REFERENCE = datetime.fromisoformat("2026-03-07T10:00:00-05:00")
ZONES = ("America/New_York", "Europe/Berlin", "Asia/Kathmandu", None)

PHRASINGS = [
    "tomorrow 9am", "tomorrow at 9", "in 90 minutes", "in 2 hours", "in half an hour",
    "in 3 days", "in 2 weeks", "in 1 month", "Dec 31", "December 31st 2026", "31 December",
    "2026-12-31", "2026-03-08 14:30", "2026-03-08T09:00:00+09:00", "2026-03-08T09:00:00Z",
    "friday", "next friday 5pm", "on Monday at 10:30", "the 15th", "the day after tomorrow",
    "today at noon", "tonight at 9", "tomorrow morning", "midnight", "9am", "9:30pm",
    "21:00", "at 7", "9 o'clock", "2 hours ago", "3 days ago", "yesterday", "9am Tokyo time",
    "at 9 in Sao Paulo", "10am Europe/London", "9am UTC+9", "3pm UTC+5:30", "noon UTC",
    "9am EST", "5pm PST tomorrow", "31/12", "on 12/31", "3/4", "at 25:00", "February 30",
    "remind me tomorrow at 9am to call the bank", "can we meet on Friday at 3pm?",
    "let's talk in 20 minutes", "hello there", "sounds good",
]  # fmt: skip
assert len(PHRASINGS) == 50

# The everyday forms, where Duckling reads what the grammar alone does not.
EVERYDAY = [
    "remind me at half past 3pm to call mom", "at 3 AM", "3:15 in the afternoon", "Mon 9:00",
    "9-10am tomorrow", "1pm-2pm tomorrow", "first tuesday of october",
    "ping me on Tue at quarter to 4pm about the report", "in 1h30", "between 2 and 4pm",
]  # fmt: skip

RECURRING = [
    "every Monday at 9am", "each Friday at 5:30pm", "every other Tuesday at 6pm", "weekdays at 8am",
    "on the first Monday of every month at 10am", "every year on March 5 at 9am", "every 3 hours",
    "every day at 9am for 5 days", "remind me every Tuesday and Thursday at 7 to stretch",
    "every 90 minutes",
]  # fmt: skip

ELSEWHERE = [  # (language, text): the person's language comes from their platform
    ("es", "recuérdame mañana a las 9 llamar a mamá"), ("es", "el lunes a las 15:30"),
    ("de", "erinnere mich morgen um 9 Uhr an die Bank"), ("de", "am Montag um 15:30"),
    ("fr", "demain à 9h"), ("pt", "amanhã às 9"), ("it", "domani alle 9"),
    ("nl", "morgen om 9 uur"),
]  # fmt: skip

_FILLER = [
    "sounds",
    "good",
    "I",
    "will",
    "check",
    "with",
    "the",
    "team",
    "and",
    "get",
    "back",
    "to",
    "you",
    "about",
    "the",
    "design",
    "doc",
    "thanks",
    "for",
    "the",
    "quick",
    "review",
    "the",
    "tests",
    "look",
    "fine",
    "to",
    "me",
    "now",
    "can",
    "you",
    "merge",
    "it",
    "please",
    "I",
    "think",
    "we",
    "should",
    "also",
    "update",
    "the",
    "readme",
    "before",
    "the",
    "release",
    "and",
    "ping",
    "everyone",
    "on",
    "the",
    "channel",
    "so",
    "they",
    "know",
    "what",
    "changed",
    "lol",
    "that",
    "bug",
    "was",
    "weird",
    "but",
    "it",
    "works",
    "now",
]
_TIMED = [
    "tomorrow at 9", "on friday", "in 20 minutes", "at 3pm", "next monday", "Dec 31",
    "tonight", "in 2 hours", "at 10:30", "the 15th",
]  # fmt: skip


def chat_messages(count: int, *, timed_share: float, seed: int = 7) -> list[str]:
    """~20-word messages; `timed_share` of them carry a time expression."""
    rng = random.Random(seed)
    messages = []
    for _ in range(count):
        words = rng.sample(_FILLER, 20)
        if rng.random() < timed_share:
            words.insert(rng.randrange(len(words)), rng.choice(_TIMED))
        messages.append(" ".join(words))
    return messages


_NUMBERED = [
    "order {n} shipped", "message {d} about the project", "ticket #{n} is closed", "PR {n} merged",
    "we have {d} open bugs", "invoice {n} paid", "page {d} of the doc", "{d} people said yes",
    "build {n} failed", "room {n} is free", "it costs ${d}", "issue {n} again",
]  # fmt: skip


def numbered_messages(count: int, *, seed: int = 11) -> list[str]:
    """~20-word messages that hold a number but no time ("order 12345 shipped")."""
    rng = random.Random(seed)
    messages = []
    for _ in range(count):
        words = rng.sample(_FILLER, 16)
        number = rng.choice(_NUMBERED).format(n=rng.randint(100, 99999), d=rng.randint(2, 60))
        words.insert(rng.randrange(len(words)), number)
        messages.append(" ".join(words))
    return messages


def measure(fn: Callable[[str], object], inputs: Sequence[str], rounds: int) -> dict[str, float]:
    """Per-call latencies over `rounds` passes; returns rate and percentiles."""
    latencies: list[int] = []
    for _ in range(rounds):
        for text in inputs:
            start = time.perf_counter_ns()
            fn(text)
            latencies.append(time.perf_counter_ns() - start)
    latencies.sort()
    total_s = sum(latencies) / 1e9
    return {
        "rate": len(latencies) / total_s,
        "p50_us": statistics.median(latencies) / 1e3,
        "p99_us": latencies[int(len(latencies) * 0.99) - 1] / 1e3,
        "calls": len(latencies),
    }


def _row(name: str, figures: dict[str, float], unit: str) -> str:
    return (
        f"  {name:<40} {figures['rate']:>10,.0f} {unit}/s   p50 {figures['p50_us']:>8.1f} µs"
        f"   p99 {figures['p99_us']:>9.1f} µs   ({int(figures['calls'])} calls)"
    )


def quality() -> None:
    """The corpus figures per language, as `tests/clockcore/test_time_corpus.py` judges them."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tests.support.time_corpus import LANGUAGES, figures

    print(f"corpus quality, reader: {duckling_reader.reader_name()}")
    print(
        f"  {'lang':<5}{'timed':>6}{'read':>6}{'asked':>7}{'missed':>7}{'another':>9}"
        f"{'untimed':>9}{'false':>7}{'asked':>7}{'read %':>8}{'silent %':>10}"
    )
    totals = {"timed": 0, "untimed": 0, "silent": 0, "read": 0}
    for language in LANGUAGES:
        found = figures(language)
        v = found.verdicts
        silent_share = found.silent / (found.timed + found.untimed)
        print(
            f"  {language:<5}{found.timed:>6}{v['read']:>6}{v['asked']:>7}{v['missed']:>7}"
            f"{v['another-time']:>9}{found.untimed:>9}{v['false-time']:>7}{v['asked-none']:>7}"
            f"{found.read_share:>8.1%}{silent_share:>10.1%}"
        )
        totals["timed"] += found.timed
        totals["untimed"] += found.untimed
        totals["silent"] += found.silent
        totals["read"] += v["read"] + found.rightly_asked
    everything = totals["timed"] + totals["untimed"]
    print(
        f"  all: {totals['silent']} silent misreads in {everything} sentences "
        f"({totals['silent'] / everything:.1%}); read {totals['read'] / totals['timed']:.1%} "
        f"of the timed   targets: 0 silent, >= 85% read"
    )


# --- External corpora (issue 60): text nobody here wrote, read from a local copy ---

_GRAINS = ("Second", "Minute", "Hour", "Day", "Week", "Month", "Quarter", "Year")
_DUCKLING_LANGUAGES = ("EN", "ES", "DE", "FR", "PT", "IT", "NL")
_DUCKLING_ZONE = "Etc/GMT+2"  # Duckling's tests read at UTC-2 (Duckling/Testing/Types.hs)
_DUCKLING_NOW = datetime(2013, 2, 12, 4, 30, tzinfo=ZoneInfo(_DUCKLING_ZONE))
_DATEPARSER_LANGUAGES = {
    "English": "en", "Spanish": "es", "German": "de", "French": "fr", "Portuguese": "pt",
    "Italian": "it", "Dutch": "nl",
    **{code: code for code in ("en", "es", "de", "fr", "pt", "it", "nl")},
}  # fmt: skip
_OUTCOMES = ("agree", "asked", "nothing", "convention", "another")


@dataclass(frozen=True, slots=True)
class External:
    """One sentence of a public corpus, with the local instant it means at a grain."""

    corpus: str
    language: str
    text: str
    expected: datetime  # aware, in `zone`
    grain: str
    zone: str
    now: datetime
    until: datetime | None = None  # an interval's end, where the corpus gives one
    elapsed: bool = False  # dateparser's offset cases: counted back from now ("ago")


def _truncate(value: datetime, grain: str) -> tuple[int, ...]:
    """The parts of a local time that `grain` fixes (a week: its ISO year and week)."""
    if grain == "Week":
        return tuple(value.isocalendar()[:2])
    if grain == "Quarter":
        return (value.year, (value.month - 1) // 3)
    parts = (value.year, value.month, value.day, value.hour, value.minute, value.second)
    keep = {"Year": 1, "Month": 2, "Day": 3, "Hour": 4, "Minute": 5, "Second": 6}[grain]
    return parts[:keep]


_EXAMPLES = re.compile(r"examples\s*\(datetime\w*(.*?)\)\s*\[(.*?)\]", re.DOTALL)
_TUPLE = re.compile(r"\(\s*(\d+(?:\s*,\s*\d+){5})\s*\)")
_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')


def duckling_corpus(root: Path) -> tuple[list[External], Counter[str]]:
    """Duckling's `allExamples` of the seven languages; unparsed entries are counted."""
    found: list[External] = []
    skipped: Counter[str] = Counter()
    for code in _DUCKLING_LANGUAGES:
        source = (root / "duckling" / "Duckling" / "Time" / code / "Corpus.hs").read_text("utf-8")
        body = source[source.index("\nallExamples") :]
        language = code.lower()
        for head, strings in _EXAMPLES.findall(body):
            texts = [s.replace('\\"', '"') for s in _STRING.findall(strings)]
            tuples = _TUPLE.findall(head)
            grain = re.search(r"\b(" + "|".join(_GRAINS) + r")\b", head)
            if not tuples or grain is None:
                skipped[language] += len(texts)
                continue
            # An interval is judged by its start; an open one ("until 3pm", "after
            # 5") by the instant it names, which is what a reminder would take.
            try:
                expected, *until = (
                    datetime(*[int(p) for p in t.split(",")], tzinfo=ZoneInfo(_DUCKLING_ZONE))  # type: ignore[misc]
                    for t in tuples[:2]
                )
            except ValueError:  # a written-out impossible date
                skipped[language] += len(texts)
                continue
            for text in texts:
                case = (language, text, expected, grain.group(1), _DUCKLING_ZONE)
                found.append(External("duckling", *case, _DUCKLING_NOW, *until))
    return found, skipped


def _literal_datetime(node: ast.expr) -> datetime | None:
    """`datetime(2014, 9, 4)` or `datetime.datetime(...)` with literal ints, else None."""
    if not isinstance(node, ast.Call) or node.keywords:
        return None
    name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
    if name != "datetime" or not all(
        isinstance(a, ast.Constant) and isinstance(a.value, int) for a in node.args
    ):
        return None
    return datetime(*[a.value for a in node.args], tzinfo=UTC)  # type: ignore[attr-defined]


def _languages_by_line(source: str) -> dict[int, str | None]:
    """Each line's language, from the section comments ("# French dates", "# es")."""
    current: str | None = None
    by_line: dict[int, str | None] = {}
    for number, line in enumerate(source.splitlines(), 1):
        if (section := re.fullmatch(r"\s*#\s*([A-Za-z-]+)(?: dates)?\s*", line)) is not None:
            current = _DATEPARSER_LANGUAGES.get(section.group(1))
        elif "parameterized.expand" in line:
            current = None
        by_line[number] = current
    return by_line


def _grain_of(value: datetime) -> str:
    if value.second:
        return "Second"
    return "Minute" if value.hour or value.minute else "Day"


def _delta_grain(delta: dict[str, int]) -> str:
    smallest = {"seconds": "Second", "minutes": "Minute", "hours": "Hour"}
    for unit in ("seconds", "minutes", "hours"):
        if unit in delta:
            return smallest[unit]
    return "Day"


def dateparser_corpus(root: Path) -> tuple[list[External], Counter[str]]:
    """dateparser's test cases whose reference time and expected value are literal.

    test_date_parser.py: the `(text, datetime)` lists read at RELATIVE_BASE
    2012-11-13; test_freshness_date_parser.py: `ago=`/`in_future=` offsets from
    2014-09-01 10:30 UTC; test_search.py: texts with one date and a literal
    RELATIVE_BASE. Anything else in those lists is counted as skipped.
    """
    from dateutil.relativedelta import relativedelta

    tests = root / "dateparser" / "tests"
    found: list[External] = []
    skipped: Counter[str] = Counter()
    seen: set[tuple[str, str]] = set()

    def add(language: str | None, text: object, expected: datetime | None, grain: str,
            now: datetime, *, elapsed: bool = False) -> None:  # fmt: skip
        if language is None:
            return
        if not isinstance(text, str) or expected is None:
            skipped[language] += 1
            return
        if (language, text) in seen:
            return
        seen.add((language, text))
        case = External("dateparser", language, text, expected, grain, "UTC", now, elapsed=elapsed)
        found.append(case)

    for name in ("test_date_parser.py", "test_freshness_date_parser.py", "test_search.py"):
        source = (tests / name).read_text("utf-8")
        by_line = _languages_by_line(source)
        for function in ast.walk(ast.parse(source)):
            if not isinstance(function, ast.FunctionDef):
                continue
            body = ast.get_source_segment(source, function) or ""
            cases = [
                call for decorator in function.decorator_list if isinstance(decorator, ast.Call)
                for argument in decorator.args if isinstance(argument, ast.List)
                for call in argument.elts if isinstance(call, ast.Call)
            ]  # fmt: skip
            base = re.search(r'"RELATIVE_BASE": datetime\((\d+), (\d+), (\d+)\)', body)
            for case in cases:
                language = by_line.get(case.lineno)
                values = [a.value if isinstance(a, ast.Constant) else a for a in case.args]
                options = {k.arg: k.value for k in case.keywords}
                if name == "test_date_parser.py":
                    if base is None or "PARSERS" in body or len(values) != 2:
                        continue
                    now = datetime(*map(int, base.groups()), tzinfo=UTC)
                    expected = _literal_datetime(case.args[1])
                    grain = _grain_of(expected) if expected else "Day"
                    add(language, values[0], expected, grain, now)
                elif name == "test_freshness_date_parser.py":
                    if function.name not in ("test_relative_past_dates",
                                             "test_relative_future_dates"):  # fmt: skip
                        continue
                    now = datetime(2014, 9, 1, 10, 30, tzinfo=UTC)
                    offset = options.get("ago") or options.get("in_future")
                    try:
                        delta = ast.literal_eval(offset) if offset is not None else None
                        sign = -1 if "ago" in options else 1
                        shift = relativedelta(**delta) if isinstance(delta, dict) else None
                    except (ValueError, TypeError):
                        shift = None
                    if shift is None or not isinstance(delta, dict):
                        add(language, values[0] if values else None, None, "Day", now)
                        continue
                    add(language, values[0], now + sign * shift, _delta_grain(delta), now,
                        elapsed=sign < 0)  # fmt: skip
                elif function.name == "test_search_and_parse" and len(values) >= 3:
                    language = values[0] if isinstance(values[0], str) else None
                    language = language if language in _DATEPARSER_LANGUAGES else None
                    setting = options.get("settings")
                    reference = re.search(
                        r"RELATIVE_BASE\W+datetime\.datetime\((\d+), (\d+), (\d+)\)",
                        ast.get_source_segment(source, setting) or "" if setting else "",
                    )
                    pairs = case.args[2]
                    if not isinstance(pairs, ast.List) or len(pairs.elts) != 1 or not reference:
                        if language is not None:
                            skipped[language] += 1
                        continue
                    pair = pairs.elts[0]
                    expected = (
                        _literal_datetime(pair.elts[1]) if isinstance(pair, ast.Tuple) else None
                    )
                    now = datetime(*map(int, reference.groups()), tzinfo=UTC)
                    grain = _grain_of(expected) if expected else "Day"
                    add(language, values[1], expected, grain, now)
    return found, skipped


def classify(case: External) -> tuple[str, str]:
    """agree, asked, nothing or another (a confident other instant: the bad case),
    with what was read (the local time, or the question)."""
    result = parse_anchored_time(case.text, case.zone, case.now, language=case.language)
    if result.needs_clarification:
        return "asked", result.clarification_question or ""
    if result.kind == "invalid" or result.start_instant is None:
        return "nothing", result.reason or ""
    tz = ZoneInfo(case.zone)
    local = result.start_instant.astimezone(tz)
    end = (result.end_instant or result.start_instant).astimezone(tz)
    read = f"{local:%Y-%m-%d %H:%M}"
    if _truncate(local, case.grain) == _truncate(case.expected, case.grain):
        return "agree", read
    if (rule := _convention(case, local, end)) is not None:
        return "convention", f"{read} ({rule})"
    return "another", read


_YEAR = re.compile(r"(?<!\d)(?:1[5-9]|2\d)\d\d(?!\d)")
_DECIMAL = re.compile(r"(\d+[.,]\d+)\s*(hours?|minutes?)", re.IGNORECASE)
_CLOCK_ONLY = re.compile(r"(?:at\s+)?\d{1,2}:\d{2}")
_YEARS_AHEAD = re.compile(r"\bin\s+\w+\s+years\b", re.IGNORECASE)
_NEXT_WORDS = leftover.phrases("NEXT_WORDS")
# What settles the half of the day: then a bare hour's reading is no convention.
_HALF_SAID = re.compile(
    rf"\d\s*{leftover.AM_PM}|\d[:.h]\d|\d\s*(?:h|uhr|uur|heures?|horas?|ore)\b|"
    + leftover.phrases(
        "PARTS_OF_DAY",
        "MORNING_WORDS",
        "AFTERNOON_WORDS",
        "EVENING_WORDS",
        "TONIGHT_WORDS",
        "NIGHT_WORDS",
    ).pattern
)
_AGO_WORDS = re.compile(r"\b(?:ago|before|earlier|vor|hace|il y a|h[áa]|fa|geleden)\b", re.I)


def _convention(case: External, local: datetime, end: datetime) -> str | None:
    """Which of the corpora's conventions (bench/README.md) explains another instant, if any.

    - inside: the corpus gives an interval ("morning" as 00:00-12:00, "the end of
      the month" as its last days) and clockbot reads one documented point in it;
    - forward: the corpus keeps a day or time already past (Duckling "3 in the
      morning" read at 04:30 as today's 03:00, dateparser "Friday" as last
      Friday); clockbot reads the next one, the same wall time a day, a week or a
      year on, as a reminder means;
    - elapsed: dateparser reads a bare duration ("3 min", "12 hrs") as time gone
      by; clockbot counts it forward from now;
    - fraction: dateparser drops a fraction ("in 3.5 hours" as 3 hours);
    - 24-hour: Duckling reads a bare "4:15" as the next of 04:15 and 16:15;
      clockbot reads it on the 24-hour clock, as written;
    - first-of-month: Duckling reads "at 8 in 2 years" on the first of the
      month three years on; clockbot on the same day of the month;
    - coming: the corpus reads "next Monday" said later in the week ("prossimo
      lunedì" on a Tuesday) a week after the coming Monday; clockbot reads the
      coming one (docs/time-rules.md).
    - waking: the corpus reads a bare hour in words or digits ("alle tre e venti")
      as its next occurrence on the 24-hour clock; clockbot reads the waking hour
      (docs/time-rules.md, "A bare hour"), within the next day.
    """
    expected = case.expected
    within = case.until is not None and expected <= local and end <= case.until
    if within and end - local < timedelta(days=1):  # a point or a part of a day, not a day
        return "inside"
    wall = (expected.hour, expected.minute)
    if expected < case.now < local and (local.hour, local.minute) == wall:
        days = (local.date() - expected.date()).days
        next_year = (local.year - expected.year, local.month, local.day) == (
            1,
            expected.month,
            expected.day,
        )
        if days in (1, 7) or (next_year and not _YEAR.search(case.text)):
            return "forward"
    if (
        _CLOCK_ONLY.fullmatch(case.text.strip())
        and (local.hour - expected.hour) % 12 == 0
        and local.minute == expected.minute
    ):
        return "24-hour"
    if (
        _YEARS_AHEAD.search(case.text)
        and expected.day == 1
        and (local.year, local.month, local.hour) == (expected.year, expected.month, expected.hour)
    ):
        return "first-of-month"
    if (
        _NEXT_WORDS.search(leftover.folded(case.text))
        and case.now < local
        and expected - local == timedelta(days=7)
        and local.weekday() < case.now.weekday()
    ):
        return "coming"
    if (
        case.until is None
        and (local.minute, (local.hour - expected.hour) % 12) == (expected.minute, 0)
        and local.hour == bare_hour(expected.hour % 12 or 12)
        and case.now < min(local, expected) <= max(local, expected) <= case.now + timedelta(days=1)
        and not _HALF_SAID.search(leftover.folded(case.text))
    ):
        return "waking"
    if case.elapsed and not _AGO_WORDS.search(case.text):
        mirrored = case.now + (case.now - expected)
        if _truncate(local, case.grain) == _truncate(mirrored, case.grain):
            return "elapsed"
    if (decimal := _DECIMAL.search(case.text)) is not None:
        amount = float(decimal.group(1).replace(",", "."))
        unit = (
            timedelta(hours=1) if decimal.group(2).lower().startswith("h") else timedelta(minutes=1)
        )
        if _truncate(local, case.grain) == _truncate(case.now + amount * unit, case.grain):
            return "fraction"
    return None


def external(root: Path, show: str | None) -> None:
    """Agree / asked / nothing / another per language and corpus (bench/README.md)."""
    print(f"external corpora under {root}, reader: {duckling_reader.reader_name()}")
    header = f"  {'corpus':<11}{'lang':<5}{'n':>6}{'skipped':>8}" + "".join(
        f"{name:>14}" for name in _OUTCOMES
    )
    for loader in (duckling_corpus, dateparser_corpus):
        cases, skipped = loader(root)
        corpus = loader.__name__.removesuffix("_corpus")
        print(header + f"{'read+asked':>12}")
        totals: Counter[str] = Counter()
        start = time.perf_counter()
        for language in ("en", "es", "de", "fr", "pt", "it", "nl"):
            counts: Counter[str] = Counter()
            for case in (c for c in cases if c.language == language):
                outcome, read = classify(case)
                counts[outcome] += 1
                if outcome == show:
                    local = case.expected.strftime("%Y-%m-%d %H:%M")
                    print(f"    [{language}] {case.text!r}  expected {local} ({case.grain})"
                          f"  read: {read}")  # fmt: skip
            totals += counts
            print(_outcome_row(corpus, language, counts, skipped[language]))
        elapsed = time.perf_counter() - start
        print(_outcome_row(corpus, "all", totals, sum(skipped.values())))
        n = sum(totals.values())
        print(f"  {corpus}: parse rate {n / elapsed:,.0f} sentences/s over {n}\n")


def _outcome_row(corpus: str, language: str, counts: Counter[str], skipped: int) -> str:
    n = sum(counts.values()) or 1
    cells = "".join(f"{counts[name]:>7} {counts[name] / n:>5.1%}" for name in _OUTCOMES)
    read_or_asked = (counts["agree"] + counts["asked"]) / n
    size = f"{sum(counts.values()):>6}{skipped:>8}"
    return f"  {corpus:<11}{language:<5}{size}{cells}{read_or_asked:>12.1%}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer rounds, for a smoke run")
    parser.add_argument("--quality", action="store_true", help="the corpus figures, no timing")
    parser.add_argument(
        "--external", type=Path, metavar="PATH",
        help="read Duckling's and dateparser's corpora from PATH (bench/README.md), no timing",
    )  # fmt: skip
    parser.add_argument(
        "--show", choices=_OUTCOMES, help="with --external: list the sentences of one outcome"
    )
    args = parser.parse_args()
    if args.external:
        external(args.external, args.show)
        return
    if args.quality:
        quality()
        return
    rounds = 3 if args.quick else 20

    import dateparser
    from dateparser.search import search_dates

    settings = {"RELATIVE_BASE": REFERENCE.replace(tzinfo=None), "PREFER_DATES_FROM": "future"}

    def ours(text: str) -> object:
        return parse_anchored_time(text, "America/New_York", REFERENCE)

    def library(text: str) -> object:
        return dateparser.parse(text, settings=settings)  # type: ignore[arg-type]

    def library_en(text: str) -> object:
        return dateparser.parse(text, languages=["en"], settings=settings)  # type: ignore[arg-type]

    for warm in PHRASINGS:  # first calls load data (places, dateparser's languages)
        ours(warm)
        library(warm)
        library_en(warm)

    print("parse: 50 mixed phrasings, anchored in America/New_York")
    duckling_reader.set_enabled(False)
    grammar = measure(ours, PHRASINGS, rounds)
    duckling_reader.set_enabled(True)
    mine = measure(ours, PHRASINGS, rounds)
    everyday = measure(ours, EVERYDAY, rounds)
    raw = measure(library, PHRASINGS, max(1, rounds // 4))
    raw_en = measure(library_en, PHRASINGS, max(1, rounds // 2))
    reader = duckling_reader.reader_name()
    print(_row(f"parse_anchored_time, default ({reader})", mine, "parses"))
    print(_row("parse_anchored_time, grammar alone", grammar, "parses"))
    print(_row(f"  everyday phrasings ({reader})", everyday, "parses"))
    print(f"  default / grammar alone: {mine['rate'] / grammar['rate']:.2f}x")
    repeating = measure(
        lambda t: parse_recurrence(t, "America/New_York", REFERENCE), RECURRING, rounds
    )
    print(_row("parse_recurrence, 10 forms", repeating, "parses"))
    languages = {text: language for language, text in ELSEWHERE}
    elsewhere = measure(
        lambda t: parse_anchored_time(t, "Europe/Madrid", REFERENCE, language=languages[t]),
        [text for _, text in ELSEWHERE],
        rounds,
    )
    print(_row("  in es/de/fr/pt/it/nl, with the hint", elsewhere, "parses"))
    print(_row("dateparser.parse (auto language)", raw, "parses"))
    print(_row("dateparser.parse (languages=en)", raw_en, "parses"))
    print(f"  ratio clockcore / dateparser(en): {mine['rate'] / raw_en['rate']:.1f}x"
          f"   target >= 2,000/s: {'met' if mine['rate'] >= 2000 else 'MISSED'}")  # fmt: skip

    quiet = chat_messages(2000, timed_share=0.0)
    mixed = chat_messages(2000, timed_share=0.2)
    print("\nfind_time_expressions: ~20-word chat messages")
    no_time = measure(find_time_expressions, quiet, max(1, rounds // 2))
    some_time = measure(find_time_expressions, mixed, max(1, rounds // 2))
    sample = mixed[:20] if args.quick else mixed[:60]
    raw_search = measure(lambda t: search_dates(t, languages=["en"]), sample, 1)
    print(_row("clockcore, no time in any", no_time, "msgs"))
    print(_row("clockcore, 20% with a time", some_time, "msgs"))
    print(_row("dateparser search_dates (en), 20%", raw_search, "msgs"))
    print(f"  ratio clockcore / search_dates: {some_time['rate'] / raw_search['rate']:.0f}x"
          f"   target >= 5,000/s: {'met' if some_time['rate'] >= 5000 else 'MISSED'}")  # fmt: skip

    numbered = numbered_messages(2000)
    print("\nmentions_time (the relevance question): chat with numbers but no time")
    relevance = measure(mentions_time, numbered, max(1, rounds // 2))
    print(_row("mentions_time, a number in each", relevance, "msgs"))
    print(f"  target >= 20,000/s: {'met' if relevance['rate'] >= 20000 else 'MISSED'}")


if __name__ == "__main__":
    main()
