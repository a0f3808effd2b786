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
