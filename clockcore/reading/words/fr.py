"""French time words (`clockcore.reading.words` says what each table is for)."""

WEEKDAYS = ("lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche")
MONTHS = ("janvier", "février", "mars", "avril", "juin", "juillet", "août", "septembre",
          "octobre", "novembre", "décembre")  # fmt: skip
DAY_WORDS = ("aujourd'hui", "aujourdhui", "demain", "après-demain", "avant-hier")
PARTS_OF_DAY = ("matin", "matinée", "après-midi", "soir", "soirée", "nuit", "midi", "minuit")
HOUR_WORDS = ("une", "deux", "trois", "quatre", "cinq", "six", "sept", "huit", "neuf", "dix",
              "onze", "douze")  # fmt: skip
CLOCK_WORDS = ("heure", "heures")
TIME_PREPOSITIONS = ("à",)
APPROXIMATIONS = ("vers", "environ", "aux alentours de", "autour de", "sur les coups de")
RANGE_WORDS = ("à partir de", "après", "depuis", "jusqu'à", "avant", "dès", "pas avant",
               "il y a", "il ya", "moins de", "plus de", "en", "dans")  # fmt: skip
START_WORDS = ("à partir de", "après", "dès")
DAY_ARTICLES = ("le",)
LOOSE = ("hier", "mai", "janv", "févr", "avr", "juil", "oct", "nov", "déc")
NEXT_WORDS = ("prochain", "prochaine")
THIS_WORDS = ("ce", "cette")
WEEK_WORDS = ("semaine",)
