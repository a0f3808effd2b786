"""What an address is asked to confirm is what runs once it confirms (`bot.turns.sender_check`).

A forger writes as the victim from an unproven address; a request that would
change something is held, and the victim is mailed a token with the request
quoted: "Before I act on “…”, please confirm". Their reply with the token runs the
held request as proven (`bot.turns.commands.NoModelCommands._sender_confirmed`), all of
it: up to 2,000 characters (`hold_for_proof`). The quote shows the first 80, with
no mark that anything was cut, so the forger puts an ordinary question first and
what they want done after it.
"""

from __future__ import annotations

from bot.turns.sender_check import (
    MAX_HELD_CHARS,
    check_reply,
    new_check_token,
    privileged,
    request_to_hold,
    tokens_in,
)

SHOWN = "What is on my list for tomorrow morning, and what time is it in Tokyo right now?"
HIDDEN = "clock: home tz Pacific/Kiritimati"
FORGED = f"{SHOWN}\n\n{HIDDEN}"


def test_the_confirmation_mail_shows_all_of_the_request_that_will_run() -> None:
    assert privileged(FORGED), "the forged mail's request is held for the token"
    token = new_check_token()
    request, cut = request_to_hold(FORGED)
    mail = check_reply(token, request, cut=cut)
    assert not cut
    assert f"> {SHOWN}" in mail and f"> {HIDDEN}" in mail, mail
    assert tokens_in(mail) == [token]


def test_invisible_characters_are_neither_shown_nor_run() -> None:
    # A right-to-left override makes "clock: home tz ..." read backwards in a mail
    # reader; a zero-width space hides inside a word. Both are dropped from what is
    # held, so the quote and what runs are the same text.
    hidden = "what time is it?\n\u202eclock: home tz Pacific/Kiritimati\u202c\u200b"
    request, cut = request_to_hold(hidden)
    assert request == "what time is it?\nclock: home tz Pacific/Kiritimati"
    assert not cut
    assert "\u202e" not in check_reply(new_check_token(), request)


def test_a_request_over_the_limit_is_held_cut_and_the_mail_says_so() -> None:
    long = "clock: tz Asia/Tokyo\n" + "x " * MAX_HELD_CHARS
    request, cut = request_to_hold(long)
    assert cut and len(request) == MAX_HELD_CHARS
    mail = check_reply(new_check_token(), request, cut=cut)
    assert f"only its first {MAX_HELD_CHARS:,} characters" in mail
    assert "> clock: tz Asia/Tokyo" in mail
