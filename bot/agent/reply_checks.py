"""What a model's reply must not be when it goes to the person: checked on every reply.

A reply is words for a person. What the model was given to work with (the
runtime block, the system prompt, the tools and their results) is machinery,
never words for anyone (docs/eval.md, M27, and "Nothing of the machinery
reaches the person"). `fault_in` runs the checks below in order, one
row each, on the reply the agent is about to send; the agent asks the model
once more with the fault's note, and if the next reply has a fault too, sends
words of its own built from what the turn did (`bot.agent.own_reply`).

The checks look for the *form* of machinery, not one model's habits:

- a tool call written out: a JSON object naming one of our tools, or with call
  arguments; a call tag (``<tool_call>``, ``<tools>``, ``<function…>``);
  code calling one of our tools (``remind(text=…)``, ``remind {"text": …}``,
  ``obj['name'] = 'remind'``), or a tool name that is no word (``send_message``);
- the runtime block said back: one of its fact lines whole, or a run of
  `_BLOCK_RUN` words of them;
- the system prompt said back: a run of `_PROMPT_RUN` of its words;
- a tool result said back as data: one of its JSON keys in quotes;
- talk about the turn instead of to the person: "the user", "the person's
  message", "my response" and their equivalents in the seven languages (unless
  the person wrote the same words);
- no words: nothing, a fenced block alone, or a fragment (`fragment`);
- a time written as the machine writes it, an ISO 8601 instant
  ("2026-09-15T11:00:00-04:00"), among words: the tools' ``said`` is how a person reads it.

A run is counted in words (letters and digits, case set aside); a run the
person's own message holds too is theirs to hear back.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

from bot.agent.tools.tool_errors import tool_result
from clockcore import RUNTIME_BLOCK_END, RUNTIME_BLOCK_START

__all__ = ["Fault", "TurnFacts", "fault_in", "fragment"]


@dataclass(frozen=True, slots=True)
class TurnFacts:
    """What the turn gave the model, to find it said back in a reply.

    Attributes:
        tools: the names of our tools.
        block: the runtime block sent with the person's message ("" if none).
        prompt: the system prompt sent.
        results: the contents of the turn's tool results.
        theirs: the person's own message (their words are theirs to hear back).
    """

    tools: Collection[str]
    block: str
    prompt: str
    results: Sequence[str] = ()
    theirs: str = ""


@dataclass(frozen=True, slots=True)
class Fault:
    """Why a reply cannot go to the person: `what` for the log, `note` for the model."""

    what: str
    note: str


_WORD = re.compile(r"[^\W_]+")
_BLOCK_RUN = 8
"""Words in a row shared with the runtime block's facts that make it said back
("last message in this thread 9 seconds ago" is eight)."""
_PROMPT_RUN = 10
"""Words in a row shared with the system prompt that make it said back."""
_BLOCK_LABELS = (
    "current time:", "speaker:", "user timezone:", "session timezone:", "time in ",
    "session started:", "last message in this thread:", "last message on any channel:",
    "thread kind:", "contact window", "check-in due", "open action:", "notice:",
    "duplicate delivery:",
)  # fmt: skip
"""The block's fact lines begin so (`clockcore.envelope`); its due lines hold the person's
own reminders, said back to them by design, and are not counted."""


def _words(text: str) -> list[str]:
    return _WORD.findall(text.casefold())


def _runs(words: Sequence[str], size: int) -> set[tuple[str, ...]]:
    return {tuple(words[i : i + size]) for i in range(len(words) - size + 1)}


def _shares_run(reply: str, source: str, size: int, theirs: str) -> bool:
    """Whether `reply` holds `size` words in a row of `source` that `theirs` does not."""
    said = _runs(_words(reply), size)
    if not said:
        return False
    return bool((said & _runs(_words(source), size)) - _runs(_words(theirs), size))


# --------------------------------------------------------------------------- the checks


def _call_shapes(tools: Collection[str]) -> re.Pattern[str]:
    names = "|".join(sorted(map(re.escape, tools), key=len, reverse=True)) or "(?!)"
    bare = "|".join(re.escape(t) for t in tools if "_" in t) or "(?!)"
    return re.compile(
        rf"""["'](?:name|function|tool|tool_name)["']\s*[:=]\s*["'](?:{names})["']"""
        rf"""|["'](?:arguments|parameters)["']\s*:\s*[{{"]"""
        r"|</?\s*(?:tool_calls?|tools?|tool_code|tool_use|function_calls?|functions?|invoke"
        r"|parameters?)\b[^<>\n]{0,200}>"
        r"""|\w\s*\[\s*["'](?:name|arguments|parameters|function|response)["']\s*\]"""
        rf"""|\b(?:{names})\s*(?:\(\s*(?:\)|\w+\s*=|["'{{\[])|\{{\s*["']|:\s*\{{)"""
        rf"|\bfunctions\.(?:{names})\b|(?<![\w-])(?:{bare})(?![\w-])",
        re.IGNORECASE,
    )


_SHAPES: dict[frozenset[str], re.Pattern[str]] = {}


def _written_call(reply: str, facts: TurnFacts) -> bool:
    key = frozenset(facts.tools)
    shapes = _SHAPES.get(key) or _SHAPES.setdefault(key, _call_shapes(key))
    return shapes.search(reply) is not None


def _fact_lines(block: str) -> list[str]:
    inside = block.split(RUNTIME_BLOCK_START, 1)[-1].split(RUNTIME_BLOCK_END, 1)[0]
    lines = (line.strip().removeprefix("- ").strip() for line in inside.splitlines())
    return [line for line in lines if line.casefold().startswith(_BLOCK_LABELS)]


def _block_said(reply: str, facts: TurnFacts) -> bool:
    lines = _fact_lines(facts.block)
    flat = " ".join(reply.casefold().split())
    if any(len(line) >= 20 and " ".join(line.casefold().split()) in flat for line in lines):
        return True
    return _shares_run(reply, "\n".join(lines), _BLOCK_RUN, facts.theirs)


def _prompt_said(reply: str, facts: TurnFacts) -> bool:
    return _shares_run(reply, facts.prompt, _PROMPT_RUN, facts.theirs)


_QUOTED_KEY = re.compile(r"""["'](\w+)["']\s*:""")


def _result_said(reply: str, facts: TurnFacts) -> bool:
    keys = {key for content in facts.results for key in tool_result(content)}
    return any(found in keys for found in _QUOTED_KEY.findall(reply))


_ABOUT_THE_TURN = re.compile(
    r"\b(?:th(?:e|is) (?:user|person)\b(?!\s+(?:who|that|from|at|in)\b)"
    r"|the (?:user|person)'s (?:message|request|question)|my (?:response|reply) to"
    r"|(?:runtime|time context|system prompt|tool (?:call|result)s?)\b"
    r"|(?:der|dem|den) (?:benutzer|nutzer)|el usuario|l'utilisateur|o usu[aá]rio"
    r"|o utilizador|l'utente|de gebruiker)",
    re.IGNORECASE,
)
"""The turn talked about, not the person talked to: "This user is currently in…", "I will
write my response to the person's message now." The person is "you" in a reply."""


def _about_the_turn(reply: str, facts: TurnFacts) -> bool:
    found = _ABOUT_THE_TURN.search(reply)
    return found is not None and found[0].casefold() not in facts.theirs.casefold()


_INSTANT = re.compile(
    r"\b\d{4}-\d{2}-\d{2}"
    r"(?:T\d{2}:\d{2}|[ ]\d{2}:\d{2}(?::\d{2}|(?::\d{2})?(?:Z|[+-]\d{2}:?\d{2})))"
)
"""An instant as ISO 8601 writes it: a date with "T" and a clock, or with a clock that has
seconds or an offset ("2026-06-15 20:00:00+01:00"). A date alone ("2026-09-15") is words."""


def _machine_time(reply: str, facts: TurnFacts) -> bool:
    return any(found[0] not in facts.theirs for found in _INSTANT.finditer(reply))


_FENCE = re.compile(r"```[^\n`]*")
_WHOLE_FENCE = re.compile(r"\A\s*```.*```\s*\Z", re.DOTALL)
_LETTERS = re.compile(r"[^\W\d_]{2,}")
_NUMBER = re.compile(r"\d+")
_FEWEST_WORDS = 2
"""A reply with fewer words than this (of two letters or more) is a fragment."""


def fragment(text: str, *, acted: bool = True) -> bool:
    """Whether `text` has no words for a person: empty, a fenced block alone, or a fragment.

    A fragment has no word of two letters or more once fences and their info words are
    left out (an id, a number, a timestamp, "``` | ```"). After a turn whose tools ran
    (`acted`), one word alone is a fragment too: "Done!" leaves the person not knowing
    what was done, where "Noted." to a story they told is an answer, and so is "291 days."
    """
    if not text.strip() or _WHOLE_FENCE.match(text):
        return True
    unfenced = _INSTANT.sub(" ", _FENCE.sub(" ", text))  # an instant is no words
    words = len(_LETTERS.findall(unfenced))
    return words == 0 or (acted and words + len(_NUMBER.findall(unfenced)) < _FEWEST_WORDS)


def _no_words(reply: str, facts: TurnFacts) -> bool:
    return fragment(reply, acted=bool(facts.results))


_WORDS_ONLY = "Write your reply to the person again, in plain words only."


@dataclass(frozen=True, slots=True)
class _Check:
    what: str
    found: Callable[[str, TurnFacts], bool]
    why: str
    then: str = _WORDS_ONLY


_CHECKS = (
    _Check(
        "a tool call written as text",
        _written_call,
        "it held a tool call written as text",
        "To use a tool, call it; to the person, write plain words only.",
    ),
    _Check("the runtime block said back", _block_said, "it repeated the runtime block"),
    _Check("the system prompt said back", _prompt_said, "it repeated your instructions"),
    _Check("a tool result said back", _result_said, "it showed a tool result as data"),
    _Check(
        "talk about the turn",
        _about_the_turn,
        "it spoke about the person, or about your tools and instructions, instead of to the person",
        "Talk to them as 'you'. " + _WORDS_ONLY,
    ),
    _Check(
        "no words",
        _no_words,
        "it has no words for a person, only code, an id, a number or a fragment",
        "Write your reply to the person: one sentence{done}.",  # {done}: what the tools did
    ),
    _Check(
        "a machine time",
        _machine_time,
        "it wrote a time as the tools write it (an ISO instant), not as a person reads it",
        "Say each time as the results' 'said' says it. " + _WORDS_ONLY,
    ),
)
"""In order: the first found is the one the note names."""


def fault_in(reply: str, facts: TurnFacts, *, done: str = "") -> Fault | None:
    """The first check `reply` fails, with the note that asks the model once more; None if none.

    `done`: what the turn's tool results say, for the note about a reply with no words.
    """
    for check in _CHECKS:
        if check.found(reply, facts):
            said = f" (the results say: {done})" if done else ""
            then = check.then.format(done=f" saying what was done{said}" if facts.results else "")
            return Fault(
                check.what,
                f"(clockbot: your reply was not sent to the person: {check.why}. {then})",
            )
    return None
