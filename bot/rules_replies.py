"""What the rules agent says, in the seven languages (docs/talking.md, "Without a model").

Each is a `bot.replies.Said`; the English texts are the ones the rules agent has
always said, so English conversations read as before.
"""

from __future__ import annotations

from bot.replies import Said

__all__ = [
    "ALREADY_SET",
    "CANCELED",
    "CANCELED_ALL",
    "CANCEL_ALL_ASK",
    "DIFFERENCE_AHEAD",
    "DIFFERENCE_NONE",
    "HOW_LONG",
    "LISTED_NEXT",
    "LISTED_PAUSED",
    "LISTING",
    "MORNING_OR_EVENING",
    "MOVED",
    "NEEDS_LLM",
    "NOTHING_CANCELED",
    "NOTHING_ERASED",
    "NOT_FOUND",
    "NO_PLACE",
    "NO_REMINDERS",
    "PAUSED",
    "PAUSED_OPEN",
    "PLACE_UNSURE",
    "REMIND_SET",
    "REPEAT_SET",
    "RESUMED",
    "SNOOZED",
    "THREAD_ZONE_SET",
    "TIME_IN",
    "WHEN_ASK",
    "WHEN_UNREAD",
    "ZONE_ASKED",
    "ZONE_SET",
]

NEEDS_LLM = Said(
    en="I'm running without a language model: I can set, list, move and cancel reminders "
    "and answer time questions. Anything else needs an LLM.",
    es="Funciono sin modelo de lenguaje: puedo crear, listar, mover y cancelar "
    "recordatorios y decirte la hora. Para lo demás hace falta un LLM.",
    de="Ich laufe ohne Sprachmodell: Ich kann Erinnerungen setzen, zeigen, verschieben und "
    "löschen und Zeitfragen beantworten. Für alles andere braucht es ein LLM.",
    fr="Je fonctionne sans modèle de langage : je peux créer, lister, déplacer et annuler "
    "des rappels et donner l'heure. Pour le reste, il faut un LLM.",
    it="Funziono senza modello linguistico: posso creare, elencare, spostare e cancellare "
    "promemoria e dirti l'ora. Per il resto serve un LLM.",
    pt="Estou funcionando sem modelo de linguagem: posso criar, listar, mudar e cancelar "
    "lembretes e dizer as horas. Para o resto é preciso um LLM.",
    nl="Ik draai zonder taalmodel: ik kan herinneringen zetten, tonen, verplaatsen en "
    "annuleren en tijdvragen beantwoorden. Voor de rest is een LLM nodig.",
)
ZONE_ASKED = Said(
    en="I don't know your timezone yet, so that time could be one of 24. Which city are you "
    "in? Tell me (for example 'I live in Lisbon').",
    es="Aún no sé tu zona horaria, así que esa hora podría ser cualquiera de 24. ¿En qué "
    "ciudad estás? Dímelo (por ejemplo «vivo en Madrid»).",
    de="Ich kenne deine Zeitzone noch nicht, also könnte diese Uhrzeit eine von 24 sein. In "
    "welcher Stadt bist du? Sag es mir (zum Beispiel „ich wohne in Berlin“).",
    fr="Je ne connais pas encore votre fuseau horaire : cette heure pourrait être l'une de "
    "24. Dans quelle ville êtes-vous ? Dites-le-moi (par exemple « j'habite à Paris »).",
    it="Non conosco ancora il tuo fuso orario, quindi quell'ora potrebbe essere una di 24. "
    "In che città sei? Dimmelo (per esempio «vivo a Roma»).",
    pt="Ainda não sei o seu fuso horário, então essa hora pode ser qualquer uma de 24. Em "
    "que cidade você está? Diga-me (por exemplo «moro em Lisboa»).",
    nl="Ik ken je tijdzone nog niet, dus die tijd kan een van 24 zijn. In welke stad ben je? "
    "Zeg het me (bijvoorbeeld „ik woon in Amsterdam”).",
)
ZONE_SET = Said(
    en="Your home timezone is now {zone}.",
    es="Tu zona horaria es ahora {zone}.",
    de="Deine Zeitzone ist jetzt {zone}.",
    fr="Votre fuseau horaire est maintenant {zone}.",
    it="Il tuo fuso orario ora è {zone}.",
    pt="O seu fuso horário agora é {zone}.",
    nl="Je tijdzone is nu {zone}.",
)
REMIND_SET = Said(
    en="I'll remind you {when}.",
    es="Te lo recordaré el {when}.",
    de="Ich erinnere dich am {when}.",
    fr="Je vous le rappellerai le {when}.",
    it="Te lo ricorderò {when}.",
    pt="Vou lembrar você {when}.",
    nl="Ik herinner je op {when}.",
)
REPEAT_SET = Said(
    en="Set: {text}, repeating. Next: {next}. Its id is {id}.",
    es="Hecho: {text}, se repite. Próximas: {next}. Su id es {id}.",
    de="Gesetzt: {text}, wiederholt sich. Nächste: {next}. Die ID ist {id}.",
    fr="C'est noté : {text}, répété. Prochains : {next}. Son id est {id}.",
    it="Fatto: {text}, si ripete. Prossimi: {next}. Il suo id è {id}.",
    pt="Feito: {text}, repete-se. Próximos: {next}. O id é {id}.",
    nl="Gezet: {text}, herhaalt zich. Volgende: {next}. Het id is {id}.",
)
ALREADY_SET = Said(
    en="You already have that reminder: {text}{when} ({id}).",
    es="Ya tienes ese recordatorio: {text}{when} ({id}).",
    de="Diese Erinnerung hast du schon: {text}{when} ({id}).",
    fr="Vous avez déjà ce rappel : {text}{when} ({id}).",
    it="Hai già questo promemoria: {text}{when} ({id}).",
    pt="Você já tem esse lembrete: {text}{when} ({id}).",
    nl="Die herinnering heb je al: {text}{when} ({id}).",
)
LISTING = Said(
    en="Your reminders:", es="Tus recordatorios:", de="Deine Erinnerungen:",
    fr="Vos rappels :", it="I tuoi promemoria:", pt="Os seus lembretes:",
    nl="Je herinneringen:",
)  # fmt: skip
NO_REMINDERS = Said(
    en="You have no reminders set.",
    es="No tienes recordatorios.",
    de="Du hast keine Erinnerungen.",
    fr="Vous n'avez aucun rappel.",
    it="Non hai promemoria.",
    pt="Você não tem lembretes.",
    nl="Je hebt geen herinneringen.",
)
TIME_IN = Said(
    en="It is {time} on {day} in {place}.",
    es="Son las {time} del {day} en {place}.",
    de="Es ist {time} Uhr am {day} in {place}.",
    fr="Il est {time} le {day} à {place}.",
    it="Sono le {time} di {day} a {place}.",
    pt="São {time} de {day} em {place}.",
    nl="Het is {time} op {day} in {place}.",
)
NO_PLACE = Said(
    en="I don't know which timezone {place!r} is in; name a city or an IANA zone.",
    es="No sé en qué zona horaria está «{place}»; nombra una ciudad o una zona IANA.",
    de="Ich weiß nicht, in welcher Zeitzone „{place}“ liegt; nenne eine Stadt oder eine IANA-Zone.",
    fr="Je ne sais pas dans quel fuseau horaire se trouve « {place} » ; nommez une ville "
    "ou une zone IANA.",
    it="Non so in che fuso orario sia «{place}»; indica una città o una zona IANA.",
    pt="Não sei em que fuso horário fica «{place}»; diga uma cidade ou uma zona IANA.",
    nl="Ik weet niet in welke tijdzone ‘{place}’ ligt; noem een stad of een IANA-zone.",
)
DIFFERENCE_AHEAD = Said(
    en="{a} is {span} ahead of {b} (now {at_a} there, {at_b} in {b}).",
    es="{a} va {span} por delante de {b} (ahora allí son las {at_a}, en {b} las {at_b}).",
    de="{a} ist {span} voraus gegenüber {b} (dort jetzt {at_a}, in {b} {at_b}).",
    fr="{a} a {span} d'avance sur {b} (il y est {at_a}, à {b} {at_b}).",
    it="{a} è {span} avanti rispetto a {b} (lì ora sono le {at_a}, a {b} le {at_b}).",
    pt="{a} está {span} à frente de {b} (lá agora são {at_a}, em {b} {at_b}).",
    nl="{a} loopt {span} voor op {b} (daar nu {at_a}, in {b} {at_b}).",
)
DIFFERENCE_NONE = Said(
    en="{a} and {b} have the same time now ({at_a}).",
    es="{a} y {b} tienen ahora la misma hora ({at_a}).",
    de="{a} und {b} haben jetzt dieselbe Uhrzeit ({at_a}).",
    fr="{a} et {b} ont la même heure en ce moment ({at_a}).",
    it="{a} e {b} hanno ora la stessa ora ({at_a}).",
    pt="{a} e {b} têm agora a mesma hora ({at_a}).",
    nl="{a} en {b} hebben nu dezelfde tijd ({at_a}).",
)
HOW_LONG = Said(
    en="{words}: {when}.", es="{words}: {when}.", de="{words}: {when}.", fr="{words} : {when}.",
    it="{words}: {when}.", pt="{words}: {when}.", nl="{words}: {when}.",
)  # fmt: skip
CANCELED = Said(
    en="Canceled {id}.", es="Cancelado {id}.", de="{id} gelöscht.", fr="{id} annulé.",
    it="{id} cancellato.", pt="{id} cancelado.", nl="{id} geannuleerd.",
)  # fmt: skip
CANCELED_ALL = Said(
    en="Canceled all your reminders ({count}).",
    es="Cancelados todos tus recordatorios ({count}).",
    de="Alle deine Erinnerungen gelöscht ({count}).",
    fr="Tous vos rappels sont annulés ({count}).",
    it="Cancellati tutti i tuoi promemoria ({count}).",
    pt="Todos os seus lembretes foram cancelados ({count}).",
    nl="Al je herinneringen geannuleerd ({count}).",
)
MOVED = Said(
    en="Moved: {text}, to {until}.",
    es="Movido: {text}, al {until}.",
    de="Verschoben: {text}, auf {until}.",
    fr="Déplacé : {text}, au {until}.",
    it="Spostato: {text}, a {until}.",
    pt="Mudado: {text}, para {until}.",
    nl="Verplaatst: {text}, naar {until}.",
)
SNOOZED = Said(
    en="Snoozed: {text}, until {until}.",
    es="Pospuesto: {text}, hasta el {until}.",
    de="Verschoben: {text}, bis {until}.",
    fr="Reporté : {text}, jusqu'au {until}.",
    it="Rimandato: {text}, fino a {until}.",
    pt="Adiado: {text}, até {until}.",
    nl="Uitgesteld: {text}, tot {until}.",
)
PAUSED = Said(
    en="Paused until {until}.",
    es="En pausa hasta el {until}.",
    de="Pausiert bis {until}.",
    fr="En pause jusqu'au {until}.",
    it="In pausa fino a {until}.",
    pt="Em pausa até {until}.",
    nl="Gepauzeerd tot {until}.",
)
PAUSED_OPEN = Said(
    en="Paused until you resume them.",
    es="En pausa hasta que los reanudes.",
    de="Pausiert, bis du sie fortsetzt.",
    fr="En pause jusqu'à ce que vous les repreniez.",
    it="In pausa finché non li riprendi.",
    pt="Em pausa até você os retomar.",
    nl="Gepauzeerd tot je ze hervat.",
)
RESUMED = Said(
    en="Your reminders are back on.",
    es="Tus recordatorios están reanudados.",
    de="Deine Erinnerungen laufen wieder.",
    fr="Vos rappels ont repris.",
    it="I tuoi promemoria sono ripresi.",
    pt="Os seus lembretes foram retomados.",
    nl="Je herinneringen zijn hervat.",
)
NOT_FOUND = Said(
    en="I can't find a reminder about {what!r}.",
    es="No encuentro ningún recordatorio sobre «{what}».",
    de="Ich finde keine Erinnerung zu „{what}“.",
    fr="Je ne trouve aucun rappel sur « {what} ».",
    it="Non trovo nessun promemoria su «{what}».",
    pt="Não encontro nenhum lembrete sobre «{what}».",
    nl="Ik vind geen herinnering over ‘{what}’.",
)
LISTED_NEXT = Said(
    en="next {when}", es="próximo: {when}", de="nächste: {when}", fr="prochain : {when}",
    it="prossimo: {when}", pt="próximo: {when}", nl="volgende: {when}",
)  # fmt: skip
LISTED_PAUSED = Said(
    en="paused", es="en pausa", de="pausiert", fr="en pause", it="in pausa", pt="em pausa",
    nl="gepauzeerd",
)  # fmt: skip
NOTHING_CANCELED = Said(
    en="All right, nothing was canceled: your reminders stay as they are.",
    es="De acuerdo, no se ha cancelado nada: tus recordatorios siguen como estaban.",
    de="In Ordnung, nichts wurde gelöscht: deine Erinnerungen bleiben, wie sie sind.",
    fr="D'accord, rien n'a été annulé : vos rappels restent tels quels.",
    it="Va bene, non ho cancellato niente: i tuoi promemoria restano come sono.",
    pt="Tudo bem, nada foi cancelado: os seus lembretes continuam como estão.",
    nl="Goed, er is niets geannuleerd: je herinneringen blijven zoals ze zijn.",
)
NOTHING_ERASED = Said(
    en="All right, nothing was deleted: I keep your data as it was.",
    es="De acuerdo, no se ha borrado nada: conservo tus datos como estaban.",
    de="In Ordnung, nichts wurde gelöscht: deine Daten bleiben, wie sie waren.",
    fr="D'accord, rien n'a été supprimé : je garde vos données telles quelles.",
    it="Va bene, non ho cancellato niente: i tuoi dati restano come erano.",
    pt="Tudo bem, nada foi apagado: mantenho os seus dados como estavam.",
    nl="Goed, er is niets verwijderd: ik bewaar je gegevens zoals ze waren.",
)
CANCEL_ALL_ASK = Said(
    en="That cancels all {count} of your reminders:\n{listing}\n"
    "To go ahead, write “cancel all my reminders: yes” (or just “yes”).",
    es="Eso cancela tus {count} recordatorios:\n{listing}\nPara seguir, escribe «sí».",
    de="Damit werden alle {count} Erinnerungen gelöscht:\n{listing}\n"
    "Schreib „ja“, um fortzufahren.",
    fr="Cela annule vos {count} rappels :\n{listing}\nPour continuer, écrivez « oui ».",
    it="Così cancelli tutti i tuoi {count} promemoria:\n{listing}\nPer procedere, scrivi «sì».",
    pt="Isso cancela os seus {count} lembretes:\n{listing}\nPara continuar, escreva «sim».",
    nl="Dat annuleert al je {count} herinneringen:\n{listing}\nSchrijf ‘ja’ om door te gaan.",
)
WHEN_ASK = Said(
    en="When should I remind you? For example: 'remind me tomorrow at 9 to call the bank'.",
    es="¿Cuándo te lo recuerdo? Por ejemplo: «mañana a las 9».",
    de="Wann soll ich dich erinnern? Zum Beispiel: „morgen um 9 Uhr“.",
    fr="Quand dois-je vous le rappeler ? Par exemple : « demain à 9h ».",
    it="Quando te lo devo ricordare? Per esempio: «domani alle 9».",
    pt="Quando devo lembrar você? Por exemplo: «amanhã às 9h».",
    nl="Wanneer moet ik je eraan herinneren? Bijvoorbeeld: ‘morgen om 9 uur’.",
)
MORNING_OR_EVENING = Said(
    en="In the morning or in the evening: {am} or {pm}?",
    es="¿Por la mañana o por la tarde: a las {am} o a las {pm}?",
    de="Morgens oder abends: um {am} oder um {pm} Uhr?",
    fr="Le matin ou le soir : à {am} ou à {pm} ?",
    it="Di mattina o di sera: alle {am} o alle {pm}?",
    pt="De manhã ou à noite: às {am} ou às {pm}?",
    nl="'s Ochtends of 's avonds: om {am} of om {pm}?",
)
WHEN_UNREAD = Said(
    en="I can't read '{text}' as a time. When should I remind you? For example: 'tomorrow at 9am'.",
    es="No entiendo «{text}» como una hora. ¿Cuándo te lo recuerdo? Por ejemplo: «mañana a las 9».",
    de="„{text}“ verstehe ich nicht als Uhrzeit. Wann soll ich dich erinnern? "
    "Zum Beispiel: „morgen um 9 Uhr“.",
    fr="Je ne comprends pas « {text} » comme une heure. Quand dois-je vous le rappeler ? "
    "Par exemple : « demain à 9h ».",
    it="Non capisco «{text}» come un orario. Quando te lo devo ricordare? "
    "Per esempio: «domani alle 9».",
    pt="Não entendo «{text}» como uma hora. Quando devo lembrar você? Por exemplo: «amanhã às 9h».",
    nl="‘{text}’ lees ik niet als een tijd. Wanneer moet ik je eraan herinneren? "
    "Bijvoorbeeld: ‘morgen om 9 uur’.",
)
THREAD_ZONE_SET = Said(
    en="Got it: in this conversation I'll read times in {zone} until you say otherwise "
    "(your home timezone stays as it is).",
    es="Entendido: en esta conversación leeré las horas en {zone} hasta que digas otra cosa "
    "(tu zona horaria habitual no cambia).",
    de="Verstanden: In diesem Gespräch lese ich Uhrzeiten in {zone}, bis du etwas anderes sagst "
    "(deine Heimat-Zeitzone bleibt).",
    fr="Compris : dans cette conversation, je lirai les heures en {zone} jusqu'à nouvel ordre "
    "(votre fuseau habituel ne change pas).",
    it="Capito: in questa conversazione leggerò gli orari in {zone} finché non dici altrimenti "
    "(il tuo fuso abituale resta lo stesso).",
    pt="Entendido: nesta conversa vou ler os horários em {zone} até você dizer o contrário "
    "(o seu fuso habitual continua o mesmo).",
    nl="Begrepen: in dit gesprek lees ik tijden in {zone} tot je iets anders zegt "
    "(je thuistijdzone blijft zoals hij is).",
)
PLACE_UNSURE = Said(
    en="Do you mean {town} ({zone})? Say 'yes', or name a bigger city or an IANA zone.",
    es="¿Te refieres a {town} ({zone})? Di «sí», o nombra una ciudad más grande o una zona IANA.",
    de="Meinst du {town} ({zone})? Sag „ja“ oder nenne eine größere Stadt oder eine IANA-Zone.",
    fr="Voulez-vous dire {town} ({zone}) ? Dites « oui », ou nommez une ville plus grande "
    "ou une zone IANA.",
    it="Intendi {town} ({zone})? Di' «sì», oppure indica una città più grande o una zona IANA.",
    pt="Você quer dizer {town} ({zone})? Diga «sim», ou diga uma cidade maior ou uma zona IANA.",
    nl="Bedoel je {town} ({zone})? Zeg ‘ja’, of noem een grotere stad of een IANA-zone.",
)
