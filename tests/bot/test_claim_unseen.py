"""The replies a real model sent on the unseen scenarios that were untrue of the store
(issue 63; docs/eval.md, "clockbot's own sampling, native, unseen scenarios"), each
played by a scripted model with the exact text it wrote: what the person is sent is
true of what the store holds, in their language.

Real gateway and store on a settable clock, the fake OpenAI server as the model.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.agent.claims import asked_changes, refuses, said_claims
from bot.agent.reply_checks import TurnFacts, fault_in
from bot.app.gateway import Gateway
from bot.config.settings import LimitSettings, LLMSettings, Settings
from bot.evaluation.runner import StoreState, _read_store
from bot.replies import ALL_REMINDERS, DONE_CANCELLED, DONE_CLOCKED, NOTHING_DONE, SAY_AGAIN
from clockcore import SettableClock
from tests.bot.test_gateway import RecordingChannel, inbound
from tests.support.fake_llm import FakeLLMServer, Reply

ISO = r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}"
REFUSAL = "I'm sorry, but I can't assist with that."


class World:
    def __init__(
        self, gateway: Gateway, channel: RecordingChannel, clock: SettableClock, server: Any
    ) -> None:
        self.gateway, self.channel, self.clock, self.server = gateway, channel, clock, server
        self._n = 0
        self.language: str | None = None

    async def say(self, text: str, *script: Reply | str) -> str:
        """Send `text` as the person, the model answering with `script`; the bot's reply.

        Every scripted answer must be asked for: a turn that ends before its script is
        played has not asked the model what the test says it did."""
        self._n += 1
        self.server.script(*script)
        before = len(self.channel.sent)
        await self.gateway.accept(
            inbound(
                text,
                message_id=f"m{self._n}",
                received_at=self.clock.now(),
                language=self.language,
            )
        )
        await self.gateway.settle()
        answers = [m.text for m in self.channel.sent[before:] if m.kind == "reply"]
        assert len(answers) == 1, answers
        return answers[0]

    async def store(self) -> StoreState:
        return await self.gateway.wrapper.database.run(_read_store)

    async def pending(self, word: str) -> list[datetime]:
        """When each one-shot reminder still to come whose text holds `word` is due."""
        return [
            j["due_at"]
            for j in (await self.store()).jobs
            if word in j["text"] and j["kind"] == "reminder" and j["status"] == "pending"
        ]


Open = Callable[[str, datetime, str | None], Any]


@pytest.fixture
async def open_world(tmp_path: Path) -> AsyncIterator[Open]:
    """A world for a person in `zone`, starting at `start`, their platform's `language`."""
    async with FakeLLMServer() as server:
        llm = LLMSettings(provider="openai", base_url=server.openai_base_url, model="m")
        no_limit = LimitSettings(turns_per_minute=0, burst=0)
        settings = Settings(home=tmp_path, http_port=0, llm=llm, limit=no_limit)
        channel = RecordingChannel()
        worlds: list[Any] = []

        async def open_(zone: str, start: datetime, language: str | None) -> World:
            clock = SettableClock(start)
            gateway = Gateway(settings, channels=[channel], clock=clock, poll_interval=0.05)
            await gateway.__aenter__()
            worlds.append(gateway)
            world = World(gateway, channel, clock, server)
            await world.say(f"clock: home tz {zone}", "Done.")
            world.language = language
            return world

        yield open_
        for gateway in worlds:
            await gateway.__aexit__(None, None, None)


def remind(text: str, when: str) -> Reply:
    return Reply.tool_call("remind", f'{{"text": "{text}", "when": "{when}"}}')


# --- 1. "actually make it 11": a move asked, an ISO time claimed, nothing moved ---------------


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("actually make it 11", "en"),
        ("make that 11", "en"),
        ("mejor a las 11", "es"),
        ("mach das um 11", "de"),
        ("plutôt à 11h", "fr"),
        ("melhor às 11", "pt"),
        ("meglio alle 11", "it"),
        ("liever om 11 uur", "nl"),
    ],
)
def test_a_new_hour_for_the_last_reminder_asks_for_a_move(text: str, language: str) -> None:
    assert [c.done for c in asked_changes(text)] == ["moved"], (text, language)


def test_an_iso_instant_in_a_reply_is_machinery() -> None:
    facts = TurnFacts(tools=["remind"], block="", prompt="")
    said = "The reminder is scheduled for 2026-09-15T11:00:00-04:00."
    assert fault_in(said, facts) is not None
    assert fault_in("Set for 11:00 tomorrow (Tuesday 15 Sep).", facts) is None


async def test_make_it_11_claimed_with_an_iso_time_moves_the_reminder(open_world: Open) -> None:
    world = await open_world("America/New_York", datetime(2026, 9, 14, 22, 5, tzinfo=UTC), "en")
    first = await world.say(
        "remind me tomorrow at 9 to pick up the dry cleaning",
        remind("pick up the dry cleaning", "tomorrow at 9"),
        "The reminder is scheduled for 2026-09-15T09:00:00-04:00.",
        "The reminder is scheduled for 2026-09-15T09:00:00-04:00.",
    )
    assert not re.search(ISO, first), first
    assert "09:00" in first
    claim = "The reminder is scheduled for 2026-09-15T11:00:00-04:00."
    reply = await world.say("actually make it 11", claim, claim)
    assert await world.pending("dry cleaning") == [datetime(2026, 9, 15, 15, tzinfo=UTC)]
    assert "11:00" in reply and "T11" not in reply, reply
    assert world.server.pending == 0


# --- 2. "Lösch alle meine Erinnerungen": a future claim ----------------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "I will cancel the reminder.",
        "I'll delete all your reminders.",
        "Your reminders will be cancelled.",
        "I will set a reminder for 9.",
        "You will be reminded tomorrow at 9.",
        "The dentist will be reminded on Thursday at 3 PM.",
        "Ich werde alle Erinnerungen löschen.",
        "Voy a cancelar el recordatorio.",
        "Je vais supprimer le rappel.",
    ],
)
def test_a_claim_in_the_future_tense_is_a_claim(said: str) -> None:
    assert said_claims(said), said


async def test_delete_all_answered_with_a_future_cancel_asks_first(open_world: Open) -> None:
    world = await open_world("Europe/Berlin", datetime(2026, 10, 5, 16, tzinfo=UTC), "de")
    await world.say(
        "Erinnere mich morgen um 9 an die Pakete",
        remind("die Pakete", "morgen um 9"),
        "Erledigt: die Pakete, morgen um 9.",
    )
    claim = "I will cancel the reminder."
    reply = await world.say("Lösch alle meine Erinnerungen", claim, claim)
    assert len(await world.pending("Pakete")) == 1  # nothing cancelled before they say yes
    assert reply.rstrip().endswith("?"), reply
    assert "cancel" not in reply.casefold(), reply  # in German
    reply = await world.say("ja", claim, claim)
    assert await world.pending("Pakete") == []
    assert reply == DONE_CANCELLED.in_("de", text=ALL_REMINDERS.in_("de")), reply


# --- 3. "actually cancel the dentist one": beside the point ------------------------------------


async def test_a_cancel_answered_with_the_reminder_said_again_is_carried_out(
    open_world: Open,
) -> None:
    world = await open_world("Europe/Dublin", datetime(2026, 5, 11, 18, 30, tzinfo=UTC), "en")
    await world.say(
        "remind me on thursday at 3pm about the dentist",
        remind("the dentist", "thursday at 3pm"),
        "The dentist will be reminded on Thursday at 3 PM.",
    )
    bins = "The bins will be put out on Wednesday night at 8 PM."
    reply = await world.say("and wednesday at 8pm to put the bins out", bins, bins)
    assert await world.pending("bins") == [datetime(2026, 5, 13, 19, tzinfo=UTC)], reply
    beside = "The dentist will be reminded on Thursday at 3 PM."
    reply = await world.say(
        "actually cancel the dentist one, they moved my appointment", beside, beside
    )
    assert await world.pending("dentist") == []
    assert await world.pending("bins") == [datetime(2026, 5, 13, 19, tzinfo=UTC)]
    assert "dentist" in reply and "ancel" in reply, reply


# --- 4. refusals after the second ask ----------------------------------------------------------


async def test_a_refusal_after_the_reminder_was_set_says_what_was_set(open_world: Open) -> None:
    world = await open_world("America/Mexico_City", datetime(2026, 7, 8, 19, 10, tzinfo=UTC), "es")
    reply = await world.say(
        "recuérdame tomar la pastilla en media hora",
        remind("tomar la pastilla", "en media hora"),
        REFUSAL,
        REFUSAL,
    )
    assert await world.pending("pastilla") == [datetime(2026, 7, 8, 19, 40, tzinfo=UTC)]
    assert not refuses(reply) and "13:40" in reply, reply
    assert "Set" not in reply, reply  # in Spanish


async def test_a_refusal_of_a_reminder_never_set_sets_it(open_world: Open) -> None:
    world = await open_world("America/Mexico_City", datetime(2026, 7, 8, 19, 10, tzinfo=UTC), "es")
    reply = await world.say("recuérdame tomar la pastilla en media hora", REFUSAL, REFUSAL)
    assert await world.pending("pastilla") == [datetime(2026, 7, 8, 19, 40, tzinfo=UTC)]
    assert not refuses(reply) and "13:40" in reply, reply


async def test_a_refusal_of_clock_it_and_of_done_says_what_was_done(open_world: Open) -> None:
    """ "clock it:" is carried out before the model: a refusal gives way to what was done.
    "La lessive est finie" the rules agent does not read: the person is told, in French,
    that nothing was done (docs/eval.md)."""
    world = await open_world("Europe/Paris", datetime(2026, 4, 18, 8, tzinfo=UTC), "fr")
    reply = await world.say("clock it: lessive", REFUSAL, REFUSAL)
    assert reply == DONE_CLOCKED.in_("fr", text="lessive"), reply
    assert [a["label"] for a in (await world.store()).actions] == ["lessive"]
    world.clock.advance(timedelta(hours=1, minutes=10))
    reply = await world.say("c'est bon, la lessive est finie", REFUSAL, REFUSAL)
    assert reply.startswith(NOTHING_DONE.in_("fr")), reply
    assert [a["status"] for a in (await world.store()).actions] != ["done"]


async def test_a_refusal_of_words_nobody_reads_whole_says_nothing_was_done(
    open_world: Open,
) -> None:
    world = await open_world("Europe/Paris", datetime(2026, 4, 18, 8, tzinfo=UTC), "fr")
    reply = await world.say("rappelle-moi le truc un de ces jours", REFUSAL, REFUSAL)
    assert [j for j in (await world.store()).jobs if j["kind"] == "reminder"] == []
    assert reply.startswith(NOTHING_DONE.in_("fr")), reply


# --- 5. "mejor a las 7" after a reminder was set ----------------------------------------------


async def test_mejor_a_las_7_moves_the_reminder_just_set(open_world: Open) -> None:
    world = await open_world("Europe/Madrid", datetime(2026, 2, 10, 13, tzinfo=UTC), "es")
    await world.say(
        "recuérdame a las 6 de la tarde sacar la ropa de la lavadora",
        remind("sacar la ropa de la lavadora", "a las 6 de la tarde"),
        "Hecho: a las 18:00.",
    )
    reply = await world.say("mejor a las 7", "", "")
    assert await world.pending("lavadora") == [datetime(2026, 2, 10, 18, tzinfo=UTC)], reply
    assert "19:00" in reply and not reply.startswith(SAY_AGAIN.in_("es")), reply


# --- 6. clockbot's own words in the conversation's language ------------------------------------


async def test_the_fallback_speaks_the_conversation_language_without_a_platform_one(
    open_world: Open,
) -> None:
    world = await open_world("Europe/Madrid", datetime(2026, 2, 10, 13, tzinfo=UTC), None)
    await world.say(
        "recuérdame a las 6 de la tarde sacar la ropa de la lavadora",
        remind("sacar la ropa de la lavadora", "a las 6 de la tarde"),
        "Hecho: a las 18:00.",
    )
    claim = "The reminder has been updated to 7 PM."
    reply = await world.say("mejor a las 7", claim, claim)
    assert await world.pending("lavadora") == [datetime(2026, 2, 10, 18, tzinfo=UTC)], reply
    assert "19:00" in reply and "Moved" not in reply, reply
