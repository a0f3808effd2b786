"""Compaction: past its budget, a thread's older turns become one summary message.

The budget is the history's size, or, with a context window, the request's share
of it, counted in the model's own tokens where the thread's last request says how
many characters make one. The summary is asked behind the turn's own prefix, so a
server's prefix cache still holds the system prompt and the tools for the turn
after it; the system prompt is never touched (docs/ARCHITECTURE.md, "The agent's
request").
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence

from bot.agent.model_words import without_repeats
from bot.app.cache_watch import summarising
from bot.llm.errors import LLMError
from bot.llm.types import Message, Provider, ToolSpec
from clockcore import RUNTIME_BLOCK_END, Clock, to_iso
from wrapper import InteractionWrapper
from wrapper.turns.history import EARLIER, StoredMessage
from wrapper.turns.turn_commit import Compaction

__all__ = [
    "COMPACT_AFTER_CHARS",
    "CONTEXT_SHARE",
    "KEEP_RECENT",
    "SUMMARY_AGAIN",
    "SUMMARY_PROMPT",
    "Compactor",
]

log = logging.getLogger(__name__)

COMPACT_AFTER_CHARS = 60_000
"""History size (characters, ~15k tokens) past which older turns become one summary."""
KEEP_RECENT = 10
"""Messages kept word for word when compacting."""
CONTEXT_SHARE = 0.75
"""With a known context window: compact before a request would pass this share of it."""
CHARS_PER_TOKEN = 3
"""A cautious guess of characters per token, where the provider has not counted them yet."""
KEEP_ON_OVERFLOW = 2
"""Messages kept word for word when an overflow forces a compaction: the last exchange."""
AFTER_COMPACTION_SHARE = 0.5
"""A compaction keeps what fits this share of the window, so several turns pass before the next."""
SUMMARY_ROOM = 40_000
"""Characters of transcript one summary request carries, where no context window is known."""
SUMMARY_CHARS = 1_500
"""Room kept for the summary a compaction writes (the prompt asks for 200 words at most)."""

SUMMARY_PROMPT = (
    "Summarise this conversation for your own later reference: who the person is (the user), "
    "everyone they name and who each is to them (their brother, a colleague), what they "
    "asked, what was decided, promised or scheduled, with dates as absolute timestamps. "
    "Plain sentences, at most 200 words. Reply with the summary only, no tool calls."
)
"""Each name with who it is to the person (docs/eval.md, M1); its examples name nobody, so
no name can pass from the prompt into a summary."""

SUMMARY_AGAIN = "No tool can help here and nobody reads this but you: write the summary now."
"""Before a summary answered with a call or nothing is asked alone (`Compactor._summarise`)."""


class Compactor:
    """One agent's compaction: its model, its budget, the prefix its requests share."""

    def __init__(
        self,
        *,
        wrapper: InteractionWrapper,
        provider: Provider,
        clock: Clock,
        tools: tuple[ToolSpec, ...],
        fixed_chars: int,
        behind_prefix: Callable[[Message], list[Message]],
        read_calls: Callable[[Message], Awaitable[tuple[Message, tuple[str, ...]]]],
        context_tokens: int | None,
        compact_after_chars: int = COMPACT_AFTER_CHARS,
        keep_recent: int = KEEP_RECENT,
    ) -> None:
        """`fixed_chars`: the system prompt's and the tools' size; `behind_prefix`: a request
        of one user message after the prefix every turn sends; `read_calls`: an answer with
        its calls written as text read (`bot.llm.text_calls`), and the names that do not run."""
        self._wrapper = wrapper
        self._provider = provider
        self._clock = clock
        self._tools = tools
        self._fixed_chars = fixed_chars
        self._behind_prefix = behind_prefix
        self._with_text_calls = read_calls
        self._context = context_tokens
        self._compact_after = compact_after_chars
        self._keep_recent = keep_recent

    async def _chars_per_token(self, stored: Sequence[StoredMessage], thread_key: str) -> float:
        """How many characters make a token for this model, from its own count where known.

        The thread's last request held the fixed prefix and the history up to its
        last tool result; with its answer that is about the stored history now. The
        provider counted it: the ratio follows the model's tokenizer. Before any count,
        `CHARS_PER_TOKEN`, a cautious guess.
        """
        last = await self._wrapper.last_model_call(thread_key)
        if last is None or not last[0]:
            return CHARS_PER_TOKEN
        counted = last[0] + (last[1] or 0)
        chars = self._fixed_chars + sum(_size(m) for m in stored)
        return min(max(chars / counted, 2.0), 6.0)

    def _room(self, newest: Message, ratio: float, share: float) -> float:
        """Characters of history that fit `share` of the window beside the fixed prefix
        and the newest message."""
        assert self._context is not None
        return self._context * share * ratio - self._fixed_chars - len(newest.content)

    async def compact(
        self,
        stored: list[StoredMessage],
        *,
        thread_key: str = "",
        newest: Message | None = None,
        force: bool = False,
    ) -> tuple[list[StoredMessage], Compaction | None]:
        """Past the budget, older turns become one summary message (committed with the turn).

        The budget: the history past `compact_after_chars`, or, with a context
        window, the request past `CONTEXT_SHARE` of it, counted in the model's own
        tokens where the thread's last request says how many characters make one.
        The most recent messages that fit `AFTER_COMPACTION_SHARE` of the window
        beside the summary are kept word for word (`keep_recent` at most, the last
        exchange at least), so the next compaction is some turns away; where even the
        last exchange does not fit, only its words are kept (`_last_exchange_words`).

        The summary is a user message that says when it was made; the system
        prompt is never touched. Recent messages keep their bytes, so the
        prefix changes once, here, and grows again from the next turn. If the
        model cannot summarise now, the history is left whole; when `force`d (the
        model said the context overflowed), the summary is the person's own lines.
        """
        newest = newest or Message(role="user", content="")
        keep = self._keep_recent
        over = sum(len(m.content) for m in stored) > self._compact_after
        if self._context is not None:
            ratio = await self._chars_per_token(stored, thread_key)
            over = over or sum(_size(m) for m in stored) > self._room(newest, ratio, CONTEXT_SHARE)
            # Keep what fits half the window beside a summary: room to grow before the next.
            kept_room = self._room(newest, ratio, AFTER_COMPACTION_SHARE) - SUMMARY_CHARS
            while keep > KEEP_ON_OVERFLOW and sum(_size(m) for m in stored[-keep:]) > kept_room:
                keep -= 1
            # A fixed prefix near half the window leaves no room for even the last exchange:
            # kept word for word, it made every turn compact again (docs/eval.md); its words
            # alone are kept, the rest goes into the summary.
            if sum(_size(m) for m in stored[-keep:]) > kept_room:
                keep = 0
        if not over and not force:
            return stored, None
        if force and keep:
            keep = KEEP_ON_OVERFLOW
        cut = _cut_point(stored, keep) if keep else len(stored)
        if cut <= 0:
            return stored, None
        carried, newer = _earlier_summary(stored[:cut])
        room = SUMMARY_ROOM
        if self._context is not None:  # the summary request, behind the prefix, fits too
            asked = Message("user", SUMMARY_PROMPT)
            room = max(2_000, int(self._room(asked, ratio, CONTEXT_SHARE)))
        try:
            with summarising():
                summary = await self._summary(carried, newer, room)
        except LLMError:
            if not force:
                return stored, None
            summary = _tail("\n".join(filter(None, (carried, _their_lines(newer)))))
        now = self._clock.now()
        head = (
            StoredMessage(
                role="user",
                content=f"{EARLIER}, compacted at {to_iso(now, 'UTC')}: "
                f"a summary, not the words]\n{summary}",
            ),
            StoredMessage(role="assistant", content="Noted."),
            *(_last_exchange_words(stored) if cut == len(stored) else ()),
        )
        compaction = Compaction(upto_seq=cut, head=head, expected_length=len(stored))
        return [*head, *stored[cut:]], compaction

    async def _summary(self, carried: str, newer: Sequence[StoredMessage], room: int) -> str:
        """The summary of an earlier one (`carried`, kept whole) and the messages after it.

        Only `newer` is summarised; the earlier summary is carried word for word
        until the two pass `SUMMARY_CHARS`, when the model shortens them together:
        summarised again each time, a summary loses who people are (docs/eval.md, M2).
        `room`: the characters of transcript one summary request may carry.
        """
        if self._provider.name == "rules":
            return _tail("\n".join(filter(None, (carried, _their_lines(newer)))))
        new = await self._summarise(_transcript(newer)[-room:]) if newer else ""
        summary = "\n".join(filter(None, (carried, new)))
        if len(summary) <= SUMMARY_CHARS:
            return summary or "(no summary)"
        shorter = await self._summarise(f"Earlier summaries, oldest first:\n{summary}")
        return _tail(shorter or summary)

    async def _summarise(self, transcript: str) -> str:
        """The model's summary of `transcript`, asked behind a turn's own prefix.

        The request opens with the system prompt and the tools every turn sends, so
        a server with one prefix cache (llama.cpp's slot) still holds them for the
        turn after the compaction (docs/eval.md, M3). A model that answers with a
        call, or nothing, is asked once more behind the same prefix
        (`SUMMARY_AGAIN`), and only then under the summary prompt alone, no tools.
        """
        for asked in (SUMMARY_PROMPT, f"{SUMMARY_AGAIN} {SUMMARY_PROMPT}"):
            ask = Message("user", f"(clockbot: {asked})\n\n{transcript}")
            try:
                completion = await self._provider.complete(self._behind_prefix(ask), self._tools)
            except LLMError as exc:
                log.info("the summary behind the turn's prefix failed (%s); asking it alone", exc)
                break
            answer, unknown = await self._with_text_calls(completion.message)
            if answer.content.strip() and not answer.tool_calls and not unknown:
                return without_repeats(answer.content.strip())
            # What came instead, by kind, never the words.
            called = [c.name for c in answer.tool_calls] + list(unknown)
            log.info(
                "a summary request was answered with %s",
                f"a call ({', '.join(called)})" if called else "nothing",
            )
        completion = await self._provider.complete(
            [
                Message(role="system", content=SUMMARY_PROMPT),
                Message(role="user", content=transcript),
            ],
            (),
        )
        return without_repeats(completion.message.content.strip())


def _their_lines(older: Sequence[StoredMessage]) -> str:
    """A summary without the model: the person's own last lines."""
    said = [_words(m.content) for m in older if m.role == "user"]
    return "\n".join(f"- They said: {line}" for line in said[-20:] if line)


def _transcript(messages: Sequence[StoredMessage]) -> str:
    """`messages` as the summary request reads them: one line each, blocks left out."""
    return "\n".join(f"{m.role}: {_words(m.content)}" for m in messages if m.content)


def _last_exchange_words(stored: Sequence[StoredMessage]) -> tuple[StoredMessage, ...]:
    """The last exchange as its words alone: the person's line without its runtime block and
    the answer without its tool rounds, each cut to 300 characters (`_words`); nothing when
    the exchange has no answer in words, so roles still alternate after the summary."""
    asked = next((i for i in range(len(stored) - 1, -1, -1) if stored[i].role == "user"), None)
    if asked is None:
        return ()
    line = _words(stored[asked].content)
    answers = [m for m in stored[asked + 1 :] if m.role == "assistant" and m.content.strip()]
    if not line or not answers:
        return ()
    return (
        StoredMessage(role="user", content=line),
        StoredMessage(role="assistant", content=_words(answers[-1].content)),
    )


def _earlier_summary(older: Sequence[StoredMessage]) -> tuple[str, Sequence[StoredMessage]]:
    """The summary an earlier compaction wrote at the head of `older` (or ""), and the rest."""
    if older and older[0].content.startswith(EARLIER) and "\n" in older[0].content:
        rest = 2 if len(older) > 1 and older[1].role == "assistant" else 1
        return older[0].content.split("\n", 1)[1].strip(), older[rest:]
    return "", older


def _tail(summary: str) -> str:
    """`summary` within `SUMMARY_CHARS`, its newest whole lines kept (one too long: its head)."""
    if len(summary) <= SUMMARY_CHARS:
        return summary
    lines = summary.splitlines()
    while len(lines) > 1 and len("\n".join(lines)) > SUMMARY_CHARS:
        del lines[0]
    kept = "\n".join(lines)
    return kept if len(kept) <= SUMMARY_CHARS else kept[: SUMMARY_CHARS - 1] + "…"


def _size(message: StoredMessage) -> int:
    return len(message.content) + sum(len(a) + len(n) for _, n, a in message.tool_calls)


def _cut_point(stored: Sequence[StoredMessage], keep: int) -> int:
    """Where to cut: a user message at least `keep` from the end, so turns stay whole."""
    for index in range(max(len(stored) - keep, 0), 0, -1):
        if stored[index].role == "user":
            return index
    return 0


def _words(content: str) -> str:
    """What was said, without the runtime block, on one line, at most 300 characters."""
    if RUNTIME_BLOCK_END in content:
        content = content.split(RUNTIME_BLOCK_END, 1)[1]
    flat = " ".join(content.split())
    return flat if len(flat) <= 300 else flat[:299] + "…"
