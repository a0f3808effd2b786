"""Italian time words (`clockcore.reading.words` says what each table is for)."""

WEEKDAYS = ("lunedì", "martedì", "mercoledì", "giovedì", "venerdì", "sabato", "domenica")
MONTHS = ("gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno", "luglio", "agosto",
          "settembre", "ottobre", "novembre", "dicembre")  # fmt: skip
DAY_WORDS = ("oggi", "domani", "dopodomani", "ieri", "stamattina", "stasera", "stanotte",
             "stamani")  # fmt: skip
PARTS_OF_DAY = ("mattina", "mattino", "pomeriggio", "serata", "notte", "mezzogiorno",
                "mezzanotte", "di sera", "la sera")  # fmt: skip
HOUR_WORDS = ("una", "due", "tre", "quattro", "cinque", "sei", "sette", "otto", "nove", "dieci",
              "undici", "dodici")  # fmt: skip
CLOCK_WORDS = ("ore",)
TIME_PREPOSITIONS = ("alle", "all'", "per le")
APPROXIMATIONS = ("verso", "verso le", "circa", "intorno alle", "più o meno")
RANGE_WORDS = ("dalle", "dall'", "dopo", "dopo le", "fino alle", "fino a", "entro",
               "entro le", "prima delle", "a partire da", "a partire dalle", "da",
               "meno di", "più di")  # fmt: skip
START_WORDS = ("dalle", "dall'", "dopo", "dopo le", "a partire da", "a partire dalle", "da")
DAY_ARTICLES = ("il",)
LOOSE = ("sera", "gen", "mag", "giu", "lug", "ott", "dic")
NEXT_WORDS = ("prossimo", "prossima")
THIS_WORDS = ("questo", "questa")
WEEK_WORDS = ("settimana",)
HOLIDAYS = ("christmas_eve=vigilia di natale", "christmas=natale", "boxing_day=santo stefano",
            "new_years_eve=san silvestro", "new_year=capodanno", "epiphany=epifania",
            "epiphany=befana", "good_friday=venerdì santo", "easter_monday=pasquetta",
            "easter_monday=lunedì dell'angelo", "easter_sunday=pasqua", "ascension=ascensione",
            "whit_monday=lunedì di pentecoste", "whit_sunday=pentecoste",
            "corpus_christi=corpus domini", "assumption=ferragosto", "assumption=assunzione",
            "all_saints=ognissanti", "all_saints=tutti i santi", "labour_day=festa dei lavoratori",
            "labour_day=festa del lavoro", "halloween=halloween", "valentines_day=san valentino",
            "mothers_day=festa della mamma", "fathers_day=festa del papà")  # fmt: skip
MORNING_WORDS = ("mattina", "mattino", "stamattina", "stamani", "domattina")
AFTERNOON_WORDS = ("pomeriggio",)
EVENING_WORDS = ("sera", "serata")
TONIGHT_WORDS = ("stasera", "questa sera", "stanotte")
NIGHT_WORDS = ("notte",)
MEALS = ("colazione", "pranzo", "pranzare", "cena", "cenare")
NOT_DAYS = (
    "ogni",
    "anche",
    "aver",
    "terra",
    "terza",
    "cerca",
    "sesta",
    "domini",
    "romani",
    "fretta",
    "monta",
)
