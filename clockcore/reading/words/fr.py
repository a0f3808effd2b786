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
HOLIDAYS = ("christmas_eve=réveillon de noël", "christmas_eve=veille de noël",
            "christmas=jour de noël", "christmas=noël", "boxing_day=saint-étienne",
            "new_years_eve=saint-sylvestre", "new_year=jour de l'an", "new_year=nouvel an",
            "epiphany=épiphanie", "good_friday=vendredi saint", "easter_monday=lundi de pâques",
            "easter_sunday=dimanche de pâques", "easter_sunday=pâques", "ascension=ascension",
            "whit_monday=lundi de pentecôte", "whit_sunday=pentecôte", "corpus_christi=fête-dieu",
            "assumption=assomption", "all_saints=toussaint", "labour_day=fête du travail",
            "halloween=halloween", "valentines_day=saint-valentin", "mothers_day=fête des mères",
            "fathers_day=fête des pères")  # fmt: skip
MORNING_WORDS = ("matin", "matinée")
AFTERNOON_WORDS = ("après-midi",)
EVENING_WORDS = ("soir", "soirée")
TONIGHT_WORDS = ("ce soir", "cette nuit")
NIGHT_WORDS = ("nuit",)
MEALS = ("petit-déjeuner", "petit déjeuner", "déjeuner", "dîner", "souper", "repas")
NOT_DAYS = ("peut", "payer", "mardi gras", "remain")
