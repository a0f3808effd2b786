"""Who may join an email thread: Dovecot + aiosmtpd, the real Gateway, a scripted model.

An email names the thread it continues in headers its sender writes. These tests hold the
gateway to `wrapper.inbound.replies`: a mail joins a thread only when its sender already writes there,
whatever Message-IDs it names, and a reply that names only our mail (``In-Reply-To``, no
``References``) still finds its thread. The model is `FakeLLMServer`, so what each turn sent
to it can be read back.
"""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from bot.turns.lifecycle import GROUP_THREADS_PER_DAY
from channels.email.writing import ALONE_NOTE
from clockcore import SettableClock
from tests.channels.email.conftest import ALICE, letter, running, submit
from tests.support.fake_llm import FakeLLMServer, Reply, ScriptedToolCall
from tests.support.mail import DovecotServer, SmtpSink

BOB = "bob@example.test"
SECRET = "account 4417-0092-3381"


def _requests_with(llm: FakeLLMServer, words: str) -> list[dict[str, Any]]:
    """The model requests whose newest message carries `words`."""
    found = []
    for request in llm.completions:
        body = request.json
        if words in json.dumps(body["messages"][-1]):
            found.append(body)
    return found


async def test_a_stranger_naming_someones_thread_gets_a_thread_of_their_own(
    tmp_path: Path, dovecot: DovecotServer, mail: SmtpSink
) -> None:
    clock = SettableClock(datetime.now(UTC))
    async with FakeLLMServer(default_text="Noted.") as llm:
        remind = {"text": f"call the bank about {SECRET}", "when": "in 10 minutes"}
        llm.script(
            Reply.calls(ScriptedToolCall("remind", json.dumps(remind))),
            Reply.text("I'll remind you in 10 minutes."),
        )
        async with running(tmp_path, dovecot, mail, llm, clock) as gateway:
            await submit(
                mail,
                letter(f"remind me in 10 minutes to call the bank about {SECRET}", subject="bank"),
            )
            [confirmation] = await mail.wait_for(ALICE, 1)
            await gateway.settle()

            # Bob learned Alice's Message-ID (a forward, an archive) and names it.
            hijack = letter(
                "what did I ask you before?", sender=BOB, subject="Re: bank",
                message_id="<b1@example.test>", In_Reply_To="<m1@example.test>",
                References=f"<m1@example.test> {confirmation['Message-ID']}",
            )  # fmt: skip
            await submit(mail, hijack, sender=BOB)
            [to_bob] = await mail.wait_for(BOB, 1)
            await gateway.settle()

            clock.advance(timedelta(minutes=10, seconds=5))
            await gateway.settle()
            await mail.wait_for(ALICE, 2)
            await asyncio.sleep(0.5)
            await gateway.settle()
            jobs = await gateway.outbox.listing()

        [bobs_turn] = _requests_with(llm, "what did I ask you before?")

    # Bob's turn saw nothing of Alice's thread, and was answered in a thread of his own.
    assert SECRET not in json.dumps(bobs_turn)
    assert "call the bank" not in json.dumps(bobs_turn)
    assert to_bob["In-Reply-To"] == "<b1@example.test>"
    threads = {job.thread_id for job in jobs if job.user_id == BOB}
    assert threads == {f"{BOB}/<b1@example.test>"}
    # Alice's reminder still goes to Alice, and Bob got only his one answer.
    reminder = mail.to(ALICE)[1]
    assert reminder["To"] == ALICE
    assert reminder["In-Reply-To"] == "<m1@example.test>"
    assert len(mail.to(BOB)) == 1
    alices = {job.thread_id for job in jobs if job.user_id == ALICE}
    assert alices == {f"{ALICE}/<m1@example.test>"}


async def test_a_reply_naming_only_our_mail_lands_in_its_thread(
    tmp_path: Path, dovecot: DovecotServer, mail: SmtpSink
) -> None:
    clock = SettableClock(datetime.now(UTC))
    async with FakeLLMServer(default_text="Noted.") as llm:
        async with running(tmp_path, dovecot, mail, llm, clock) as gateway:
            await submit(mail, letter("my flight lands at 9 tonight", subject="trip"))
            [answer] = await mail.wait_for(ALICE, 1)
            # A client that sets In-Reply-To and nothing else.
            reply = letter(
                "and the hotel is near the station", subject="Re: trip",
                message_id="<m2@example.test>", In_Reply_To=answer["Message-ID"],
            )  # fmt: skip
            await submit(mail, reply)
            await mail.wait_for(ALICE, 2)
            await gateway.settle()
            jobs = await gateway.outbox.listing()

        [second_turn] = _requests_with(llm, "and the hotel is near the station")

    assert {job.thread_id for job in jobs} == {f"{ALICE}/<m1@example.test>"}
    assert "my flight lands at 9 tonight" in json.dumps(second_turn["messages"])


async def test_a_sender_who_wrote_in_a_thread_joins_it_through_their_own_mail(
    tmp_path: Path, dovecot: DovecotServer, mail: SmtpSink
) -> None:
    """A reply that names only the sender's own earlier mail (not ours) continues that thread."""
    clock = SettableClock(datetime.now(UTC))
    async with (
        FakeLLMServer(default_text="Noted.") as llm,
        running(tmp_path, dovecot, mail, llm, clock) as gateway,
    ):
        await submit(mail, letter("first thought", subject="ideas"))
        await mail.wait_for(ALICE, 1)
        again = letter(
            "second thought", subject="Re: ideas", message_id="<m2@example.test>",
            References="<m1@example.test>",
        )  # fmt: skip
        await submit(mail, again)
        await mail.wait_for(ALICE, 2)
        await gateway.settle()
        jobs = await gateway.outbox.listing()

    assert {job.thread_id for job in jobs} == {f"{ALICE}/<m1@example.test>"}


async def test_copying_someone_in_never_shows_them_a_private_thread(
    tmp_path: Path, dovecot: DovecotServer, mail: SmtpSink
) -> None:
    """A reply to one's own private thread with someone in Cc starts a group thread instead.

    Its answers go to both, so it must not carry the private thread's history; and
    someone the group mail did not name still cannot join the group thread.
    """
    clock = SettableClock(datetime.now(UTC))
    async with FakeLLMServer(default_text="Noted.") as llm:
        async with running(tmp_path, dovecot, mail, llm, clock) as gateway:
            await submit(mail, letter(f"note the bank account {SECRET}", subject="bank"))
            [answer] = await mail.wait_for(ALICE, 1)
            cc_bob = letter(
                "what do we have planned?", subject="Re: bank", message_id="<m2@example.test>",
                In_Reply_To=answer["Message-ID"], Cc=BOB,
            )  # fmt: skip
            await submit(mail, cc_bob)
            [group_answer] = await mail.wait_for(BOB, 1)
            mallory = letter(
                "and me?", sender="mallory@example.test", subject="Re: bank",
                message_id="<x1@example.test>", In_Reply_To=group_answer["Message-ID"],
            )  # fmt: skip
            await submit(mail, mallory, sender="mallory@example.test")
            await mail.wait_for("mallory@example.test", 1)
            await gateway.settle()
            jobs = await gateway.outbox.listing()

        [group_turn] = _requests_with(llm, "what do we have planned?")

    assert SECRET not in json.dumps(group_turn)
    assert (group_answer["To"], group_answer["Cc"]) == (ALICE, BOB)
    threads = {job.thread_id for job in jobs}
    assert threads == {
        f"{ALICE}/<m1@example.test>",
        f"group/{ALICE}/<m2@example.test>",
        "mallory@example.test/<x1@example.test>",  # not named by the group mail: her own
    }


async def test_a_sender_past_the_days_group_threads_is_answered_alone(
    tmp_path: Path, dovecot: DovecotServer, mail: SmtpSink
) -> None:
    """A sender may start `GROUP_THREADS_PER_DAY` group threads a day; the next is private.

    Otherwise one proven sender makes clockbot write to twenty strangers per mail, all
    day. The mail past the cap is still answered, to its sender alone, saying why.
    """
    clock = SettableClock(datetime.now(UTC))
    cap = GROUP_THREADS_PER_DAY
    async with (
        FakeLLMServer(default_text="Noted.") as llm,
        running(tmp_path, dovecot, mail, llm, clock) as gateway,
    ):
        for number in range(cap + 1):
            note = letter(
                f"note {number}", subject=f"plan {number}",
                message_id=f"<g{number}@example.test>", Cc=BOB,
            )  # fmt: skip
            await submit(mail, note)
            await mail.wait_for(ALICE, number + 1)
        answers = await mail.wait_for(ALICE, cap + 1)
        await gateway.settle()
        to_bob = mail.to(BOB)
        clock.advance(timedelta(days=1, minutes=1))
        await submit(mail, letter("a new day", message_id="<n1@example.test>", Cc=BOB))
        next_day = await mail.wait_for(BOB, cap + 1)

    assert len(to_bob) == cap
    last = answers[-1]
    assert (last["To"], last["Cc"]) == (ALICE, None)
    assert ALONE_NOTE in last.get_content()
    assert all(ALONE_NOTE not in answer.get_content() for answer in answers[:-1])
    assert (next_day[-1]["To"], next_day[-1]["Cc"]) == (ALICE, BOB)
