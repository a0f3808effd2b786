"""A reply that says something was set, moved, cancelled, stored or sent when no tool did it.

A person would trust a reminder that was never moved (docs/eval.md, M11).
`unbacked_claim` finds such a reply;
the agent then asks the model once to call the tool or say it is not done
(`bot.agent`). Only where the person's message asked for that change: "thanks"
answered "I'll remind you at 9" refers to an earlier turn, and asking the
model to act again there would set the reminder twice.

The patterns read replies and the person's words in the seven languages, in
the tenses a claim is made in ("I've set", "I will remind you", "The reminder
was set", "He guardado", "Ich habe … eingestellt", "C'est noté pour…"); a
question claims nothing. Claimed again after the model was asked, the agent
carries out the person's words as the rules agent reads them, or says plainly
that nothing was done (`Agent._carry_out`, docs/eval.md, "No claim without its
effect"). "Clocked" is not read: "clock it:" is a directive the wrapper carries out
before the model, so no tool of the turn backs the model's true "Clocked: …".
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.llm.reminder_words import asks_to_be_reminded
from bot.llm.types import Message
from wrapper.outbound.reminders import ReminderChange
from wrapper.outbound.schedules import NewSchedule
from wrapper.turns.effects import Effect, Enqueue, ForgetMemory, NewMemory

__all__ = [
    "CLAIMS",
    "Claim",
    "asked_changes",
    "claim_check",
    "not_done_check",
    "refusal_check",
    "refuses",
    "said_claims",
    "sets_a_reminder",
    "unbacked",
    "unbacked_claim",
]


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


def _stored(effect: Effect) -> bool:
    return isinstance(effect, NewMemory) or sets_a_reminder(effect)


def _sent(effect: Effect) -> bool:
    return isinstance(effect, Enqueue)


def _words(*alternatives: str) -> re.Pattern[str]:
    """One pattern of `alternatives` (regular expressions), whole words, any case."""
    return re.compile(r"(?<![\w'])(?:" + "|".join(alternatives) + r")(?![\w'])", re.I)


_SNOOZE = Claim(
    "moved",
    _words(
        r"snoozed",
        r"remind you again",
        r"(?:moved|pushed|rescheduled|shifted|postponed)"
        r"(?: (?:it|the reminder|your reminder))?(?: back)? (?:to|until|by|for)",
        r"(?:has been|was|is|I've|I have) (?:updated|changed|moved)",
        r"(?:movido|cambiado|reprogramado|pospuesto|aplazado)",
        r"lo he (?:movido|pasado)",
        r"(?:verschoben|verlegt|geändert|umgestellt)",
        r"(?:déplacé|décalé|reporté|repoussé|modifié)",
        r"(?:remarcado|adiado|alterado|mudado|passei)",
        r"(?:spostato|rinviato|posticipato"
        r"|modificato)",
        r"(?:verplaatst|verzet|uitgesteld|gewijzigd|aangepast)",
        # The same, still to come: "I'll move it to 11", "Voy a cambiarlo a las 7".
        r"(?:I'?ll|I will|I'm going to|I am going to|let me) (?:now )?(?:move|reschedule"
        r"|change|push|shift|update|postpone)",
        r"will be (?:moved|rescheduled|changed|updated|postponed|shifted)",
        r"voy a (?:mover|cambiar|pasar|posponer|aplazar)\w*",
        r"(?:mover|cambiar|pasar|pospondr|aplazar)é",
        r"ich (?:werde\b.{0,60}\b(?:verschieben|verlegen|ändern)|verschiebe|verlege|ändere)",
        r"je (?:vais\b.{0,30}\b(?:déplacer|décaler|reporter|modifier|changer)|décale|déplace)",
        r"(?:déplacer|décaler|reporter|modifier|changer)ai",
        r"vou (?:mudar|adiar|remarcar|alterar|passar)",
        r"(?:mudar|adiar|remarcar|alterar)ei",
        r"(?:sposter|rinvier|posticiper|modificher|cambier)ò",
        r"ik (?:ga|zal)\b.{0,40}\b(?:verplaatsen|verzetten|uitstellen|wijzigen|aanpassen)",
    ),
    _words(
        r"snooze",
        r"remind me again",
        r"later",
        r"move",
        r"push",
        r"reschedule",
        r"change",
        r"pospon\w*",
        r"pospón",
        r"aplaza\w*",
        r"luego",
        r"mueve",
        r"mover",
        r"cambia",
        r"cambiar",
        r"später",
        r"verschieb\w*",
        r"schieb\w*",
        r"änder\w*",
        r"plus tard",
        r"déplace\w*",
        r"décale\w*",
        r"reporte\w*",
        r"repousse\w*",
        r"mais tarde",
        r"depois",
        r"muda\w*",
        r"adia\w*",
        r"più tardi",
        r"piu tardi",
        r"sposta\w*",
        r"rinvia\w*",
        r"rimanda\w*",
        r"later",
        r"verplaats\w*",
        r"verzet",
        r"uitstel\w*",
        r"stel\b.{0,30}\buit",
        # A new time for the reminder just set, and nothing else: "actually make it 11",
        # "mejor a las 7", "mach das um 11" (`bot.llm.everyday_words.MOVE_IT`).
        r"make (?:it|that|this)",
        r"mejor (?:a|al|el|para)",
        r"(?:mu[ée]ve|p[áa]sa|pon)(?:lo|la)",
        r"(?:mach|setz|stell|leg)e? (?:es|das|sie|ihn)",
        r"lieber (?:um|am|auf)",
        r"plutôt (?:à|a|au|le|pour|vers)",
        r"(?:mets|fais)-l[ea]",
        r"melhor (?:às|as|à|a|para|no|na)",
        r"(?:põe|poe|passa)-(?:o|a|lo|la)",
        r"meglio (?:alle|all'|a|al|per)",
        r"(?:metti|fa)(?:lo|la)",
        r"liever (?:om|op)",
        r"(?:maak|zet) (?:het|hem|dat|die)",
        # "again" with a span after it: "recuérdamelo otra vez en 10 minutos".
        r"(?:again|otra vez|de nuevo|nochmal|noch einmal|erneut|encore|de nouveau|ancora"
        r"|di nuovo|outra vez|de novo|opnieuw|nog een keer|nog eens)"
        r" (?:in|en|dans|tra|fra|daqui a|over|após)",
    ),
    _snoozed,
    "snooze",
)
_CANCEL = Claim(
    "cancelled",
    _words(
        r"cancell?ed",
        r"stopped",
        r"deleted",
        r"removed",
        r"turned off",
        r"no more\b.{0,40}\breminders?",
        r"cancelad[oa]s?",
        r"cancelé",
        r"eliminad[oa]s?",
        r"eliminé",
        r"borrad[oa]s?",
        r"borré",
        r"gelöscht",
        r"storniert",
        r"entfernt",
        r"abgesagt",
        r"gestoppt",
        r"annulée?s?",
        r"supprimée?s?",
        r"arrêtée?s?",
        r"cancelei",
        r"apagad[oa]s?",
        r"apaguei",
        r"removid[oa]s?",
        r"excluíd[oa]s?",
        r"annullat[oi]",
        r"cancellat[oi]",
        r"eliminat[oi]",
        r"rimoss[oi]",
        r"geannuleerd",
        r"verwijderd",
        r"gestopt",
        # The same, still to come: "I will cancel the reminder." (issue 63, unseen scenarios).
        r"(?:I'?ll|I will|I'm going to|I am going to|let me) (?:now )?(?:cancel|delete|remove"
        r"|stop|turn off|clear)",
        r"will be (?:cancell?ed|deleted|removed|stopped|turned off)",
        r"voy a (?:cancelar|borrar|eliminar|quitar)\w*",
        r"(?:cancelar|borrar|eliminar|quitar)é",
        r"ich (?:werde\b.{0,60}\b(?:löschen|entfernen|stornieren|absagen|stoppen)|lösche)",
        r"je (?:vais\b.{0,30}\b(?:annuler|supprimer|arrêter|effacer)|supprime|annule)",
        r"(?:annuler|supprimer|arrêter|effacer)ai",
        r"vou (?:cancelar|apagar|remover|excluir)",
        r"(?:cancelar|apagar|remover|excluir)ei",
        r"(?:annuller|canceller|eliminer|rimuover)ò",
        r"ik (?:ga|zal)\b.{0,40}\b(?:annuleren|verwijderen|stoppen|wissen)",
    ),
    _words(
        r"cancel",
        r"stop",
        r"delete",
        r"remove",
        r"no more",
        r"cancela\w*",
        r"borra\w*",
        r"elimina\w*",
        r"deja de",
        r"stopp\w*",
        r"lösch\w*",
        r"storniere",
        r"hör auf",
        r"annule\w*",
        r"arrête\w*",
        r"supprime\w*",
        r"cancele",
        r"apag\w*",
        r"pare",
        r"annulla",
        r"cancella",
        r"ferma",
        r"smetti",
        r"annuleer",
        r"verwijder\w*",
    ),
    _stopped,
    "cancel_reminder or pause_reminders",
)
_SET = Claim(
    "set",
    re.compile(
        r"\b(?:I'?ll|I will|I'm going to|I shall) (?:remind|message|ping|nudge|text|notify)"
        r" you\b"
        r"|\bI(?:'ve| have)? (?:set|scheduled|created|added|stored|saved|pinged|booked)\b"
        r"|\breminders? (?:is |has been |was |have been |are )?(?:set|scheduled|created"
        r"|added|stored|saved|in place)\b"
        r"|\b(?:sets?|scheduled|created|added|stored|saved) (?:a|the|your|that|this) "
        r"reminder\b"
        r"|\b(?:set|scheduled) for\b|\b(?:I|clockbot) (?:will|'ll) send you\b"
        # Still to come: "I will set a reminder", "You will be reminded at 9", and a thing
        # said as if it will happen at the time asked ("The bins will be put out on
        # Wednesday at 8 PM", issue 63's unseen scenarios): read only when a reminder was
        # asked for, and then only a time said with it.
        r"|\b(?:I'?ll|I will|I'm going to|I am going to|let me) (?:now )?(?:set|schedule|create"
        r"|add|save|store)\b|\bwill be reminded\b"
        r"|\bwill be (?:\w+ ){1,3}?(?:on|at|tomorrow|tonight|in \d+|every)\b"
        # A reply that opens on the word for done, and the same claims in the six others.
        r"|^\W*(?:set|done|all set|listo|hecho|erledigt|c'est noté|c'est fait|pronto|feito"
        r"|fatto|klaar|geregeld|gespeichert|notiert|noté|ingesteld)\s*[:!.,—-]"
        r"|\bte (?:lo )?recordar[ée]\b|\bte lo recuerdo\b|\bte avisar[ée]\b"
        r"|\bvoy a (?:crear|poner|programar|configurar|guardar|recordarte)\b"
        r"|\b(?:crear|programar|configurar|guardar)é (?:el|un) recordatorio\b"
        r"|\bje vais (?:créer|programmer|mettre|enregistrer|te rappeler|vous rappeler)\b"
        r"|\bvou (?:criar|definir|agendar|salvar|configurar)\b"
        r"|\b(?:imposter|creer|programmer|salver)ò\b"
        r"|\bik (?:ga|zal)\b.{0,40}\b(?:instellen|maken|plannen|opslaan)\b"
        r"|\bhe (?:guardado|creado|configurado|programado|puesto|anotado|apuntado)\b"
        r"|\brecordatorio (?:creado|configurado|programado|guardado|listo)\b"
        r"|\bich (?:erinnere|werde) dich\b|\bich melde mich\b"
        r"|\bich habe\b.{0,60}\b(?:eingestellt|gesetzt|erstellt|gespeichert|eingerichtet"
        r"|eingetragen|notiert)\b"
        r"|\berinnerung (?:ist |wurde )?(?:gesetzt|erstellt|eingerichtet|gespeichert)\b"
        r"|\bje (?:te|vous) (?:le )?rappellerai\b|\bje vous préviendrai\b"
        r"|\bc'est noté pour\b|\bj'ai (?:créé|programmé|enregistré|noté|ajouté|mis)\b"
        r"|\brappel (?:créé|programmé|enregistré|ajouté)\b"
        r"|\bvou (?:te |lhe )?(?:lembrar|avisar)\b|\b(?:te )?lembrarei\b"
        r"|\b(?:criei|defini|agendei|salvei|guardei|anotei) o lembrete\b"
        r"|\blembrete (?:criado|definido|agendado|salvo|guardado)\b"
        r"|\bti ricorderò\b|\bti avviserò\b"
        r"|\bho (?:impostato|creato|salvato|programmato|aggiunto|segnato)\b"
        r"|\bpromemoria (?:impostato|creato|programmato|salvato)\b"
        r"|\bik (?:herinner|zal) je\b|\bik stuur je\b"
        r"|\bik heb\b.{0,60}\b(?:ingesteld|gemaakt|opgeslagen|gepland|toegevoegd)\b"
        r"|\bherinnering (?:is |werd )?(?:ingesteld|gemaakt|gepland|opgeslagen)\b",
        re.I,
    ),
    None,  # asked: `asks_to_be_reminded`
    sets_a_reminder,
    "remind",
)
_STORED = Claim(
    "stored",
    _words(
        r"(?:stored|saved|written down|made a note)",
        r"I'?ll remember",
        r"I will remember",
        r"(?:guardad[oa]|anotad[oa]|apuntad[oa])",
        r"lo recordaré",
        r"(?:gespeichert|notiert|gemerkt|aufgeschrieben)",
        r"(?:enregistrée?|notée?|retenue?)",
        r"je m'en souviendrai",
        r"(?:salv[oa]|anotei|guardei)",
        r"vou lembrar",
        r"(?:salvat[oa]|memorizzat[oa]|annotat[oa]|segnat[oa])",
        r"me lo ricorderò",
        r"(?:opgeslagen|genoteerd|onthouden)",
    ),
    _words(
        r"remember",
        r"note",
        r"save",
        r"store",
        r"write down",
        r"keep in mind",
        r"recuerda que",
        r"apunta",
        r"anota",
        r"guarda",
        r"merk dir",
        r"notier\w*",
        r"speicher\w*",
        r"retiens",
        r"note",
        r"enregistre",
        r"lembra que",
        r"salva",
        r"ricorda che",
        r"annota",
        r"segna",
        r"onthoud",
        r"noteer",
        r"bewaar",
    ),
    _stored,
    "remember",
)
_SENT = Claim(
    "sent",
    _words(
        r"I(?:'ve| have)? (?:sent|messaged|texted|told|passed (?:it|that) on)",
        r"(?:message|it) (?:has been |was )?sent",
        r"(?:he enviado|envié|enviado)",
        r"(?:gesendet|geschickt|verschickt)",
        r"(?:envoyée?|j'ai envoyé)",
        r"(?:enviei|enviad[oa])",
        r"(?:inviat[oa]|mandat[oa]|ho inviato)",
        r"(?:verstuurd|gestuurd|verzonden)",
    ),
    _words(
        r"send",
        r"tell",
        r"message",
        r"text",
        r"envía\w*",
        r"manda\w*",
        r"dile",
        r"schick\w*",
        r"sende\w*",
        r"sag\w*",
        r"envoie\w*",
        r"dis",
        r"envia\w*",
        r"diz",
        r"invia\w*",
        r"di'",
        r"stuur\w*",
        r"zeg",
    ),
    _sent,
    "send_message",
)
CLAIMS = (_SNOOZE, _CANCEL, _SET, _STORED, _SENT)
"""In order: a cancel claimed is checked before a set, which often follows in the reply."""


_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")


def said_claims(reply: str) -> tuple[Claim, ...]:
    """Every change `reply` says was made, asked for or not, in `CLAIMS` order.

    A question claims nothing ("¿A qué hora te lo recuerdo?", "when should I set it for?"):
    only the reply's other sentences are read.
    """
    said = "\n".join(
        sentence for sentence in _SENTENCE.split(reply) if not sentence.rstrip().endswith("?")
    )
    return tuple(claim for claim in CLAIMS if claim.said.search(said))


def unbacked(asked: str, reply: str, made: Callable[[Claim], bool]) -> tuple[Claim, ...]:
    """The changes `reply` says were made, where the person's words `asked` asked for one,
    that `made` says were not (the agent: the turn's staged effects, `unbacked_claim`;
    `clockbot eval`: what the store holds after the turn, `bot.evaluation.judge`).

    A claim of what was asked is checked as it is. A claim of another kind, itself not
    made, counts only while nothing that was asked was made: after "snooze 10 minutes",
    "Done, I'll remind you again at 9:41" with no snooze claims the snooze (then the
    snooze is what is returned); after a snooze that was made, the same words tell of it.
    """
    wanted = asked_changes(asked)
    if not wanted:
        return ()
    said = said_claims(reply)
    direct = tuple(c for c in said if c in wanted and not made(c))
    if direct or any(map(made, wanted)):
        return direct
    other = any(c not in wanted and not made(c) for c in said)
    return tuple(c for c in wanted if not made(c)) if other else ()


def unbacked_claim(asked: str, reply: str, staged: Sequence[Effect]) -> Claim | None:
    """The first change `reply` says was made, asked for in `asked`, that nothing `staged`
    makes (`unbacked`)."""
    found = unbacked(asked, reply, lambda claim: any(map(claim.made, staged)))
    return found[0] if found else None


def asked_changes(asked: str) -> tuple[Claim, ...]:
    """The kinds of change the person's words `asked` ask for, in `CLAIMS` order."""
    return tuple(
        claim
        for claim in CLAIMS
        if (asks_to_be_reminded(asked) if claim.asked is None else claim.asked.search(asked))
    )


_REFUSAL = re.compile(
    r"\b(?:I'?m sorry|I am sorry|sorry|unfortunately)\b.{0,40}\b(?:I\s+)?(?:can(?:'|no)t|cannot"
    r"|am unable|'m unable|am not able|won't be able)\b"
    r"|\bI (?:can(?:'|no)t|cannot|am unable to|'m unable to|am not able to) (?:assist|help"
    r"|do that|comply|set|create|schedule|fulfil)"
    r"|\bas an (?:AI|language model)\b"
    r"|\blo siento\b.{0,40}\bno puedo\b|\bno puedo (?:ayudar|hacer|crear|configurar)"
    r"|\b(?:es )?tut mir leid\b.{0,40}\b(?:kann|können)\b"
    r"|\bich kann (?:dir |ihnen |dabei |das |leider )*nicht (?:helfen|tun|machen|erstellen)"
    r"|\bdésolée?\b.{0,40}\bne (?:peux|pourrai) pas\b|\bje ne (?:peux|suis) pas (?:en mesure"
    r"|vous aider|t'aider|faire|créer)"
    r"|\bdesculpe?\b.{0,40}\bnão (?:posso|consigo)\b|\bnão posso (?:ajudar|fazer|criar)"
    r"|\bmi dispiace\b.{0,40}\bnon (?:posso|riesco)\b|\bnon posso (?:aiutar|fare|creare)"
    r"|\bhet spijt me\b.{0,40}\bkan\b.{0,20}\bniet\b|\bik kan (?:je |u )?(?:daar )?niet (?:mee )?"
    r"(?:helpen|doen|maken)",
    re.IGNORECASE | re.DOTALL,
)


def refuses(reply: str) -> bool:
    """Whether `reply` refuses ("I'm sorry, but I can't assist with that request.", "Lo
    siento, no puedo…", in the seven languages): to an everyday request, never the answer
    (issue 63, docs/eval.md)."""
    return _REFUSAL.search(reply) is not None


def not_done_check(claims: Sequence[Claim], read: str) -> Message:
    """Asked once in a turn after a reply that refused or went beside a request for
    `claims`, at the end of that request only; `read`: the call the person's words read as
    to the rules agent ("" if it read none)."""
    done = " or ".join(dict.fromkeys(c.done for c in claims))
    tools = " or ".join(dict.fromkeys(c.tools for c in claims))
    facts = f" Their words read as {read}." if read else ""
    return Message(
        "user",
        f"(clockbot: your reply was not sent: the person asked for something to be {done}, "
        f"and nothing is {done} yet.{facts} Call {tools} now, or ask them what is missing.)",
    )


def refusal_check(done: str) -> Message:
    """Asked once in a turn after a reply that refused where nothing asked is left undone;
    `done`: what the turn did, in clockbot's words ("" if nothing)."""
    facts = f" This is done already: {done}." if done else ""
    return Message(
        "user",
        f"(clockbot: your reply was not sent: it refused an everyday request.{facts} Write "
        "your reply to the person in their language: what was done, or a question about "
        "what is missing.)",
    )


def claim_check(claim: Claim) -> Message:
    """Asked once in a turn, after the reply that made `claim`, at the end of that request only."""
    return Message(
        "user",
        f"(clockbot: your reply says the reminder was {claim.done}, but no tool has done it: "
        f"nothing is {claim.done} yet. Call {claim.tools} now, or tell the person it is not "
        "done.)",
    )
