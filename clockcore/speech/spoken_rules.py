"""A repeat rule said as a person reads it: "every Tuesday and Thursday at 19:00".

The store keeps an RFC 5545 RRULE ("FREQ=WEEKLY;BYDAY=TU,TH;BYHOUR=19;…");
nobody should have to read one. Day and month names come from Babel's CLDR
data, as `clockcore.speech.spoken` does for instants; the frame around them ("every
… at …", "every other week") is a small table per language. A rule this module
does not know how to say whole is said by its frequency alone ("every week"),
never as the RRULE.
"""

from __future__ import annotations

from dataclasses import dataclass

from clockcore.speech.spoken import SPOKEN_LANGUAGES

__all__ = ["say_rule"]

_CODES = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")


@dataclass(frozen=True)
class _Frame:
    every: dict[str, str]  # FREQ → "every day"; with {n}: "every {n} days"
    every_n: dict[str, str]
    other_week: str  # "every other week on {days}"
    on_days: str  # "every {days}"
    weekdays: str  # Monday to Friday
    month_day: str  # "every month on day {n}"
    nth_weekday: str  # "every {nth} {day} of the month"
    nth: dict[int, str]  # 1: "first", -1: "last"
    yearly: str  # "every year on {date}"
    at: str  # " at {time}"
    times: str  # ", {n} times"
    until: str  # ", until {date}"
    and_: str
    repeats: str  # a rule said no better way


_FRAMES = {
    "en": _Frame(
        every={"MINUTELY": "every minute", "HOURLY": "every hour", "DAILY": "every day",
               "WEEKLY": "every week", "MONTHLY": "every month", "YEARLY": "every year"},
        every_n={"MINUTELY": "every {n} minutes", "HOURLY": "every {n} hours",
                 "DAILY": "every {n} days", "WEEKLY": "every {n} weeks",
                 "MONTHLY": "every {n} months", "YEARLY": "every {n} years"},
        other_week="every other week on {days}", on_days="every {days}",
        weekdays="every weekday", month_day="every month on day {n}",
        nth_weekday="on the {nth} {day} of every month",
        nth={1: "first", 2: "second", 3: "third", 4: "fourth", -1: "last"},
        yearly="every year on {date}", at=" at {time}", times=", {n} times",
        until=", until {date}", and_="and", repeats="repeating",
    ),
    "es": _Frame(
        every={"MINUTELY": "cada minuto", "HOURLY": "cada hora", "DAILY": "todos los días",
               "WEEKLY": "cada semana", "MONTHLY": "cada mes", "YEARLY": "cada año"},
        every_n={"MINUTELY": "cada {n} minutos", "HOURLY": "cada {n} horas",
                 "DAILY": "cada {n} días", "WEEKLY": "cada {n} semanas",
                 "MONTHLY": "cada {n} meses", "YEARLY": "cada {n} años"},
        other_week="cada dos semanas el {days}", on_days="cada {days}",
        weekdays="de lunes a viernes", month_day="cada mes el día {n}",
        nth_weekday="el {nth} {day} de cada mes",
        nth={1: "primer", 2: "segundo", 3: "tercer", 4: "cuarto", -1: "último"},
        yearly="cada año el {date}", at=" a las {time}", times=", {n} veces",
        until=", hasta el {date}", and_="y", repeats="se repite",
    ),
    "de": _Frame(
        every={"MINUTELY": "jede Minute", "HOURLY": "jede Stunde", "DAILY": "jeden Tag",
               "WEEKLY": "jede Woche", "MONTHLY": "jeden Monat", "YEARLY": "jedes Jahr"},
        every_n={"MINUTELY": "alle {n} Minuten", "HOURLY": "alle {n} Stunden",
                 "DAILY": "alle {n} Tage", "WEEKLY": "alle {n} Wochen",
                 "MONTHLY": "alle {n} Monate", "YEARLY": "alle {n} Jahre"},
        other_week="alle zwei Wochen am {days}", on_days="jeden {days}",
        weekdays="montags bis freitags", month_day="jeden Monat am {n}.",
        nth_weekday="jeden {nth} {day} im Monat",
        nth={1: "ersten", 2: "zweiten", 3: "dritten", 4: "vierten", -1: "letzten"},
        yearly="jedes Jahr am {date}", at=" um {time}", times=", {n}-mal",
        until=", bis {date}", and_="und", repeats="wiederkehrend",
    ),
    "fr": _Frame(
        every={"MINUTELY": "chaque minute", "HOURLY": "chaque heure", "DAILY": "tous les jours",
               "WEEKLY": "chaque semaine", "MONTHLY": "chaque mois", "YEARLY": "chaque année"},
        every_n={"MINUTELY": "toutes les {n} minutes", "HOURLY": "toutes les {n} heures",
                 "DAILY": "tous les {n} jours", "WEEKLY": "toutes les {n} semaines",
                 "MONTHLY": "tous les {n} mois", "YEARLY": "tous les {n} ans"},
        other_week="un {days} sur deux", on_days="chaque {days}",
        weekdays="du lundi au vendredi", month_day="chaque mois le {n}",
        nth_weekday="le {nth} {day} de chaque mois",
        nth={1: "premier", 2: "deuxième", 3: "troisième", 4: "quatrième", -1: "dernier"},
        yearly="chaque année le {date}", at=" à {time}", times=", {n} fois",
        until=", jusqu'au {date}", and_="et", repeats="récurrent",
    ),
    "it": _Frame(
        every={"MINUTELY": "ogni minuto", "HOURLY": "ogni ora", "DAILY": "ogni giorno",
               "WEEKLY": "ogni settimana", "MONTHLY": "ogni mese", "YEARLY": "ogni anno"},
        every_n={"MINUTELY": "ogni {n} minuti", "HOURLY": "ogni {n} ore",
                 "DAILY": "ogni {n} giorni", "WEEKLY": "ogni {n} settimane",
                 "MONTHLY": "ogni {n} mesi", "YEARLY": "ogni {n} anni"},
        other_week="ogni due settimane il {days}", on_days="ogni {days}",
        weekdays="dal lunedì al venerdì", month_day="ogni mese il giorno {n}",
        nth_weekday="{nth} {day} di ogni mese",
        nth={1: "il primo", 2: "il secondo", 3: "il terzo", 4: "il quarto", -1: "l'ultimo"},
        yearly="ogni anno il {date}", at=" alle {time}", times=", {n} volte",
        until=", fino al {date}", and_="e", repeats="ricorrente",
    ),
    "pt": _Frame(
        every={"MINUTELY": "a cada minuto", "HOURLY": "a cada hora", "DAILY": "todos os dias",
               "WEEKLY": "toda semana", "MONTHLY": "todo mês", "YEARLY": "todo ano"},
        every_n={"MINUTELY": "a cada {n} minutos", "HOURLY": "a cada {n} horas",
                 "DAILY": "a cada {n} dias", "WEEKLY": "a cada {n} semanas",
                 "MONTHLY": "a cada {n} meses", "YEARLY": "a cada {n} anos"},
        other_week="a cada duas semanas, {days}", on_days="toda {days}",
        weekdays="de segunda a sexta", month_day="todo mês no dia {n}",
        nth_weekday="{nth} {day} de cada mês",
        nth={1: "na primeira", 2: "na segunda", 3: "na terceira", 4: "na quarta",
             -1: "na última"},
        yearly="todo ano em {date}", at=" às {time}", times=", {n} vezes",
        until=", até {date}", and_="e", repeats="recorrente",
    ),
    "nl": _Frame(
        every={"MINUTELY": "elke minuut", "HOURLY": "elk uur", "DAILY": "elke dag",
               "WEEKLY": "elke week", "MONTHLY": "elke maand", "YEARLY": "elk jaar"},
        every_n={"MINUTELY": "elke {n} minuten", "HOURLY": "elke {n} uur",
                 "DAILY": "elke {n} dagen", "WEEKLY": "elke {n} weken",
                 "MONTHLY": "elke {n} maanden", "YEARLY": "elke {n} jaar"},
        other_week="om de week op {days}", on_days="elke {days}",
        weekdays="van maandag tot vrijdag", month_day="elke maand op de {n}e",
        nth_weekday="elke {nth} {day} van de maand",
        nth={1: "eerste", 2: "tweede", 3: "derde", 4: "vierde", -1: "laatste"},
        yearly="elk jaar op {date}", at=" om {time}", times=", {n} keer",
        until=", tot {date}", and_="en", repeats="herhalend",
    ),
}  # fmt: skip


def say_rule(rrule: str, language: str | None = None) -> str:
    """`rrule` (an RRULE value, "FREQ=WEEKLY;BYDAY=TU,TH;BYHOUR=19;BYMINUTE=0") in words.

    `language` is ISO 639-1; one outside `clockcore.speech.spoken.SPOKEN_LANGUAGES`, or None,
    is English. The time of day, when the rule holds one, is said as HH:MM.
    """
    from babel.dates import format_date, get_day_names, get_month_names

    locale = language if language in SPOKEN_LANGUAGES else "en"
    frame = _FRAMES[locale]
    parts = dict(
        part.split("=", 1)
        for part in rrule.upper().removeprefix("RRULE:").split(";")
        if "=" in part
    )
    freq = parts.get("FREQ", "")
    step = int(parts.get("INTERVAL", "1") or 1)
    days = [d.strip() for d in parts.get("BYDAY", "").split(",") if d.strip()]
    names = get_day_names("wide", "format", locale=locale)
    said = frame.every_n.get(freq, "").format(n=step) if step > 1 else frame.every.get(freq, "")
    plain = all(d in _CODES for d in days)
    if freq == "WEEKLY" and days and plain:
        listed = _joined([names[_CODES.index(d)] for d in days], frame.and_)
        if sorted(days, key=_CODES.index) == list(_CODES[:5]) and step == 1:
            said = frame.weekdays
        elif step == 1:
            said = frame.on_days.format(days=listed)
        elif step == 2:
            said = frame.other_week.format(days=listed)
        else:
            said = f"{said}: {listed}"  # every 3 weeks: the days still named
    elif freq == "MONTHLY" and step == 1 and parts.get("BYMONTHDAY", "").lstrip("-").isdigit():
        if int(parts["BYMONTHDAY"]) > 0:
            said = frame.month_day.format(n=int(parts["BYMONTHDAY"]))
    elif freq == "MONTHLY" and step == 1 and len(days) == 1 and not plain:
        code, nth = days[0][-2:], int(days[0][:-2] or 1)
        if code in _CODES and nth in frame.nth:
            said = frame.nth_weekday.format(nth=frame.nth[nth], day=names[_CODES.index(code)])
    elif freq == "YEARLY" and parts.get("BYMONTH", "").isdigit():
        day = parts.get("BYMONTHDAY", "")
        if day.isdigit():
            month = get_month_names("wide", "format", locale=locale)[int(parts["BYMONTH"])]
            said = frame.yearly.format(date=_day_month(int(day), month, locale))
    if not said:
        return frame.repeats  # not a frequency clockbot writes; never the RRULE itself
    if parts.get("BYHOUR", "").isdigit() and freq not in ("HOURLY", "MINUTELY"):
        minute = int(parts.get("BYMINUTE", "0") or 0)
        said += frame.at.format(time=f"{int(parts['BYHOUR']):02d}:{minute:02d}")
    if parts.get("COUNT", "").isdigit():
        said += frame.times.format(n=int(parts["COUNT"]))
    if until := parts.get("UNTIL", ""):
        from datetime import date

        try:
            last = date(int(until[:4]), int(until[4:6]), int(until[6:8]))
        except ValueError:
            return said
        said += frame.until.format(date=format_date(last, "long", locale=locale))
    return said


def _joined(items: list[str], and_: str) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} {and_} {items[-1]}"


def _day_month(day: int, month: str, locale: str) -> str:
    if locale == "en":
        return f"{day} {month}"
    if locale == "de":
        return f"{day}. {month}"
    if locale in ("es", "pt"):
        return f"{day} de {month}"
    return f"{day} {month}"
