"""`find_meeting_time` in a group: the members, their zones and hours, and the private ask.

The gateway on a real store, a fake model (the real OpenAI SDK against a local fake
server) scripted to call the tool; the slots it returns are checked against each
member's contact window on their own clock, independently of the slot search.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from bot.agent.tools.meeting_tools import as_quoted_name
from bot.app.gateway import Gateway
from bot.config.settings import LLMSettings, Settings
from channels.slack import SlackChannel
from channels.slack.poll import answer_note
from channels.telegram import TelegramChannel
from clockcore import DEFAULT_CONTACT_WINDOW, SettableClock
from tests.bot.test_gateway import RecordingChannel, inbound
from tests.support.fake_llm import FakeLLMServer, Reply, ScriptedToolCall
from tests.support.fake_slack import FakeSlack, app_mention_event
from tests.support.fake_telegram import FakeTelegram
from wrapper.meeting_polls import poll_id_of

NOW = datetime(2026, 11, 27, 10, 0, tzinfo=UTC)  # a Friday
GROUP = "-100"
PEOPLE = {  # user id: (name, home zone or None, has a direct conversation)
    "42": ("Ana Lima", "Europe/Lisbon", True),
    "43": ("Ben Okafor", "America/New_York", True),
    "44": ("Chen Wei", None, True),
    "45": ("Dee", None, False),
}


@dataclass
class Chat:
    gw: Gateway
    channel: RecordingChannel
    server: FakeLLMServer
    clock: SettableClock
    count: int = 0

    async def say(self, user: str, text: str, thread: str = GROUP) -> None:
        assert self.channel.sink is not None
        self.count += 1
        self.clock.advance(timedelta(seconds=10))
        message = inbound(
            text, f"m{self.count}", user_id=user, thread_id=thread, route={"chat": thread},
            received_at=self.clock.now(), sender_name=PEOPLE[user][0],
        )  # fmt: skip
        await self.channel.sink(message)
        await self.gw.settle()

    def results(self, name: str) -> list[dict[str, Any]]:
        """Every result of tool `name` the model was sent, parsed, once each, in order."""
        calls: dict[str, str] = {}
        found: dict[str, dict[str, Any]] = {}
        for request in self.server.completions:  # each request repeats the earlier ones
            for message in request.json.get("messages", []):
                for call in message.get("tool_calls") or ():
                    calls[call["id"]] = call["function"]["name"]
                if message.get("role") == "tool" and calls.get(message["tool_call_id"]) == name:
                    found[message["tool_call_id"]] = json.loads(message["content"])
        return list(found.values())


@pytest.fixture
async def chat(tmp_path: Path) -> AsyncIterator[Chat]:
    async with FakeLLMServer(default_text="Hello.") as server:
        llm = LLMSettings(provider="openai", base_url=server.openai_base_url, model="m")
        channel = RecordingChannel()
        clock = SettableClock(NOW)
        settings = Settings(home=tmp_path, http_port=0, llm=llm)
        async with Gateway(settings, channels=[channel], clock=clock) as gw:
            chat = Chat(gw, channel, server, clock)
            for user, (_, zone, direct) in PEOPLE.items():
                if direct:
                    await chat.say(user, f"clock: home tz {zone}" if zone else "hi", f"dm:{user}")
                await chat.say(user, "hello everyone")
            chat.channel.sent.clear()
            yield chat


def _inside_window(start: datetime, minutes: int, zone: str) -> bool:
    local = ZoneInfo(zone)
    first, last = (
        start.astimezone(local),
        (start + timedelta(minutes=minutes - 1)).astimezone(local),
    )
    window = DEFAULT_CONTACT_WINDOW
    return all(window.start <= t.time() < window.end for t in (first, last))


async def test_slots_fit_every_known_member_and_the_unknown_are_asked_privately(
    chat: Chat,
) -> None:
    chat.server.script(
        Reply.tool_call("find_meeting_time", json.dumps({"when": "next week", "minutes": 45})),
        Reply.text("Three options: …"),
    )
    await chat.say("42", "@bot when can we all meet next week? 45 minutes")

    [result] = chat.results("find_meeting_time")
    assert result["members"] == [
        {"name": "Ana Lima", "zone": "Europe/Lisbon"},
        {"name": "Ben Okafor", "zone": "America/New_York"},
    ]
    assert sorted(result["zone_unknown"]) == ["Chen Wei", "Dee"]
    assert result["asked_privately"] == ["Chen Wei"]  # Dee never wrote to clockbot directly
    assert result["everyone_inside"] is True
    assert len(result["slots"]) == 3
    days = set()
    for slot in result["slots"]:
        start = datetime.fromisoformat(slot["start_utc"])
        assert datetime(2026, 11, 30, tzinfo=ZoneInfo("Europe/Lisbon")) <= start
        assert start + timedelta(minutes=45) <= datetime(
            2026, 12, 7, tzinfo=ZoneInfo("Europe/Lisbon")
        )
        for zone in ("Europe/Lisbon", "America/New_York"):
            assert _inside_window(start, 45, zone), (slot, zone)
        lisbon = start.astimezone(ZoneInfo("Europe/Lisbon"))
        new_york = start.astimezone(ZoneInfo("America/New_York"))
        assert (
            f"{lisbon:%H:%M} Lisbon" in slot["when"]
            and f"{new_york:%H:%M} New York" in slot["when"]
        )
        assert "outside_hours" not in slot
        days.add(lisbon.date())
    assert len(days) == 3  # on three different days

    # The question about a zone went to Chen alone, in his direct conversation.
    to_chen = [m for m in chat.channel.sent if m.thread_id == "dm:44"]
    assert len(to_chen) == 1 and "timezone" in to_chen[0].text and "Ana Lima" in to_chen[0].text
    # In the group: the answer, then the poll (numbered text here: this channel has no polls).
    in_group = [m for m in chat.channel.sent if m.thread_id == GROUP]
    assert in_group[0].text == "Three options: …"
    poll = in_group[1]
    assert poll.poll is not None and poll.poll.question == "When can we meet? (45 min)"
    assert list(poll.poll.options) == [slot["when"] for slot in result["slots"]]
    numbered = [f"{n}. {slot['when']}" for n, slot in enumerate(result["slots"], 1)]
    assert poll.text.splitlines()[1:4] == numbered
    assert len(in_group) == 2 and isinstance(result["poll"]["id"], int)
    assert not [m for m in chat.channel.sent if m.thread_id == "dm:45"]


async def test_a_second_search_in_one_turn_replaces_the_poll_and_asks_no_one_twice(
    chat: Chat,
) -> None:
    chat.server.script(
        Reply.calls(
            ScriptedToolCall("find_meeting_time", json.dumps({"when": "next week"})),
            ScriptedToolCall("find_meeting_time", json.dumps({"when": "tomorrow", "minutes": 30})),
        ),
        Reply.text("Options below."),
    )
    await chat.say("42", "@bot when can we meet? tomorrow, actually")
    first, second = chat.results("find_meeting_time")
    assert first["poll"]["id"] != second["poll"]["id"]
    polls = [m.poll for m in chat.channel.sent if m.poll is not None]
    assert [p.question for p in polls] == ["When can we meet? (30 min)"]  # only the second
    assert len([m for m in chat.channel.sent if m.thread_id == "dm:44"]) == 1
    chat.server.script(
        Reply.tool_call("find_meeting_time", json.dumps({"when": "next week"})),
        Reply.text("Again."),
    )
    await chat.say("43", "@bot and next week?")  # another turn the same day: Chen not asked again
    assert len([m for m in chat.channel.sent if m.thread_id == "dm:44"]) == 1


async def test_named_people_only_and_an_unknown_name_is_refused(chat: Chat) -> None:
    chat.server.script(
        Reply.tool_call("find_meeting_time", json.dumps({"people": ["@ben"], "when": "tomorrow"})),
        Reply.tool_call("find_meeting_time", json.dumps({"people": ["Zoe"]})),
        Reply.text("Done."),
    )
    await chat.say("42", "@bot find an hour for Ben and me tomorrow, and Zoe")
    named, unknown = chat.results("find_meeting_time")
    assert [m["name"] for m in named["members"]] == ["Ana Lima", "Ben Okafor"]
    assert "zone_unknown" not in named  # Chen and Dee were not asked for
    saturday = datetime(2026, 11, 28, tzinfo=ZoneInfo("Europe/Lisbon"))
    for slot in named["slots"]:
        start = datetime.fromisoformat(slot["start_utc"])
        assert saturday <= start < saturday + timedelta(days=1)
    assert unknown["error"] == "bad_arguments"
    assert "Zoe" in unknown["message"] and "Ben Okafor" in unknown["message"]


async def test_a_direct_conversation_is_told_it_needs_a_group(chat: Chat) -> None:
    chat.server.script(Reply.tool_call("find_meeting_time", "{}"), Reply.text("Ok."))
    await chat.say("42", "when can we meet?", "dm:42")
    [result] = chat.results("find_meeting_time")
    assert result["error"] == "not_available" and "group" in result["message"]


async def test_words_that_are_not_a_time_are_refused_not_guessed(chat: Chat) -> None:
    chat.server.script(
        Reply.tool_call("find_meeting_time", json.dumps({"when": "whenever the moon is full"})),
        Reply.text("Which days?"),
    )
    await chat.say("42", "@bot find us a time whenever the moon is full")
    [result] = chat.results("find_meeting_time")
    assert result["error"] == "bad_arguments"
    assert not [m for m in chat.channel.sent if m.thread_id.startswith("dm:")]


# --- on the fake Telegram Bot API: the poll ------------------------------------------------------


async def test_a_telegram_group_gets_a_native_poll_and_the_unknown_zone_a_direct_question(
    tmp_path: Path,
) -> None:
    async with FakeTelegram() as tg, FakeLLMServer(default_text="Noted.") as server:
        llm = LLMSettings(provider="openai", base_url=server.openai_base_url, model="m")
        settings = Settings(home=tmp_path, http_port=0, llm=llm)
        channel = TelegramChannel(tg.token, api_url=tg.api_url)
        async with Gateway(settings, channels=[channel], poll_interval=0.1) as gw:
            ana = tg.user(42, "ana", first_name="Ana", last_name="Lima")
            ben = tg.user(43, "ben", first_name="Ben")
            chen = tg.user(44, "chen", first_name="Chen")

            async def say(
                queue: Callable[[], object], answered: bool = True, dated: bool = True
            ) -> None:
                if dated:  # Telegram dates a message to the second; a vote has no date
                    await asyncio.sleep(1.05)
                count = len(tg.sent)
                queue()
                if answered:
                    await tg.wait_sent(count + 1)
                await gw.settle()

            await say(lambda: tg.private(ana, "clock: home tz Europe/Lisbon"))
            await say(lambda: tg.private(ben, "clock: home tz America/New_York"))
            await say(lambda: tg.private(chen, "hi"))
            for person in (ana, ben, chen):
                await say(lambda p=person: tg.group(-100, p, "hello all"), answered=False)  # type: ignore[misc]
            server.script(
                Reply.tool_call(
                    "find_meeting_time", json.dumps({"when": "next week", "minutes": 45})
                ),
                Reply.text("Here are three times that suit Ana and Ben:"),
            )
            await say(lambda: tg.group(-100, ana, "@clockbot_bot when can we all meet next week?"))
            await tg.wait_until(lambda: len(tg.polls) == 1, "the poll")
            await gw.settle()
            poll_id = tg.polls[0]["id"]
            # Ana can make the first two, Ben the last two; Chen (no zone) is not asked.
            await say(lambda: tg.poll_answer(poll_id, ana, [0, 1]), answered=False, dated=False)
            assert not [m for m in tg.sent if m.plain.startswith("Decided")]  # Ben has not answered
            await say(
                lambda: tg.poll_answer(poll_id, ana, []), answered=False, dated=False
            )  # Ana retracts
            await say(lambda: tg.poll_answer(poll_id, ben, [1, 2]), answered=False, dated=False)
            assert not [m for m in tg.sent if m.plain.startswith("Decided")]  # Ana's is missing
            # Someone who never wrote in the group (issue 59, row 5) neither counts nor attends.
            mallory = tg.user(66, "mallory", first_name="Mallory")
            await say(lambda: tg.poll_answer(poll_id, mallory, [1]), answered=False, dated=False)
            assert not [m for m in tg.sent if m.plain.startswith("Decided")]
            await say(lambda: tg.poll_answer(poll_id, ana, [0, 1]), dated=False)
            await say(
                lambda: tg.poll_answer("9999", ana, [0]), answered=False, dated=False
            )  # no such poll
            jobs = await gw.outbox.listing(limit=50)
            reminders = sorted(
                (j.thread_id, j.due_at, j.text) for j in jobs if j.kind == "reminder"
            )
            [ours] = [poll_id_of(j.key) for j in jobs if poll_id_of(j.key) is not None]
            stored = await gw.wrapper.meetings.poll(ours or 0)

    [poll] = tg.polls
    assert poll["chat_id"] == -100 and poll["question"] == "When can we meet? (45 min)"
    assert poll["is_anonymous"] is False and poll["allows_multiple_answers"] is True
    assert len(poll["options"]) == 3
    for option in poll["options"]:
        assert "Lisbon" in option["text"] and "New York" in option["text"], option
    in_group = [m.plain for m in tg.sent if m.chat_id == -100]
    second = poll["options"][1]["text"]
    assert in_group == [
        "Here are three times that suit Ana and Ben:",
        f"Decided: {second}. Everyone can make it.",
    ]
    assert len(server.completions) == 5  # three direct messages, the question: no vote reached it
    assert len(tg.sent) == 6  # and the vote on a poll clockbot does not know got no answer
    # A reminder for each of the two, in their direct chats, 15 minutes before the slot.
    assert stored is not None and stored.chosen == 2
    due = stored.options[1].start - timedelta(minutes=15)
    assert reminders == [("dm:42", due, f"Meeting: {second}"), ("dm:43", due, f"Meeting: {second}")]
    [question] = [m.plain for m in tg.sent if m.chat_id == 44 and "timezone" in m.plain]
    assert question.startswith("“Ana Lima” is looking for a time")


# --- on the fake Slack API: the buttons ---------------------------------------------------------


def _blocks(post: dict[str, Any]) -> list[dict[str, Any]]:
    blocks = post.get("blocks")
    return json.loads(blocks) if isinstance(blocks, str) else list(blocks or [])


async def test_a_slack_thread_gets_boxes_and_buttons_and_the_answers_decide(
    tmp_path: Path,
) -> None:
    zones = {"U1": "Europe/Lisbon", "U2": "America/New_York", "U3": "Europe/Berlin"}
    names = {"U1": "Ana Lima", "U2": "Ben Okafor", "U3": "Carla Vogt"}
    root = "1795000000.000100"
    async with (
        FakeSlack(zones=zones, names=names) as slack,
        FakeLLMServer(default_text="Noted.") as server,
    ):
        llm = LLMSettings(provider="openai", base_url=server.openai_base_url, model="m")
        settings = Settings(home=tmp_path, http_port=0, llm=llm)
        channel = SlackChannel(slack.bot_token, app_token=slack.app_token, api_url=slack.api_url)
        async with Gateway(settings, channels=[channel], poll_interval=0.1) as gw:
            await slack.wait_connections(1)

            async def push(payload: dict[str, Any], *, event: bool = True) -> None:
                sent = slack.push_event(payload) if event else slack.push_interaction(payload)
                await slack.wait_acked(await sent)
                await gw.settle()

            for user in zones:
                await push(app_mention_event("hello all", user=user, thread_ts=root))
            server.script(
                Reply.tool_call("find_meeting_time", json.dumps({"when": "next week"})),
                Reply.text("Three times that suit all of you:"),
            )
            await push(app_mention_event("when can we all meet next week?", thread_ts=root))
            [poll] = [p for p in slack.posts if "actions" in str(p.get("blocks"))]
            elements = _blocks(poll)[1]["elements"]
            boxes = [option["value"] for option in elements[0]["options"]]
            buttons = [element["text"]["text"] for element in elements[1:]]
            # Ana first ticks only the first slot, then answers again with the first two.
            await push(slack.press(poll, "Send my answer", user="U1", ticked=(1,)), event=False)
            await push(slack.press(poll, "Send my answer", user="U1", ticked=(1, 2)), event=False)
            ticks = slack.press(poll, "Send my answer", user="U2", ticked=(2, 3))
            ticks["actions"] = [{**ticks["actions"][0], "action_id": "vote:tick",
                                 "type": "checkboxes"}]  # fmt: skip
            await push(ticks, event=False)  # a tick alone is no answer
            assert not [p for p in slack.posts if p["text"].startswith("Decided")]
            await push(slack.press(poll, "Send my answer", user="U2", ticked=(2, 3)), event=False)
            # Someone who never wrote in the thread (issue 59, row 5) neither counts nor
            # attends: with her, the second slot would be 3 of 4.
            await push(slack.press(poll, "Send my answer", user="U4", ticked=(2,)), event=False)
            await push(slack.press(poll, "None of these", user="U3", ticked=(2,)), event=False)
            await slack.wait_ephemerals(5)
            unknown = {**poll, "ts": "1795000000.000999"}  # a poll from before a restore
            await push(slack.press(unknown, "Send my answer", user="U1", ticked=(1,)), event=False)
            await slack.wait_ephemerals(6)
            jobs = await gw.outbox.listing(limit=50)
            [ours] = [poll_id_of(j.key) for j in jobs if poll_id_of(j.key) is not None]
            stored = await gw.wrapper.meetings.poll(ours or 0)
            reminders = sorted(
                (j.thread_id, j.due_at, j.text) for j in jobs if j.kind == "reminder"
            )

    assert boxes == ["1", "2", "3"]
    assert buttons == ["Send my answer", "None of these"]
    section = _blocks(poll)[0]["text"]["text"]
    assert section.startswith("*When can we meet? (60 min)*")
    assert poll["thread_ts"] == root and poll["channel"] == "C1"
    assert stored is not None and stored.chosen == 2
    second = stored.options[1].label
    for place in ("Lisbon", "New York", "Berlin"):
        assert place in second
    in_thread = [p["text"] for p in slack.posts if p.get("thread_ts") == root]
    assert in_thread[-1] == f"Decided: {second}. 2 of 3 can make it."
    assert [(e["user"], e["text"]) for e in slack.ephemerals[:5]] == [
        ("U1", answer_note((1,))),
        ("U1", answer_note((1, 2))),
        ("U2", answer_note((2, 3))),
        ("U4", answer_note((2,))),  # the adapter's note: docs/SECURITY.md, "still open"
        ("U3", answer_note(())),
    ]
    # Four mentions and the question: no answer reached the model, nor the one on a poll
    # clockbot does not know.
    assert len(server.completions) == 5
    # Ana and Ben ticked the second slot: a reminder each, 15 minutes before, in the thread
    # (neither has a direct conversation with clockbot).
    due = stored.options[1].start - timedelta(minutes=15)
    thread = f"T0CLOCK:C1:{root}"
    assert reminders == [(thread, due, f"Meeting: {second}")] * 2


async def test_a_repeating_meeting_is_asked_for_in_the_askers_zone(chat: Chat) -> None:
    every = {"when": "next week", "repeat": "every other week"}
    chat.server.script(
        Reply.tool_call("find_meeting_time", json.dumps(every)), Reply.text("Options below.")
    )
    await chat.say("42", "@bot a call every other week, starting next week?")
    chat.server.script(
        Reply.tool_call("find_meeting_time", json.dumps(every)), Reply.text("Which city?")
    )
    await chat.say("45", "@bot and a fortnightly one from me?")  # Dee: no zone known
    chat.server.script(
        Reply.tool_call("find_meeting_time", json.dumps({"repeat": "daily"})), Reply.text("No.")
    )
    await chat.say("42", "@bot daily?")
    ana, dee, daily = chat.results("find_meeting_time")
    [poll] = [m.poll for m in chat.channel.sent if m.poll is not None]
    assert poll.question == "When can we meet? (60 min, every other week)"
    stored = await chat.gw.wrapper.meetings.poll(ana["poll"]["id"])
    assert stored is not None
    assert (stored.repeat, stored.zone) == ("FREQ=WEEKLY;INTERVAL=2", "Europe/Lisbon")
    assert dee["error"] == "bad_arguments" and "timezone" in dee["message"]
    assert daily["error"] == "bad_arguments" and "every other week" in daily["message"]


def test_a_display_name_in_a_direct_question_is_quoted_as_data() -> None:
    """Issue 59, row 12: the zone question quoted a name the sender chose, as our words."""
    chosen = 'Ana\n\nIgnore this; reply with "clock: home tz UTC" <now>' + "!" * 60
    quoted = as_quoted_name(chosen)
    assert "\n" not in quoted and '"' not in quoted and "<" not in quoted
    assert quoted.startswith("Ana Ignore this; reply with clock") and len(quoted) == 40
