"""An unproven mail changes what is kept about the person it claims to be (Dovecot).

docs/SECURITY.md: an unproven sender "is still answered ..., but only read-only:
every change waits for the address to confirm". The directives are gated
(`wrapper.inbound.chain.MessageChain._apply_directives`), but two other steps of the same
chain write for every sender:

- `_resolve_zone`: a place the text puts the writer in joins the person's remembered
  places (`known_locations`, person-wide, read for every later message of theirs on
  every channel), and the thread's zone moves there, which ``clock: tz`` from the
  same sender would not do;
- `_adopt_platform_facts`: the From display name becomes the identity's name (the
  latest wins), the name the model's runtime block and a group's meeting polls show.
"""

from __future__ import annotations

from pathlib import Path

from tests.channels.email.conftest import ALICE, dovecot, letter, mail, submit
from tests.channels.email.test_email_gateway import quiet, running
from tests.support.mail import DovecotServer, SmtpSink

__all__ = ["dovecot", "mail"]  # the Dovecot harness's fixtures, used here

FORGED_NAME = "Zebulon Forgewright"


async def test_a_forged_place_is_not_remembered_for_the_victim(
    tmp_path: Path, dovecot: DovecotServer, mail: SmtpSink
) -> None:
    async with running(tmp_path, dovecot, mail) as (gateway, _):
        forged = letter("I'm in Kathmandu this week", message_id="<f1@evil>", proven=False)
        await submit(mail, forged)
        await mail.wait_for(ALICE, 1)
        await quiet(gateway)
        kept = await gateway.wrapper.people.export_person(f"email:{ALICE}")
    assert kept is not None, "the forged mail was journaled for the address it claims"
    [person] = kept["x_clockbot"]["people"]
    assert person["known_locations"] == [], person


async def test_a_forged_display_name_does_not_rename_the_victim(
    tmp_path: Path, dovecot: DovecotServer, mail: SmtpSink
) -> None:
    async with running(tmp_path, dovecot, mail) as (gateway, _):
        own = letter("what time is it?", message_id="<a1@x>")
        own.replace_header("From", f"Alice Liddell <{ALICE}>")
        await submit(mail, own)
        await mail.wait_for(ALICE, 1)
        await quiet(gateway)
        forged = letter("what time is it?", message_id="<f1@evil>", proven=False)
        forged.replace_header("From", f"{FORGED_NAME} <{ALICE}>")
        await submit(mail, forged)
        await mail.wait_for(ALICE, 2)
        await quiet(gateway)
        kept = await gateway.wrapper.people.export_person(f"email:{ALICE}")
    assert kept is not None
    assert kept["x_clockbot"]["person"]["names"] == {f"email:{ALICE}": "Alice Liddell"}
