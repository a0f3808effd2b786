"""One agent turn: the wrapper's envelope, the stored history, the model, its tools.

The request for a turn is the constant system prompt, every earlier message of
the thread exactly as it was first sent, and the newest user message with the
runtime block on top (`bot.prompt`). The tool tuple is the same object on every
request (`bot.tools.TOOLS`). So each request begins, byte for byte, with the
previous one, and a server's prompt cache serves all but the newest turn.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.agent.asks import asking, call_arguments, send_text, speak_up
from bot.agent.conversation import MAX_TOOL_ROUNDS, Conversation, Model
from bot.cache_watch import calling, summarising
from bot.llm.errors import LLMContextOverflow, LLMError, LLMTemplateError
from bot.llm.text_calls import with_text_calls
from bot.llm.types import Completion, Message, Provider, ToolCall, ToolSpec
from bot.model_words import unechoed, without_repeats
from bot.own_reply import results_said
from bot.prompt import (
    SYSTEM_PROMPT,
    assemble,
    baseline_system,
    proactive_turn,
    user_turn,
)
from bot.replies import NO_WORDS, NOT_A_TOOL, STUCK
from bot.reply_checks import Fault, TurnFacts, fault_in
from bot.tools import TOOLS, ToolSession
from clockcore import (
    RUNTIME_BLOCK_END,
    Clock,
    ContactWindow,
    ContextEnvelope,
    MessageRef,
    parse_anchored_time,
    runtime_time_context,
    to_iso,
)
from wrapper import InteractionWrapper
from wrapper.effects import Effect
from wrapper.history import EARLIER, StoredMessage
from wrapper.outbox import OutboxItem
from wrapper.turn_commit import Compaction

__all__ = [
    "COMPACT_AFTER_CHARS",
    "CONTEXT_SHARE",
    "KEEP_RECENT",
    "MAX_TOOL_ROUNDS",
    "RETRY_LEASE",
    "Agent",
    "ProactiveOutput",
    "TurnOutput",
    "message_to_stored",
    "speak_up",
    "stored_to_message",
]

log = logging.getLogger(__name__)

RETRY_LEASE = timedelta(minutes=10)
"""The last resort: how long a live worker's claim on a message lasts before any may take it."""
"""Model calls in one turn before the agent stops asking for more tool rounds."""
_SCAN_ON_LOOP = 2_000  # characters of a reply scanned for written calls on the event loop
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
"""A 1.5B model's summary made the person's visiting sister the person ("Marta plans to
repaint the hallway"), and the next answer could not say who was visiting (docs/eval.md):
the prompt asks for each name with who it is to them. Its examples name nobody, so no name
can pass from the prompt into a summary."""

SUMMARY_AGAIN = "No tool can help here and nobody reads this but you: write the summary now."
"""Before a summary answered with a call or nothing is asked alone (`Agent._summarise`)."""


@dataclass(frozen=True, slots=True)
class TurnOutput:
    """What one turn produced, nothing of it stored yet.

    `messages` are the history to append: the newest user message (runtime
    block on top) and everything the model and the tools said after it.
    `effects` are the tools' staged writes, in order; `compaction` replaces
    the history's older part when it had grown past the budget.
    """

    messages: tuple[Message, ...]
    reply: str
    effects: tuple[Effect, ...]
    compaction: Compaction | None = None


@dataclass(frozen=True, slots=True)
class ProactiveOutput:
    """The agent's call on a due reminder or scheduled message, and the history it adds."""

    text: str
    messages: tuple[Message, ...]
    defer_until: datetime | None = None
    reason: str = ""


class Agent:
    """Turns as a function of their inputs: (envelope, history, text) → messages and effects.

    The agent reads (the history it is given, read-only tools) and asks the
    model; it writes nothing. `bot.turns` commits what it returns.

    `baseline` is only for `clockbot eval --baseline` (docs/eval.md): the time
    goes into the system prompt as most gateways write it, the person's words
    go without a runtime block, and a proactive turn without the advisory.
    """

    def __init__(
        self,
        *,
        wrapper: InteractionWrapper,
        provider: Provider,
        clock: Clock,
        contact_window: ContactWindow,
        can_send: bool = True,
        compact_after_chars: int = COMPACT_AFTER_CHARS,
        keep_recent: int = KEEP_RECENT,
        context_tokens: int | None = None,
        tools: bool = True,
        baseline: bool = False,
        text_calls: bool = True,
        reader_first: bool = False,
    ) -> None:
        self._context = context_tokens
        self._reader_first = reader_first
        self._text_calls = text_calls
        self._baseline = baseline
        self._tools: tuple[ToolSpec, ...] = tuple(TOOLS) if tools else ()
        self._tool_names = frozenset(t.name for t in self._tools)
        # A call written as text is machinery whether or not the tools are offered.
        self._known_names = frozenset(t.name for t in TOOLS)
        self._fixed_chars = len(SYSTEM_PROMPT) + sum(
            len(t.name) + len(t.description) + len(json.dumps(t.parameters)) for t in self._tools
        )
        self._wrapper = wrapper
        self._can_send = can_send
        self._compact_after = compact_after_chars
        self._keep_recent = keep_recent
        self._provider = provider
        self._clock = clock
        self._window = contact_window

    @property
    def provider(self) -> Provider:
        return self._provider

    async def answer(
        self, envelope: ContextEnvelope, history: Sequence[StoredMessage], ref: MessageRef
    ) -> TurnOutput:
        """Answer `ref` (whose envelope is `envelope`) after `history`.

        Raises:
            LLMError: the model could not be reached; nothing was staged anywhere.
        """
        with calling(envelope.thread_key, ref.key):
            newest = (
                Message(role="user", content=ref.text)
                if self._baseline
                else user_turn(envelope.render(ids=True), ref.text)
            )
            stored, compaction = await self._compact(
                list(history), thread_key=envelope.thread_key, newest=newest
            )

            def session_for() -> ToolSession:
                return ToolSession(
                    wrapper=self._wrapper, envelope=envelope, clock=self._clock,
                    contact_window=envelope.contact.contact_window, message=ref,
                    can_send=self._can_send,
                )  # fmt: skip

            session = session_for()
            try:
                produced = await self._conversation(stored, newest, session).run()
            except LLMContextOverflow as exc:
                # The estimate missed: compact now, keeping only the last exchange, and try
                # once more with a fresh session (the failed attempt's staged effects go).
                stored, compaction = await self._compact(
                    list(history), thread_key=envelope.thread_key, newest=newest, force=True
                )
                if compaction is None:
                    raise
                log.warning("the model's context overflowed (%s); compacted, trying again", exc)
                session = session_for()
                produced = await self._conversation(stored, newest, session).run()
        produced = asking(produced, session)
        final = produced[-1]
        # Out of rounds with no question left for the person; or two empty answers
        # (`speak_up` asked once in between).
        reply = final.content if final.role == "assistant" else STUCK.in_(session.language)
        return TurnOutput(
            messages=(newest, *produced),
            reply=reply or NO_WORDS.in_(session.language),
            effects=tuple(session.staged),
            compaction=compaction,
        )

    async def proactive_turn(
        self,
        item: OutboxItem,
        zone: str | None,
        history: Sequence[StoredMessage],
        window: ContactWindow | None = None,
    ) -> ProactiveOutput:
        """Decide a due proactive job: the text to send, or a deferral (only ``defer`` acts).

        The request is the thread's conversation (the same bytes its turns
        sent, so a prompt cache serves it) plus one user message with the
        time facts and the job. If the model cannot be reached, the job is
        sent as written and nothing is added to the history.
        """
        now = self._clock.now()
        facts = runtime_time_context(now, zone, window or self._window)
        prompt = proactive_turn(
            item.kind, item.text, facts.to_dict()["now"], facts.advisory, facts=not self._baseline
        )
        earlier = [stored_to_message(m) for m in history]
        try:
            with calling(item.thread_key, item.key):
                completion = await self._complete(self._assemble(earlier, prompt))
        except LLMError as exc:
            log.warning("model unavailable for job %s, sending as written: %s", item.id, exc)
            return ProactiveOutput(item.text, ())
        # Calls written as text count here too; one to a tool we do not have leaves no text,
        # and the job goes out as written.
        answer, _ = await self._with_text_calls(unechoed(completion.message))
        until, reason = None, ""
        for call in answer.tool_calls:
            if call.name == "defer" and (deferral := _deferral(call, zone, now)) is not None:
                until, reason = deferral
                break
        # A message put in send_message instead of the answer is the message (seen on a
        # 1.5B model, docs/eval.md): the turn's words, unless it deferred or wrote some.
        sent = "" if answer.content.strip() or until is not None else send_text(answer.tool_calls)
        results = [
            Message("tool", _outcome(call, until, sent), tool_call_id=call.id, name=call.name)
            for call in answer.tool_calls
        ]
        text = _carrying(answer.content or sent, item.text)
        given = TurnFacts(self._known_names, prompt.content, SYSTEM_PROMPT, theirs=item.text)
        if text != item.text and (fault := fault_in(text, given)) is not None:
            # Machinery or no words instead of the message: the job goes out as written.
            log.info("a proactive message was not sent as written by the model: %s", fault.what)
            text = item.text
        return ProactiveOutput(text, (prompt, answer, *results), until, reason)

    def _conversation(
        self, stored: Sequence[StoredMessage], newest: Message, session: ToolSession
    ) -> Conversation:
        model = Model(
            assemble=self._assemble, complete=self._complete, read_calls=self._read_text_calls,
            fault=self._fault, ours=self._provider.name == "rules",
            reader_first=self._reader_first and not self._baseline,
        )  # fmt: skip
        return Conversation(model, [stored_to_message(m) for m in stored], newest, session)

    def _fault(
        self,
        answer: Message,
        request: Sequence[Message],
        produced: Sequence[Message],
        session: ToolSession,
    ) -> Fault | None:
        """What keeps `answer` from the person (`bot.reply_checks`), given what this turn's
        `request` sent and its tools returned; None if it may go. The rules agent's words
        are clockbot's own and go as they are."""
        if self._provider.name == "rules":
            return None
        facts = TurnFacts(
            tools=self._known_names,
            block=request[-1].content if not self._baseline else "",
            prompt=request[0].content if request and request[0].role == "system" else "",
            results=[m.content for m in produced if m.role == "tool"],
            theirs=session.message.text,
        )
        return fault_in(answer.content, facts, done=results_said(produced).replace("\n", "; "))

    async def _with_text_calls(self, message: Message) -> tuple[Message, tuple[str, ...]]:
        """`bot.llm.text_calls.with_text_calls` with this agent's tools and setting; a long
        text is scanned on a worker thread (the scan is linear, the text capped)."""
        if len(message.content) <= _SCAN_ON_LOOP:
            return with_text_calls(message, self._tool_names, run=self._text_calls)
        return await asyncio.to_thread(
            with_text_calls, message, self._tool_names, run=self._text_calls
        )

    async def _read_text_calls(self, message: Message, language: str | None) -> Message:
        """`message` with a whole-reply tool call made real (`bot.llm.text_calls`).

        A call shown inside prose is cut from the text and never runs. A message whose
        text was only calls that do not run (to a tool we do not have, or shown) is
        replaced by `bot.replies.NOT_A_TOOL` in the person's `language`: such text is
        never sent to the person as the reply.
        """
        answer, unknown = await self._with_text_calls(message)
        if unknown:
            log.warning("the model wrote a call that does not run: %s", ", ".join(unknown))
        if answer.tool_calls:
            log.info("read %d tool call(s) the model wrote as text", len(answer.tool_calls))
        elif unknown and not answer.content:
            return Message("assistant", NOT_A_TOOL.in_(language))
        return answer

    def _assemble(self, earlier: Sequence[Message], newest: Message) -> list[Message]:
        if self._baseline:
            return assemble(earlier, newest, system=baseline_system(self._clock.now()))
        return assemble(earlier, newest)

    async def _complete(self, messages: Sequence[Message]) -> Completion:
        try:
            return await self._provider.complete(messages, self._tools)
        except LLMTemplateError as exc:
            _template_refused(exc)
            raise

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

    async def _compact(
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
        until the two pass `SUMMARY_CHARS`, when the model shortens them together.
        Summarised again at every compaction, and cut to 300 characters as a
        transcript line, a 1.5B model's summary lost within nine compactions who
        the person's visiting sister was (docs/eval.md). `room`: the characters of
        transcript one summary request may carry.
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
        turn after the compaction. Asked under a system prompt of its own, the
        summary evicted them, and every turn after a compaction read its ~3,000
        tokens again (long-conversation's cached share 39%, docs/eval.md). A model
        that answers with a call, or nothing, is asked once more behind the same
        prefix (`SUMMARY_AGAIN`), and only then under the summary prompt alone, with
        no tools: Qwen2.5-Coder-1.5B's one summary asked alone in a run cost the
        turn after it 4,041 tokens with 3 cached (docs/eval.md, thirteenth run).
        """
        for asked in (SUMMARY_PROMPT, f"{SUMMARY_AGAIN} {SUMMARY_PROMPT}"):
            ask = Message("user", f"(clockbot: {asked})\n\n{transcript}")
            try:
                completion = await self._provider.complete(self._assemble([], ask), self._tools)
            except LLMError as exc:
                log.info("the summary behind the turn's prefix failed (%s); asking it alone", exc)
                break
            answer, unknown = await self._with_text_calls(completion.message)
            if answer.content.strip() and not answer.tool_calls and not unknown:
                return without_repeats(answer.content.strip())
            # What came instead, by kind, never the words (docs/eval.md asks what Qwen wrote).
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


_WORD = re.compile(r"\w+")


def _carrying(written: str, job: str) -> str:
    """What a due job sends: the model's words when they carry the job's, else the job's own.

    A reminder must say what it reminds of. A small model's proactive turn can
    answer with chatter ("I'm glad I could help!") instead (docs/eval.md, third
    run), and a reminder sent on time without its text is a reminder lost. The
    model's words are kept when they share one of the job's words of four letters
    or more ("Pill time!" for "take the pill"; of three, when the job has none
    longer); otherwise the job goes out as the person asked for it.
    """
    if not written:
        return job
    words = [w.casefold() for w in _WORD.findall(job)]
    wanted = {w for w in words if len(w) >= 4} or {w for w in words if len(w) >= 3}
    if not wanted:
        return written
    return written if wanted & {w.casefold() for w in _WORD.findall(written)} else job


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


_template_told = False


def _template_refused(exc: LLMTemplateError) -> None:
    """Say once, clearly, that the model's chat template cannot carry tool calls."""
    global _template_told
    if _template_told:
        return
    _template_told = True
    log.error(
        "the model's chat template refuses this conversation (%s): it demands strictly "
        "alternating user and assistant roles, so it cannot carry a tool call and its result. "
        "Set CLOCKBOT_LLM_TOOLS=off to run the agent without tools (the time facts stay), "
        "or use a model whose template supports tools.",
        exc,
    )


def _outcome(call: ToolCall, until: datetime | None, sent: str = "") -> str:
    """What a tool call in a proactive turn came to: ``defer`` acts, and a `send_message`
    whose text became the message (`sent`) is that message; nothing else acts."""
    if call.name == "send_message" and sent and send_text([call]) == sent:
        return json.dumps({"ok": True, "sent": "this text is the message that goes out now"})
    if call.name != "defer":
        return json.dumps({"ok": False, "error": "only defer takes effect in a proactive turn"})
    if until is None:
        return json.dumps({"ok": False, "error": "could not read that time; the message was sent"})
    return json.dumps({"ok": True, "deferred_until": until.isoformat()})


def _deferral(call: ToolCall, zone: str | None, now: datetime) -> tuple[datetime, str] | None:
    arguments = call_arguments(call)
    until_text, reason = arguments.get("until"), arguments.get("reason")
    if not isinstance(until_text, str) or not isinstance(reason, str):
        return None
    parsed = parse_anchored_time(until_text, zone or "UTC", now)
    if parsed.start_instant is None or parsed.needs_clarification:
        return None
    return parsed.start_instant, reason.strip()[:300]


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


def stored_to_message(stored: StoredMessage) -> Message:
    """A stored history message as the provider takes it (same bytes)."""
    return Message(
        role=stored.role,  # type: ignore[arg-type]
        content=stored.content,
        tool_calls=tuple(ToolCall(i, n, a) for i, n, a in stored.tool_calls),
        tool_call_id=stored.tool_call_id,
        name=stored.name,
    )


def message_to_stored(message: Message) -> StoredMessage:
    """A provider message as history keeps it (same bytes)."""
    return StoredMessage(
        role=message.role,
        content=message.content,
        tool_calls=tuple((c.id, c.name, c.arguments) for c in message.tool_calls),
        tool_call_id=message.tool_call_id,
        name=message.name,
    )
