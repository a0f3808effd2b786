"""What an address is asked to confirm is what runs once it confirms (`bot.sender_check`).

A forger writes as the victim from an unproven address; a request that would
change something is held, and the victim is mailed a token with the request
quoted: "Before I act on “…”, please confirm". Their reply with the token runs the
held request as proven (`bot.commands.NoModelCommands._sender_confirmed`), all of
it: up to 2,000 characters (`hold_for_proof`). The quote shows the first 80, with
no mark that anything was cut, so the forger puts an ordinary question first and
what they want done after it.
"""

from __future__ import annotations

import pytest

from bot.sender_check import check_reply, new_check_token, privileged

SHOWN = "What is on my list for tomorrow morning, and what time is it in Tokyo right now?"
HIDDEN = "clock: home tz Pacific/Kiritimati"
FORGED = f"{SHOWN}\n\n{HIDDEN}"


@pytest.mark.xfail(
    strict=True,
    reason="att81: check_reply quotes only the first 80 characters of the held request, "
    "without a mark that it was cut; the whole request (2,000) runs on confirmation",
)
def test_the_confirmation_mail_shows_all_of_the_request_that_will_run() -> None:
    assert privileged(FORGED), "the forged mail's request is held for the token"
    mail = check_reply(new_check_token(), FORGED)
    assert HIDDEN in mail or "…" in mail, mail
