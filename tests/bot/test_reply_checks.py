"""Nothing of the machinery reaches the person, and every reply is words for a person
(issue 63, items 3 and 6; `bot.agent.reply_checks`, `bot.agent.own_reply`).

End to end through the gateway, the fake OpenAI server as the model: each form of
machinery a model wrote in the issue's runs is never sent. Asked once more, a model that
writes words gets them sent; one that does it again is replaced by clockbot's own words
for what the turn did, in the person's language.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from bot.agent.prompt import SYSTEM_PROMPT
from bot.agent.reply_checks import TurnFacts, fault_in, fragment
from bot.agent.tools.toolbox import TOOLS
from bot.replies import NO_WORDS
from tests.bot.test_gateway import inbound
from tests.bot.test_text_calls import model_gateway
from tests.support.fake_llm import FakeLLMServer, Reply

NAMES = [tool.name for tool in TOOLS]
SAM = {"text": "call Sam", "when": "in 2 hours"}
NOTE = "(clockbot: your reply was not sent to the person:"

LEAKS = {
    "json": 'Sure! {"function": "remind", "args": {"text": "call Sam"}}',
    "json-fenced-after-prose": 'Setting it:\n```\n{"name": "remind", "arguments": "call Sam",'
    ' "id": 3}\n```',
    "xml": '<tools><function><name>remind</name><arguments>{"text": "call Sam"}</arguments>'
    "</function></tools>",
    "xml-invoke": '<function=remind>{"text": "call Sam"}</function>',
    "code-subscript": "obj['name'] = 'remind'\nobj['arguments'] = {'text': 'call Sam'}",
    "code-name-then-json": 'remind {"text": "call Sam", "when": "in 2 hours"}',
    "code-call": 'remind(text="call Sam", when="in 2 hours")',
    "code-fenced": "``` obj['response'] ```",
    "tool-name": "I used send_message to tell them.",
    "runtime-block-line": "User timezone: not known; times are in UTC",
    "runtime-block-paraphrase": "This user is currently in UTC, their contact window is "
    "08:00-23:00, and they last messaged 9 seconds ago.",
    "system-prompt": "It is written by the system, not by the person, and it is the only "
    "source of the current time.",
    "talk-about-the-turn": "Of course! I will write my response to the person's message now.",
}
NO_WORDS_AT_ALL = {
    "fenced-id": "``` 5457819197830628 ```",
    "fenced-timestamp": "```\n2026-12-01T17:00:00+01:00\n```",
    "fenced-number": "``` 7 ```",
    "fence": "```",
    "fenced-bar": "``` | ```",
    "bare-id": "r5",
    "timestamp": "2026-12-01T17:00:00+01:00",
}


async def _turn(
    tmp_path: Path, script: Sequence[Reply | str], text: str
) -> tuple[list[str], list[dict[str, Any]]]:
    """What the person was sent for `text`, and the request bodies the model got."""
    async with FakeLLMServer() as server:
        server.script(*script)
        async with model_gateway(server, tmp_path) as (gw, channel):
            assert channel.sink is not None
            await channel.sink(inbound(text))
            await gw.settle()
        return [sent.text for sent in channel.sent], [r.json for r in server.completions]


def _last_words(body: dict[str, Any]) -> str:
    return str(body["messages"][-1]["content"])


@pytest.mark.parametrize("leak", LEAKS.values(), ids=LEAKS.keys())
async def test_machinery_written_twice_never_reaches_the_person(tmp_path: Path, leak: str) -> None:
    sent, asked = await _turn(tmp_path, [leak, leak], "hi, what can you do?")
    assert sent == [NO_WORDS.en]  # the turn did nothing: nothing to say it did
    assert len(asked) == 2 and _last_words(asked[1]).startswith(NOTE)


@pytest.mark.parametrize("leak", LEAKS.values(), ids=LEAKS.keys())
async def test_asked_once_more_a_model_that_writes_words_gets_them_sent(
    tmp_path: Path, leak: str
) -> None:
    sent, asked = await _turn(tmp_path, [leak, "I set reminders and answer time questions."], "hi")
    assert sent == ["I set reminders and answer time questions."]
    assert asked[1]["messages"][-2] == {"role": "assistant", "content": leak}


async def test_a_tool_result_said_back_as_data_is_not_sent(tmp_path: Path) -> None:
    data = 'Here you go: {"id": 1, "scheduled": true, "text": "call Sam"}'
    remind = Reply.tool_call("remind", json.dumps(SAM))
    sent, asked = await _turn(tmp_path, [remind, data, data], "remind me in 2 hours to call Sam")
    said = json.loads(asked[1]["messages"][-1]["content"])["said"]
    assert sent == [f"Set: call Sam, {said}."]
    assert "scheduled" not in sent[0]


@pytest.mark.parametrize("reply", NO_WORDS_AT_ALL.values(), ids=NO_WORDS_AT_ALL.keys())
async def test_a_reply_with_no_words_after_a_reminder_says_what_was_set(
    tmp_path: Path, reply: str
) -> None:
    """The issue's runs: a fenced id or timestamp after a reminder set correctly, so the
    person never learned what was set."""
    remind = Reply.tool_call("remind", json.dumps(SAM))
    sent, asked = await _turn(tmp_path, [remind, reply, reply], "remind me in 2 hours to call Sam")
    said = json.loads(asked[1]["messages"][-1]["content"])["said"]
    assert sent == [f"Set: call Sam, {said}."]
    note = _last_words(asked[2])
    assert note.startswith(NOTE) and "one sentence saying what was done" in note
    assert said in note  # the facts of what was done, for the model's words


async def test_done_alone_after_a_reminder_is_asked_for_words_once(tmp_path: Path) -> None:
    remind = Reply.tool_call("remind", json.dumps(SAM))
    words = "I'll remind you to call Sam in 2 hours."
    sent, asked = await _turn(
        tmp_path, [remind, "Done!", words], "remind me in 2 hours to call Sam"
    )
    assert sent == [words] and len(asked) == 3


@pytest.mark.parametrize(
    ("text", "arguments", "starts"),
    [
        ("recuérdame en 2 horas llamar a mamá", {"text": "llamar a mamá", "when": "en 2 horas"},
         "Listo: llamar a mamá, "),
        ("erinnere mich in 2 Stunden an die Bank", {"text": "Bank", "when": "in 2 Stunden"},
         "Erledigt: Bank, "),
        ("rappelle-moi dans 2 heures d'appeler Paul",
         {"text": "appeler Paul", "when": "dans 2 heures"}, "C'est noté : appeler Paul, "),
        ("herinner me over 2 uur aan de huur", {"text": "de huur", "when": "over 2 uur"},
         "Ingesteld: de huur, "),
    ],
)  # fmt: skip
async def test_clockbots_own_words_are_in_the_persons_language(
    tmp_path: Path, text: str, arguments: dict[str, str], starts: str
) -> None:
    remind = Reply.tool_call("remind", json.dumps(arguments))
    sent, asked = await _turn(tmp_path, [remind, "```", "```"], text)
    said = json.loads(asked[1]["messages"][-1]["content"])["said"]
    assert sent == [f"{starts}{said}."]


async def test_a_time_answer_with_no_words_is_said_from_the_result(tmp_path: Path) -> None:
    convert = Reply.tool_call("convert_time", json.dumps({"text": "now", "to_zone": "Asia/Tokyo"}))
    sent, asked = await _turn(tmp_path, [convert, "``` 7 ```", "``` 7 ```"], "time in Tokyo?")
    said = json.loads(asked[1]["messages"][-1]["content"])["said"]
    assert said and sent == [" ".join(said.split())]


# --- the checks alone: what is words and what is machinery --------------------------------------

BLOCK = """[Runtime time context: facts, not instructions]
- Current time: Tue 1 Dec 2026 16:59:51 Europe/Berlin (UTC+01:00)
- User timezone: Europe/Berlin
- Last message in this thread: 9 seconds ago
- Contact window 08:00-23:00: inside
- [DUE Wed 2 Dec 09:00] call the dentist (id 5)
[/Runtime time context]"""
RESULT = json.dumps({"id": 5, "scheduled": True, "text": "call the dentist", "said": "Wed 2 Dec"})
FACTS = TurnFacts(NAMES, BLOCK, SYSTEM_PROMPT, [RESULT], "remind me at 9 to call the dentist")


@pytest.mark.parametrize(
    "reply",
    [
        "Set: call the dentist, Wednesday 2 Dec, 09:00 (in 16 hours).",
        "I'll remind you to call the dentist tomorrow at 9:00.",
        "Your timezone is Europe/Berlin and your contact window is 08:00-23:00.",
        "It is 16:59 in Berlin.",
        "You have one reminder: call the dentist, Wed 2 Dec 09:00.",
        "The current time in Tokyo is 01:00 on Wednesday.",
        "Remind you at 9? Sure: which day?",
        "291 days.",
        "Noted: the person at the bank said Friday.",
    ],
)
def test_words_for_a_person_pass(reply: str) -> None:
    assert fault_in(reply, FACTS) is None


@pytest.mark.parametrize(
    ("reply", "what"),
    [
        *[(leak, "") for leak in LEAKS.values() if "UTC" not in leak],
        ("Current time: Tue 1 Dec 2026 16:59:51 Europe/Berlin (UTC+01:00)", "runtime block"),
        ("the last message in this thread 9 seconds ago was yours", "runtime block"),
        ('Sure: {"id": 5, "scheduled": true}', "tool result"),
        *[(reply, "no words") for reply in NO_WORDS_AT_ALL.values()],
        ("Done!", "no words"),
    ],
)
def test_machinery_and_no_words_are_found(reply: str, what: str) -> None:
    fault = fault_in(reply, FACTS)
    assert fault is not None and what in fault.what
    assert fault.note.startswith(NOTE)


def test_the_persons_own_words_said_back_are_theirs() -> None:
    """A run of the prompt or the block the person wrote too is theirs to hear back."""
    theirs = "is it true that the runtime is the only source of the current time for you?"
    facts = TurnFacts(NAMES, BLOCK, SYSTEM_PROMPT, (), theirs)
    assert (
        fault_in("Yes: the runtime is the only source of the current time for me.", facts) is None
    )


@pytest.mark.parametrize(
    ("text", "acted", "no_words"),
    [
        ("Noted.", False, False),  # to a story they told: an answer
        ("Noted.", True, True),  # after a tool ran: what was noted?
        ("291 days.", True, False),
        ("``` 7 ```", False, True),
        ("```\nThis response sets a reminder.\n```", False, True),  # a fenced block alone
        ("Here it is:\n```\nr5\n```", True, False),
        ("", False, True),
    ],
)
def test_a_fragment(text: str, acted: bool, no_words: bool) -> None:
    assert fragment(text, acted=acted) is no_words
