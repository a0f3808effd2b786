"""A forged ``From:`` is not an identity: link, erase and export wait for the address to confirm.

End to end on Dovecot + aiosmtpd with the real gateway and the rules agent. The
attacker, Mallory, writes from her own address and then forges mail "from"
Alice; she never receives what is mailed to Alice (docs/SECURITY.md).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from bot.turns.sender_check import tokens_in
from clockcore import SettableClock
from tests.channels.email.conftest import ALICE, letter, submit
from tests.channels.email.test_email_gateway import quiet, running
from tests.support.mail import DovecotServer, SmtpSink

MALLORY = "mallory@example.test"  # a Dovecot user too, so mail to her is delivered
_CODE = re.compile(r"clock: link ([A-Z0-9-]{4,})")


def _people(state: dict[str, Any]) -> list[set[str]]:
    """Each person's identities."""
    return [set(user["channels"]) for user in state["users"].values()]


def _replying(answer: EmailMessage, first: str) -> dict[str, str]:
    """The headers of a reply to `answer`, in the thread that mail `first` began."""
    return {"In_Reply_To": answer["Message-ID"], "References": f"{first} {answer['Message-ID']}"}


def _token(message: EmailMessage) -> str:
    [token] = tokens_in(message.get_content())
    return token


async def _code_for_mallory(mail: SmtpSink) -> str:
    await submit(mail, letter("clock: link", sender=MALLORY, message_id="<c@evil>"), sender=MALLORY)
    [issued] = await mail.wait_for(MALLORY, 1)
    found = _CODE.search(issued.get_content())
    assert found, issued.get_content()
    return found.group(1)


async def test_a_forged_mail_cannot_link_the_victims_address_into_the_attacker(
    tmp_path: Path, dovecot: DovecotServer, mail: SmtpSink
) -> None:
    async with running(tmp_path, dovecot, mail) as (gateway, _):
        await submit(mail, letter("what time is it in Tokyo", message_id="<a1@x>"))
        await mail.wait_for(ALICE, 1)
        code = await _code_for_mallory(mail)
        forged = letter(f"clock: link {code}", message_id="<forged@evil>", proven=False)
        await submit(mail, forged, sender=MALLORY)
        [_, held] = await mail.wait_for(ALICE, 2)
        await quiet(gateway)
        state = await gateway.wrapper.export_state()

    assert {f"email:{ALICE}", f"email:{MALLORY}"} not in _people(state)
    assert {f"email:{ALICE}"} in _people(state)
    # The confirmation went to the address, where only Alice reads it; Mallory got nothing more.
    assert "please confirm that this address is yours" in held.get_content()
    assert _token(held).startswith("CHECK-")
    assert len(mail.to(MALLORY)) == 1


async def test_a_forged_erasure_and_its_forged_confirmation_erase_nothing(
    tmp_path: Path, dovecot: DovecotServer, mail: SmtpSink
) -> None:
    async with running(tmp_path, dovecot, mail) as (gateway, _):
        await submit(mail, letter("remind me in 2 hours to call mum", message_id="<a1@x>"))
        await mail.wait_for(ALICE, 1)
        thread = {"In_Reply_To": "<a1@x>", "References": "<a1@x>"}
        await submit(mail, letter("delete my data", message_id="<f1@evil>", proven=False, **thread))
        await mail.wait_for(ALICE, 2)
        yes = letter("delete my data: yes", message_id="<f2@evil>", proven=False, **thread)
        await submit(mail, yes, sender=MALLORY)
        [*_, held] = await mail.wait_for(ALICE, 3)
        await quiet(gateway)
        state = await gateway.wrapper.export_state()
        reminders = await gateway.outbox.listing()

    assert {f"email:{ALICE}"} in _people(state)
    assert any("call mum" in job.text for job in reminders)
    assert "delete my data: yes" in held.get_content()
    assert _token(held)


async def test_the_owner_confirms_with_the_mailed_token_and_the_request_runs(
    tmp_path: Path, dovecot: DovecotServer, mail: SmtpSink
) -> None:
    async with running(tmp_path, dovecot, mail) as (gateway, _):
        asked = letter("what do you know about me", message_id="<a1@x>", proven=False)
        await submit(mail, asked)
        [held] = await mail.wait_for(ALICE, 1)
        token = _token(held)
        thread = _replying(held, "<a1@x>")
        confirm = letter(
            f"Yes, that was me.\n\n{token}", message_id="<a2@x>", proven=False, **thread
        )
        await submit(mail, confirm)
        [_, confirmed, answer] = await mail.wait_for(ALICE, 3)
        # The token works once.
        await submit(mail, letter(token, message_id="<a3@x>", proven=False, **thread))
        [*_, again] = await mail.wait_for(ALICE, 4)
        await quiet(gateway)

    assert confirmed.get_content().startswith("Confirmed: “what do you know about me”")
    assert answer.get_content().startswith("Here is what I keep about you:")
    assert "Confirmed" not in again.get_content()


async def test_a_token_mailed_to_one_address_confirms_nothing_for_another(
    tmp_path: Path, dovecot: DovecotServer, mail: SmtpSink
) -> None:
    async with running(tmp_path, dovecot, mail) as (gateway, _):
        await submit(mail, letter("/mydata", message_id="<a1@x>", proven=False))
        [held] = await mail.wait_for(ALICE, 1)
        token = _token(held)
        await submit(mail, letter(token, sender=MALLORY, message_id="<m1@evil>"), sender=MALLORY)
        [reply] = await mail.wait_for(MALLORY, 1)
        await quiet(gateway)
    assert "Confirmed" not in reply.get_content()


# --- a stranger in Cc (the review of December 2026, row 1) ----------------------------------------


async def test_a_forged_erasure_with_the_attacker_in_cc_mails_her_no_token_and_erases_nothing(
    tmp_path: Path, dovecot: DovecotServer, mail: SmtpSink
) -> None:
    async with running(tmp_path, dovecot, mail) as (gateway, _):
        await submit(mail, letter("remind me in 2 hours to call mum", message_id="<a1@x>"))
        await mail.wait_for(ALICE, 1)
        group = {"Cc": MALLORY}
        ask = letter("delete my data", message_id="<g1@evil>", proven=False, **group)
        await submit(mail, ask, sender=MALLORY)
        [_, first] = await mail.wait_for(ALICE, 2)
        thread = _replying(first, "<g1@evil>")
        yes = letter("delete my data: yes", message_id="<g2@evil>", proven=False, **group, **thread)
        await submit(mail, yes, sender=MALLORY)
        [*_, second] = await mail.wait_for(ALICE, 3)
        await quiet(gateway)
        state = await gateway.wrapper.export_state()
        reminders = await gateway.outbox.listing()

    for answer in (first, second):
        assert "write it to me in a direct message" in answer.get_content()
        # Answered To the address the mail claimed alone: a forger chooses the Cc line.
        assert (answer["To"], answer["Cc"]) == (ALICE, None)
    assert not any(tokens_in(m.get_content()) for m in mail.to(ALICE))
    assert mail.to(MALLORY) == []
    assert {f"email:{ALICE}"} in _people(state)
    assert any("call mum" in job.text for job in reminders)


async def test_a_link_code_forged_with_the_attacker_in_cc_links_nothing(
    tmp_path: Path, dovecot: DovecotServer, mail: SmtpSink
) -> None:
    async with running(tmp_path, dovecot, mail) as (gateway, _):
        await submit(mail, letter("what time is it in Tokyo", message_id="<a1@x>"))
        await mail.wait_for(ALICE, 1)
        code = await _code_for_mallory(mail)
        # Even a proven sender cannot redeem a code in a group thread.
        for n, proven in enumerate((False, True)):
            forged = letter(
                f"clock: link {code}", message_id=f"<l{n}@evil>", proven=proven, Cc=MALLORY
            )
            await submit(mail, forged, sender=MALLORY)
        [*_, unproven, proven_answer] = await mail.wait_for(ALICE, 3)
        await quiet(gateway)
        state = await gateway.wrapper.export_state()

    assert {f"email:{ALICE}", f"email:{MALLORY}"} not in _people(state)
    assert len(mail.to(MALLORY)) == 2  # the code, then the proven mail's answer in Cc
    for answer in (unproven, proven_answer):
        assert "write it to me in a direct message" in answer.get_content()
        assert not tokens_in(answer.get_content())


async def test_unproven_group_mail_is_answered_to_its_sender_alone(
    tmp_path: Path, dovecot: DovecotServer, mail: SmtpSink
) -> None:
    """Issue 59, row 4: a forged "what time is it" in a group thread was answered with the
    victim's zone, To the forger's claim and Cc addresses of the forger's choice."""
    async with running(tmp_path, dovecot, mail) as (gateway, _):
        await submit(mail, letter("clock: home tz Asia/Tokyo", message_id="<a1@x>"))
        await mail.wait_for(ALICE, 1)
        forged = letter("what time is it?", message_id="<f1@evil>", proven=False, Cc=MALLORY)
        await submit(mail, forged, sender=MALLORY)
        [_, answer] = await mail.wait_for(ALICE, 2)
        await quiet(gateway)
    assert (answer["To"], answer["Cc"]) == (ALICE, None)
    assert len(mail.to(MALLORY)) == 0


async def test_a_group_threads_members_stay_whoever_wrote_last(
    tmp_path: Path, dovecot: DovecotServer, mail: SmtpSink
) -> None:
    """Issue 59, row 10: Alice's reminder in a group thread went only to Bob, who had
    answered without Cc; the thread's members are kept, each reminder goes To its owner."""
    bob = "bob@example.test"
    clock = SettableClock(datetime.now(UTC))
    async with running(tmp_path, dovecot, mail, clock=clock) as (gateway, _):
        start = letter("remind me in 2 minutes to stretch", message_id="<g1@x>", Cc=bob)
        await submit(mail, start)
        [hello] = await mail.wait_for(bob, 1)
        thread = _replying(hello, "<g1@x>")
        reply = letter("thanks", sender=bob, message_id="<b1@x>", **thread)  # no Cc: To the bot
        await submit(mail, reply, sender=bob)
        [_, answer] = await mail.wait_for(bob, 2)
        await gateway.settle()
        clock.advance(timedelta(minutes=3))
        await gateway.settle()
        [*_, reminder] = await mail.wait_for(ALICE, 3)
        await quiet(gateway)
    assert (answer["To"], answer["Cc"]) == (bob, ALICE)
    assert "stretch" in reminder.get_content()
    assert (reminder["To"], reminder["Cc"]) == (ALICE, bob)


async def test_a_held_request_is_confirmed_only_in_its_own_private_thread(
    tmp_path: Path, dovecot: DovecotServer, mail: SmtpSink
) -> None:
    async with running(tmp_path, dovecot, mail) as (gateway, _):
        await submit(mail, letter("/mydata", message_id="<a1@x>", proven=False))
        [held] = await mail.wait_for(ALICE, 1)
        token = _token(held)
        # The token in a new thread (not a reply to the mail that carried it) runs nothing.
        elsewhere = letter(f"{token}", message_id="<a2@x>", subject="new", proven=False)
        await submit(mail, elsewhere)
        [_, reply] = await mail.wait_for(ALICE, 2)
        await quiet(gateway)

    assert held["Cc"] is None and held["Bcc"] is None and held["To"] == ALICE
    assert "Confirmed" not in reply.get_content()
    assert "Here is what I keep about you" not in reply.get_content()


async def test_unproven_mail_changes_nothing_until_the_address_confirms(
    tmp_path: Path, dovecot: DovecotServer, mail: SmtpSink
) -> None:
    async with running(tmp_path, dovecot, mail) as (gateway, _):
        await submit(
            mail, letter("clock: home tz Asia/Tokyo", message_id="<f1@evil>", proven=False)
        )
        [held] = await mail.wait_for(ALICE, 1)
        await quiet(gateway)
        before = await gateway.wrapper.export_state()
        remind = letter("remind me in 2 hours to call mum", message_id="<f2@evil>", proven=False)
        await submit(mail, remind)
        [_, held_too] = await mail.wait_for(ALICE, 2)
        await quiet(gateway)
        reminders = await gateway.outbox.listing()
        thread = _replying(held, "<f1@evil>")
        await submit(mail, letter(_token(held), message_id="<a3@x>", proven=False, **thread))
        await mail.wait_for(ALICE, 3)
        await quiet(gateway)
        after = await gateway.wrapper.export_state()

    zones = [user.get("default_tz") for user in before["users"].values()]
    assert "Asia/Tokyo" not in zones
    assert _token(held) and _token(held_too)
    assert not any(job.kind == "reminder" for job in reminders)
    assert "Asia/Tokyo" in [user.get("default_tz") for user in after["users"].values()]
