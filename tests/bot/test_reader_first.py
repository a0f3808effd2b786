"""Reader first (issue 63, item 7; `llm.mode: reader-first`, `Agent._read_first`).

A request the rules agent reads whole is carried out by clockbot, and the model only
writes the words around it, given what was done; anything else goes to the model as
ever. Real gateway and store on a settable clock, the fake OpenAI server as the model.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.app.gateway import Gateway
from bot.config.settings import LimitSettings, LLMSettings, Settings
from bot.evaluation.run import evaluate, write_report
from bot.evaluation.scenario import load_scenarios
from bot.replies import DONE_CANCELLED, DONE_SET
from clockcore import SettableClock
from clockcore.speech.spoken import say_when
from tests.bot.test_claim_fallback import NEW_YORK, WEDNESDAY, World
from tests.bot.test_eval_scenarios import SCENARIOS
from tests.bot.test_gateway import RecordingChannel
from tests.support.eval_models import ScriptedModel
from tests.support.fake_llm import FakeLLMServer, Reply

DONE_ALREADY = "this is done already"


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    clock = SettableClock(WEDNESDAY)
    channel = RecordingChannel()
    async with FakeLLMServer() as server:
        llm = LLMSettings(
            provider="openai", base_url=server.openai_base_url, model="m", mode="reader-first"
        )
        no_limit = LimitSettings(turns_per_minute=0, burst=0)
        settings = Settings(home=tmp_path, http_port=0, llm=llm, limit=no_limit)
        async with Gateway(settings, channels=[channel], clock=clock, poll_interval=0.05) as gw:
            w = World(gw, channel, clock, server)
            await w.say("clock: home tz America/New_York", "Done.")
            yield w


def _asked(world: World) -> str:
    return str(world.server.completions[-1].json["messages"][-1]["content"])


async def test_a_reminder_is_set_by_clockbot_and_worded_by_the_model(world: World) -> None:
    before = len(world.server.completions)
    words = "All set: I'll ping you tomorrow at 9am to call the dentist."
    reply = await world.say("remind me tomorrow at 9am to call the dentist", words)
    assert reply == words
    (repeats, at) = (await world.reminders())["call the dentist"]
    assert not repeats and at.astimezone(NEW_YORK).hour == 9
    assert len(world.server.completions) == before + 1  # one request: the words
    asked = _asked(world)
    assert DONE_ALREADY in asked
    assert (
        DONE_SET.en.format(
            text="call the dentist",
            when=say_when(at, NEW_YORK, now=world.clock.now(), language="en"),
        )
        in asked
    )


@pytest.mark.parametrize(
    "answer",
    [
        "``` 5457819197830628 ```",
        '{"name": "remind", "arguments": {"text": "call the dentist"}}',
        "I've cancelled it.",
    ],
)
async def test_words_that_are_not_true_or_not_words_give_way_to_clockbots_own(
    world: World, answer: str
) -> None:
    reply = await world.say("remind me tomorrow at 9am to call the dentist", answer)
    (_, at) = (await world.reminders())["call the dentist"]
    when = say_when(at, NEW_YORK, now=world.clock.now(), language="en")
    assert reply == DONE_SET.en.format(text="call the dentist", when=when)


async def test_a_call_instead_of_words_runs_nothing_more(world: World) -> None:
    call = Reply.tool_call("remind", '{"text": "call the dentist", "when": "tomorrow at 10am"}')
    reply = await world.say("remind me tomorrow at 9am to call the dentist", call)
    assert list(await world.reminders()) == ["call the dentist"]
    assert reply.startswith(DONE_SET.en.split("{")[0])


async def test_a_cancel_and_a_spanish_reminder_are_read_first(world: World) -> None:
    await world.say("recuérdame mañana a las 9 llamar al dentista", "Hecho, mañana a las 9.")
    assert "llamar al dentista" in await world.reminders()
    reply = await world.say("cancel the dentist reminder", "Okay, it's gone.")
    assert reply == "Okay, it's gone."
    assert await world.reminders() == {}
    assert DONE_CANCELLED.en.format(text="llamar al dentista") in _asked(world)


async def test_what_the_reader_cannot_read_whole_goes_to_the_model_as_ever(world: World) -> None:
    reply = await world.say("what should I cook tonight?", "How about a pasta with lemon?")
    assert reply == "How about a pasta with lemon?"
    assert DONE_ALREADY not in _asked(world)
    assert world.server.completions[-1].json.get("tools")


async def test_clockbot_eval_runs_reader_first_and_records_it(tmp_path: Path) -> None:
    scenarios = load_scenarios(SCENARIOS, ("remind-in-two-minutes",))
    async with FakeLLMServer(responder=ScriptedModel(*scenarios)) as server:
        llm = LLMSettings(
            provider="openai", base_url=server.openai_base_url, model="m", api_key="k",
            mode="reader-first",
        )  # fmt: skip
        runs = await evaluate(Settings(home=tmp_path, llm=llm), scenarios)
    data = write_report(runs, tmp_path / "r.md", llm_mode=llm.mode)
    assert json.loads(data.read_text())["llm_mode"] == "reader-first"
    assert "LLM mode: reader-first." in (tmp_path / "r.md").read_text()
    [result] = runs["wrapper"]
    assert result.passed, [c for c in result.checks if not c.ok]
