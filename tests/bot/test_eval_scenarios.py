"""Every eval scenario validated without a real model: the oracle passes it, the clumsy fails it.

The oracle plays the scenario's ``oracle`` script (the right calls), the
clumsy plays its ``clumsy`` script (the typical mistake), both through the
fake OpenAI server and the real gateway (`bot.evaluation.runner`). A scenario
that the oracle cannot pass asks for something clockbot cannot do; one the
clumsy passes does not tell a good model from a bad one.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from bot.config.settings import LLMSettings, Settings
from bot.evaluation.judge import FALSE_CLAIM_CHECK, NO_WORDS_CHECK, Check, judge, spoken_times
from bot.evaluation.report import CACHE_TARGET, judged
from bot.evaluation.run import evaluate, write_report
from bot.evaluation.runner import Outcome, StoreState, Turn, run_scenario
from bot.evaluation.runner import Said as EvalSaid
from bot.evaluation.scenario import (
    Scenario,
    ScenarioError,
    load_scenario,
    load_scenarios,
    shipped_scenarios,
)
from bot.replies import NO_WORDS
from tests.support.eval_models import ScriptedModel
from tests.support.fake_llm import FakeLLMServer

CLOCKBOT = str(Path(sys.executable).with_name("clockbot"))
SCENARIOS = Path(__file__).resolve().parents[2] / "bot" / "evaluation" / "scenarios"
ALL = load_scenarios(SCENARIOS)
CONTEXT = 6144
"""The window `make eval-local` gives the model: the long conversation is compacted in it."""


def _settings(tmp_path: Path, server: FakeLLMServer) -> Settings:
    """The model as an operator configures it: the window is read from the server (/props)."""
    llm = LLMSettings(
        provider="openai", base_url=server.openai_base_url, model="scripted", api_key="k"
    )
    return Settings(home=tmp_path, llm=llm)


async def _play(scenario: Scenario, which: str, tmp_path: Path) -> tuple[bool, str]:
    passed, detail, _ = await _played(scenario, which, tmp_path)
    return passed, detail


async def _played(scenario: Scenario, which: str, tmp_path: Path) -> tuple[bool, str, bool]:
    """Whether `scenario` passed, why not, and whether clockbot carried out the person's
    words itself after the model claimed a change twice (`Agent._carry_out`)."""
    model = ScriptedModel(scenario, which=which)
    async with FakeLLMServer(responder=model, context_limit=CONTEXT) as server:
        outcome = await run_scenario(scenario, _settings(tmp_path, server))
    result = judged(outcome)
    assert not model.unmatched, f"lines the script does not know: {model.unmatched}"
    failed = [f"{c.what}: found {c.found}" for c in result.checks if not c.ok]
    history = outcome.state.history if outcome.state is not None else []
    carried = any(
        str(call.get("id", "")).startswith("rules-")
        for row in history
        for call in row.get("tool_calls") or ()
    )
    detail = "\n".join(failed) or "\n".join(s.text for s in outcome.transcript)
    return result.passed, detail, carried


@pytest.mark.parametrize("scenario", ALL, ids=[s.name for s in ALL])
async def test_the_oracle_passes(scenario: Scenario, tmp_path: Path) -> None:
    passed, detail = await _play(scenario, "oracle", tmp_path)
    assert passed, detail


@pytest.mark.parametrize("scenario", ALL, ids=[s.name for s in ALL])
async def test_the_clumsy_model_fails(scenario: Scenario, tmp_path: Path) -> None:
    """The typical mistake fails every scenario, unless it was a claim with no call that
    clockbot did not believe and carried out itself (issue 63, `Agent._carry_out`)."""
    passed, detail, carried = await _played(scenario, "clumsy", tmp_path)
    assert not passed or carried, f"the typical mistake passes {scenario.name}:\n{detail}"


async def test_a_scenario_gives_the_same_ids_in_every_run_and_both_modes(tmp_path: Path) -> None:
    # The ids reach the model in tool results, and their digits alone changed a greedy
    # 1.5B model's answer (docs/eval.md): a run must repeat, and both modes see the same.
    (scenario,) = [s for s in ALL if s.name == "clock-it-gym"]
    ids = []
    for n, baseline in enumerate((False, False, True)):
        model = ScriptedModel(scenario, which="oracle")
        async with FakeLLMServer(responder=model, context_limit=CONTEXT) as server:
            outcome = await run_scenario(
                scenario, _settings(tmp_path / str(n), server), baseline=baseline
            )
        assert outcome.state is not None, outcome.error
        ids.append(sorted(str(row["id"]) for row in outcome.state.actions))
    assert ids[0], "the scenario clocks an action"
    assert ids[0] == ids[1] == ids[2]


async def test_clockbot_eval_runs_and_reports_both_modes(tmp_path: Path) -> None:
    """`clockbot eval --baseline` as an operator runs it, against the fake OpenAI server."""
    chosen = ("remind-in-two-minutes", "tokyo-time-now", "zone-unknown-ask-first")
    scenarios = tmp_path / "scenarios"
    scenarios.mkdir()
    for name in chosen:
        shutil.copy(SCENARIOS / f"{name}.yaml", scenarios)
    model = ScriptedModel(*load_scenarios(scenarios))
    report = tmp_path / "out" / "report.md"
    async with FakeLLMServer(responder=model, context_limit=CONTEXT) as server:
        env = {
            **os.environ, "CLOCKBOT_HOME": str(tmp_path / "home"),
            "CLOCKBOT_LLM_PROVIDER": "openai", "CLOCKBOT_LLM_BASE_URL": server.openai_base_url,
            "CLOCKBOT_LLM_MODEL": "scripted", "CLOCKBOT_LLM_API_KEY": "k",
        }  # fmt: skip
        process = await asyncio.create_subprocess_exec(
            CLOCKBOT, "eval", "--scenarios", str(scenarios), "--baseline",
            "--report", str(report), env=env,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        out, err = await asyncio.wait_for(process.communicate(), timeout=240)
    assert process.returncode == 0, err.decode()
    said = out.decode()
    assert "wrapper: 3/3 scenarios passed" in said
    assert "baseline: " in said
    data = json.loads(report.with_suffix(".json").read_text())
    assert set(data["summaries"]) == {"wrapper", "baseline"}
    # The sampling it ran with, recorded and sent (a base_url server: clockbot's own 0.2).
    assert data["sampling"] == {"temperature": 0.2, "top_p": None}
    assert all(r.json["temperature"] == 0.2 for r in server.completions)
    wrapper = {s["name"]: s for s in data["scenarios"]["wrapper"]}
    assert set(wrapper) == set(chosen)
    tea = wrapper["remind-in-two-minutes"]
    assert tea["passed"] is True
    assert [t["who"] for t in tea["transcript"]] == ["person", "reply", "reminder"]
    assert tea["store"]["jobs"][0]["text"] == "take the tea out"
    assert tea["calls"] and all(c["prompt_tokens"] for c in tea["calls"])
    # The scripted server caches as llama.cpp's one slot does: the wrapper's prompt keeps its
    # prefix from request to request; the baseline's moves with the minute in its system prompt.
    ours, theirs = data["summaries"]["wrapper"], data["summaries"]["baseline"]
    assert ours["cached_share_lowest"] >= CACHE_TARGET, ours
    assert ours["cached_below_target"] == []
    assert theirs["cached_share_after_first"] < ours["cached_share_after_first"], theirs
    shares = [s["cached_share_after_first"] for s in wrapper.values()]
    assert min(share for share in shares if share is not None) == ours["cached_share_lowest"]
    markdown = report.read_text()
    assert "| scenarios passed | 3/3 (100%) |" in markdown
    assert "## Per capability" in markdown
    assert "| lowest scenario's cached share |" in markdown
    assert "### tokyo-time-now (pass)" in markdown
    baseline_requests = [
        r.json
        for r in server.completions
        if "Current date and time:" in r.json["messages"][0]["content"]
    ]
    assert baseline_requests, "the baseline writes the time into the system prompt"
    assert all("[Runtime time context" not in json.dumps(r["messages"]) for r in baseline_requests)


async def _clockbot(*args: str, env: dict[str, str]) -> tuple[int, str, str]:
    process = await asyncio.create_subprocess_exec(
        CLOCKBOT, *args, env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    out, err = await asyncio.wait_for(process.communicate(), timeout=240)
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()


async def test_halves_run_apart_join_into_one_table(tmp_path: Path) -> None:
    """The wrapper and the baseline measured in two runs (as a long local run is split) and
    joined by `clockbot eval-join`: each row holds the two halves' own figures side by side."""
    scenarios = tmp_path / "scenarios"
    scenarios.mkdir()
    shutil.copy(SCENARIOS / "tokyo-time-now.yaml", scenarios)
    model = ScriptedModel(*load_scenarios(scenarios))
    reports = {mode: tmp_path / mode / "report.md" for mode in ("wrapper", "baseline")}
    flags = {"wrapper": [], "baseline": ["--baseline-only"]}
    async with FakeLLMServer(responder=model, context_limit=CONTEXT) as server:
        env = {
            **os.environ, "CLOCKBOT_HOME": str(tmp_path / "home"),
            "CLOCKBOT_LLM_PROVIDER": "openai", "CLOCKBOT_LLM_BASE_URL": server.openai_base_url,
            "CLOCKBOT_LLM_MODEL": "scripted", "CLOCKBOT_LLM_API_KEY": "k",
        }  # fmt: skip
        for mode, report in reports.items():
            command = ("eval", "--scenarios", str(scenarios), "--report", str(report))
            status, _, err = await _clockbot(*command, *flags[mode], env=env)
            assert status == 0, err
    halves = [reports["wrapper"].with_suffix(".json"), reports["baseline"].with_suffix(".json")]
    assert set(json.loads(halves[1].read_text())["summaries"]) == {"baseline"}
    out = tmp_path / "joined.md"
    status, said, err = await _clockbot(
        "eval-join", *map(str, halves), "--report", str(out), env=env
    )
    assert status == 0, err
    assert str(out) in said
    joined = out.read_text()
    assert "| | wrapper | baseline |" in joined
    rows = {mode: _rows(reports[mode].read_text()) for mode in reports}
    assert rows["wrapper"] and rows["wrapper"].keys() == rows["baseline"].keys()
    for label, cell in rows["wrapper"].items():
        assert f"{label} | {cell} | {rows['baseline'][label]} |" in joined, label
    # The same mode twice is refused, not silently overwritten.
    status, _, err = await _clockbot("eval-join", str(halves[0]), str(halves[0]), env=env)
    assert status != 0
    assert "holds the wrapper mode again" in err


def _rows(report: str) -> dict[str, str]:
    """A one-mode report's table rows before the details, as {"| label": "cell"}."""
    tables = report[: report.index("## Details")].splitlines()
    cut = (line.rstrip(" |").rsplit(" | ", 1) for line in tables if line.count(" | ") == 1)
    return {label: cell for label, cell in cut if not label.startswith("|---")}


async def test_a_bad_scenario_file_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "broken.yaml").write_text("capability: x\nstart: 2026-03-09T08:00:00\nsteps: []\n")
    process = await asyncio.create_subprocess_exec(
        CLOCKBOT, "eval", "--scenarios", str(tmp_path),
        env={**os.environ, "CLOCKBOT_HOME": str(tmp_path / "home")},
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    _, err = await asyncio.wait_for(process.communicate(), timeout=60)
    assert process.returncode != 0
    assert "broken.yaml" in err.decode()
    assert "offset" in err.decode()


@pytest.mark.parametrize(
    ("text", "times"),
    [
        ("It's 3:05 pm in Lisbon", {"15:05"}),
        ("à 15h05", {"15:05"}),
        ("at 3pm, then 9 Uhr", {"15:00", "09:00"}),
        ("The current time in Tokyo is 2026-03-09 17:00:00+09:00 (UTC+09:00).", {"17:00"}),
        ("2026-03-09T09:02:00+01:00", {"09:02"}),
        ("in 3 hours, on 13 March, 291 days", set()),
        ("13:75 and 25:00 are no times; 12 am is 00:00", {"00:00"}),
    ],
)
def test_spoken_times_are_normalized(text: str, times: set[str]) -> None:
    assert spoken_times(text) == times


def test_an_argument_cut_at_an_unquoted_comma_is_refused(tmp_path: Path) -> None:
    """The YAML trap that once cut an oracle's reminder text: the file is refused, clearly."""
    path = tmp_path / "comma.yaml"
    path.write_text(
        "capability: one-shot reminders\n"
        "start: 2026-03-09T08:00:00+00:00\n"
        "steps:\n"
        "  - say: remind me to buy milk, tomorrow at 9\n"
        "    oracle:\n"
        "      - call: {name: remind, args: {text: buy milk, tomorrow, when: tomorrow at 9}}\n"
        "expect:\n"
        "  - no_reminder: {}\n"
    )
    with pytest.raises(ScenarioError, match=r"'tomorrow' has no value.*quote the value"):
        load_scenario(path)


async def test_both_and_baseline_only_at_once_is_refused(tmp_path: Path) -> None:
    env = {**os.environ, "CLOCKBOT_HOME": str(tmp_path / "home")}
    status, _, err = await _clockbot("eval", "--baseline", "--baseline-only", env=env)
    assert status != 0
    assert "give one" in err


def test_one_text_sent_twice_at_one_instant_is_an_effect_made_twice() -> None:
    """A reminder and a send_message of its text, deferred to its time, went out together."""
    (scenario,) = [
        s for s in load_scenarios(SCENARIOS) if s.name == "proactive-asked-for-the-night"
    ]
    at, evening = datetime(2026, 3, 10, 4, tzinfo=UTC), datetime(2026, 3, 9, 19, tzinfo=UTC)

    def job(
        kind: str, due: datetime, deferred_from: datetime | None, sent: datetime | None
    ) -> dict[str, Any]:
        return {"kind": kind, "text": "wake up, the flight", "due_at": due, "sent_at": sent,
                "deferred_from": deferred_from, "schedule_id": None, "status": "sent",
                "final_text": None, "defer_reason": None}  # fmt: skip

    def doubled(*jobs: dict[str, Any]) -> str:
        state = StoreState(list(jobs), [], [], [], {}, [], [])
        checks = judge(Outcome(scenario=scenario, baseline=False, state=state))
        (check,) = [c for c in checks if c.what == "no effect made twice"]
        return "" if check.ok else check.found

    reminder, send = job("reminder", at, None, at), job("proactive", at, evening, at)
    assert (
        doubled(reminder, send) == "'wake up, the flight' sent twice at 2026-03-10T04:00:00+00:00"
    )
    assert doubled(reminder, job("proactive", evening, None, evening)) == ""  # one now, one then
    assert doubled(reminder, job("reply", at, None, at)) == ""  # a reply quoting it is a reply


@pytest.mark.parametrize("language", ["en", "es", "de"])
def test_clockbots_own_fallback_is_no_answer(language: str) -> None:
    """Gemma 3 270M passed "ask first" checks on "I couldn't find the words for that one;
    could you ask me again?" alone: its "?" is clockbot's, not a question the model asked."""
    (scenario,) = [s for s in load_scenarios(SCENARIOS) if s.name == "check-in-hedged"]
    at = datetime(2026, 3, 9, 19, tzinfo=UTC)

    def answered(text: str) -> bool:
        transcript = [EvalSaid(2, at, "reply", text)]
        state = StoreState([], [], [], [{"label": "run", "status": "planned"}], {}, [], [])
        outcome = Outcome(scenario=scenario, baseline=False, transcript=transcript, state=state)
        (check,) = [c for c in judge(outcome) if c.what.startswith("the answer to step 2")]
        return check.ok

    assert not answered(NO_WORDS.in_(language))
    assert answered("Welcome back. Did you make it out for the run?")


async def test_clockbot_eval_finds_its_scenarios_from_anywhere_and_names_the_rules_agent(
    tmp_path: Path,
) -> None:
    """Issue 61: an installed clockbot ran `eval` only from a checkout, and said nothing of
    measuring the built-in rules agent when no model was configured."""
    env = {**os.environ, "CLOCKBOT_HOME": str(tmp_path / "home"), "CLOCKBOT_LLM_PROVIDER": ""}
    process = await asyncio.create_subprocess_exec(
        CLOCKBOT, "eval", "--only", "tokyo-time-now", "--report", str(tmp_path / "r.md"),
        env=env, cwd=tmp_path, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    out, err = await asyncio.wait_for(process.communicate(), timeout=240)
    assert process.returncode == 0, err.decode()
    said = out.decode()
    assert "this measures the built-in rules agent" in said
    assert "wrapper: 1/1 scenarios passed" in said
    assert shipped_scenarios() == SCENARIOS


UNSEEN_SCENARIO = """\
capability: one-shot reminders
description: Written for the test of the unseen folder, not one of the shipped ones.
person: {zone: America/New_York}
start: 2026-06-10T14:00:00Z
steps:
  - say: remind me in 15 minutes to stretch my legs
    oracle:
      - call: {name: remind, args: {text: stretch my legs, when: in 15 minutes}}
      - reply: I'll remind you at 10:15 to stretch your legs.
expect:
  - reminder: {text: stretch, at: "2026-06-10T10:15:00-04:00"}
"""


async def test_unseen_scenarios_are_loaded_and_reported_apart(tmp_path: Path) -> None:
    """A scenario in the `unseen/` subfolder is played with the others and reported in tables
    of its own (issue 63: a figure on scenarios we tuned against is not a figure)."""
    scenarios = tmp_path / "scenarios"
    (scenarios / "unseen").mkdir(parents=True)
    shutil.copy(SCENARIOS / "tokyo-time-now.yaml", scenarios)
    (scenarios / "unseen" / "stretch-in-fifteen.yaml").write_text(UNSEEN_SCENARIO)
    loaded = load_scenarios(scenarios)
    assert [(s.name, s.unseen) for s in loaded] == [
        ("tokyo-time-now", False),
        ("stretch-in-fifteen", True),
    ]
    model = ScriptedModel(*loaded)
    report = tmp_path / "out" / "report.md"
    async with FakeLLMServer(responder=model, context_limit=CONTEXT) as server:
        runs = await evaluate(_settings(tmp_path, server), loaded)
    write_report(runs, report)
    data = json.loads(report.with_suffix(".json").read_text())
    assert data["summaries"]["wrapper"]["total"] == 1
    assert data["summaries_unseen"]["wrapper"]["total"] == 1
    assert data["summaries_unseen"]["wrapper"]["by_capability"] == {"one-shot reminders": [1, 1]}
    assert {s["name"]: s["unseen"] for s in data["scenarios"]["wrapper"]} == {
        "tokyo-time-now": False,
        "stretch-in-fifteen": True,
    }
    markdown = report.read_text()
    tuned, unseen = markdown.split("# clockbot eval: unseen", 1)
    assert "tokyo-time-now" in tuned and "stretch-in-fifteen" not in tuned.split("## Details")[0]
    assert "| stretch-in-fifteen | one-shot reminders | pass |" in unseen
    assert "| false claims (replies) | 0 |" in unseen
    assert "| capability | wrapper | wrapper: false claims | wrapper: no words |" in unseen
    assert "### stretch-in-fifteen (pass, unseen)" in markdown


def test_unseen_is_not_a_field_of_the_file(tmp_path: Path) -> None:
    path = tmp_path / "x.yaml"
    path.write_text(UNSEEN_SCENARIO + "unseen: true\n")
    with pytest.raises(ScenarioError, match="unseen/ folder"):
        load_scenario(path)


def _state(jobs: list[dict[str, Any]]) -> StoreState:
    return StoreState(jobs, [], [], [], {}, [], [])


def _job(
    number: int, text: str, *, kind: str = "reminder", status: str = "pending"
) -> dict[str, Any]:
    due = datetime(2026, 6, 11, 13, tzinfo=UTC)
    return {"id": number, "kind": kind, "text": text, "status": status, "due_at": due,
            "deferred_from": None, "sent_at": None, "final_text": None, "defer_reason": None,
            "memory_id": None, "schedule_id": None, "last_error": None}  # fmt: skip


def _judged_reply(reply: str, before: StoreState, after: StoreState) -> dict[str, Check]:
    (scenario,) = [s for s in ALL if s.name == "remind-in-two-minutes"]
    at = datetime(2026, 3, 9, 8, tzinfo=UTC)
    transcript = [
        EvalSaid(0, at, "person", scenario.steps[0].say or ""),
        EvalSaid(0, at, "reply", reply),
    ]
    outcome = Outcome(
        scenario=scenario, baseline=False, transcript=transcript, state=after,
        turns=[Turn(0, before, after)],
    )  # fmt: skip
    return {c.what: c for c in judge(outcome) if c.what in (FALSE_CLAIM_CHECK, NO_WORDS_CHECK)}


def test_a_reply_claiming_a_reminder_the_store_does_not_hold_fails_the_scenario() -> None:
    empty, tea = _state([]), _state([_job(1, "take the tea out")])
    claimed = _judged_reply("I'll remind you at 09:02 to take the tea out.", empty, empty)
    assert not claimed[FALSE_CLAIM_CHECK].ok
    assert "set claimed" in claimed[FALSE_CLAIM_CHECK].found
    assert claimed[NO_WORDS_CHECK].ok
    backed = _judged_reply("I'll remind you at 09:02 to take the tea out.", empty, tea)
    assert backed[FALSE_CLAIM_CHECK].ok
    # Only its own turn backs a claim: a reminder set before does not.
    assert not _judged_reply("The reminder was set.", tea, tea)[FALSE_CLAIM_CHECK].ok
    # A cancel claimed where the store still holds it waiting.
    skipped = _state([_job(1, "take the tea out", status="skipped")])
    assert _judged_reply("Reminder cancelled.", tea, skipped)[FALSE_CLAIM_CHECK].ok is True
    assert _judged_reply("I've set it.", tea, skipped)[FALSE_CLAIM_CHECK].ok is False


@pytest.mark.parametrize(
    "reply",
    [
        "``` 5457819197830628 ```",
        "```",
        "``` | ```",
        '<tools><function><name>remind</name><parameters>{"text": "tea"}</parameters></function></tools>',
        "obj['name'] = 'remind'",
    ],
)
def test_a_reply_that_is_not_words_for_a_person_fails_the_scenario(reply: str) -> None:
    tea = _state([_job(1, "take the tea out")])
    checks = _judged_reply(reply, _state([]), tea)
    assert not checks[NO_WORDS_CHECK].ok
    assert checks[FALSE_CLAIM_CHECK].ok
    assert _judged_reply("Tea at 09:02, I'll remind you.", _state([]), tea)[NO_WORDS_CHECK].ok
