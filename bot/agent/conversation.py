"""One turn's rounds with the model, and the repairs that keep what it says true.

Each round asks the model, then offers its answer to the repairs in order, as the
wrapper's chain offers a message to its steps (`Conversation.repairs`): the first
that finds something wrong asks the model once more, or ends the turn with
clockbot's own words. An answer no repair stops is kept, and its calls run; two
more repairs look at what the calls did (`Conversation.after_calls`). Each repair
says its reason in one line; the runs that showed why are in docs/eval.md.

Where the model leaves a change undone, the rules agent's reading of the person's
words (`bot.llm.rules_agent`) carries it out, on a fork of the session first
(`ToolSession.fork`), so nothing it stages counts until it is adopted.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace

from bot.agent.asks import (
    is_reply,
    question_left,
    refused_with_question,
    send_text,
    signature,
    speak_up,
)
from bot.agent.claims import (
    Claim,
    asked_changes,
    claim_check,
    not_done_check,
    refusal_check,
    refuses,
    said_claims,
    unbacked_claim,
)
from bot.agent.model_words import sentence_keys, uncopied, unechoed
from bot.agent.own_reply import own_reply
from bot.agent.prompt import person_words
from bot.agent.reply_checks import Fault
from bot.agent.tools.tool_errors import tool_error
from bot.agent.tools.toolbox import TOOLS, ToolSession, run_tool
from bot.llm.errors import LLMError
from bot.llm.reminder_words import only_asks_about_time
from bot.llm.rules_agent import RulesProvider, confirms
from bot.llm.types import Completion, Message
from bot.replies import NOTHING_DONE, SAY_AGAIN
from wrapper.turns.history import EARLIER

__all__ = ["MAX_TOOL_ROUNDS", "Conversation", "Model"]

log = logging.getLogger(__name__)

MAX_TOOL_ROUNDS = 6
"""Model calls in one turn before the agent stops asking for more tool rounds."""


@dataclass(frozen=True, slots=True)
class Model:
    """What a conversation needs of the agent: its requests, its reading of an answer."""

    assemble: Callable[[Sequence[Message], Message], list[Message]]
    complete: Callable[[Sequence[Message]], Awaitable[Completion]]
    read_calls: Callable[[Message, str | None], Awaitable[Message]]
    """The answer with a whole-reply call written as text made real (`bot.llm.text_calls`)."""
    fault: Callable[[Message, Sequence[Message], Sequence[Message], ToolSession], Fault | None]
    """What keeps an answer from the person (`bot.agent.reply_checks`), None if it may go."""
    ours: bool
    """The rules agent answers: its words are clockbot's own, never checked or repaired."""
    reader_first: bool = False


@dataclass(frozen=True, slots=True)
class _Again:
    """Ask the model once more: the answer is dropped, `nudge` goes at the request's end."""

    nudge: list[Message]


@dataclass(frozen=True, slots=True)
class _End:
    """The turn ends with `produced`."""

    produced: list[Message]


_Verdict = _Again | _End | None
_Repair = Callable[[Message], Awaitable[_Verdict]]


@dataclass(frozen=True, slots=True)
class _Trial:
    """The rules agent's reading tried on a fork of a turn's session (`ToolSession.fork`):
    its calls and results, and how many effects the turn had staged when it forked."""

    session: ToolSession
    done: list[Message]
    staged_before: int


@dataclass(frozen=True, slots=True)
class _Undone:
    """Changes a reply left undone (`Conversation._left_undone`), and the rules agent's trial."""

    claims: tuple[Claim, ...]
    trial: _Trial | None

    @property
    def read(self) -> str:
        """The calls the person's words read as to the rules agent ("" if none)."""
        done = self.trial.done if self.trial is not None else ()
        return ", ".join(f"{c.name}({c.arguments})" for m in done for c in m.tool_calls)


@dataclass
class Conversation:
    """One turn: `earlier` messages, the `newest` (runtime block on top), its tool session."""

    model: Model
    earlier: Sequence[Message]
    newest: Message
    session: ToolSession
    produced: list[Message] = field(default_factory=list)
    _request: list[Message] = field(default_factory=list)
    _nudged: bool = False
    _checked: bool = False
    """A check (a claim, a refusal, machinery) was asked once: the next one acts."""
    _spoke: bool = False
    """`speak_up` was asked after an empty answer."""
    _trial: _Trial | None = None
    _theirs: set[str] = field(default_factory=set)
    _refused_before: set[tuple[str, str]] = field(default_factory=set)
    _repeated: bool = False
    """Every call of the round was refused with a question before, and again now."""
    _passed: str = ""
    """The words a `send_message` call passed on as the reply (`_passed_on`)."""

    @property
    def repairs(self) -> tuple[_Repair, ...]:
        """What stops an answer before it is kept, in order (the first that speaks decides)."""
        return (self._empty, self._undone, self._refusal, self._machinery)

    @property
    def after_calls(self) -> tuple[Callable[[], _End | None], ...]:
        """What ends a turn after an answer's calls ran, in order."""
        return (self._passed_on, self._refused_again)

    async def run(self) -> list[Message]:
        """The turn's messages after `newest`: the model's answers and the tools' results."""
        # The person's sentences, read once a turn; a compaction's summary is ours, however
        # often a model repeats it.
        self._theirs = {
            key
            for m in (*self.earlier, self.newest)
            if m.role == "user" and not m.content.startswith(EARLIER)
            for key in sentence_keys(m.content)
        }
        if self.model.reader_first and not self.model.ours:
            read = await self._read_first()
            if read is not None:
                return read
        nudge: list[Message] = []
        for _ in range(MAX_TOOL_ROUNDS):
            self._request = self.model.assemble(self.earlier, self.newest)
            completion = await self.model.complete(self._request + self.produced + nudge)
            written = uncopied(unechoed(completion.message), self._theirs)
            answer = await self.model.read_calls(written, self.session.language)
            self._nudged, nudge = bool(nudge), []
            verdict = await self._repaired(answer)
            if isinstance(verdict, _Again):
                nudge = verdict.nudge
                continue
            if isinstance(verdict, _End):
                return verdict.produced
            self.produced.append(answer)
            if not answer.tool_calls:
                return self.produced
            self._refused_before = refused_with_question(self.produced)
            self._repeated = bool(self._refused_before)
            self._passed = ""
            for call in answer.tool_calls:
                result = await run_tool(call, self.session)
                self.produced.append(
                    Message(role="tool", content=result, tool_call_id=call.id, name=call.name)
                )
                if not self._passed and is_reply(call, result):
                    self._passed = send_text([call])
                asked = bool(tool_error(result).get("ask"))
                self._repeated = (
                    self._repeated and asked and signature(call) in self._refused_before
                )
            for check in self.after_calls:
                if (ended := check()) is not None:
                    return ended.produced
        return self.produced

    async def _repaired(self, answer: Message) -> _Verdict:
        for repair in self.repairs:
            if (verdict := await repair(answer)) is not None:
                return verdict
        return None

    # --- the repairs, in order --------------------------------------------------------------

    @property
    def _asked(self) -> str:
        """The person's words that ask for this turn's changes: their message, or, where it
        only says yes ("ja") to the question clockbot asked, the request before it ("Lösch
        alle meine Erinnerungen"): a claim to a "ja" is checked against that request."""
        text = self.session.message.text
        if asked_changes(text) or not confirms(text):
            return text
        before = [person_words(m.content) for m in self.earlier if m.role == "user"]
        return before[-1] if before else text

    async def _empty(self, answer: Message) -> _Verdict:
        """An empty answer (docs/eval.md, M4): asked once for the words; neither is kept."""
        if answer.tool_calls or answer.content.strip() or self._nudged:
            return None
        self._spoke = True
        asks_time = only_asks_about_time(self.session.message.text)
        return _Again([speak_up(self.produced, question=asks_time)])

    async def _undone(self, answer: Message) -> _Verdict:
        """A claim with no effect behind it, a refusal, or words beside a change the rules
        agent reads whole (issue 63, docs/eval.md): asked once to act or say so; the second
        time clockbot acts on the person's words itself, or says nothing was done."""
        if answer.tool_calls or self.model.ours:
            return None
        claim = unbacked_claim(self._asked, answer.content, self.session.staged)
        wanted: tuple[Claim, ...] = () if claim is None else (claim,)
        note = None if claim is None else claim_check(claim)
        if claim is None:
            undone = await self._left_undone(answer)
            if undone is not None:
                wanted, self._trial = undone.claims, undone.trial or self._trial
                note = not_done_check(wanted, undone.read)
        if wanted and self._checked:
            log.info("a reply left a change undone (%s), again", wanted[0].done)
            return _End(await self._carry_out(wanted))
        if wanted and note is not None:
            self._checked = True
            return _Again([answer, note])
        return None

    async def _refusal(self, answer: Message) -> _Verdict:
        """A refusal where no change asked for is left undone (`_undone` takes those): the
        reminder already set, "clock it:" carried out before the model, or words the claims
        do not read ("la lessive est finie"). Never the answer (issue 63, docs/eval.md):
        asked once for words; the second time clockbot says what the turn did itself, or
        what the rules agent's reading of the person's words did, else that nothing was
        done, and asks them to say it again, in their language."""
        if answer.tool_calls or self.model.ours or not refuses(answer.content):
            return None
        if not self._checked:
            self._checked = True
            return _Again([answer, refusal_check(own_reply(self.session, self.produced))])
        log.info("a reply refused an everyday request, again")
        if said := own_reply(self.session, self.produced):  # done already: never twice
            return _End([*self.produced, Message("assistant", said)])
        return _End(await self._carry_out(()))

    async def _machinery(self, answer: Message) -> _Verdict:
        """Machinery or no words (`bot.agent.reply_checks`): asked once more, then clockbot says
        what the turn did itself (`bot.agent.own_reply`); the faulty reply is not kept."""
        if answer.tool_calls:
            return None
        fault = self.model.fault(answer, self._request, self.produced, self.session)
        if fault is None:
            return None
        log.info("a reply was not sent to the person: %s", fault.what)
        if not self._checked and not (self._spoke and not answer.content.strip()):
            self._checked = True
            return _Again([answer, Message("user", fault.note)])
        return _End([*self.produced, Message("assistant", own_reply(self.session, self.produced))])

    def _passed_on(self) -> _End | None:
        """`send_message` passing on the answer to their question: those words are the reply
        (`bot.agent.tools.toolbox._passes_on`; docs/eval.md, M6)."""
        if not self._passed:
            return None
        passed = Message(role="assistant", content=self._passed)
        if self.model.fault(passed, self._request, self.produced, self.session) is not None:
            passed = Message("assistant", own_reply(self.session, self.produced))
        return _End([*self.produced, passed])

    def _refused_again(self) -> _End | None:
        """The same refused calls again (docs/eval.md, M7): only the person can settle it, so
        the turn ends and asks them (`asking`)."""
        return _End(self.produced) if self._repeated else None

    # --- the rules agent's reading, where the model leaves a change undone -------------------

    async def _left_undone(self, answer: Message) -> _Undone | None:
        """The changes the person asked for that `answer` (no call, no claim) leaves undone,
        with the rules agent's reading of their words; None when `answer` answers them.

        A refusal ("I'm sorry, but I can't assist with that request.", `bot.agent.claims.refuses`)
        never answers a request for a change. Words that neither act nor ask anything do not
        either, where the rules agent, tried on a fork of the session (`ToolSession.fork`),
        reads the request whole and makes the change; a question may be the right answer,
        and is left alone, as is a turn whose refused call left the person a question (the
        zone they are in: `asking` asks it). Words the claims read no ask in ("and wednesday
        night at 8 to put the bins out") answered with a claim ("The bins will be put out
        on Wednesday at 8 PM.") are left undone where the rules agent's reading makes the
        change claimed. An earlier trial of this turn, with nothing staged since, is the
        reading: the words are read once.
        """
        session = self.session
        refused = refuses(answer.content)
        if (not refused and "?" in answer.content) or question_left(self.produced, session):
            return None
        wanted = tuple(
            c for c in asked_changes(self._asked) if not any(map(c.made, session.staged))
        )
        if not wanted and not refused:
            # Words that ask for nothing the claims read ("and wednesday night at 8 to put
            # the bins out"), answered with a claim: the rules agent's reading decides.
            said = said_claims(answer.content)
            wanted = tuple(c for c in said if not any(map(c.made, session.staged)))
        if not wanted:
            return None
        tried = self._trial
        if tried is None or tried.staged_before != len(session.staged):
            fork = session.fork()
            tried = _Trial(fork, await self._rules_read(fork), len(session.staged))
        made = tuple(c for c in wanted if any(map(c.made, tried.session.staged)))
        if made:
            return _Undone(made, tried)
        return _Undone(wanted, None) if refused else None

    async def _carry_out(self, claims: Sequence[Claim]) -> list[Message]:
        """The turn after a model left `claims` undone twice (claimed, refused, answered
        beside them): the person's words carried out as the rules agent reads them.

        Where that makes the change (any change, after a refusal: no `claims`), the reply
        says what the store will hold
        (`bot.agent.own_reply`); where the rules agent does not read the words whole (it answers
        without a call, or its call is refused), the person is told plainly that nothing
        was done, and asked the refusal's question or to say it once more. Neither of the
        model's replies is kept. A trial of the rules agent on a fork of the session, made
        when nothing more was staged, is kept instead of reading the words again.
        """
        session, trial = self.session, self._trial
        if trial is not None and trial.staged_before == len(session.staged):
            session.adopt(trial.session)
            done = trial.done
        else:
            done = await self._rules_read(session)
        carried = [*self.produced, *done]
        made = any(claim.made(effect) for claim in claims for effect in session.staged)
        said = own_reply(session, carried)
        if said and (made or not claims):
            return [*carried, Message("assistant", said)]
        language = session.language
        question = question_left(done, session) or SAY_AGAIN.in_(language)
        return [*carried, Message("assistant", f"{NOTHING_DONE.in_(language)} {question}")]

    async def _read_first(self) -> list[Message] | None:
        """Reader first (`llm.mode: reader-first`): the person's words carried out as the rules
        agent reads them, where it reads them whole, and the model asked only for the words
        around what was done; None where it does not, and the model answers as ever.

        Whole: the rules agent called tools and none of them refused. The model is given
        what was done (clockbot's own words for it, `bot.agent.own_reply`); a call, or words that
        claim any change what was not done, or are no words for a person, give way to clockbot's
        own (docs/configuration.md, "Reader first").
        """
        session, model = self.session, self.model
        fork = session.fork()
        done = await self._rules_read(fork)
        results = [m for m in done if m.role == "tool"]
        if not results or any(tool_error(m.content) for m in results):
            return None
        facts = own_reply(fork, done)
        if not facts:
            return None
        session.adopt(fork)
        ask = replace(
            self.newest,
            content=f"{self.newest.content}\n\n(clockbot: this is done already: {facts}. Write "
            "your reply to the person: one or two sentences telling them so, in their language. "
            "No tool calls.)",
        )
        try:  # the tools sent as ever, so the request keeps the cached prefix
            completion = await model.complete(model.assemble(self.earlier, ask))
        except LLMError as exc:
            log.info("the model could not word what was done (%s); clockbot says it", exc)
            return [*done, Message("assistant", facts)]
        words = unechoed(completion.message).content.strip()
        request = model.assemble(self.earlier, self.newest)
        checked = Message("assistant", words)
        if (
            not words
            or completion.message.tool_calls
            or any(not any(map(c.made, session.staged)) for c in said_claims(words))
            or model.fault(checked, request, done, session) is not None
        ):
            words = facts
        return [*done, Message("assistant", words)]

    async def _rules_read(self, session: ToolSession) -> list[Message]:
        """The person's words carried out as the rules agent reads them (`bot.llm.rules_agent`),
        with the same tools on `session`: its calls and their results."""
        rules = RulesProvider()
        done: list[Message] = []
        for _ in range(MAX_TOOL_ROUNDS):
            request = self.model.assemble(self.earlier, self.newest) + done
            completion = await rules.complete(request, TOOLS)
            if not completion.message.tool_calls:
                break
            done.append(completion.message)
            for call in completion.message.tool_calls:
                result = await run_tool(call, session)
                done.append(Message("tool", result, tool_call_id=call.id, name=call.name))
        return done
