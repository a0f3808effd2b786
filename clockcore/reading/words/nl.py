"""Dutch time words (`clockcore.reading.words` says what each table is for)."""

WEEKDAYS = ("maandag", "dinsdag", "woensdag", "donderdag", "vrijdag", "zaterdag", "zondag")
MONTHS = ("januari", "februari", "maart", "april", "mei", "juni", "juli", "augustus",
          "september", "oktober", "november", "december")  # fmt: skip
DAY_WORDS = ("vandaag", "morgen", "overmorgen", "gisteren", "eergisteren", "vanavond",
             "vannacht", "vanmiddag", "vanochtend", "vanmorgen")  # fmt: skip
PARTS_OF_DAY = ("ochtend", "middag", "avond", "nacht", "middernacht", "ochtends", "middags",
                "avonds", "nachts")  # fmt: skip
HOUR_WORDS = ("een", "twee", "drie", "vier", "vijf", "zes", "zeven", "acht", "negen", "tien",
              "elf", "twaalf")  # fmt: skip
CLOCK_WORDS = ("uur",)
TIME_PREPOSITIONS = ("om",)
APPROXIMATIONS = ("rond", "omstreeks", "ongeveer", "tegen", "om en nabij")
RANGE_WORDS = ("vanaf", "na", "tot", "sinds", "voor", "niet voor", "uiterlijk",
               "minder dan", "meer dan", "binnen")  # fmt: skip
START_WORDS = ("vanaf", "niet voor")
DAY_ARTICLES: tuple[str, ...] = ()
LOOSE = ("mrt", "okt")
NEXT_WORDS = ("volgende", "komende")
THIS_WORDS = ("deze",)
WEEK_WORDS = ("week",)
HOLIDAYS = ("christmas_eve=kerstavond", "christmas=eerste kerstdag", "christmas=kerstmis",
            "christmas=kerst", "boxing_day=tweede kerstdag", "new_years_eve=oudejaarsavond",
            "new_years_eve=oudjaar", "new_year=nieuwjaarsdag", "new_year=nieuwjaar",
            "epiphany=driekoningen", "good_friday=goede vrijdag", "easter_monday=tweede paasdag",
            "easter_monday=paasmaandag", "easter_sunday=eerste paasdag", "easter_sunday=paaszondag",
            "easter_sunday=pasen", "ascension=hemelvaartsdag", "ascension=hemelvaart",
            "whit_monday=tweede pinksterdag", "whit_monday=pinkstermaandag",
            "whit_sunday=eerste pinksterdag", "whit_sunday=pinksteren",
            "corpus_christi=sacramentsdag", "assumption=maria-hemelvaart",
            "all_saints=allerheiligen", "kings_day=koningsdag", "halloween=halloween",
            "valentines_day=valentijnsdag", "mothers_day=moederdag",
            "fathers_day=vaderdag")  # fmt: skip
MORNING_WORDS = ("ochtend", "morgens", "vanochtend", "vanmorgen")
AFTERNOON_WORDS = ("middag", "middags", "vanmiddag")
EVENING_WORDS = ("avond", "avonds")
TONIGHT_WORDS = ("vanavond", "vannacht")
NIGHT_WORDS = ("nacht", "nachts")
MEALS = ("ontbijt", "lunch", "lunchpauze", "middageten", "avondeten", "diner", "eten")
NOT_DAYS = ("vierde", "maanden", "gasten", "zorgen", "zonder", "samen")
