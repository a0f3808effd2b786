"""What clockbot says itself, not the model: in the person's language where it has it.

The languages are the seven confirmations are said in (`clockcore.spoken`);
any other is English. The person's language is their platform's, else the one
their message is clearly written in (`language_of`), as for the city question
(`clockcore.session.city_question`). French says "vous", the others the
informal "you", as the city question does. Each reply is a `Said`; its
English text is also exported as a constant for the code and tests that
compare with it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from clockcore import MessageRef, guess_language
from clockcore.message import primary_language

__all__ = [
    "ALL_REMINDERS",
    "DONE_CANCELLED",
    "DONE_CLOCKED",
    "DONE_FORGOTTEN",
    "DONE_MOVED",
    "DONE_NOTED",
    "DONE_PAUSED",
    "DONE_PAUSED_OPEN",
    "DONE_REPEATING",
    "DONE_RESUMED",
    "DONE_SET",
    "DONE_WINDOW",
    "DONE_ZONE",
    "GAVE_UP",
    "NOTHING_DONE",
    "NOT_A_TOOL",
    "NO_WORDS",
    "OVER_LIMIT",
    "SAY_AGAIN",
    "STUCK",
    "TOO_LARGE",
    "TOO_LONG_FOR_MODEL",
    "UNAVAILABLE",
    "Said",
    "language_of",
]

_GUESS_CHARS = 2000
"""How much of a message its language is guessed from: enough words, and a message too
large to store is not read whole for it."""


@dataclass(frozen=True, slots=True)
class Said:
    """One reply in each language; `format` fields (``{when}``) are filled by `in_`."""

    en: str
    es: str
    de: str
    fr: str
    pt: str
    it: str
    nl: str

    def in_(self, language: str | None, **fields: Any) -> str:
        """The reply in `language` ("es", "pt-BR"; None or another: English), `fields` filled."""
        text: str = getattr(self, primary_language(language) or "en", self.en)
        return text.format(**fields)


def language_of(ref: MessageRef) -> str | None:
    """The language to answer `ref` in: its platform's, else its words' (None: English)."""
    return ref.language or guess_language(ref.text[:_GUESS_CHARS])


UNAVAILABLE = Said(
    en="I can't reach my language model right now. I've kept your message and will answer "
    "it when the model is back.",
    es="Ahora no puedo contactar con mi modelo de lenguaje. He guardado tu mensaje y lo "
    "responderé cuando vuelva.",
    de="Ich erreiche mein Sprachmodell gerade nicht. Deine Nachricht ist gespeichert; ich "
    "beantworte sie, sobald das Modell zurück ist.",
    fr="Je n'arrive pas à joindre mon modèle de langage pour le moment. J'ai gardé votre "
    "message et j'y répondrai dès son retour.",
    pt="Não consigo acessar meu modelo de linguagem agora. Guardei sua mensagem e vou "
    "respondê-la quando o modelo voltar.",
    it="Al momento non riesco a raggiungere il mio modello linguistico. Ho conservato il tuo "
    "messaggio e ti risponderò quando sarà tornato.",
    nl="Ik kan mijn taalmodel nu niet bereiken. Ik heb je bericht bewaard en beantwoord het "
    "zodra het model terug is.",
)
STUCK = Said(
    en="I got stuck using my tools on that one; could you say it another way?",
    es="Me atasqué con mis herramientas en eso; ¿puedes decirlo de otra manera?",
    de="Dabei bin ich mit meinen Werkzeugen hängen geblieben; kannst du es anders sagen?",
    fr="Je suis resté bloqué avec mes outils sur ce point ; pouvez-vous le dire autrement ?",
    pt="Travei usando minhas ferramentas nisso; você pode dizer de outro jeito?",
    it="Mi sono bloccato con i miei strumenti su questo; puoi dirlo in un altro modo?",
    nl="Ik liep daarbij vast met mijn hulpmiddelen; kun je het anders zeggen?",
)
NO_WORDS = Said(
    en="I couldn't find the words for that one; could you ask me again?",
    es="No encontré las palabras para eso; ¿me lo puedes preguntar otra vez?",
    de="Dafür habe ich keine Worte gefunden; kannst du mich noch einmal fragen?",
    fr="Je n'ai pas trouvé les mots pour cela ; pouvez-vous me redemander ?",
    pt="Não encontrei as palavras para isso; pode me perguntar de novo?",
    it="Non ho trovato le parole per questo; puoi chiedermelo di nuovo?",
    nl="Daar kon ik geen woorden voor vinden; kun je het me nog eens vragen?",
)
NOT_A_TOOL = Said(
    en="I tried to use a tool I don't have for that; could you say it another way?",
    es="Intenté usar una herramienta que no tengo; ¿puedes decirlo de otra manera?",
    de="Ich wollte dafür ein Werkzeug benutzen, das ich nicht habe; kannst du es anders sagen?",
    fr="J'ai essayé d'utiliser un outil que je n'ai pas ; pouvez-vous le dire autrement ?",
    pt="Tentei usar uma ferramenta que não tenho; você pode dizer de outro jeito?",
    it="Ho provato a usare uno strumento che non ho; puoi dirlo in un altro modo?",
    nl="Ik probeerde een hulpmiddel te gebruiken dat ik niet heb; kun je het anders zeggen?",
)
OVER_LIMIT = Said(
    en="You're writing faster than I can answer. I've kept every message, and I'll answer "
    "them together in a moment.",
    es="Escribes más rápido de lo que puedo responder. He guardado todos tus mensajes y los "
    "responderé juntos en un momento.",
    de="Du schreibst schneller, als ich antworten kann. Ich habe jede Nachricht behalten und "
    "beantworte sie gleich zusammen.",
    fr="Vous écrivez plus vite que je ne peux répondre. J'ai gardé chaque message et j'y "
    "répondrai ensemble dans un instant.",
    pt="Você está escrevendo mais rápido do que consigo responder. Guardei todas as "
    "mensagens e vou respondê-las juntas em um instante.",
    it="Scrivi più in fretta di quanto riesca a rispondere. Ho conservato ogni messaggio e "
    "risponderò a tutti insieme tra un momento.",
    nl="Je schrijft sneller dan ik kan antwoorden. Ik heb elk bericht bewaard en beantwoord "
    "ze zo meteen samen.",
)
GAVE_UP = Said(
    en="I'm sorry: I could not answer your message from {when} after several tries. "
    "Could you send it again?",
    es="Lo siento: no pude responder tu mensaje de {when} tras varios intentos. ¿Puedes "
    "enviarlo otra vez?",
    de="Entschuldige: Ich konnte deine Nachricht von {when} nach mehreren Versuchen nicht "
    "beantworten. Kannst du sie noch einmal schicken?",
    fr="Désolé : je n'ai pas pu répondre à votre message du {when} après plusieurs essais. "
    "Pouvez-vous le renvoyer ?",
    pt="Desculpe: não consegui responder à sua mensagem de {when} depois de várias "
    "tentativas. Pode enviá-la de novo?",
    it="Mi dispiace: non sono riuscito a rispondere al tuo messaggio del {when} dopo vari "
    "tentativi. Puoi rimandarlo?",
    nl="Sorry: ik kon je bericht van {when} na meerdere pogingen niet beantwoorden. Kun je "
    "het nog eens sturen?",
)
TOO_LONG_FOR_MODEL = Said(
    en="That is more than my model can read at once, even after I summarised our earlier "
    "conversation. Could you send it shorter, or in parts?",
    es="Eso es más de lo que mi modelo puede leer de una vez, incluso tras resumir nuestra "
    "conversación anterior. ¿Puedes enviarlo más corto o por partes?",
    de="Das ist mehr, als mein Modell auf einmal lesen kann, auch nachdem ich unser "
    "bisheriges Gespräch zusammengefasst habe. Kannst du es kürzer oder in Teilen schicken?",
    fr="C'est plus que ce que mon modèle peut lire d'un coup, même après avoir résumé notre "
    "conversation précédente. Pouvez-vous l'envoyer plus court, ou en plusieurs parties ?",
    pt="Isso é mais do que meu modelo consegue ler de uma vez, mesmo depois de resumir "
    "nossa conversa anterior. Pode enviar mais curto, ou em partes?",
    it="È più di quanto il mio modello riesca a leggere in una volta, anche dopo aver "
    "riassunto la nostra conversazione precedente. Puoi mandarlo più breve, o in parti?",
    nl="Dat is meer dan mijn model in één keer kan lezen, ook nadat ik ons eerdere gesprek "
    "heb samengevat. Kun je het korter sturen, of in delen?",
)
TOO_LARGE = Said(
    en="That message is too long for me ({size:,} characters; I read up to {limit:,}). "
    "Could you send it in parts?",
    es="Ese mensaje es demasiado largo para mí ({size} caracteres; leo hasta {limit}). "
    "¿Puedes enviarlo por partes?",
    de="Diese Nachricht ist zu lang für mich ({size} Zeichen; ich lese bis zu {limit}). "
    "Kannst du sie in Teilen schicken?",
    fr="Ce message est trop long pour moi ({size} caractères ; j'en lis jusqu'à {limit}). "
    "Pouvez-vous l'envoyer en plusieurs parties ?",
    pt="Essa mensagem é longa demais para mim ({size} caracteres; leio até {limit}). "
    "Pode enviá-la em partes?",
    it="Questo messaggio è troppo lungo per me ({size} caratteri; ne leggo fino a {limit}). "
    "Puoi mandarlo in parti?",
    nl="Dat bericht is te lang voor mij ({size} tekens; ik lees er tot {limit}). Kun je "
    "het in delen sturen?",
)

# What clockbot says itself of what a turn did, where the model's words could not be sent
# (`bot.own_reply`): one line per change, `{text}` the person's words, `{when}` said as
# `clockcore.spoken` says a time.
DONE_SET = Said(
    en="Set: {text}, {when}.",
    es="Listo: {text}, {when}.",
    de="Erledigt: {text}, {when}.",
    fr="C'est noté : {text}, {when}.",
    pt="Feito: {text}, {when}.",
    it="Fatto: {text}, {when}.",
    nl="Ingesteld: {text}, {when}.",
)
DONE_REPEATING = Said(
    en="Set: {text}, repeating; next {when}.",
    es="Listo: {text}, se repite; la próxima vez {when}.",
    de="Erledigt: {text}, wiederkehrend; das nächste Mal {when}.",
    fr="C'est noté : {text}, récurrent ; la prochaine fois {when}.",
    pt="Feito: {text}, repete-se; a próxima vez {when}.",
    it="Fatto: {text}, si ripete; la prossima volta {when}.",
    nl="Ingesteld: {text}, herhalend; de volgende keer {when}.",
)
DONE_NOTED = Said(
    en="Noted: {text}.",
    es="Anotado: {text}.",
    de="Notiert: {text}.",
    fr="Noté : {text}.",
    pt="Anotei: {text}.",
    it="Annotato: {text}.",
    nl="Genoteerd: {text}.",
)
DONE_CLOCKED = Said(
    en="Clocked: {text}.",
    es="Registrado: {text}.",
    de="Festgehalten: {text}.",
    fr="Enregistré : {text}.",
    pt="Registrei: {text}.",
    it="Registrato: {text}.",
    nl="Vastgelegd: {text}.",
)
DONE_MOVED = Said(
    en="Moved: {text}, to {when}.",
    es="Movido: {text}, a {when}.",
    de="Verschoben: {text}, auf {when}.",
    fr="Déplacé : {text}, à {when}.",
    pt="Movido: {text}, para {when}.",
    it="Spostato: {text}, a {when}.",
    nl="Verzet: {text}, naar {when}.",
)
DONE_CANCELLED = Said(
    en="Cancelled: {text}.",
    es="Cancelado: {text}.",
    de="Gelöscht: {text}.",
    fr="Annulé : {text}.",
    pt="Cancelei: {text}.",
    it="Annullato: {text}.",
    nl="Geannuleerd: {text}.",
)
DONE_PAUSED = Said(
    en="Paused: {text}, until {when}.",
    es="En pausa: {text}, hasta {when}.",
    de="Pausiert: {text}, bis {when}.",
    fr="En pause : {text}, jusqu'à {when}.",
    pt="Pausado: {text}, até {when}.",
    it="In pausa: {text}, fino a {when}.",
    nl="Gepauzeerd: {text}, tot {when}.",
)
DONE_PAUSED_OPEN = Said(
    en="Paused: {text}, until you resume it.",
    es="En pausa: {text}, hasta que lo reactives.",
    de="Pausiert: {text}, bis du es wieder einschaltest.",
    fr="En pause : {text}, jusqu'à ce que vous le réactiviez.",
    pt="Pausado: {text}, até você reativar.",
    it="In pausa: {text}, finché non lo riattivi.",
    nl="Gepauzeerd: {text}, tot je het weer aanzet.",
)
DONE_RESUMED = Said(
    en="Back on: {text}.",
    es="Reactivado: {text}.",
    de="Wieder aktiv: {text}.",
    fr="Réactivé : {text}.",
    pt="Reativado: {text}.",
    it="Riattivato: {text}.",
    nl="Weer aan: {text}.",
)
DONE_FORGOTTEN = Said(
    en="Forgotten: {text}.",
    es="Olvidado: {text}.",
    de="Vergessen: {text}.",
    fr="Oublié : {text}.",
    pt="Esquecido: {text}.",
    it="Dimenticato: {text}.",
    nl="Vergeten: {text}.",
)
DONE_ZONE = Said(
    en="Your timezone is now {text}.",
    es="Tu zona horaria ahora es {text}.",
    de="Deine Zeitzone ist jetzt {text}.",
    fr="Votre fuseau horaire est maintenant {text}.",
    pt="Seu fuso horário agora é {text}.",
    it="Il tuo fuso orario ora è {text}.",
    nl="Je tijdzone is nu {text}.",
)
DONE_WINDOW = Said(
    en="Your contact hours are now {text}.",
    es="Tu horario de contacto ahora es {text}.",
    de="Deine Kontaktzeiten sind jetzt {text}.",
    fr="Vos heures de contact sont maintenant {text}.",
    pt="Seu horário de contato agora é {text}.",
    it="Il tuo orario di contatto ora è {text}.",
    nl="Je contacttijden zijn nu {text}.",
)
ALL_REMINDERS = Said(
    en="all your reminders",
    es="todos tus recordatorios",
    de="alle deine Erinnerungen",
    fr="tous vos rappels",
    pt="todos os seus lembretes",
    it="tutti i tuoi promemoria",
    nl="al je herinneringen",
)
NOTHING_DONE = Said(
    en="Nothing has been done yet: I couldn't be sure what you asked for.",
    es="Todavía no he hecho nada: no estaba seguro de lo que pedías.",
    de="Noch ist nichts erledigt: Ich war nicht sicher, worum du gebeten hast.",
    fr="Rien n'est encore fait : je n'étais pas sûr de ce que vous demandiez.",
    pt="Ainda não fiz nada: não tive certeza do que você pediu.",
    it="Non ho ancora fatto nulla: non ero sicuro di cosa chiedessi.",
    nl="Er is nog niets gedaan: ik wist niet zeker wat je vroeg.",
)
"""Where a reply claimed a change no tool made, and the rules agent could not make it."""
SAY_AGAIN = Said(
    en="Could you say it once more?",
    es="¿Puedes decirlo otra vez?",
    de="Kannst du es noch einmal sagen?",
    fr="Pouvez-vous le redire ?",
    pt="Pode dizer de novo?",
    it="Puoi ripeterlo?",
    nl="Kun je het nog eens zeggen?",
)
