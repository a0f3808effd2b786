"""No claim without its effect, and a refusal is not the answer (issue 63, items 2 and 5;
`bot.agent.claims`, `Agent._left_undone`, `Agent._carry_out`).

A scripted model that claims a change and never calls a tool, refuses, or answers beside
the point, asked once and doing it again: the person's words are carried out as the rules
agent reads them, and the reply says what the store holds, in their language. Where the
rules agent cannot read them whole, the person is told nothing was done. Real gateway and store on a settable clock,
the fake OpenAI server as the model; the person lives in New York.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from bot.agent.claims import refuses, unbacked_claim
from bot.app.gateway import Gateway
from bot.config.settings import LimitSettings, LLMSettings, Settings
from bot.replies import DONE_CANCELLED, DONE_REPEATING, DONE_SET, NOTHING_DONE
from clockcore import SettableClock
from clockcore.speech.spoken import say_when
from tests.bot.test_gateway import RecordingChannel, inbound
from tests.support.fake_llm import FakeLLMServer, Reply

NEW_YORK = ZoneInfo("America/New_York")
WEDNESDAY = datetime(2026, 6, 10, 14, tzinfo=UTC)  # 10:00 in New York
USER = "test:7"

# (the person's words, their language, what the model claims twice)
REQUESTS = [
    ("remind me in 20 minutes to check the oven", "en", "I'll remind you in 20 minutes."),
    ("remind me tomorrow at 9am to call the dentist", "en", "The reminder was set."),
    ("remind me at 7pm to water the plants", "en", "I will remind you at 7 PM to water them."),
    ("remind me in 90 minutes to stretch", "en", "I've pinged you in 90 minutes about it."),
    ("remind me every day at 8am to take my vitamins", "en", "I have set a reminder for you."),
    ("remind me on Friday at 10am to pay the rent", "en", "I've stored that reminder for you."),
    ("recuérdame en 20 minutos sacar la ropa", "es", "Te lo recordaré en 20 minutos."),
    ("recuérdame mañana a las 9 llamar al dentista", "es", "He guardado el recordatorio."),
    ("recuérdame a las 19 regar las plantas", "es", "Listo: a las 19:00."),
    ("recuérdame el viernes a las 10 pagar el alquiler", "es", "Recordatorio creado."),
    ("recuérdame todos los días a las 8 tomar las vitaminas", "es", "Te lo recordaré."),
    ("erinnere mich in 20 Minuten an den Ofen", "de", "Ich erinnere dich daran."),
    ("erinnere mich morgen um 9 an den Zahnarzt", "de", "Ich habe die Erinnerung eingestellt."),
    ("erinnere mich um 19 Uhr an die Pflanzen", "de", "Erinnerung gesetzt."),
    ("erinnere mich am Freitag um 10 an die Miete", "de", "Erledigt: Freitag 10 Uhr."),
    ("erinnere mich jeden Tag um 8 an die Vitamine", "de", "Ich werde dich jeden Tag erinnern."),
    ("rappelle-moi dans 20 minutes de sortir le linge", "fr", "Je vous le rappellerai."),
    ("rappelle-moi demain à 9h d'appeler le dentiste", "fr", "C'est noté pour demain 9h."),
    ("rappelle-moi à 19h d'arroser les plantes", "fr", "Rappel programmé pour 19h."),
    ("rappelle-moi vendredi à 10h de payer le loyer", "fr", "J'ai créé le rappel."),
    ("rappelle-moi tous les jours à 8h de prendre mes vitamines", "fr", "C'est fait !"),
]


class World:
    def __init__(
        self, gateway: Gateway, channel: RecordingChannel, clock: SettableClock, server: Any
    ) -> None:
        self.gateway, self.channel, self.clock, self.server = gateway, channel, clock, server
        self._n = 0

    async def say(self, text: str, *script: Reply | str) -> str:
        """Send `text` as the person, the model answering with `script`; the bot's reply."""
        self._n += 1
        self.server.script(*script)
        before = len(self.channel.sent)
        await self.gateway.accept(
            inbound(text, message_id=f"m{self._n}", received_at=self.clock.now())
        )
        await self.gateway.settle()
        answers = [m.text for m in self.channel.sent[before:] if m.kind == "reply"]
        assert len(answers) == 1, answers
        return answers[0]

    async def reminders(self) -> dict[str, tuple[bool, datetime]]:
        """Every reminder still to come: its text, and (repeats, next time)."""
        schedules, one_shots = await self.gateway.wrapper.reminders.reminders(USER)
        found = {s.text: (True, s.next_at) for s in schedules if s.next_at is not None}
        return found | {j.text: (False, j.due_at) for j in one_shots}


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    clock = SettableClock(WEDNESDAY)
    channel = RecordingChannel()
    async with FakeLLMServer() as server:
        llm = LLMSettings(provider="openai", base_url=server.openai_base_url, model="m")
        no_limit = LimitSettings(turns_per_minute=0, burst=0)
        settings = Settings(home=tmp_path, http_port=0, llm=llm, limit=no_limit)
        async with Gateway(settings, channels=[channel], clock=clock, poll_interval=0.05) as gw:
            w = World(gw, channel, clock, server)
            await w.say("clock: home tz America/New_York", "Done.")
            yield w


async def test_claims_without_a_call_end_with_the_effect_stored_and_a_true_reply(
    world: World,
) -> None:
    for text, language, claim in REQUESTS:
        assert unbacked_claim(text, claim, []) is not None, (text, claim)  # a claim it reads
        before = await world.reminders()
        reply = await world.say(text, claim, claim)
        after = await world.reminders()
        new = {k: v for k, v in after.items() if k not in before}
        assert len(new) == 1, (text, reply, new)
        [(stored, (repeats, at))] = new.items()
        when = say_when(at, NEW_YORK, now=world.clock.now(), language=language)
        said = DONE_REPEATING if repeats else DONE_SET
        assert reply == said.in_(language, text=stored, when=when), text


async def test_a_cancel_claimed_twice_is_carried_out(world: World) -> None:
    await world.say(
        "remind me tomorrow at 3pm to call the bank",
        "I'll remind you tomorrow at 3pm.",
        "I'll remind you tomorrow at 3pm.",
    )
    assert "call the bank" in await world.reminders()
    claim = "I've cancelled the bank reminder."
    reply = await world.say("cancel the bank reminder", claim, claim)
    assert "call the bank" not in await world.reminders()
    assert reply == DONE_CANCELLED.en.format(text="call the bank")


async def test_words_the_rules_agent_cannot_read_whole_set_nothing_and_say_so(
    world: World,
) -> None:
    claim = "I've set a reminder for the thing."
    reply = await world.say("remind me about the thing sometime", claim, claim)
    assert await world.reminders() == {}
    assert reply.startswith(NOTHING_DONE.en)


REFUSALS = {
    "en": "I'm sorry, but I can't assist with that request.",
    "es": "Lo siento, pero no puedo ayudarte con eso.",
    "de": "Es tut mir leid, aber dabei kann ich dir nicht helfen.",
    "fr": "Désolé, je ne peux pas faire cela.",
}
BESIDE = {
    "en": "Of course! I will write my response to the person's message now.",
    "es": "¡Qué buen plan! Que tengas un buen día.",
    "de": "Das klingt nach einem guten Plan.",
    "fr": "Bonne journée à vous !",
}


@pytest.mark.parametrize("answer", [REFUSALS, BESIDE], ids=["refuses", "beside-the-point"])
async def test_a_refusal_or_an_answer_beside_the_point_ends_with_the_effect_and_a_true_reply(
    world: World, answer: dict[str, str]
) -> None:
    for text, language, _ in REQUESTS:
        said = answer[language]
        assert unbacked_claim(text, said, []) is None  # no claim: another fallback
        before = await world.reminders()
        reply = await world.say(text, said, said)
        after = await world.reminders()
        new = {k: v for k, v in after.items() if k not in before}
        assert len(new) == 1, (text, reply, new)
        [(stored, (repeats, at))] = new.items()
        when = say_when(at, NEW_YORK, now=world.clock.now(), language=language)
        done = DONE_REPEATING if repeats else DONE_SET
        assert reply == done.in_(language, text=stored, when=when), text


async def test_asked_once_with_the_facts_the_model_acts_and_its_words_go(world: World) -> None:
    """The note after a refusal says what the person's words read as; a model that then
    calls the tool answers in its own words."""
    refusal = REFUSALS["en"]
    call = Reply.tool_call("remind", '{"text": "call the dentist", "when": "tomorrow at 9am"}')
    reply = await world.say(
        "remind me tomorrow at 9am to call the dentist", refusal, call, "Set for 9am tomorrow."
    )
    assert reply == "Set for 9am tomorrow."
    assert "call the dentist" in await world.reminders()
    asked = world.server.completions[-2].json["messages"][-1]["content"]
    assert "nothing is set yet" in asked
    assert "remind(" in asked and "call the dentist" in asked
    assert refusal not in [m.get("content") for m in world.server.completions[-1].json["messages"]]


async def test_a_cancel_refused_twice_is_carried_out(world: World) -> None:
    claim = "I'll remind you tomorrow at 3pm."
    await world.say("remind me tomorrow at 3pm to call the bank", claim, claim)
    refusal = REFUSALS["en"]
    reply = await world.say("cancel the bank reminder", refusal, refusal)
    assert "call the bank" not in await world.reminders()
    assert reply == DONE_CANCELLED.en.format(text="call the bank")


async def test_a_refusal_the_rules_agent_cannot_read_whole_sets_nothing_and_says_so(
    world: World,
) -> None:
    refusal = REFUSALS["en"]
    reply = await world.say("remind me about the thing sometime", refusal, refusal)
    assert await world.reminders() == {}
    assert reply.startswith(NOTHING_DONE.en)


async def test_an_answer_or_a_question_is_left_alone(world: World) -> None:
    """Words to a question are its answer, and a question back may be right: no fallback."""
    assert await world.say("what time is it in Tokyo?", "It's 11 pm in Tokyo.") == (
        "It's 11 pm in Tokyo."
    )
    asked = "Sure, at what time tomorrow?"
    assert await world.say("remind me tomorrow at 9am to call the dentist", asked) == asked
    assert await world.reminders() == {}


@pytest.mark.parametrize(
    ("reply", "refused"),
    [
        *((said, True) for said in REFUSALS.values()),
        ("I can't assist with that.", True),
        ("Lo siento, no puedo hacer eso.", True),
        ("Mi dispiace, ma non posso aiutarti.", True),
        ("Het spijt me, dat kan ik niet doen.", True),
        ("Desculpe, não posso ajudar com isso.", True),
        ("Set: call the dentist, tomorrow 09:00.", False),
        ("Sorry for the wait! It's 11 pm in Tokyo.", False),
        ("I can't wait to hear how it went.", False),
    ],
)
def test_refusals_are_read_in_the_seven_languages(reply: str, refused: bool) -> None:
    assert refuses(reply) is refused
