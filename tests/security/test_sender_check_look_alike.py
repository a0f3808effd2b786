"""A CHECK token written with look-alike characters proves nothing (docs/SECURITY.md).

`tokens_in` reads the tokens a mail quotes back. Matched case-blind over all of Unicode,
"ſ" (long s), "ı" (dotless i) and "K" (Kelvin sign) fold to S, I and K, so a token written
with them was read as the real one. A token is ASCII: Cyrillic letters, fullwidth
digits, a zero-width joiner or a non-breaking hyphen inside make it no token at all.
"""

from __future__ import annotations

import pytest

from bot.turns.sender_check import new_check_token, tokens_in

TOKEN = "CHECK-ABCD-EFGH-IJKL-MNS2"

LOOK_ALIKES = {
    "long s": TOKEN.replace("S", "\u017f"),
    "dotless i": "CHECK-abcd-efgh-\u0131jkl-mns2",
    "Kelvin sign": TOKEN.replace("K", "\u212a"),
    "Cyrillic A": TOKEN.replace("A", "\u0410"),
    "Cyrillic E and C": TOKEN.replace("E", "\u0415").replace("C", "\u0421"),
    "fullwidth digit": TOKEN.replace("2", "\uff12"),
    "fullwidth letters": "CHECK-" + "".join(chr(ord(c) + 0xFEE0) for c in "ABCD") + TOKEN[10:],
    "zero-width joiner": TOKEN[:8] + "\u200d" + TOKEN[8:],
    "zero-width space": TOKEN[:14] + "\u200b" + TOKEN[14:],
    "non-breaking hyphens": TOKEN.replace("-", "\u2011"),
}


@pytest.mark.parametrize("kind", sorted(LOOK_ALIKES))
def test_a_look_alike_token_is_no_token(kind: str) -> None:
    text = f"Re: your request\n\nYes, that was me: {LOOK_ALIKES[kind]}\n"
    assert tokens_in(text, "Re: " + LOOK_ALIKES[kind]) == []


def test_the_token_itself_is_read_in_either_case_and_beside_a_look_alike() -> None:
    token = new_check_token()
    assert tokens_in(f"yes: {token.lower()}") == [token]
    assert tokens_in(LOOK_ALIKES["long s"], f"Re: {token}") == [token]
    assert tokens_in(TOKEN) == [TOKEN]
