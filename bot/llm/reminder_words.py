"""How people ask to be reminded, in the seven languages: "remind me", "recuérdame"…

`REMIND_ME` is the alternation, one named group per language ("en", "es", "de",
"fr", "pt", "it", "nl"); the rules agent reads a message that starts with it
(`bot.llm.rules_agent`), and the tools ask `asks_to_be_reminded` whether the
person's message asks for a reminder anywhere (docs/reminders.md).
"""

from __future__ import annotations

import re

from clockcore.parsing.time_questions import asks_about_time

__all__ = ["REMIND_ME", "asks_to_be_reminded", "asks_to_keep_in_mind", "only_asks_about_time"]

REMIND_ME = (
    r"(?P<en>(?:(?:can|could|would|will)\s+you\s+(?:please\s+)?)?"
    r"(?:remind\s+me|ping\s+me|nudge\s+me|set\s+(?:a|me\s+a)\s+reminder(?:\s+for)?|"
    r"(?:do\s+not|don'?t)\s+let\s+me\s+forget))"
    r"|(?P<es>(?:(?:me\s+)?puedes\s+recordar(?:me)?|me\s+podr[ií]as\s+recordar|"
    r"(?:(?:me\s+)?puedes\s+|podr[ií]as\s+)?(?:recu[eé]rdame|recordame|recordarme|"
    r"av[ií]same|avisarme|no\s+me\s+dejes\s+olvidar)))"
    r"|(?P<de>(?:kannst\s+du\s+mich\s+)?(?:erinnere?\s+mich|erinnern|sag\s+mir\s+bescheid))"
    r"|(?P<fr>(?:peux-tu\s+|pourrais-tu\s+)?(?:rappelle[sz]?[- ]moi|me\s+rappeler|"
    r"pr[ée]viens[- ]moi))"
    r"|(?P<pt>(?:pode\s+me\s+lembrar|(?:pode\s+)?(?:me\s+lembr[ae]|lembr[ae][- ]me|me\s+avis[ae]|"
    r"n[ãa]o\s+me\s+deixe?\s+esquecer)))"
    r"|(?P<it>(?:puoi\s+)?(?:ricordami|ricordarmi|mi\s+ricordi|avvisami))"
    r"|(?P<nl>(?:kun\s+je\s+me\s+)?(?:herinner\s+(?:me|mij)|herinneren))"
)
"""The ways to ask for a reminder: "(can you) remind me", "ping me", "don't let me
forget", "recuérdame", "erinnere mich", "rappelle-moi", "lembra-me", "ricordami",
"herinner me"…"""

_ASKS = re.compile(rf"(?<![\w-])(?:{REMIND_ME})\b", re.IGNORECASE)
_CLAUSE_END = re.compile(r"[.!?;,:]")
_REMEMBERING = {
    "de": re.compile(r"\b(?:ich|wir)\b", re.IGNORECASE),
    "nl": re.compile(r"\b(?:ik|we|wij)\b", re.IGNORECASE),
}
"""Where the words of asking also say "I remember": German "sich erinnern" and Dutch "zich
herinneren". "Ich kann mich nicht erinnern", "ich erinnere mich an…", "ik herinner me…"
tell; "kannst du mich erinnern", "erinnere mich…", "herinner me…" ask. With "ich" or "wir"
("ik", "we") before the words in their clause, the person is speaking of their own memory."""


def asks_to_be_reminded(text: str) -> bool:
    """Whether `text` asks to be reminded somewhere in it ("ok, remind me at 9 to…")."""
    for found in _ASKS.finditer(text):
        remembering = _REMEMBERING.get(found.lastgroup or "")
        clause = _CLAUSE_END.split(text[: found.start()])[-1]
        if remembering is None or not remembering.search(clause):
            return True
    return False


KEEP_IN_MIND = (
    r"keep\s+in\s+mind|bear\s+in\s+mind|note\s+that|make\s+a\s+note|take\s+note|"
    r"remember\s+that|for\s+the\s+record|fyi|just\s+so\s+you\s+know"
    r"|ten\s+en\s+cuenta|toma\s+nota|apunta\s+que|anota\s+que|recuerda\s+que"
    r"|merk\s+dir|notier\s+dir|behalte\s+im\s+kopf|zur\s+info"
    r"|note\s+que|prends\s+note|garde\s+en\s+t[eê]te|retiens\s+que|pour\s+info"
    r"|tenha\s+em\s+mente|tem\s+em\s+mente|lembre-se\s+(?:de\s+)?que"
    r"|tieni\s+a\s+mente|tieni\s+presente|prendi\s+nota|ricorda\s+che|segna\s+che"
    r"|onthoud\s+dat|noteer\s+dat|houd\s+in\s+gedachten|ter\s+info"
)
"""The ways to ask for something to be kept in mind, not sent: "keep in mind", "note that",
"ten en cuenta", "merk dir", "note que", "tenha em mente", "tieni a mente", "onthoud dat"…"""

_KEEPS = re.compile(rf"(?<![\w-])(?:{KEEP_IN_MIND})\b", re.IGNORECASE)


def asks_to_keep_in_mind(text: str) -> bool:
    """Whether `text` asks to keep something in mind and nowhere to be reminded of it.

    "keep in mind the car insurance renews on 1 April" asks for a note; "note
    that the dentist is at 4, remind me at 3" asks for a reminder too.
    """
    return _KEEPS.search(text) is not None and not asks_to_be_reminded(text)


def only_asks_about_time(text: str) -> bool:
    """Whether `text` asks how long, when or what time, and for no reminder or note.

    Such a message wants an answer in the reply, not a reminder or a message sent
    (docs/eval.md, M12): the tools that send answer with its facts instead
    (`bot.agent.tools.toolbox._answer_instead`).
    """
    return asks_about_time(text) and not (asks_to_be_reminded(text) or asks_to_keep_in_mind(text))
