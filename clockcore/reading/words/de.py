"""German time words (`clockcore.reading.words` says what each table is for)."""

WEEKDAYS = ("montag", "dienstag", "mittwoch", "donnerstag", "freitag", "samstag", "sonnabend",
            "sonntag")  # fmt: skip
MONTHS = ("januar", "jänner", "februar", "märz", "april", "juni", "juli", "august", "september",
          "oktober", "november", "dezember")  # fmt: skip
DAY_WORDS = ("heute", "morgen", "übermorgen", "gestern", "vorgestern", "heut")
PARTS_OF_DAY = ("früh", "morgens", "vormittag", "vormittags", "mittag", "mittags", "nachmittag",
                "nachmittags", "abend", "abends", "nacht", "nachts", "mitternacht")  # fmt: skip
HOUR_WORDS = ("eins", "zwei", "drei", "vier", "fünf", "sechs", "sieben", "acht", "neun", "zehn",
              "elf", "zwölf")  # fmt: skip
CLOCK_WORDS = ("uhr",)
TIME_PREPOSITIONS = ("um",)
APPROXIMATIONS = ("gegen", "etwa", "ungefähr", "circa", "ca", "zirka", "so gegen")
RANGE_WORDS = ("ab", "bis", "seit", "nach", "vor", "spätestens", "frühestens",
               "nicht vor", "bis spätestens", "ab spätestens", "weniger als",
               "mehr als", "innerhalb")  # fmt: skip
START_WORDS = ("ab", "frühestens")
DAY_ARTICLES = ("am", "den", "vom", "zum", "bis zum")
LOOSE = ("mai", "jan", "feb", "mär", "apr", "aug", "sep", "sept", "okt", "nov", "dez")
NEXT_WORDS = ("nächsten", "nächster", "nächstem", "kommenden", "kommender")
THIS_WORDS = ("diesen", "dieser", "diesem")
WEEK_WORDS = ("woche",)
