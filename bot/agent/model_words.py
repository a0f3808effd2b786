"""What a model wrote, made fit to send to the person and to keep in the history.

Small models write things that are not words for the person: the chat
template's turn markers and the turns after their own, the system prompt or the
runtime block said back, one sentence or a word's ending over and over to the
token limit, the person's own paragraph copied back. Each is cut here, once,
before the answer is read for calls, sent, or kept (docs/eval.md has the runs
that showed each). What is cut never reaches the history either: kept there, a
copy teaches the model to copy again, and fills the window.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import replace

from bot.agent.prompt import PROMPT_OPENING
from bot.llm.types import Message
from clockcore import RUNTIME_BLOCK_END, RUNTIME_BLOCK_START

__all__ = ["sentence_keys", "uncopied", "unechoed", "without_repeats"]


_ECHOED_BLOCK = re.compile(
    re.escape(RUNTIME_BLOCK_START.removesuffix("]"))  # its "]" left off: docs/eval.md, M18
    + r".*?(?:"
    + re.escape(RUNTIME_BLOCK_END)
    + r"|\Z)|"
    + re.escape(RUNTIME_BLOCK_END),
    re.DOTALL,
)
"""A copied block: from its first line (its "]" there or not) to its last (or the end), or a
last line alone."""


def unechoed(message: Message) -> Message:
    """`message` without a runtime block the model copied into it (docs/eval.md, M18).

    Nor with the turns it wrote after its own (`_own_turn`), nor with the
    system prompt from its first sentence on (docs/eval.md, M19). The block is the
    system's facts for the model, never words for the person, and never the
    model's own: it goes from what is sent *and* from the history. Kept there,
    the copy taught the model that its turns begin with a block, and it copied
    again on every later turn, at times with nothing after it (docs/eval.md,
    third run). Dropping it costs no cached prefix a hosted provider keeps: the
    previous request ended before this reply, and only a local server that
    cached its own output re-reads these few tokens. A loop (`_unlooped`) and a
    stutter (`_STUTTER`) are said once.
    """
    content = _own_turn(message.content)
    # The system prompt said back (docs/eval.md, M19), in any case: "you are clockbot".
    if said_back := _PROMPT_SAID_BACK.search(content):
        content = content[: said_back.start()].rstrip()
    unblocked, copies = _ECHOED_BLOCK.subn("", content)
    if copies:
        content = unblocked.strip()
    content = _unlooped(_STUTTER.sub(r"\1", content))
    return message if content == message.content else replace(message, content=content)


_PROMPT_SAID_BACK = re.compile(re.escape(PROMPT_OPENING), re.IGNORECASE)
_STUTTER = re.compile(r"([^\W\d_](?:[^\W\d_]| ){1,39}?)\1{7,}")
"""A word's piece said eight times or more in a row, said once (docs/eval.md, M20): a
stutter with no sentence to loop on. Letters and spaces only, so a long number, a rule of
dashes or a table's "|---|---|" stays; "hahahahahahahahaha" becomes "ha", a small price."""
_LOOPED = 3
"""A sentence, or a pair, this many times in a row: the model is going round in a loop."""
_LONG_LOOP = 3
"""A run of this many sentences or more is a loop at its second copy in a row."""
_LONGEST_LOOP = 64
"""The longest run looked for: the search stays linear in a reply's sentences."""


def _unlooped(content: str) -> str:
    """`content` said once, where the model went round in a loop (`_looping`).

    A loop sent as it was fills the thread's window (docs/eval.md, M21). Each
    sentence goes once (`without_repeats`), and the copy the token
    limit cut short, the start of a sentence already said, goes too. A sentence
    that comes back with others between ("- Take the pill." under each day) is
    no loop and stays.
    """
    said = sentence_keys(content)
    if not _looping(said):
        return content
    once = without_repeats(content)
    tail = _SENTENCE_END.split(once.splitlines()[-1])[-1] if once else ""
    if tail and any(key != _key(tail) and key.startswith(_key(tail)) for key in said):
        once = once[: len(once) - len(tail)].rstrip()
    return once


def _looping(said: Sequence[str]) -> bool:
    """Whether `said` comes round in a loop: a sentence or a pair `_LOOPED` times in a row,
    a longer run (`_LONG_LOOP` sentences or more) twice in a row (docs/eval.md, M21).
    """
    for period in range(1, min(len(said) // 2, _LONGEST_LOOP) + 1):
        copies = _LOOPED if period < _LONG_LOOP else 2
        run = 0
        for i in range(period, len(said)):
            run = run + 1 if said[i] == said[i - period] else 0
            if run >= period * (copies - 1):
                return True
    return False


_TURN_MARKER = re.compile(
    r"<\|(?:im_start|im_end|eot_id|start_header_id|end_header_id|endoftext|end|user|assistant)\|>"
    r"|<(?:start|end)_of_turn>"
    r"|</?tool_response>"
)
"""The chat templates' turn markers written as text, and the tags templates put around a
tool's result, a turn that is not the model's (docs/eval.md, M22, names the templates)."""


def _own_turn(content: str) -> str:
    """`content` up to the first chat-template turn marker written as text.

    A server whose template does not fit the model does not stop at the end of
    the model's turn, and the model writes the person's next turn and its own
    after it (docs/eval.md, M23). The markers and what follows them are never words for
    the person; nothing before the first one stays an empty answer. A reply
    that explains a template by quoting its markers is cut too: rare, and far
    less harm than a template's tokens sent as words.
    """
    found = _TURN_MARKER.search(content)
    return content if found is None else content[: found.start()].rstrip()


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def without_repeats(text: str) -> str:
    """`text` with each sentence once, in order, lines kept (docs/eval.md, M24)."""
    seen: set[str] = set()
    lines = []
    for line in text.splitlines():
        kept = []
        for sentence in _SENTENCE_END.split(line.strip()):
            key = _key(sentence)
            if key and key not in seen:
                seen.add(key)
                kept.append(sentence)
        if kept:
            lines.append(" ".join(kept))
    return "\n".join(lines)


def _key(sentence: str) -> str:
    """`sentence` as two copies of it compare: case and runs of spaces set aside."""
    return " ".join(sentence.casefold().split())


def sentence_keys(text: str) -> list[str]:
    """`text`'s sentences, line by line, as two copies of them compare (`_key`)."""
    lines = text.splitlines()
    return [key for line in lines for s in _SENTENCE_END.split(line) if (key := _key(s))]


_COPIED_RUN = 3
"""Sentences in a row, each one the person wrote, that make their words said back."""
_COPIED_CHARS = 150
"""…and characters: a paragraph, not a line or a short list quoted."""


def uncopied(message: Message, theirs: Collection[str]) -> Message:
    """`message` without the person's own paragraphs said back to them.

    A copy: `_COPIED_RUN` sentences or more in a row, `_COPIED_CHARS` characters
    or more, each one of `theirs` (the `sentence_keys` of the person's messages
    in the history, read once a turn), the last perhaps cut short by the token
    limit (docs/eval.md, M25): no words for the person, and kept, each copy fills
    the history. A sentence or two quoted stays ("You said: the dentist is on
    Thursday at four."), and so does a short list said back.
    """
    lines = message.content.splitlines()
    said = [(n, s) for n, line in enumerate(lines) for s in _SENTENCE_END.split(line.strip())]
    copied = [_key(s) in theirs for _, s in said]
    if said and not copied[-1] and (tail := _key(said[-1][1])):
        copied[-1] = any(key.startswith(tail) for key in theirs)  # a copy cut short
    cut: set[int] = set()
    start = 0
    for end in range(len(said) + 1):
        if end < len(said) and copied[end]:
            continue
        run = range(start, end)
        if len(run) >= _COPIED_RUN and sum(len(said[i][1]) for i in run) >= _COPIED_CHARS:
            cut.update(run)
        start = end + 1
    if not cut:
        return message
    kept: dict[int, list[str]] = {}  # line number: its sentences left, lines in order
    for i, (n, sentence) in enumerate(said):
        if i not in cut:
            kept.setdefault(n, []).append(sentence)
    content = "\n".join(" ".join(sentences) for sentences in kept.values())
    return replace(message, content=content.strip())
