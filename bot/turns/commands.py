"""The messages answered without the model: one ordered table of (matcher, handler).

A turn offers its message to each row of `NoModelCommands.table` in order, as
python-telegram-bot offers an update to its handlers: a row whose matcher takes
the message runs its handler, which answers and commits the turn (through the
turn's owner, `bot.turns.lifecycle.Turns`) and says True; False lets the next row look
(a vote on no known poll, a token that holds no request). No row took it: the
model answers. A new command is one row here and one function (docs/ARCHITECTURE.md).

The order is the security order: a person-wide ask in a group is refused before
anything reads it, a sender's proof comes before what it unlocks, and the no-model
answers that read a person's data come after both (docs/SECURITY.md).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import Protocol

from bot.llm import everyday_words as words
from bot.llm.rules_replies import NOTHING_ERASED
from bot.replies import conversation_language, language_of
from bot.turns.calendar_feed import FeedAsk, calendar_ask, feed_reply, have_one_reply
from bot.turns.dashboard import NOT_SET_UP_REPLY, asks_for_dashboard, link_reply
from bot.turns.my_data import (
    CLOCKED_NONE,
    CONFIRM_WITHIN,
    ERASE_ASK,
    ERASE_NOTHING,
    ERASED,
    PRIVATE_ONLY,
    Ask,
    ask_language,
    ask_of,
    asked_to_erase,
    clocked,
    declined_erase,
    erase_words,
    summary,
)
from bot.turns.sender_check import (
    CONFIRMED_SUFFIX,
    UNPROVEN_IN_GROUP_REPLY,
    check_reply,
    confirmed_reply,
    new_check_token,
    person_wide,
    privileged,
    request_to_hold,
    tokens_in,
)
from channels.base import Channel, Inbound, Outgoing
from channels.poll_votes import NATIVE_POLL, read_vote
from clockcore import Clock, ContextEnvelope, MessageRef
from wrapper import InteractionWrapper
from wrapper.calendar_feeds import NewCalendarFeed
from wrapper.inbound.sender_checks import CHECK_LIFETIME, NewSenderCheck, TakeSenderCheck
from wrapper.keys import is_private_thread
from wrapper.meeting_polls import MeetingVote
from wrapper.turns.effects import Effect
from wrapper.turns.pending import WaitingTurn
from wrapper.turns.turn_commit import TurnCommit
from wrapper.web import LINK_LIFETIME, NewSignInLink, new_token, token_hash

__all__ = ["Asked", "Command", "NoModelCommands", "TurnOwner"]

log = logging.getLogger(__name__)

_EARLIER = timedelta(days=30)
"""How far back a person's words are read for the language of a "/mydata" that says none."""


class TurnOwner(Protocol):
    """What a command needs of the turn's owner: to answer, to commit, to take a message."""

    async def answer_plainly(
        self, waiting: WaitingTurn, envelope: ContextEnvelope, text: str, *also: Effect
    ) -> None: ...

    async def commit(self, commit: TurnCommit) -> bool: ...

    async def intake(self, inbound: Inbound) -> None: ...


@dataclass(frozen=True, slots=True)
class Asked:
    """A message offered to the table: its turn, its envelope, whether its thread is private."""

    waiting: WaitingTurn
    envelope: ContextEnvelope
    private: bool

    @property
    def ref(self) -> MessageRef:
        return self.waiting.ref


@dataclass(frozen=True, slots=True)
class Command:
    """One row: `matches` looks at the message alone (no I/O); `answer` answers it or says False."""

    name: str
    matches: Callable[[Asked], bool]
    answer: Callable[[Asked], Awaitable[bool]]


class NoModelCommands:
    """The table, and the handlers behind it."""

    def __init__(
        self,
        *,
        owner: TurnOwner,
        wrapper: InteractionWrapper,
        clock: Clock,
        channels: Mapping[str, Channel],
        public_url: str | None,
    ) -> None:
        self._owner = owner
        self._wrapper = wrapper
        self._clock = clock
        self._channels = channels
        self._public_url = public_url
        self.table = (
            Command("person-wide ask in a group", _group_asks_person_wide, self._private_only),
            Command("a held request's token", _unproven_in_private, self._sender_confirmed),
            Command("a privileged ask, sender unproven", _unproven_privileged, self._hold),
            Command("a vote on a meeting poll", _replies_with_vote, self._vote),
            Command("what do you know about me / delete my data", _my_data_ask, self._my_data),
            Command("what did I clock", _clocked_ask, self._clocked),
            Command("a no to 'delete my data'", _private_decline, self._erase_declined),
            Command("dashboard", _dashboard_ask, self._dashboard),
            Command("calendar feed", _calendar_ask, self._calendar),
        )

    async def answered(self, waiting: WaitingTurn, envelope: ContextEnvelope) -> bool:
        """Whether a row of the table answered the message (then the turn is committed)."""
        ref = waiting.ref
        asked = Asked(waiting, envelope, is_private_thread(ref.channel, ref.thread_id))
        for command in self.table:
            if command.matches(asked) and await command.answer(asked):
                log.debug("answered without the model: %s", command.name)
                return True
        return False

    async def hold_for_proof(self, waiting: WaitingTurn, envelope: ContextEnvelope) -> None:
        """Keep an unproven sender's privileged request until a reply brings back its token.

        Only in a private thread, whose answers go to the address the mail claims alone, so
        only its owner learns the token (`bot.turns.sender_check`); in a group thread the request
        is refused instead: everyone in the thread would read the token.
        """
        ref = waiting.ref
        if not is_private_thread(ref.channel, ref.thread_id):
            await self._owner.answer_plainly(waiting, envelope, UNPROVEN_IN_GROUP_REPLY)
            return
        token = new_check_token()
        request, cut = request_to_hold(ref.text)
        until = self._clock.now() + CHECK_LIFETIME
        check = NewSenderCheck(
            envelope.user_key, token_hash(token), request, until, envelope.thread_key
        )
        log.info("a privileged %s request waits for its sender's confirmation", ref.channel)
        reply = check_reply(token, request, cut=cut)
        await self._owner.answer_plainly(waiting, envelope, reply, check)

    async def _private_only(self, asked: Asked) -> bool:
        said = PRIVATE_ONLY.in_(_language(asked.ref))
        await self._owner.answer_plainly(asked.waiting, asked.envelope, said)
        return True

    async def _hold(self, asked: Asked) -> bool:
        await self.hold_for_proof(asked.waiting, asked.envelope)
        return True

    async def _sender_confirmed(self, asked: Asked) -> bool:
        """If the message carries a held request's token, run that request again as proven.

        The request is journaled under a new id before this turn commits: a crash in
        between repeats this turn, and the journal drops the second copy.
        """
        ref, envelope = asked.ref, asked.envelope
        tokens = tokens_in(ref.text, ref.route.get("subject", ""))
        if not tokens or ref.message_id is None:
            return False
        held = await self._wrapper.threads.held_request(
            envelope.user_key,
            envelope.thread_key,
            [token_hash(t) for t in tokens],
            now=self._clock.now(),
        )
        if held is None:
            return False
        digest, request = held
        again = Inbound(
            channel=ref.channel, thread_id=ref.thread_id, user_id=ref.user_id, text=request,
            message_id=ref.message_id + CONFIRMED_SUFFIX, received_at=ref.received_at,
            route=ref.route, language=ref.language, proven=True,
        )  # fmt: skip
        await self._owner.intake(again)
        taken = TakeSenderCheck(envelope.user_key, digest)
        await self._owner.answer_plainly(asked.waiting, envelope, confirmed_reply(request), taken)
        return True

    async def _vote(self, asked: Asked) -> bool:
        """A vote on the meeting poll it answers: kept, no model, no reply.

        False: it answers no poll, and the model reads it as words; but a native
        poll's vote on a poll not known here is dropped (`NATIVE_POLL`).
        """
        ref, envelope = asked.ref, asked.envelope
        vote = read_vote(ref.text)
        replied = ref.reply_to or ""
        poll = await self._wrapper.meetings.poll_replied(ref.channel, replied)
        if vote is None or (poll is None and not replied.startswith(NATIVE_POLL)):
            return False
        choices = None if vote.withdrawn else vote.choices
        # A vote counts from a member of the poll's thread (`wrapper.meeting_polls`) whose
        # channel proved who they are: a forged "Bob" decided a poll (docs/SECURITY.md).
        counted = poll is not None and ref.proven
        if poll is not None and not counted:
            log.info("a %s vote from an unproven sender was not counted", ref.channel)
        effects = (MeetingVote(poll.id, envelope.user_key, choices),) if poll and counted else ()
        commit = TurnCommit(
            thread_key=envelope.thread_key, at=self._clock.now(), effects=effects,
            waiting=asked.waiting,
        )  # fmt: skip
        await self._owner.commit(commit)
        return True

    async def _my_data(self, asked: Asked) -> bool:
        """Answer 'what do you know about me' and 'delete my data' (`bot.turns.my_data`)."""
        waiting, envelope = asked.waiting, asked.envelope
        ask, language = ask_of(asked.ref.text), _language(asked.ref)
        if not asked.private:
            await self._owner.answer_plainly(waiting, envelope, PRIVATE_ONLY.in_(language))
        elif ask is Ask.SHOW:
            language = language or await self._spoken(asked)
            document = await self._wrapper.people.export_person(envelope.user_key)
            text = (
                summary(document, zone=envelope.user_tz, language=language)
                if document
                else ERASED.in_(language)
            )
            await self._owner.answer_plainly(waiting, envelope, text)
        elif ask is Ask.ERASE:
            said = ERASE_ASK.in_(language, confirm=erase_words(language)[1])
            await self._owner.answer_plainly(waiting, envelope, said)
        elif ask is Ask.CONFIRM:
            await self._erase(asked)
        return True

    async def _clocked(self, asked: Asked) -> bool:
        """Answer "what did I clock" with the clocked actions and their status: what "/mydata"
        lists of them, without the rest (`bot.turns.my_data`)."""
        waiting, envelope = asked.waiting, asked.envelope
        language = _language(asked.ref)
        if not asked.private:  # the group row refuses it first; kept here as the rule
            await self._owner.answer_plainly(waiting, envelope, PRIVATE_ONLY.in_(language))
            return True
        language = language or await self._spoken(asked)
        document = await self._wrapper.people.export_person(envelope.user_key)
        text = (
            clocked(document, zone=envelope.user_tz, language=language)
            if document
            else CLOCKED_NONE.in_(language)
        )
        await self._owner.answer_plainly(waiting, envelope, text)
        return True

    async def _spoken(self, asked: Asked) -> str | None:
        """The language of the person's recent words, for a command that says none ("/mydata")."""
        envelope, ref = asked.envelope, asked.ref
        texts = await self._wrapper.threads.recent_texts(
            envelope.user_key, envelope.thread_key,
            since=ref.received_at - _EARLIER, until=ref.received_at,
        )  # fmt: skip
        return conversation_language(ref, reversed(texts))

    async def _erase_declined(self, asked: Asked) -> bool:
        """A "no" to "delete my data", answered: nothing was deleted (`bot.turns.my_data`)."""
        ref, envelope = asked.ref, asked.envelope
        declined = words.first(words.DECLINE, words.plain(ref.text))
        if declined is None:
            return False
        texts = await self._wrapper.threads.recent_texts(
            envelope.user_key, envelope.thread_key,
            since=ref.received_at - CONFIRM_WITHIN, until=ref.received_at,
        )  # fmt: skip
        if not declined_erase(ref.text, texts):
            return False
        # "no" is English, Spanish and Italian: the question's language picks among them.
        asked_in = next((ask_language(text) for text in texts if text != ref.text), None)
        saying = words.matching(words.DECLINE, words.plain(ref.text))
        in_ = asked_in if asked_in in saying else language_of(ref) or declined[0]
        said = NOTHING_ERASED.in_(ref.language or in_)
        await self._owner.answer_plainly(asked.waiting, envelope, said)
        return True

    async def _erase(self, asked: Asked) -> None:
        ref, envelope = asked.ref, asked.envelope
        within = CONFIRM_WITHIN
        if ref.message_id is not None and ref.message_id.endswith(CONFIRMED_SUFFIX):
            within += CHECK_LIFETIME  # "delete my data: yes" waited for the address to confirm
        texts = await self._wrapper.threads.recent_texts(
            envelope.user_key,
            envelope.thread_key,
            since=ref.received_at - within,
            until=ref.received_at,
        )
        language = _language(ref)
        if not asked_to_erase(texts):
            said = ERASE_NOTHING.in_(language, ask=erase_words(language)[0])
            await self._owner.answer_plainly(asked.waiting, envelope, said)
            return
        route = ref.route or await self._wrapper.routes.get(envelope.thread_key)
        erased = await self._wrapper.people.erase_person(envelope.user_key)
        log.info("erased a person on request (%d identities)", len(erased.identities))
        channel = self._channels.get(ref.channel)
        if channel is None:
            return
        # Said on every channel, the console (which has no route) too: docs/data.md.
        last = Outgoing(
            kind="reply", thread_id=ref.thread_id, user_id=ref.user_id,
            text=ERASED.in_(language),
            route=route or {}, key=f"{ref.key}#erased",
        )  # fmt: skip
        try:
            await channel.send(last)
        except Exception as exc:  # the erasure stands; only the last word is lost
            log.warning("the erasure's confirmation was not sent: %s", type(exc).__name__)

    async def _no_link_here(self, asked: Asked) -> bool:
        """Whether a private link must not be given here, said: a group thread (anyone
        there could use it first), or no public URL to put in it. Then answered."""
        if not asked.private:
            said = PRIVATE_ONLY.in_(_language(asked.ref))
            await self._owner.answer_plainly(asked.waiting, asked.envelope, said)
            return True
        if not self._public_url:
            await self._owner.answer_plainly(asked.waiting, asked.envelope, NOT_SET_UP_REPLY)
            return True
        return False

    async def _dashboard(self, asked: Asked) -> bool:
        """Answer 'dashboard' with a one-time sign-in link (`bot.turns.dashboard`)."""
        if await self._no_link_here(asked):
            return True
        assert self._public_url is not None
        token = new_token()
        until = self._clock.now() + LINK_LIFETIME
        link = NewSignInLink(asked.envelope.user_key, token_hash(token), until)
        reply = link_reply(self._public_url, token)
        await self._owner.answer_plainly(asked.waiting, asked.envelope, reply, link)
        return True

    async def _calendar(self, asked: Asked) -> bool:
        """Answer "calendar" and "new calendar link" (`bot.turns.calendar_feed`)."""
        if await self._no_link_here(asked):
            return True
        assert self._public_url is not None
        envelope = asked.envelope
        if calendar_ask(asked.ref.text) is FeedAsk.SHOW:
            made = await self._wrapper.feeds.made(envelope.user_key)
            if made is not None:
                reply = have_one_reply(made, envelope.user_tz or "UTC")
                await self._owner.answer_plainly(asked.waiting, envelope, reply)
                return True
        token = new_token()
        feed = NewCalendarFeed(envelope.user_key, token_hash(token))
        reply = feed_reply(self._public_url, token)
        await self._owner.answer_plainly(asked.waiting, envelope, reply, feed)
        return True


# --- matchers: the message alone, no I/O --------------------------------------------------


def _language(ref: MessageRef) -> str | None:
    """The language to answer a person's-data request in: its words' ("lösche meine Daten"),
    else the message's (`bot.replies.language_of`)."""
    return ask_language(ref.text) or language_of(ref)


def _group_asks_person_wide(asked: Asked) -> bool:
    return not asked.private and person_wide(asked.ref.text)


def _unproven_in_private(asked: Asked) -> bool:
    return not asked.ref.proven and asked.private


def _unproven_privileged(asked: Asked) -> bool:
    return not asked.ref.proven and privileged(asked.ref.text)


def _replies_with_vote(asked: Asked) -> bool:
    return bool(asked.ref.reply_to) and read_vote(asked.ref.text) is not None


def _my_data_ask(asked: Asked) -> bool:
    return ask_of(asked.ref.text) not in (None, Ask.CLOCKED)


def _clocked_ask(asked: Asked) -> bool:
    return ask_of(asked.ref.text) is Ask.CLOCKED


def _private_decline(asked: Asked) -> bool:
    return asked.private


def _dashboard_ask(asked: Asked) -> bool:
    return asks_for_dashboard(asked.ref.text)


def _calendar_ask(asked: Asked) -> bool:
    return calendar_ask(asked.ref.text) is not None
