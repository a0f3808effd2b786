"""How people ask to be reminded, in the seven languages: "remind me", "recuérdame"…

`REMIND_ME` is the alternation, one named group per language ("en", "es", "de",
"fr", "pt", "it", "nl"); the rules agent reads a message that starts with it
(`bot.rules_agent`), and the tools ask `asks_to_be_reminded` whether the
person's message asks for a reminder anywhere (docs/reminders.md).
"""

from __future__ import annotations

import re

__all__ = ["REMIND_ME", "asks_to_be_reminded"]

REMIND_ME = (
    r"(?P<en>(?:(?:can|could|would|will)\s+you\s+(?:please\s+)?)?"
    r"(?:remind\s+me|ping\s+me|nudge\s+me|set\s+(?:a|me\s+a)\s+reminder(?:\s+for)?|"
    r"(?:do\s+not|don'?t)\s+let\s+me\s+forget))"
    r"|(?P<es>(?:(?:me\s+)?puedes\s+|podr[ií]as\s+)?(?:recu[eé]rdame|recordame|recordarme|"
    r"av[ií]same|avisarme|no\s+me\s+dejes\s+olvidar))"
    r"|(?P<de>(?:kannst\s+du\s+mich\s+)?(?:erinnere?\s+mich|erinnern|sag\s+mir\s+bescheid))"
    r"|(?P<fr>(?:peux-tu\s+|pourrais-tu\s+)?(?:rappelle[sz]?[- ]moi|me\s+rappeler|"
    r"pr[ée]viens[- ]moi))"
    r"|(?P<pt>(?:pode\s+)?(?:me\s+lembr[ae]|lembr[ae][- ]me|me\s+avis[ae]|"
    r"n[ãa]o\s+me\s+deixe?\s+esquecer))"
    r"|(?P<it>(?:puoi\s+)?(?:ricordami|ricordarmi|mi\s+ricordi|avvisami))"
    r"|(?P<nl>(?:kun\s+je\s+me\s+)?(?:herinner\s+(?:me|mij)|herinneren))"
)
"""The ways to ask for a reminder: "(can you) remind me", "ping me", "don't let me
forget", "recuérdame", "erinnere mich", "rappelle-moi", "lembra-me", "ricordami",
"herinner me"…"""

_ASKS = re.compile(rf"(?<![\w-])(?:{REMIND_ME})\b", re.IGNORECASE)


def asks_to_be_reminded(text: str) -> bool:
    """Whether `text` asks to be reminded somewhere in it ("ok, remind me at 9 to…")."""
    return _ASKS.search(text) is not None
