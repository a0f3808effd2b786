"""The eval's report: per scenario pass or fail with its transcript and store, per capability
pass rates, false claims and replies without words, tokens, the cached share, latency and
tool errors; Markdown and JSON.

With a baseline run beside the wrapper's, the tables put both side by side. Scenarios of the
unseen folder (`bot.evaluation.scenario.UNSEEN`) get tables of their own, after the others:
a figure on scenarios we tuned against is not a figure (docs/eval.md).
"""

from __future__ import annotations

import dataclasses
import json
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from statistics import median
from typing import Any

from bot.evaluation.judge import Check, judge, tool_errors
from bot.evaluation.judged_replies import false_claims, wordless
from bot.evaluation.runner import Outcome
from bot.llm.types import Sampling
from clockcore import RUNTIME_BLOCK_END, to_iso

__all__ = [
    "CACHE_TARGET",
    "Judged",
    "Summary",
    "cached_share",
    "dumps",
    "joined",
    "judged",
    "markdown",
    "report_json",
    "summary",
]

CACHE_TARGET = 0.85
"""The share of a scenario's prompt tokens, from its second request on, that should be read
from the server's cache (issue 36): below it, the prompt's prefix moved."""


@dataclass(frozen=True, slots=True)
class Judged:
    """A played scenario and its checks."""

    outcome: Outcome
    checks: tuple[Check, ...]

    @property
    def passed(self) -> bool:
        return all(check.ok for check in self.checks)


def judged(outcome: Outcome) -> Judged:
    return Judged(outcome, tuple(judge(outcome)))


@dataclass(frozen=True, slots=True)
class Summary:
    """One mode's figures over all its scenarios."""

    mode: str
    passed: int
    total: int
    by_capability: dict[str, tuple[int, int]]
    prompt_tokens: int
    cached_tokens: int
    cached_share_after_first: float | None
    cached_share_lowest: float | None
    """The lowest of the scenarios' own shares (`cached_share`)."""
    cached_below_target: tuple[str, ...]
    """The scenarios whose own share is under `CACHE_TARGET`."""
    completion_tokens: int
    median_latency_ms: float | None
    tool_errors: int
    unanswered_tool_errors: int
    seconds: float
    false_claims: int = 0
    """Replies that claimed a change their turn did not leave in the store."""
    no_words: int = 0
    """Replies that were not words for a person."""
    false_claims_by_capability: dict[str, int] = field(default_factory=dict)
    no_words_by_capability: dict[str, int] = field(default_factory=dict)


def _later_requests(calls: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """A scenario's conversation requests from its second on (the first has nothing cached),
    those with usage a server reported."""
    turns = [c for c in calls if c["purpose"] != "summary"]
    return [c for c in turns[1:] if c["prompt_tokens"] and c["cached_tokens"] is not None]


def cached_share(calls: Sequence[Mapping[str, Any]]) -> float | None:
    """Of a scenario's prompt tokens from its second request on, the share the server read
    from its cache; None when it reported none."""
    later = _later_requests(calls)
    prompt = sum(c["prompt_tokens"] for c in later)
    return sum(c["cached_tokens"] for c in later) / prompt if prompt else None


def summary(mode: str, results: Sequence[Judged]) -> Summary:
    by: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    prompt = cached = completion = errors = unanswered = 0
    later_prompt = later_cached = 0
    shares: dict[str, float] = {}
    latencies: list[float] = []
    claimed: dict[str, int] = defaultdict(int)
    empty: dict[str, int] = defaultdict(int)
    for result in results:
        capability = result.outcome.scenario.capability
        tally = by[capability]
        tally[0] += result.passed
        tally[1] += 1
        claimed[capability] += len(false_claims(result.outcome))
        empty[capability] += len(wordless(result.outcome))
        for call in result.outcome.calls:
            prompt += call["prompt_tokens"] or 0
            cached += call["cached_tokens"] or 0
            completion += call["completion_tokens"] or 0
            latencies.append(call["latency_ms"])
        for later in _later_requests(result.outcome.calls):
            later_prompt += later["prompt_tokens"]
            later_cached += later["cached_tokens"]
        share = cached_share(result.outcome.calls)
        if share is not None:
            shares[result.outcome.scenario.name] = share
        if result.outcome.state is not None:
            total, left = tool_errors(result.outcome.state)
            errors, unanswered = errors + total, unanswered + len(left)
    return Summary(
        mode=mode,
        passed=sum(r.passed for r in results),
        total=len(results),
        by_capability={k: (v[0], v[1]) for k, v in sorted(by.items())},
        prompt_tokens=prompt,
        cached_tokens=cached,
        cached_share_after_first=later_cached / later_prompt if later_prompt else None,
        cached_share_lowest=min(shares.values()) if shares else None,
        cached_below_target=tuple(n for n, share in shares.items() if share < CACHE_TARGET),
        completion_tokens=completion,
        median_latency_ms=median(latencies) if latencies else None,
        tool_errors=errors,
        unanswered_tool_errors=unanswered,
        seconds=sum(r.outcome.seconds for r in results),
        false_claims=sum(claimed.values()),
        no_words=sum(empty.values()),
        false_claims_by_capability=dict(sorted(claimed.items())),
        no_words_by_capability=dict(sorted(empty.items())),
    )


def _share(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.0%}"


def _rate(passed: int, total: int) -> str:
    return f"{passed}/{total} ({passed / total:.0%})" if total else "-"


UNSEEN_ABOUT = (
    "Scenarios written by someone who had not seen the others, never tuned against "
    "(docs/eval.md): this is the figure to quote."
)


def _apart(
    runs: Mapping[str, Sequence[Judged]],
) -> tuple[dict[str, list[Judged]], dict[str, list[Judged]]]:
    """`runs` split into the scenarios we tuned against and the unseen ones, mode by mode."""
    tuned = {mode: [r for r in rs if not r.outcome.scenario.unseen] for mode, rs in runs.items()}
    unseen = {mode: [r for r in rs if r.outcome.scenario.unseen] for mode, rs in runs.items()}
    return tuned, unseen


def _verdicts(runs: Mapping[str, Sequence[Judged]]) -> dict[str, list[tuple[str, str, bool]]]:
    return {
        mode: [(r.outcome.scenario.name, r.outcome.scenario.capability, r.passed) for r in results]
        for mode, results in runs.items()
    }


def markdown(runs: Mapping[str, Sequence[Judged]], *, title: str, about: str = "") -> str:
    """The report: the figures of each mode side by side (the unseen scenarios apart), then
    every scenario in detail."""
    tuned, unseen = _apart(runs)
    lines: list[str] = []
    if any(tuned.values()) or not any(unseen.values()):
        summaries = {mode: summary(mode, results) for mode, results in tuned.items()}
        lines += _tables(summaries, _verdicts(tuned), title=title, about=about)
    if any(unseen.values()):
        summaries = {mode: summary(mode, results) for mode, results in unseen.items()}
        said = f"{about}\n\n{UNSEEN_ABOUT}" if not lines and about else UNSEEN_ABOUT
        lines += ["", *_tables(summaries, _verdicts(unseen), title=f"{title}: unseen", about=said)]
    for mode in runs:
        lines += ["", f"## Details: {mode}", ""]
        for result in runs[mode]:
            lines += _detail(result)
    return "\n".join(lines).lstrip("\n") + "\n"


def joined(reports: Sequence[tuple[str, Mapping[str, Any]]], *, title: str, about: str = "") -> str:
    """The tables of separately run reports (named, and their JSON: `report_json`) side by side.

    Ids repeat per scenario (`wrapper.store.queries.common.repeatable_ids`), so a greedy run's
    wrapper half and baseline half compare although run at different times; the
    details stay in each report. Two reports holding the same mode are an error. The
    unseen scenarios' tables follow the others', as in each report.
    """
    lines: list[str] = []
    for key, unseen in (("summaries", False), ("summaries_unseen", True)):
        summaries: dict[str, Summary] = {}
        verdicts: dict[str, list[tuple[str, str, bool]]] = {}
        for source, data in reports:
            for mode, figures in (data.get(key) or {}).items():
                if mode in summaries:
                    raise ValueError(f"{source} holds the {mode} mode again")
                summaries[mode] = Summary(**figures)
                verdicts[mode] = [
                    (s["name"], s["capability"], bool(s["passed"]))
                    for s in data["scenarios"][mode]
                    if bool(s.get("unseen")) == unseen
                ]
        if summaries:
            named = f"{title}: unseen" if unseen else title
            said = UNSEEN_ABOUT if unseen else about
            lines += ["", *_tables(summaries, verdicts, title=named, about=said)]
    return "\n".join(lines).lstrip("\n") + "\n"


def _tables(
    summaries: Mapping[str, Summary],
    verdicts: Mapping[str, Sequence[tuple[str, str, bool]]],
    *,
    title: str,
    about: str,
) -> list[str]:
    """The figures, the per-capability rates and the per-scenario verdicts, a column a mode.

    `verdicts` holds each mode's (scenario, capability, passed) in the order run.
    """
    modes = list(summaries)
    lines = [f"# {title}", ""]
    if about:
        lines += [about, ""]
    lines += ["| | " + " | ".join(modes) + " |", "|---|" + "---|" * len(modes)]
    rows: list[tuple[str, Callable[[Summary], str]]] = [
        ("scenarios passed", lambda s: _rate(s.passed, s.total)),
        ("prompt tokens", lambda s: f"{s.prompt_tokens:,}"),
        ("cached share (2nd request on)", lambda s: _share(s.cached_share_after_first)),
        ("lowest scenario's cached share", lambda s: _share(s.cached_share_lowest)),
        (
            f"scenarios under {CACHE_TARGET:.0%} cached",
            lambda s: str(len(s.cached_below_target)),
        ),
        ("completion tokens", lambda s: f"{s.completion_tokens:,}"),
        ("median request latency", lambda s: _ms(s.median_latency_ms)),
        ("false claims (replies)", lambda s: str(s.false_claims)),
        ("replies without words", lambda s: str(s.no_words)),
        ("tool errors (unanswered)", lambda s: f"{s.tool_errors} ({s.unanswered_tool_errors})"),
        ("wall time", lambda s: f"{s.seconds:.0f} s"),
    ]
    for label, cell in rows:
        lines.append(f"| {label} | " + " | ".join(cell(summaries[m]) for m in modes) + " |")
    capabilities = sorted({c for s in summaries.values() for c in s.by_capability})
    heads = [f"{m}{column}" for m in modes for column in ("", ": false claims", ": no words")]
    lines += ["", "## Per capability", "", "| capability | " + " | ".join(heads) + " |"]
    lines.append("|---|" + "---|" * len(heads))
    for capability in capabilities:
        cells = [
            cell
            for m in modes
            for cell in (
                _rate(*summaries[m].by_capability.get(capability, (0, 0))),
                str(summaries[m].false_claims_by_capability.get(capability, 0)),
                str(summaries[m].no_words_by_capability.get(capability, 0)),
            )
        ]
        lines.append(f"| {capability} | " + " | ".join(cells) + " |")
    lines += ["", "## Scenarios", ""]
    by_mode = {m: {name: (cap, ok) for name, cap, ok in verdicts[m]} for m in modes}
    names = list(dict.fromkeys(name for m in modes for name, _, _ in verdicts[m]))
    lines += ["| scenario | capability | " + " | ".join(modes) + " |"]
    lines.append("|---|---|" + "---|" * len(modes))
    for name in names:
        found = [by_mode[m].get(name) for m in modes]
        capability = next(f[0] for f in found if f is not None)
        cells = ["-" if f is None else ("pass" if f[1] else "**fail**") for f in found]
        lines.append(f"| {name} | {capability} | " + " | ".join(cells) + " |")
    return lines


def _ms(value: float | None) -> str:
    return "n/a" if value is None else f"{value / 1000:.1f} s"


def _detail(result: Judged) -> list[str]:
    scenario = result.outcome.scenario
    verdict = "pass" if result.passed else "FAIL"
    unseen = ", unseen" if scenario.unseen else ""
    lines = [f"### {scenario.name} ({verdict}{unseen})", ""]
    if scenario.description:
        lines += [scenario.description, ""]
    share = cached_share(result.outcome.calls)
    if share is not None:
        lines += [f"Cached share from the second request: {share:.0%}.", ""]
    for check in result.checks:
        mark = "x" if check.ok else " "
        lines.append(f"- [{mark}] {check.what}" + ("" if check.ok else f": found {check.found}"))
    lines += ["", "```"]
    for said in result.outcome.transcript:
        text = " ".join(said.text.split())
        lines.append(f"{to_iso(said.at, 'UTC')[11:16]}Z {said.who:>8}: {text[:400]}")
    lines += ["```", ""]
    if result.outcome.state is not None and not result.passed:
        lines += ["What the model saw and did (the history, runtime blocks cut):", "", "```"]
        lines += [_turn_line(row) for row in result.outcome.state.history]
        lines += ["```", ""]
    return lines


def _turn_line(row: dict[str, Any]) -> str:
    """One history message on one line: the person's words, a call with its arguments, a result."""
    content = " ".join(str(row["content"] or "").split())
    if row["role"] == "user" and RUNTIME_BLOCK_END in content:
        content = "[runtime block] " + content.split(RUNTIME_BLOCK_END, 1)[1].strip()
    calls = [f"{c.get('name')}({c.get('arguments')})" for c in row.get("tool_calls") or ()]
    shown = " ".join([content[:300], *calls]).strip()
    who = row["role"] if row["role"] != "tool" else f"tool {row.get('name')}"
    return f"{who:>18}: {shown}"


def report_json(runs: Mapping[str, Sequence[Judged]]) -> dict[str, Any]:
    """The same report as data: summaries, and per scenario its checks, transcript and store."""
    tuned, unseen = _apart(runs)
    return {
        "summaries": {mode: _summary_json(summary(mode, rs)) for mode, rs in tuned.items()},
        "summaries_unseen": {
            mode: _summary_json(summary(mode, rs)) for mode, rs in unseen.items() if rs
        },
        "scenarios": {
            mode: [
                {
                    "name": r.outcome.scenario.name,
                    "capability": r.outcome.scenario.capability,
                    "unseen": r.outcome.scenario.unseen,
                    "passed": r.passed,
                    "false_claims": false_claims(r.outcome),
                    "no_words": wordless(r.outcome),
                    "checks": [{"what": c.what, "ok": c.ok, "found": c.found} for c in r.checks],
                    "transcript": [
                        {"step": s.step, "at": to_iso(s.at, "UTC"), "who": s.who, "text": s.text}
                        for s in r.outcome.transcript
                    ],
                    "store": r.outcome.state.to_json() if r.outcome.state else None,
                    "calls": r.outcome.calls,
                    "cached_share_after_first": cached_share(r.outcome.calls),
                    "seconds": round(r.outcome.seconds, 2),
                    "error": r.outcome.error,
                }
                for r in rs
            ]
            for mode, rs in runs.items()
        },
    }


def _summary_json(s: Summary) -> dict[str, Any]:
    return dataclasses.asdict(s)


def dumps(
    runs: Mapping[str, Sequence[Judged]],
    *,
    sampling: Sampling | None = None,
    llm_mode: str | None = None,
) -> str:
    """`report_json` as text, with the sampling the run's requests carried and the
    ``llm.mode`` it ran in (null: no model)."""
    data = report_json(runs)
    data["llm_mode"] = llm_mode
    data["sampling"] = (
        None if sampling is None else {"temperature": sampling.temperature, "top_p": sampling.top_p}
    )
    return json.dumps(data, indent=2, ensure_ascii=False, default=str)
