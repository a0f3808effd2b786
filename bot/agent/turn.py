"""One agent turn: the wrapper's envelope, the stored history, the model, its tools.

The request for a turn is the constant system prompt, every earlier message of
the thread exactly as it was first sent, and the newest user message with the
runtime block on top (`bot.agent.prompt`). The tool tuple is the same object on every
request (`bot.agent.tools.toolbox.TOOLS`). So each request begins, byte for byte, with the
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

from bot.agent.asks import asking, call_arguments, send_text
from bot.agent.compaction import (
    COMPACT_AFTER_CHARS,
    KEEP_RECENT,
    Compactor,
)
from bot.agent.conversation import Conversation, Model
from bot.agent.model_words import unechoed
from bot.agent.own_reply import results_said
from bot.agent.prompt import (
    SYSTEM_PROMPT,
    assemble,
    baseline_system,
    person_words,
    proactive_turn,
    user_turn,
)
from bot.agent.reply_checks import Fault, TurnFacts, fault_in
from bot.agent.tools.toolbox import TOOLS, ToolSession
from bot.app.cache_watch import calling
from bot.llm.errors import LLMContextOverflow, LLMError, LLMTemplateError
from bot.llm.text_calls import with_text_calls
from bot.llm.types import Completion, Message, Provider, ToolCall, ToolSpec
from bot.replies import NO_WORDS, NOT_A_TOOL, STUCK, conversation_language
from clockcore import (
    Clock,
    ContactWindow,
    ContextEnvelope,
    MessageRef,
    parse_anchored_time,
    runtime_time_context,
)
from wrapper import InteractionWrapper
from wrapper.outbound.outbox import OutboxItem
from wrapper.turns.effects import Effect
from wrapper.turns.history import StoredMessage
from wrapper.turns.turn_commit import Compaction

__all__ = [
    "RETRY_LEASE",
    "Agent",
    "ProactiveOutput",
    "TurnOutput",
    "message_to_stored",
    "stored_to_message",
]

log = logging.getLogger(__name__)

RETRY_LEASE = timedelta(minutes=10)
"""The last resort: how long a live worker's claim on a message lasts before any may take it."""
_SCAN_ON_LOOP = 2_000  # characters of a reply scanned for written calls on the event loop


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
    model; it writes nothing. `bot.turns.lifecycle` commits what it returns.

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
        self._provider = provider
        self._clock = clock
        self._window = contact_window
        self._compactor = Compactor(
            wrapper=wrapper, provider=provider, clock=clock, tools=self._tools,
            fixed_chars=self._fixed_chars, behind_prefix=lambda ask: self._assemble([], ask),
            read_calls=self._with_text_calls, context_tokens=context_tokens,
            compact_after_chars=compact_after_chars, keep_recent=keep_recent,
        )  # fmt: skip

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
            stored, compaction = await self._compactor.compact(
                list(history), thread_key=envelope.thread_key, newest=newest
            )

            earlier = (person_words(m.content) for m in history if m.role == "user")
            language = conversation_language(ref, earlier)

            def session_for() -> ToolSession:
                return ToolSession(
                    wrapper=self._wrapper, envelope=envelope, clock=self._clock,
                    contact_window=envelope.contact.contact_window, message=ref,
                    language=language, can_send=self._can_send,
                )  # fmt: skip

            session = session_for()
            try:
                produced = await self._conversation(stored, newest, session).run()
            except LLMContextOverflow as exc:
                # The estimate missed: compact now, keeping only the last exchange, and try
                # once more with a fresh session (the failed attempt's staged effects go).
                stored, compaction = await self._compactor.compact(
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
        # A message put in send_message instead of the answer is the message: the turn's
        # words, unless it deferred or wrote some (docs/eval.md, M9).
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
        """What keeps `answer` from the person (`bot.agent.reply_checks`), given what this turn's
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


_WORD = re.compile(r"\w+")


def _carrying(written: str, job: str) -> str:
    """What a due job sends: the model's words when they carry the job's, else the job's own.

    A reminder must say what it reminds of: sent on time without its text, with a
    model's chatter instead (docs/eval.md, M10), it is a reminder lost. The
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
