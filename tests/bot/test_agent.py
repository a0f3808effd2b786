"""Agent turns against a real local fake LLM server (docs/clock-spec.md, "Advice, not enforcement"; issues 4 and 11).

`Agent.answer` and `Agent.proactive_turn` are pure: they read and ask the
model, and return what the turn produced; nothing is written. Retries and the
waiting list belong to `bot.turns.lifecycle.Turns`, tested here through it.
"""

from __future__ import annotations

import dataclasses
import io
import itertools
import json
import logging
import re
from collections.abc import AsyncIterator
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest

from bot.agent import SUMMARY_AGAIN, SUMMARY_PROMPT, Agent, TurnOutput
from bot.agent.prompt import BASELINE_PROMPT, SYSTEM_PROMPT
from bot.cli.chat import chat
from bot.config.settings import LimitSettings, Settings
from bot.llm import OpenAIProvider
from bot.llm.errors import LLMError
from bot.replies import NO_WORDS, STUCK, UNAVAILABLE
from bot.turns.lifecycle import Turns
from channels.base import Inbound
from clockcore import DEFAULT_CONTACT_WINDOW, MessageRef, SettableClock
from clockcore.parsing import duckling_reader
from tests.support import staged
from tests.support.fake_llm import FakeLLMServer, Reply, ScriptedToolCall
from wrapper import InteractionWrapper, OutboxItem
from wrapper.turns.effects import Enqueue, NewAction, NewMemory, ZoneChange
from wrapper.turns.history import EARLIER, StoredMessage
from wrapper.turns.turn_commit import Compaction

DAY_ONE = datetime(2026, 3, 7, 15, tzinfo=UTC)
NIGHT = datetime(2026, 4, 29, 9, 14, tzinfo=UTC)  # 02:14 in Los Angeles
DM = {"channel": "telegram", "thread_id": "dm:42", "user_id": "42"}
THREAD_KEY = "agent:main:telegram:dm:42"
LA = "America/Los_Angeles"


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[tuple[InteractionWrapper, SettableClock]]:
    clock = SettableClock(DAY_ONE)
    wrapper = await InteractionWrapper.open(
        f"sqlite:///{tmp_path / 'a.db'}", agent_tz="UTC", clock=clock
    )
    try:
        yield wrapper, clock
    finally:
        await wrapper.close()


@pytest.fixture
async def server() -> AsyncIterator[FakeLLMServer]:
    async with FakeLLMServer() as fake:
        yield fake


@pytest.fixture
async def agent(
    store: tuple[InteractionWrapper, SettableClock], server: FakeLLMServer
) -> AsyncIterator[Agent]:
    wrapper, clock = store
    provider = OpenAIProvider(
        base_url=server.openai_base_url, model="m", api_key="k", max_retries=0
    )
    try:
        yield Agent(
            wrapper=wrapper, provider=provider, clock=clock, contact_window=DEFAULT_CONTACT_WINDOW
        )
    finally:
        await provider.aclose()


def _turns(store: tuple[InteractionWrapper, SettableClock], agent: Agent) -> Turns:
    wrapper, clock = store
    return Turns(wrapper=wrapper, agent=agent, clock=clock, worker="w1", channels={})


async def _say(turns: Turns, clock: SettableClock, text: str, message_id: str) -> None:
    """One message through intake, and its turn to the commit."""
    await turns.intake(Inbound(text=text, message_id=message_id, received_at=clock.now(), **DM))
    await turns.drain()


def _ref(clock: SettableClock, text: str, message_id: str = "m1") -> MessageRef:
    return MessageRef(message_id=message_id, text=text, received_at=clock.now(), **DM)


async def _replies(wrapper: InteractionWrapper) -> dict[str, str]:
    return {item.key: item.text for item in await wrapper.outbox.listing()}


# ------------------------------------------------------------------ answer


async def test_requests_are_append_only_and_the_prefix_never_changes(
    store: tuple[InteractionWrapper, SettableClock], agent: Agent, server: FakeLLMServer
) -> None:
    wrapper, clock = store
    turns = _turns(store, agent)
    server.script(
        "hello!",
        Reply.tool_call("current_time", "{}"),
        "It is 15:05 UTC.",
        "Noted, Tokyo it is.",
        "Good morning!",
    )
    texts = ["hi", "what time is it?", "clock: home tz Asia/Tokyo", "morning again"]
    for n, text in enumerate(texts):
        clock.advance(minutes=5) if n < 3 else clock.advance(days=1)  # across two days
        await _say(turns, clock, text, f"m{n}")
    bodies = [r.json for r in server.completions]
    assert await _replies(wrapper) == {
        "telegram:m0#reply": "hello!",
        "telegram:m1#reply": "It is 15:05 UTC.",
        "telegram:m2#reply": "Noted, Tokyo it is.",
        "telegram:m3#reply": "Good morning!",
    }
    assert len(bodies) == 5  # one request per turn, plus the tool round
    systems = {json.dumps(b["messages"][0]) for b in bodies}
    tools = {json.dumps(b["tools"]) for b in bodies}
    assert len(systems) == 1
    assert len(tools) == 1
    assert not re.search(r"\d{4}-\d{2}-\d{2}|\d{1,2}:\d{2}", bodies[0]["messages"][0]["content"])
    names = [t["function"]["name"] for t in bodies[0]["tools"]]
    assert len(names) == len(set(names))
    for earlier, later in itertools.pairwise(bodies):
        assert later["messages"][: len(earlier["messages"])] == earlier["messages"]
    newest = bodies[-1]["messages"][-1]["content"]
    assert newest.startswith("[Runtime time context: facts, not instructions]")
    assert "Asia/Tokyo" in newest  # the zone change shows in the newest block only
    assert "Asia/Tokyo" not in json.dumps(bodies[0]["messages"])


async def test_a_runtime_block_the_model_copies_is_never_sent(
    store: tuple[InteractionWrapper, SettableClock], agent: Agent, server: FakeLLMServer
) -> None:
    """Qwen2.5-Coder-1.5B began its replies with the block (docs/eval.md).

    The copy goes from the reply and from the history, inside the turn too: the
    request after a tool round does not show the model a turn that began with a
    block, which it then copied again.
    """
    wrapper, clock = store
    block = "[Runtime time context: facts, not instructions]\n- Current time: 09:00\n"
    server.script(
        Reply.calls(
            ScriptedToolCall("current_time", json.dumps({"zone": "Asia/Tokyo"})),
            content=block + "[/Runtime time context]\n",
        ),
        "[/Runtime time context]\nIt's 17:00 in Tokyo.",  # its last line alone, seen too
    )
    ref = _ref(clock, "what time is it in Tokyo?")
    output = await agent.answer(await wrapper.receive(ref), [], ref)
    assert output.reply == "It's 17:00 in Tokyo."
    assert [m.content for m in output.messages[1:] if m.role == "assistant"] == [
        "",
        "It's 17:00 in Tokyo.",
    ]
    second = server.completions[1].json["messages"]
    assert [m["content"] or "" for m in second if m["role"] == "assistant"] == [""]
    assert "Runtime" not in json.dumps(second[-2:])  # the call and its result


async def test_turns_the_model_wrote_past_its_own_are_never_sent(
    store: tuple[InteractionWrapper, SettableClock], agent: Agent, server: FakeLLMServer
) -> None:
    """Gemma 3 270M served with ChatML wrote the next turns as text (docs/eval.md)."""
    wrapper, clock = store
    server.script(
        "Done, see you at 9.<|im_end|>\n<|im_start|>user\nthanks<|im_end|>",
        "<end_of_turn>\n<start_of_turn>user\nhi",  # nothing before the marker: empty
        "Hello!",
    )
    ref = _ref(clock, "let's talk at 9")  # asks for no reminder: "Done" is no claim to check
    output = await agent.answer(await wrapper.receive(ref), [], ref)
    assert output.reply == "Done, see you at 9."
    assert "im_end" not in json.dumps([m.content for m in output.messages])
    ref = _ref(clock, "hi")
    output = await agent.answer(await wrapper.receive(ref), [], ref)
    assert output.reply == "Hello!"  # the empty answer was asked for words once
    assert "start_of_turn" not in json.dumps(server.completions[-1].json["messages"])


@pytest.mark.parametrize(
    ("said", "sent"),
    [
        # Qwen2.5-Coder-1.5B, after the zone_unknown error (docs/eval.md): no question, and
        # words about the person, not to them (`bot.agent.reply_checks`): the question alone.
        ("I need to know the person's timezone.", "Which city are you in?"),
        ("", "Which city are you in?"),
        ("Happy to: which city are you in?", "Happy to: which city are you in?"),
    ],
)  # fmt: skip
async def test_a_time_left_unset_for_want_of_the_zone_asks_for_the_city(
    store: tuple[InteractionWrapper, SettableClock],
    agent: Agent,
    server: FakeLLMServer,
    said: str,
    sent: str,
) -> None:
    wrapper, clock = store
    when = json.dumps({"text": "call mum", "when": "tomorrow 9am"})
    server.script(Reply.calls(ScriptedToolCall("remind", when)), said, said)
    ref = _ref(clock, "remind me at 9am tomorrow to call mum")
    output = await agent.answer(await wrapper.receive(ref), [], ref)
    assert '"zone_unknown"' in str(output.messages[2].content)
    assert output.reply == sent
    assert output.messages[-1].content == sent  # the history says what the person read
    assert output.effects == ()


@pytest.mark.parametrize(
    ("text", "language", "asked"),
    [
        ("recuérdame mañana a las 9 llamar a mamá", None, "¿En qué ciudad estás?"),
        ("lembra-me amanhã às 9h de ligar à mãe", "pt-BR", "Em que cidade você está?"),
        ("remind me at 9am tomorrow to call mum", "ja", "Which city are you in?"),
    ],
)
async def test_the_city_is_asked_for_in_the_persons_language(
    store: tuple[InteractionWrapper, SettableClock],
    agent: Agent,
    server: FakeLLMServer,
    text: str,
    language: str | None,
    asked: str,
) -> None:
    """Their platform's language, else the one their words are clearly in; else English."""
    wrapper, clock = store
    when = json.dumps({"text": "mamá", "when": text})  # their own words, read whole
    server.script(Reply.calls(ScriptedToolCall("remind", when)), "", "")
    ref = MessageRef(message_id="m1", text=text, received_at=clock.now(), language=language, **DM)
    output = await agent.answer(await wrapper.receive(ref), [], ref)
    assert '"zone_unknown"' in str(output.messages[2].content)
    assert output.reply == asked


async def test_a_zone_set_in_the_turn_or_a_group_is_not_asked_for_the_city(
    store: tuple[InteractionWrapper, SettableClock], agent: Agent, server: FakeLLMServer
) -> None:
    wrapper, clock = store
    when = json.dumps({"text": "call mum", "when": "tomorrow 9am"})
    zone = json.dumps({"zone": "America/Toronto", "scope": "home"})
    server.script(
        Reply.calls(ScriptedToolCall("remind", when)),
        Reply.calls(ScriptedToolCall("set_timezone", zone)),
        "Your zone is Toronto now.",
    )
    ref = _ref(clock, "remind me at 9am tomorrow to call mum, I live in Toronto")
    output = await agent.answer(await wrapper.receive(ref), [], ref)
    assert output.reply == "Your zone is Toronto now."
    server.script(Reply.calls(ScriptedToolCall("remind", when)), "I need your timezone.")
    group = MessageRef(
        channel="telegram", thread_id="-100", user_id="43", message_id="g1",
        text="remind me at 9am tomorrow to call mum", received_at=clock.now(),
    )  # fmt: skip
    output = await agent.answer(await wrapper.receive(group), [], group)
    assert '"zone_unknown"' in str(output.messages[2].content)
    assert output.reply == "I need your timezone."


async def test_a_call_refused_again_with_a_question_ends_the_turn_asking_it(
    store: tuple[InteractionWrapper, SettableClock], agent: Agent, server: FakeLLMServer
) -> None:
    """Qwen2.5-Coder-1.5B sent the refused set_timezone six times, then we said "I got
    stuck" (docs/eval.md): the second time, the turn ends and asks the person."""
    wrapper, clock = store
    zone = json.dumps({"zone": "America/New_York", "scope": "home"})
    server.script(*[Reply.calls(ScriptedToolCall("set_timezone", zone))] * 6)
    ref = _ref(clock, "my timezone is EST")
    output = await agent.answer(await wrapper.receive(ref), [], ref)
    assert len(server.completions) == 2
    assert output.reply.startswith("Which timezone do you mean by EST?")
    assert output.messages[-1].role == "assistant"
    assert output.messages[-1].content == output.reply  # the history says what they read
    assert output.effects == ()


async def test_a_reply_that_asks_nothing_after_a_refusal_gets_its_question(
    store: tuple[InteractionWrapper, SettableClock], agent: Agent, server: FakeLLMServer
) -> None:
    """Qwen2.5-Coder-1.5B passed the question on instead of asking it (docs/eval.md); its
    words about "the user" are not for the person (`bot.agent.reply_checks`), and asked once more
    it said the same: the person is asked the question alone."""
    wrapper, clock = store
    zone = json.dumps({"zone": "America/New_York", "scope": "home"})
    passed_on = "To set the timezone, please ask the user which timezone you mean by EST."
    server.script(Reply.calls(ScriptedToolCall("set_timezone", zone)), passed_on, passed_on)
    ref = _ref(clock, "my timezone is EST")
    output = await agent.answer(await wrapper.receive(ref), [], ref)
    assert output.reply.startswith("Which timezone do you mean by EST?")
    assert output.messages[-1].content == output.reply
    assert output.effects == ()


async def test_a_turn_out_of_rounds_asks_the_question_its_last_refusal_left(
    store: tuple[InteractionWrapper, SettableClock], agent: Agent, server: FakeLLMServer
) -> None:
    """Calls that differ each round run all six rounds; the last refusal's question is
    asked, in the person's language; a turn with no such question still says it is stuck."""
    wrapper, clock = store
    times = ["mañana a las 9", "mañana 9", "9am", "a las 9", "9:00", "mañana"]
    server.script(
        *[Reply.calls(ScriptedToolCall("remind", json.dumps({"text": "x", "when": w})))
          for w in times]
    )  # fmt: skip
    ref = _ref(clock, "recuérdame mañana a las 9 llamar a mamá")
    output = await agent.answer(await wrapper.receive(ref), [], ref)
    assert len(server.completions) == 6
    assert output.reply == "¿En qué ciudad estás?"
    server.script(*[Reply.calls(ScriptedToolCall("current_time", "{}"))] * 6)
    ref = _ref(clock, "what time is it?", "m2")
    output = await agent.answer(await wrapper.receive(ref), [], ref)
    assert output.reply == STUCK.en
    assert output.messages[-1].role == "tool"
    server.script(*[Reply.calls(ScriptedToolCall("current_time", "{}"))] * 6)
    ref = _ref(clock, "¿qué hora es ahora mismo?", "m3")
    output = await agent.answer(await wrapper.receive(ref), [], ref)
    assert output.reply == STUCK.in_("es")  # what clockbot says itself, in their language


async def test_a_refused_call_then_another_call_goes_on(
    store: tuple[InteractionWrapper, SettableClock], agent: Agent, server: FakeLLMServer
) -> None:
    """Only the same refused call again ends the turn: a new call after it is run."""
    wrapper, clock = store
    zone = json.dumps({"zone": "America/New_York", "scope": "home"})
    server.script(
        Reply.calls(ScriptedToolCall("set_timezone", zone)),
        Reply.calls(ScriptedToolCall("current_time", "{}")),
        "Which city are you in, New York?",
    )
    ref = _ref(clock, "my timezone is EST")
    output = await agent.answer(await wrapper.receive(ref), [], ref)
    assert output.reply == "Which city are you in, New York?"
    assert [m.name for m in output.messages if m.role == "tool"] == [
        "set_timezone", "current_time"
    ]  # fmt: skip


async def test_a_reminder_claimed_but_never_set_is_asked_about_once(
    store: tuple[InteractionWrapper, SettableClock], agent: Agent, server: FakeLLMServer
) -> None:
    """Qwen2.5-Coder-1.5B said "snoozed" and called nothing (docs/eval.md, bot.agent.claims)."""
    wrapper, clock = store
    when = json.dumps({"text": "stretch", "when": "in 10 minutes"})
    server.script(
        "I'll remind you in 10 minutes.",
        Reply.calls(ScriptedToolCall("remind", when)),
        "Done: at 15:10.",
    )
    ref = _ref(clock, "remind me in 10 minutes to stretch")
    output = await agent.answer(await wrapper.receive(ref), [], ref)
    assert output.reply == "Done: at 15:10."
    assert [type(e) for e in output.effects] == [NewMemory, Enqueue]
    check = server.completions[1].json["messages"]
    assert check[-2]["content"] == "I'll remind you in 10 minutes."
    assert "no tool has done it" in check[-1]["content"]
    kept = json.dumps([m.content for m in output.messages])
    assert "no tool has done it" not in kept and 'in 10 minutes."' not in kept
    assert len(server.completions) == 3
    # Claimed again: not believed. The rules agent reads the words whole and sets it, and
    # the reply says what is set (`Agent._carry_out`).
    server.script("I'll remind you in 10 minutes.", "I'll remind you in 10 minutes.")
    ref = _ref(clock, "remind me in 10 minutes to stretch", "m2")
    output = await agent.answer(await wrapper.receive(ref), [], ref)
    assert output.reply == "Set: stretch, Saturday 7 Mar, 15:10 (in 10 minutes)."
    assert len(server.completions) == 5
    assert [type(e) for e in output.effects] == [NewMemory, Enqueue]


async def test_the_system_prompt_said_back_is_never_sent(
    store: tuple[InteractionWrapper, SettableClock], agent: Agent, server: FakeLLMServer
) -> None:
    """The pretrained Gemma 3 270M answered every message with the prompt (docs/eval.md)."""
    wrapper, clock = store
    server.script(
        "Sure thing. " + SYSTEM_PROMPT,
        BASELINE_PROMPT + "\n\nCurrent date and time: Monday, 2026-03-09 09:00 UTC.",
        "Hello!",
    )
    ref = _ref(clock, "hi")
    output = await agent.answer(await wrapper.receive(ref), [], ref)
    assert output.reply == "Sure thing."
    ref = _ref(clock, "and now?", "m2")
    output = await agent.answer(await wrapper.receive(ref), [], ref)
    assert output.reply == "Hello!"  # the prompt alone is an empty answer, asked for words once
    assert "You are clockbot" not in json.dumps([m.content for m in output.messages])


_LOOP = "I'm not sure I can do this week. mendatang\n通客\n\n" * 8 + "I'm not sure I"
_PILLS = "Monday:\n- Take the pill.\nTuesday:\n- Take the pill.\nWednesday:\n- Take the pill."
_TABLE = "| day | pill |\n|----|----|----|----|----|----|----|----|----|\n| Mon | 1 |"


@pytest.mark.parametrize(
    ("written", "sent"),
    [
        ("Noted.\n" + SYSTEM_PROMPT[0].lower() + SYSTEM_PROMPT[1:], "Noted."),
        ("Busy week!\n\n" + _LOOP, "Busy week!\nI'm not sure I can do this week. mendatang\n通客"),
        (
            "Fine. Fine. Fine, really. Ok. Ok.",
            "Fine. Fine. Fine, really. Ok. Ok.",
        ),  # twice: no loop
        (_PILLS, _PILLS),  # again, with other lines between: no loop
        ("Yes. Right. Yes. Right. Yes. Right. Yes.", "Yes. Right."),  # a pair over and over
        (
            "Ok\n\n" + "The call was short. They blame the port. We wait. " * 2 + "The call was",
            "Ok\nThe call was short. They blame the port. We wait.",  # a long run, twice
        ),
        ("Hi!\n[Runtime time context: facts, not instructions\n- Current time: 09:00", "Hi!"),
        ("Busy!\nに通客" + "icional" * 40, "Busy!\nに通客icional"),  # a word's end, stuttered
        (_TABLE, _TABLE),  # a rule of dashes is no stutter
        (
            'It is 291 days.\n<tool_response>\n{"now": "2026-03-09T08:00:00+00:00"}\n</tool_',
            "It is 291 days.",
        ),  # a tool's result written as the next turn
    ],
    ids=[
        "prompt-lower-case", "loop", "twice", "list", "pair", "long-run", "header-without-]",
        "stutter", "table", "tool-response",
    ],
)  # fmt: skip
async def test_the_prompt_said_back_in_lower_case_and_a_loop_go_once(
    store: tuple[InteractionWrapper, SettableClock],
    agent: Agent,
    server: FakeLLMServer,
    written: str,
    sent: str,
) -> None:
    """Gemma 3 270M wrote "you are clockbot, …", one sentence to its token limit, and the
    block's first line without its "]" (docs/eval.md): none reaches the person or the
    history as written."""
    wrapper, clock = store
    server.script(written)
    ref = _ref(clock, "busy day")
    output = await agent.answer(await wrapper.receive(ref), [], ref)
    assert output.reply == sent
    assert output.messages[-1].content == sent


_SUPPLIER = (
    "The supplier call was short and not very useful. They blame the port, the port blames "
    "the weather, and nobody commits to a date. I asked for a written estimate by Wednesday "
    "and said we would look at the second supplier if the parts are late."
)


async def test_the_persons_own_paragraph_said_back_is_never_sent(
    store: tuple[InteractionWrapper, SettableClock], agent: Agent, server: FakeLLMServer
) -> None:
    """Gemma 3 270M answered later lines with the person's paragraph, word for word, its
    last copy cut short by the token limit (docs/eval.md): neither sent nor kept. A quote of
    two of its sentences stays; a reply that was only the copy is asked for words once."""
    wrapper, clock = store
    turns = _turns(store, agent)
    first, second, _ = _SUPPLIER.split(". ")
    server.script(
        "Noted.",
        f"Busy day!\n{_SUPPLIER} {_SUPPLIER[:70]}",
        f"You said: {first}. {second}.",
        _SUPPLIER,
        "Fingers crossed for the estimate.",
    )
    for n, text in enumerate([_SUPPLIER, "and the dentist is at four", "what did I say?", "ok"]):
        clock.advance(minutes=5)
        await _say(turns, clock, text, f"m{n}")
    replies = await _replies(wrapper)
    sent = [replies[f"telegram:m{n}#reply"] for n in range(4)]
    assert sent == [
        "Noted.",
        "Busy day!",
        f"You said: {first}. {second}.",
        "Fingers crossed for the estimate.",
    ]
    kept = [m.content for m in await wrapper.history.load(THREAD_KEY) if m.role == "assistant"]
    assert kept == sent  # the history says what the person read


async def test_an_empty_answer_is_asked_for_words_once_and_not_kept(
    store: tuple[InteractionWrapper, SettableClock], agent: Agent, server: FakeLLMServer
) -> None:
    """Qwen2.5-Coder-1.5B answered a good `convert_time` result with nothing (docs/eval.md)."""
    wrapper, clock = store
    server.script(
        Reply.calls(ScriptedToolCall("current_time", json.dumps({"zone": "Asia/Tokyo"}))),
        "",
        "It's 00:00 in Tokyo.",
    )
    ref = _ref(clock, "what time is it in Tokyo?")
    output = await agent.answer(await wrapper.receive(ref), [], ref)
    assert output.reply == "It's 00:00 in Tokyo."
    assert [m.role for m in output.messages] == ["user", "assistant", "tool", "assistant"]
    asked = server.completions[2].json["messages"]
    # It names the tools that ran: "your last message to the person was empty" was read as
    # a question about the person's last message and refused (docs/eval.md, fifth run).
    assert asked[-1] == {
        "role": "user",
        "content": "(clockbot: the tools are done (current_time). Write your reply to the "
        "person: one sentence answering their question.)",
    }
    assert asked[-2]["role"] == "tool"  # the empty answer is not shown back
    assert "last message" not in asked[-1]["content"]
    server.script(
        Reply.calls(ScriptedToolCall("current_time", json.dumps({"zone": "Asia/Tokyo"}))), "", "Ok."
    )
    ref = _ref(clock, "remind me at 9 to stretch", "m2")  # asks for something: what was done
    await agent.answer(await wrapper.receive(ref), [], ref)
    assert (
        server.completions[-1]
        .json["messages"][-1]["content"]
        .endswith("one sentence saying what was done.)")
    )


async def _in_berlin(wrapper: InteractionWrapper) -> None:
    """The person lives in Berlin: Christmas is read with their country's calendar (in UTC,
    which has no country, clockcore asks which date it is; docs/time-rules.md, holidays)."""
    await wrapper.save_settings(
        ZoneChange(user_key="telegram:42", thread_key=None, zone="Europe/Berlin", scope="home")
    )


async def test_an_empty_answer_to_a_question_is_asked_with_the_results_said(
    store: tuple[InteractionWrapper, SettableClock], agent: Agent, server: FakeLLMServer
) -> None:
    """The twelfth run: after `said` held "291 days after today", an empty answer was asked
    for "what was done", and Qwen wrote "The person was reminded that Christmas is in 2
    days" (docs/eval.md). Asked for the answer with the result's `said`, it has the fact."""
    wrapper, clock = store
    await _in_berlin(wrapper)
    server.script(
        Reply.calls(
            ScriptedToolCall("remind", json.dumps({"text": "Christmas", "when": "in 2 days"}))
        ),
        "",
        "291 days.",
    )
    ref = _ref(clock, "how many days until Christmas?")
    output = await agent.answer(await wrapper.receive(ref), [], ref)
    assert output.reply == "291 days." and output.effects == ()
    asked = server.completions[2].json["messages"][-1]["content"]
    assert asked.startswith("(clockbot: the tools are done (remind). Write your reply to the ")
    assert (
        "answering their question. The results say: Christmas is Friday 25 December 2026" in asked
    )
    assert "days after today" in asked


async def test_sending_the_answer_to_a_question_is_the_reply(
    store: tuple[InteractionWrapper, SettableClock], agent: Agent, server: FakeLLMServer
) -> None:
    """The replays after the twelfth run: Qwen sent `said` back with `send_message`, 3 of 3,
    then replied "Christmas is in 2 days" (docs/eval.md). Our answer's words are the reply,
    and the model is not asked again; other words stay unsent."""
    wrapper, clock = store
    await _in_berlin(wrapper)
    today = clock.now().date()
    said = (
        f"Christmas is Friday 25 December 2026 in Berlin, {(date(2026, 12, 25) - today).days} "
        f"days after today ({today:%A} {today.day} {today:%B %Y})"
    )
    server.script(Reply.calls(ScriptedToolCall("send_message", json.dumps({"text": said}))))
    ref = _ref(clock, "how many days until Christmas?")
    output = await agent.answer(await wrapper.receive(ref), [], ref)
    assert output.reply == said and output.effects == ()
    assert [m.role for m in output.messages] == ["user", "assistant", "tool", "assistant"]
    assert len(server.completions) == 1
    server.script(
        Reply.calls(ScriptedToolCall("send_message", json.dumps({"text": "290 days!"}))),
        "291 days.",
    )
    ref = _ref(clock, "how many days until Christmas?", "m2")
    output = await agent.answer(await wrapper.receive(ref), [], ref)
    assert output.reply == "291 days." and output.effects == ()


async def test_a_second_empty_answer_says_so(
    store: tuple[InteractionWrapper, SettableClock], agent: Agent, server: FakeLLMServer
) -> None:
    wrapper, clock = store
    server.script("", "")
    ref = _ref(clock, "hello?")
    output = await agent.answer(await wrapper.receive(ref), [], ref)
    assert output.reply == NO_WORDS.en
    assert len(server.completions) == 2
    asked = server.completions[1].json["messages"][-1]
    assert asked == {
        "role": "user",
        "content": "(clockbot: write your reply to the person's message now.)",
    }


async def test_answer_writes_nothing_and_returns_the_staged_effects(
    store: tuple[InteractionWrapper, SettableClock], agent: Agent, server: FakeLLMServer
) -> None:
    wrapper, clock = store
    server.script(
        Reply.calls(
            ScriptedToolCall("remind", json.dumps({"text": "pills", "when": "in 1 hour"})),
            ScriptedToolCall("clock_it", json.dumps({"label": "going for a run"})),
            ScriptedToolCall("send_message", json.dumps({"text": "hi"})),
        ),
        "All set.",
    )
    ref = _ref(clock, "remind me about my pills")
    envelope = await wrapper.receive(ref)
    output = await agent.answer(envelope, [], ref)

    assert output.reply == "All set."
    roles = [m.role for m in output.messages]
    assert roles == ["user", "assistant", "tool", "tool", "tool", "assistant"]
    assert output.messages[0].content.endswith("remind me about my pills")
    assert output.messages[0].content.startswith("[Runtime time context")
    memory, reminder, action, scheduled = output.effects
    assert isinstance(memory, NewMemory)
    assert isinstance(reminder, Enqueue)
    assert (reminder.kind, reminder.memory_id, reminder.key) == (
        "reminder", memory.id, "telegram:m1#1",
    )  # fmt: skip
    assert isinstance(action, NewAction)
    assert isinstance(scheduled, Enqueue)
    assert (scheduled.kind, scheduled.key) == ("proactive", "telegram:m1#2")
    assert scheduled.due_at == clock.now()
    assert output.compaction is None

    # Nothing in the store: no history, no memory, no outbox row, no action.
    assert await wrapper.history.load(envelope.thread_key) == []
    assert await wrapper.recall(user_key="telegram:42", query="pills") == []
    assert await wrapper.outbox.listing() == []
    assert (await wrapper.on_user_message(text="and?", **DM)).open_actions == ()


async def test_times_the_model_passes_on_are_read_in_the_persons_language(
    store: tuple[InteractionWrapper, SettableClock], agent: Agent, server: FakeLLMServer
) -> None:
    # The model copies the person's words into due_at; the platform said they write Spanish.
    if not duckling_reader.available():
        pytest.skip("no pyduckling-native-phihos wheel on this platform: English only")
    wrapper, clock = store
    server.script(
        Reply.tool_call("remember", json.dumps({"content": "llamar a mamá", "due_at": "mañana a las 9"})),
        "Hecho.",
    )  # fmt: skip
    await wrapper.save_settings(
        ZoneChange(
            user_key="telegram:42", thread_key=THREAD_KEY, zone="Europe/Madrid", scope="home"
        )
    )
    ref = dataclasses.replace(_ref(clock, "recuérdame mañana a las 9 llamar a mamá"), language="es")
    envelope = await wrapper.receive(ref)
    output = await agent.answer(envelope, [], ref)
    memory, reminder = output.effects  # "recuérdame": the note is the reminder they asked for
    assert isinstance(memory, NewMemory) and isinstance(reminder, Enqueue)
    assert memory.due_at == datetime(2026, 3, 8, 8, tzinfo=UTC)  # 09:00 tomorrow in Madrid
    assert reminder.due_at == memory.due_at


async def test_a_model_outage_raises_and_stages_nothing(
    store: tuple[InteractionWrapper, SettableClock], agent: Agent, server: FakeLLMServer
) -> None:
    wrapper, clock = store
    server.script(Reply.tool_call("remember", json.dumps({"content": "x"})), Reply.error(500))
    ref = _ref(clock, "hi")
    envelope = await wrapper.receive(ref)
    with pytest.raises(LLMError):
        await agent.answer(envelope, [], ref)
    assert await wrapper.history.load(envelope.thread_key) == []
    assert await wrapper.recall(user_key="telegram:42", query="x") == []
    assert await wrapper.outbox.listing() == []


async def _compacting(
    store: tuple[InteractionWrapper, SettableClock],
    server: FakeLLMServer,
    history: list[StoredMessage],
) -> tuple[TurnOutput, str]:
    """ "hello again" answered over `history` by an agent that compacts past 500 characters,
    and its thread's key."""
    wrapper, clock = store
    provider = OpenAIProvider(
        base_url=server.openai_base_url, model="m", api_key="k", max_retries=0
    )
    agent = Agent(
        wrapper=wrapper, provider=provider, clock=clock, contact_window=DEFAULT_CONTACT_WINDOW,
        compact_after_chars=500, keep_recent=2,
    )  # fmt: skip
    ref = _ref(clock, "hello again")
    envelope = await wrapper.receive(ref)
    try:
        return await agent.answer(envelope, history, ref), envelope.thread_key
    finally:
        await provider.aclose()


def _asked(server: FakeLLMServer, n: int) -> str:
    """What summary request `n` asked to summarise, after the summary prompt."""
    asked = server.completions[n].json["messages"][-1]["content"]
    ask = f"(clockbot: {SUMMARY_PROMPT})\n\n"
    assert asked.startswith(ask)
    return str(asked[len(ask) :])


_WORDY = [
    StoredMessage(role=role, content=f"{role} {n} " + "words " * 20)
    for n in range(6)
    for role in ("user", "assistant")
]


async def test_a_long_history_is_compacted_in_the_output_not_in_the_store(
    store: tuple[InteractionWrapper, SettableClock], server: FakeLLMServer
) -> None:
    wrapper, _ = store
    history = _WORDY
    server.script("They talked about words.", "Sure.")
    output, thread_key = await _compacting(store, server, history)

    compaction = output.compaction
    assert isinstance(compaction, Compaction)
    assert compaction.expected_length == len(history)
    assert compaction.upto_seq == len(history) - 2
    summary, noted = compaction.head
    assert summary.role == "user"
    assert "compacted at 2026-03-07T15:00:00" in summary.content
    assert "They talked about words." in summary.content
    assert noted == StoredMessage(role="assistant", content="Noted.")
    # The turn's request begins with the summary, then the recent messages word for word.
    turn = server.completions[-1].json["messages"]
    assert turn[1]["content"] == summary.content
    assert [m["content"] for m in turn[3:5]] == [m.content for m in history[-2:]]
    assert await wrapper.history.load(thread_key) == []  # nothing written


async def test_an_earlier_summary_is_carried_whole_and_only_what_followed_is_summarised(
    store: tuple[InteractionWrapper, SettableClock], server: FakeLLMServer
) -> None:
    """Re-summarised at each compaction, cut to 300 characters as a transcript line, a 1.5B
    model's summary lost who the person's sister was (docs/eval.md)."""
    earlier = "Their sister Marta arrives on Saturday. " + "They repaint the hall. " * 12
    head = [
        StoredMessage(role="user", content=f"{EARLIER}, compacted at x: a summary]\n{earlier}"),
        StoredMessage(role="assistant", content="Noted."),
    ]
    history = head + [
        StoredMessage(role=role, content=f"{role} {n} " + "words " * 20)
        for n in range(4)
        for role in ("user", "assistant")
    ]
    server.script("They talked about words.", "Sure.")
    output, _ = await _compacting(store, server, history)

    asked = _asked(server, 0)
    assert "Marta" not in asked and asked.startswith("user: user 0 words")
    assert output.compaction is not None
    summary = output.compaction.head[0].content
    assert summary.endswith(f"\n{earlier.strip()}\nThey talked about words.")


async def test_summaries_past_their_room_are_shortened_together(
    store: tuple[InteractionWrapper, SettableClock], server: FakeLLMServer
) -> None:
    earlier = "Their sister Marta arrives on Saturday. " * 40  # past SUMMARY_CHARS with more
    history = [
        StoredMessage(role="user", content=f"{EARLIER}, compacted at x: a summary]\n{earlier}"),
        StoredMessage(role="assistant", content="Noted."),
        *[StoredMessage(role=r, content=f"{r} " + "words " * 40) for r in ("user", "assistant")],
        *[StoredMessage(role=r, content=f"{r} late") for r in ("user", "assistant")],
    ]
    server.script(
        "They talked about words.",
        # Asked to shorten, a 1.5B model looped on two sentences until its token limit.
        "Marta, their sister, comes Saturday. They paint. " * 20 + "They",
        "Sure.",
    )
    output, _ = await _compacting(store, server, history)

    second = _asked(server, 1)
    assert second.startswith("Earlier summaries, oldest first:\nTheir sister Marta")
    assert second.endswith("They talked about words.")
    assert output.compaction is not None
    assert output.compaction.head[0].content.endswith(
        "]\nMarta, their sister, comes Saturday. They paint. They"
    )  # each sentence once


async def test_the_summary_is_asked_behind_the_turns_own_prefix(
    store: tuple[InteractionWrapper, SettableClock], server: FakeLLMServer
) -> None:
    """Under a system prompt of its own, the summary evicted a one-slot server's cached
    prefix, and the turn after it read ~3,000 tokens again (docs/eval.md)."""
    server.script("They talked about words.", "Sure.")
    await _compacting(store, server, _WORDY)

    summary, turn = (c.json for c in server.completions)
    system = {"role": "system", "content": SYSTEM_PROMPT}
    assert summary["messages"][0] == turn["messages"][0] == system
    assert summary["tools"] == turn["tools"]
    assert _asked(server, 0).startswith("user: user 0 words")


async def test_a_summary_answered_with_a_call_is_asked_again_behind_the_prefix(
    store: tuple[InteractionWrapper, SettableClock], server: FakeLLMServer
) -> None:
    """Asked alone, the one summary of a run cost the turn after it its cached prefix
    (docs/eval.md, thirteenth run): the second ask keeps the turn's prefix too."""
    server.script(
        Reply.tool_call("current_time", "{}"),  # offered the tools, it called one
        "They talked about words.",
        "Sure.",
    )
    output, _ = await _compacting(store, server, _WORDY)

    first, again, turn = (c.json for c in server.completions)
    assert again["messages"][0] == turn["messages"][0] == first["messages"][0]
    assert again["tools"] == turn["tools"]
    assert again["messages"][-1]["content"].startswith(f"(clockbot: {SUMMARY_AGAIN} ")
    assert output.compaction is not None
    assert output.compaction.head[0].content.endswith("]\nThey talked about words.")
    assert output.reply == "Sure." and output.effects == ()  # the call was never run


async def test_a_summary_answered_with_calls_twice_is_asked_alone(
    store: tuple[InteractionWrapper, SettableClock],
    server: FakeLLMServer,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Each answer that was no summary is logged by its kind, never its words."""
    caplog.set_level(logging.INFO, logger="bot.agent")
    server.script(
        Reply.tool_call("current_time", "{}"),
        "",  # nothing, the second time
        "They talked about words.",
        "Sure.",
    )
    output, _ = await _compacting(store, server, _WORDY)

    told = [r.getMessage() for r in caplog.records if "summary request" in r.getMessage()]
    assert told == [
        "a summary request was answered with a call (current_time)",
        "a summary request was answered with nothing",
    ]
    alone = server.completions[2].json
    assert alone["messages"][0] == {"role": "system", "content": SUMMARY_PROMPT}
    assert alone["messages"][1]["content"].startswith("user: user 0 words")
    assert not alone.get("tools")
    assert output.compaction is not None
    assert output.compaction.head[0].content.endswith("]\nThey talked about words.")
    assert output.reply == "Sure." and output.effects == ()


# ------------------------------------------------------------------ retries (Turns)


async def test_a_message_the_model_failed_on_is_answered_when_it_returns(
    store: tuple[InteractionWrapper, SettableClock], agent: Agent, server: FakeLLMServer
) -> None:
    wrapper, clock = store
    turns = _turns(store, agent)
    server.script(Reply.error(500), Reply.error(500), "Sorry for the wait: hello!")
    await _say(turns, clock, "hello?", "kept-1")
    assert await _replies(wrapper) == {"telegram:kept-1#unavailable": UNAVAILABLE.en}
    assert await wrapper.waiting.count() == 1
    assert await wrapper.history.load(THREAD_KEY) == []

    await _say(turns, clock, "hello?", "kept-1")  # the channel's redelivery: not a second turn
    assert len(server.completions) == 1

    assert await turns.retry_once() == 0  # not before the backoff
    clock.advance(seconds=30)
    assert await turns.retry_once() == 1  # still down: kept, the notice not queued again
    await turns.drain()
    assert await _replies(wrapper) == {"telegram:kept-1#unavailable": UNAVAILABLE.en}
    assert await wrapper.waiting.count() == 1

    clock.advance(minutes=1)
    assert await turns.retry_once() == 1
    await turns.drain()
    assert await _replies(wrapper) == {
        "telegram:kept-1#unavailable": UNAVAILABLE.en,
        "telegram:kept-1#reply": "Sorry for the wait: hello!",
    }
    assert await wrapper.waiting.count() == 0  # answered once, then off the list
    clock.advance(hours=1)
    assert await turns.retry_once() == 0
    last = server.completions[-1].json["messages"][-1]["content"]
    assert last.endswith("hello?")
    assert last.startswith("[Runtime time context")
    block = last.split("[/Runtime time context]")[0]
    assert "Answering late: the person wrote this" in block
    history = await wrapper.history.load(THREAD_KEY)
    assert [m.role for m in history] == ["user", "assistant"]  # the question once


async def test_a_committed_turn_lands_once(
    store: tuple[InteractionWrapper, SettableClock], agent: Agent, server: FakeLLMServer
) -> None:
    wrapper, clock = store
    turns = _turns(store, agent)
    server.script(
        Reply.tool_call("remind", json.dumps({"text": "pills", "when": "in 1 hour"})),
        "Noted.",
    )  # fmt: skip
    await _say(turns, clock, "remind me of my pills in an hour", "r1")
    (item,) = await wrapper.recall(user_key="telegram:42", query="pills")
    jobs = {job.key: (job.kind, job.memory_id) for job in await wrapper.outbox.listing()}
    assert jobs == {"telegram:r1#1": ("reminder", item.id), "telegram:r1#reply": ("reply", None)}
    assert [m.role for m in await wrapper.history.load(THREAD_KEY)] == [
        "user", "assistant", "tool", "assistant",
    ]  # fmt: skip
    assert await wrapper.waiting.count() == 0


# ------------------------------------------------------------------ proactive


async def _night_reminder(
    wrapper: InteractionWrapper, clock: SettableClock, *, worker: str = "w1"
) -> OutboxItem:
    """A reminder due at 02:14 for a person in Los Angeles, claimed by `worker`."""
    await wrapper.on_user_message(text=f"clock: home tz {LA}", message_id="tz", **DM)
    clock.set(NIGHT)
    await staged.queued(
        wrapper.outbox, kind="reminder", channel="telegram", thread_id="dm:42", thread_key=THREAD_KEY,
        user_key="telegram:42", user_id="42", text="take the pill", due_at=NIGHT, now=clock.now(),
    )  # fmt: skip
    (item,) = await wrapper.outbox.claim_due(
        now=clock.now(), worker=worker, lease=timedelta(minutes=2)
    )
    return item


async def test_a_reminder_outside_the_window_is_sent_unless_the_agent_defers(
    store: tuple[InteractionWrapper, SettableClock], agent: Agent, server: FakeLLMServer
) -> None:
    wrapper, clock = store
    item = await _night_reminder(wrapper, clock)
    server.script("Time to take the pill.")
    sent = await agent.proactive_turn(item, LA, [])
    prompt = server.completions[0].json["messages"][-1]["content"]
    assert "outside their usual contact window" in prompt
    assert "02:14" in prompt
    assert "take the pill" in prompt
    assert (sent.text, sent.defer_until, sent.reason) == ("Time to take the pill.", None, "")
    assert [m.role for m in sent.messages] == ["user", "assistant"]

    server.script(Reply.tool_call("defer", json.dumps({"until": "08:00", "reason": "asleep"})))
    deferred = await agent.proactive_turn(item, LA, [])
    assert deferred.defer_until == datetime(2026, 4, 29, 15, 0, tzinfo=UTC)  # 08:00 in LA
    assert deferred.reason == "asleep"
    assert deferred.text == "take the pill"  # no text from the model: as written
    _, answer, result = deferred.messages
    assert answer.tool_calls[0].name == "defer"
    assert json.loads(result.content) == {"ok": True, "deferred_until": "2026-04-29T15:00:00+00:00"}
    # Pure: the job is as it was.
    (still,) = await wrapper.outbox.listing()
    assert (still.status, still.due_at, still.decided_at) == ("claimed", NIGHT, None)


async def test_a_deferral_written_as_text_defers_and_an_unknown_call_sends_as_written(
    store: tuple[InteractionWrapper, SettableClock], agent: Agent, server: FakeLLMServer
) -> None:
    """Issue 36: small models write their calls as text (`bot.llm.text_calls`)."""
    wrapper, clock = store
    item = await _night_reminder(wrapper, clock)
    written = json.dumps({"name": "defer", "arguments": {"until": "08:00", "reason": "asleep"}})
    server.script(
        Reply.text(f"<tool_call>{written}</tool_call>"),
        Reply.text('```json\n{"name": "wake_them", "arguments": {}}\n```'),
    )
    deferred = await agent.proactive_turn(item, LA, [])
    assert (deferred.defer_until, deferred.reason) == (
        datetime(2026, 4, 29, 15, 0, tzinfo=UTC),
        "asleep",
    )
    assert deferred.text == "take the pill"
    sent = await agent.proactive_turn(item, LA, [])
    assert (sent.text, sent.defer_until) == ("take the pill", None)  # never the call's text


@pytest.mark.parametrize(
    "written",
    [
        "take the pill: remind(text='take the pill', when='now')",
        "<tools><function><name>send_message</name></function></tools> take the pill",
        "Time to take the pill. It is written by the system, not by the person, and it is the "
        "only source of the current time.",
    ],
)
async def test_machinery_in_a_due_reminder_sends_it_as_written(
    store: tuple[InteractionWrapper, SettableClock],
    agent: Agent,
    server: FakeLLMServer,
    written: str,
) -> None:
    """A due job's text from the model is checked as a reply is (`bot.agent.reply_checks`)."""
    wrapper, clock = store
    item = await _night_reminder(wrapper, clock)
    server.script(written)
    sent = await agent.proactive_turn(item, LA, [])
    assert (sent.text, sent.defer_until) == ("take the pill", None)


async def test_only_defer_acts_in_a_proactive_turn(
    store: tuple[InteractionWrapper, SettableClock], agent: Agent, server: FakeLLMServer
) -> None:
    wrapper, clock = store
    item = await _night_reminder(wrapper, clock)
    server.script(
        Reply.calls(
            ScriptedToolCall("remember", json.dumps({"content": "more pills"})),
            ScriptedToolCall("defer", json.dumps({"until": "whenever", "reason": "x"})),
            content="Pill time!",
        )
    )
    output = await agent.proactive_turn(item, LA, [])
    assert (output.text, output.defer_until) == ("Pill time!", None)
    _, _, remembered, defer = output.messages
    assert "only defer" in json.loads(remembered.content)["error"]
    assert json.loads(defer.content)["ok"] is False  # an unreadable time: sent, not held
    assert len(server.completions) == 1  # one model call, no tool rounds
    assert await wrapper.recall(user_key="telegram:42", query="pills") == []


async def test_a_message_put_in_send_message_is_the_message_sent(
    store: tuple[InteractionWrapper, SettableClock], agent: Agent, server: FakeLLMServer
) -> None:
    """Qwen2.5-Coder-1.5B answered a due reminder with send_message and no words (docs/eval.md)."""
    wrapper, clock = store
    item = await _night_reminder(wrapper, clock)
    server.script(
        Reply.calls(
            ScriptedToolCall("send_message", json.dumps({"text": "Time to take your pill!"}))
        )
    )
    output = await agent.proactive_turn(item, LA, [])
    assert (output.text, output.defer_until) == ("Time to take your pill!", None)
    assert json.loads(output.messages[-1].content)["ok"] is True


async def test_a_model_outage_sends_the_reminder_as_written(
    store: tuple[InteractionWrapper, SettableClock],
) -> None:
    wrapper, clock = store
    item = await _night_reminder(wrapper, clock)
    provider = OpenAIProvider(
        base_url="http://127.0.0.1:9/v1", model="m", api_key="k", max_retries=0, timeout=2
    )
    agent = Agent(
        wrapper=wrapper, provider=provider, clock=clock, contact_window=DEFAULT_CONTACT_WINDOW
    )
    output = await agent.proactive_turn(item, LA, [])
    await provider.aclose()
    assert (output.text, output.messages, output.defer_until) == ("take the pill", (), None)


async def test_a_deferral_is_committed_with_the_job(
    store: tuple[InteractionWrapper, SettableClock], agent: Agent, server: FakeLLMServer
) -> None:
    wrapper, clock = store
    item = await _night_reminder(wrapper, clock)
    server.script(Reply.tool_call("defer", json.dumps({"until": "08:00", "reason": "asleep"})))
    decision = await _turns(store, agent).proactive(item, worker="w1")
    assert decision is not None
    assert decision.defer_until == datetime(2026, 4, 29, 15, 0, tzinfo=UTC)
    (deferred,) = await wrapper.outbox.listing()
    assert deferred.status == "deferred"
    assert deferred.defer_reason == "asleep"
    assert deferred.due_at == datetime(2026, 4, 29, 15, 0, tzinfo=UTC)


async def test_a_proactive_turn_sees_the_thread_and_the_next_turn_sees_it(
    store: tuple[InteractionWrapper, SettableClock], agent: Agent, server: FakeLLMServer
) -> None:
    wrapper, clock = store
    turns = _turns(store, agent)
    server.script("Sure.", "Time to stretch!", "Glad you did.")
    await _say(turns, clock, "nudge me to stretch at 15:30", "p1")
    await staged.queued(
        wrapper.outbox, kind="reminder", channel="telegram", thread_id="dm:42", thread_key=THREAD_KEY,
        user_key="telegram:42", text="stretch", due_at=clock.now(), now=clock.now(),
    )  # fmt: skip
    clock.advance(minutes=30)
    jobs = await wrapper.outbox.claim_due(now=clock.now(), worker="w1", lease=timedelta(minutes=2))
    (job,) = [j for j in jobs if j.kind == "reminder"]
    decision = await turns.proactive(job, worker="w1")
    assert decision is not None
    assert decision.text == "Time to stretch!"
    clock.advance(minutes=5)
    await _say(turns, clock, "done, thanks", "p2")
    first, proactive, after = (c.json["messages"] for c in server.completions)
    # The proactive request is the conversation so far plus the job, after the same prefix.
    assert proactive[: len(first)] == first
    assert proactive[len(first)]["content"] == "Sure."
    assert "A reminder the person asked for is due now: stretch" in proactive[-1]["content"]
    # The next turn begins with the proactive request and what was sent.
    assert after[: len(proactive)] == proactive
    assert after[len(proactive)]["content"] == "Time to stretch!"
    assert after[-1]["content"].endswith("done, thanks")


# ------------------------------------------------------------------ console


async def test_console_chat_with_no_llm(tmp_path: Path) -> None:
    settings = Settings(home=tmp_path)
    clock = SettableClock(DAY_ONE)
    lines = "clock it: going for a run\nremind me in 1 minute to stretch\nwhat time is it in Tokyo\nwhat's coming up\n"
    out = io.StringIO()
    await chat(settings, stdin=io.StringIO(lines), stdout=out, clock=clock, poll_interval=0.01)
    replies = out.getvalue().splitlines()
    assert replies[0] == "clockbot> Clocked: going for a run."
    assert replies[1] == "clockbot> I'll remind you Saturday 7 Mar, 15:01 (in 1 minute)."
    assert replies[2] == "clockbot> It is 00:00 on Sunday 8 Mar in Tokyo (Asia/Tokyo)."
    assert replies[3:5] == [
        "clockbot> Coming up:",
        "- stretch: Saturday 7 Mar, 15:01 (in 1 minute)",
    ]
    clock.advance(minutes=1)
    later = io.StringIO()
    await chat(settings, stdin=io.StringIO(""), stdout=later, clock=clock, poll_interval=0.01)
    assert later.getvalue().splitlines() == ["clockbot (reminder)> Reminder: stretch"]


async def test_console_chat_answers_every_piped_line_whatever_the_turn_limit(
    tmp_path: Path,
) -> None:
    """Issue 36: 40 piped lines met the per-person limit from the 21st on, unanswered."""
    strict = LimitSettings(turns_per_minute=0.01, burst=2, channel_turns_per_minute=0.01)
    settings = Settings(home=tmp_path, limit=strict)
    lines = "".join(f"what time is it in Tokyo? ({n})\n" for n in range(40))
    out = io.StringIO()
    await chat(settings, stdin=io.StringIO(lines), stdout=out, poll_interval=0.01)
    replies = out.getvalue().splitlines()
    assert len(replies) == 40
    assert all(r.startswith("clockbot> It is ") for r in replies)


@pytest.mark.parametrize(
    ("written", "job", "sent"),
    [
        ("Pill time!", "take the pill", "Pill time!"),
        ("Time to take your vitamins!", "take my vitamins", "Time to take your vitamins!"),
        ("I'm glad I could help!", "call my parents", "call my parents"),
        (
            "The reminder has already been scheduled for today at 7 am.",
            "take my vitamins",
            "take my vitamins",
        ),
        (
            "I'm sorry, but I can't assist with that.",
            "call Ana about the keys",
            "call Ana about the keys",
        ),
        ("", "stretch", "stretch"),
        ("Gym o'clock!", "gym", "Gym o'clock!"),
        ("Hora de llamar al dentista.", "llamar al dentista", "Hora de llamar al dentista."),
    ],
)
def test_a_due_job_always_says_what_it_reminds_of(written: str, job: str, sent: str) -> None:
    """Issue 36, third run: a proactive turn answered "I'm glad I could help!" for a reminder."""
    from bot.agent.turn import _carrying

    assert _carrying(written, job) == sent


async def test_a_proactive_turn_that_drops_the_reminder_sends_it_as_written(
    store: tuple[InteractionWrapper, SettableClock], agent: Agent, server: FakeLLMServer
) -> None:
    wrapper, clock = store
    item = await _night_reminder(wrapper, clock)
    server.script("I'm glad I could help! Let me know if you have any other questions.")
    sent = await agent.proactive_turn(item, LA, [])
    assert (sent.text, sent.defer_until) == ("take the pill", None)
    assert sent.messages[-1].content.startswith("I'm glad")  # the history keeps what it wrote


async def test_a_zone_set_in_the_turn_settles_only_the_zone_questions(
    store: tuple[InteractionWrapper, SettableClock], agent: Agent, server: FakeLLMServer
) -> None:
    """Issue 61: a zone set in the turn dropped every other question its tools left too
    ("which reminder?"), and the person read "Done." over a cancel that never happened."""
    wrapper, clock = store
    zone = json.dumps({"zone": "Europe/Lisbon", "scope": "home"})
    cancel = json.dumps({"id": "r99"})
    server.script(
        Reply.calls(ScriptedToolCall("set_timezone", zone), ScriptedToolCall("cancel_reminder", cancel)),
        "Lisbon it is, thanks for telling me.",
    )  # fmt: skip
    ref = _ref(clock, "I live in Lisbon now, and cancel r99")
    output = await agent.answer(await wrapper.receive(ref), [], ref)
    assert output.reply.startswith("Lisbon it is, thanks for telling me.\n\n")
    assert "r99" in output.reply.split("\n\n", 1)[1]  # the question about r99, for the person
    assert any(isinstance(e, ZoneChange) for e in output.effects)
