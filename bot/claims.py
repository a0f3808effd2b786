"""A reply that says a reminder was set, snoozed or cancelled when no tool did it.

Qwen2.5-Coder-1.5B answered "snooze 10 minutes" with "The reminder has been
snoozed for 10 minutes." and called nothing (docs/eval.md): the person would
trust a reminder that was never moved. `unbacked_claim` finds such a reply;
the agent then asks the model once to call the tool or say it is not done
(`bot.agent`). Only where the person's message asked for that change: "thanks"
answered "I'll remind you at 9" refers to an earlier turn, and asking the
model to act again there would set the reminder twice.

The patterns read replies and the person's words in the seven languages
(a reminder set, in all seven; snoozed and cancelled, in English replies
only); a claim in another language is not checked (docs/reminders.md).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.llm.types import Message
from bot.reminder_words import asks_to_be_reminded
from wrapper.effects import Effect, Enqueue, ForgetMemory
from wrapper.reminders import ReminderChange
from wrapper.schedules import NewSchedule

__all__ = ["Claim", "claim_check", "sets_a_reminder", "unbacked_claim"]


@dataclass(frozen=True, slots=True)
class Claim:
    """One kind of change a reply can claim: the words for it, the effect that makes it."""

    done: str
    said: re.Pattern[str]
    asked: re.Pattern[str] | None
    made: Callable[[Effect], bool]
    tools: str
    """The tools to name when asking."""


def sets_a_reminder(effect: Effect) -> bool:
    """Whether `effect` sets a reminder: a repeating one, or a one-shot reminder job."""
    return isinstance(effect, NewSchedule) or (
        isinstance(effect, Enqueue) and effect.kind == "reminder"
    )


def _snoozed(effect: Effect) -> bool:
    moved = isinstance(effect, ReminderChange) and effect.action == "move"
    return moved or sets_a_reminder(effect)  # a sent one comes back as a new job


def _stopped(effect: Effect) -> bool:
    stopped = isinstance(effect, ReminderChange) and effect.action in ("cancel", "pause")
    return stopped or isinstance(effect, ForgetMemory)


_SNOOZE = Claim(
    "snoozed",
    re.compile(r"\bsnoozed\b|\bremind you again\b|\b(?:moved|pushed) (?:it|the reminder)\b", re.I),
    re.compile(
        r"\b(?:snooze|remind me again|later|pospón|luego|später|plus tard|mais tarde|depois"
        r"|più tardi|piu tardi)\b",
        re.I,
    ),
    _snoozed,
    "snooze",
)
_CANCEL = Claim(
    "cancelled",
    re.compile(
        r"\b(?:cancell?ed|stopped|deleted|removed|turned off)\b|\bno more\b.{0,40}\breminders?\b",
        re.I,
    ),
    re.compile(
        r"\b(?:cancel|stop|delete|remove|no more|cancela|cancelar|borra|elimina|deja de|stopp"
        r"|lösch|storniere|hör auf|annule|arrête|supprime|cancele|apague|pare|annulla|cancella"
        r"|ferma|smetti|annuleer|verwijder)\b",
        re.I,
    ),
    _stopped,
    "cancel_reminder or pause_reminders",
)
_SET = Claim(
    "set",
    re.compile(
        r"\b(?:I'?ll|I will|I'm going to) (?:remind|message|ping) you\b"
        r"|\breminder (?:is |has been |was )?(?:set|scheduled|created)\b"
        r"|\b(?:sets?|scheduled|created) (?:a|the|your) reminder\b"
        # A reply that opens on the word for done, and the same claims in the six others.
        r"|^\W*(?:set|done|all set|listo|hecho|erledigt|c'est noté|c'est fait|pronto|feito"
        r"|fatto|klaar|geregeld)\s*[:!.,—-]"
        r"|\bte (?:lo )?recordar[ée]\b|\brecordatorio (?:creado|configurado|programado)\b"
        r"|\bich (?:erinnere|werde) dich\b"
        r"|\berinnerung (?:ist )?(?:gesetzt|erstellt|eingerichtet)\b"
        r"|\bje (?:te|vous) (?:le )?rappellerai\b|\brappel (?:créé|programmé|enregistré)\b"
        r"|\bvou (?:te )?lembrar\b|\blembrete (?:criado|definido|agendado)\b"
        r"|\bti ricorderò\b|\bpromemoria (?:impostato|creato|programmato)\b"
        r"|\bik (?:herinner|zal) je\b|\bherinnering (?:ingesteld|gemaakt|gepland)\b",
        re.I,
    ),
    None,  # asked: `asks_to_be_reminded`
    sets_a_reminder,
    "remind",
)
_CLAIMS = (_SNOOZE, _CANCEL, _SET)


def unbacked_claim(asked: str, reply: str, staged: Sequence[Effect]) -> Claim | None:
    """The change `reply` says was made, asked for in `asked`, that nothing `staged` makes."""
    for claim in _CLAIMS:
        wanted = asks_to_be_reminded(asked) if claim.asked is None else claim.asked.search(asked)
        if wanted and claim.said.search(reply) and not any(map(claim.made, staged)):
            return claim
    return None


def claim_check(claim: Claim) -> Message:
    """Asked once in a turn, after the reply that made `claim`, at the end of that request only."""
    return Message(
        "user",
        f"(clockbot: your reply says the reminder was {claim.done}, but no tool has done it: "
        f"nothing is {claim.done} yet. Call {claim.tools} now, or tell the person it is not "
        "done.)",
    )
