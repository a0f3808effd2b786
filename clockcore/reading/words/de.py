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
HOLIDAYS = ("christmas_eve=heiligabend", "christmas_eve=heiligen abend",
            "christmas_eve=heiliger abend", "christmas=erster weihnachtstag",
            "christmas=1. weihnachtstag", "christmas=weihnachten",
            "boxing_day=zweiter weihnachtstag", "boxing_day=2. weihnachtstag",
            "boxing_day=stephanstag", "new_years_eve=silvester", "new_year=neujahrstag",
            "new_year=neujahr", "epiphany=heilige drei könige", "epiphany=dreikönigstag",
            "good_friday=karfreitag", "easter_sunday=ostersonntag", "easter_sunday=ostern",
            "easter_monday=ostermontag", "ascension=christi himmelfahrt",
            "whit_sunday=pfingstsonntag", "whit_sunday=pfingsten", "whit_monday=pfingstmontag",
            "corpus_christi=fronleichnam", "assumption=mariä himmelfahrt",
            "all_saints=allerheiligen", "labour_day=tag der arbeit", "halloween=halloween",
            "valentines_day=valentinstag", "mothers_day=muttertag",
            "fathers_day=vatertag", "shrove_tuesday=fastnacht",
            "shrove_tuesday=fastnachtsdienstag", "shrove_tuesday=faschingsdienstag",
            "ash_wednesday=aschermittwoch", "palm_sunday=palmsonntag",
            "maundy_thursday=gründonnerstag", "holy_saturday=karsamstag",
            "trinity_sunday=trinitatis", "trinity_sunday=dreifaltigkeitssonntag",
            "ascension=himmelfahrt", "ascension=himmelfahrtstag", "christmas=weihnachtstag",
            "rosh_hashanah=rosch haschana", "rosh_hashanah=rosch ha-schana",
            "rosh_hashanah=rosch ha-schanah", "simchat_torah=schmini azeret",
            "simchat_torah=schemini azeret", "passover=pessach", "passover=passah",
            "passover=passa", "sukkot=laubhüttenfest", "shavuot=schawuot",
            "eid_al_adha=opferfest", "ashura=aschura", "ashura=aschura-tag",
            "mawlid=maulid an-nabī", "chinese_new_year=chinesisches neujahrsfest",
            "chinese_new_year=chinesisches frühlingsfest")  # fmt: skip
MORNING_WORDS = ("früh", "morgens", "vormittag", "vormittags", "am morgen", "heute morgen")
AFTERNOON_WORDS = ("nachmittag", "nachmittags")
EVENING_WORDS = ("abend", "abends")
TONIGHT_WORDS = ("heute abend", "heute nacht")
NIGHT_WORDS = ("nacht", "nachts")
MEALS = ("frühstück", "mittagessen", "abendessen", "abendbrot", "mittagspause")
NOT_DAYS = (
    "aber",
    "leute",
    "hebt",
    "haut",
    "vierte",
    "viertel",
    "vierten",
    "sorgen",
    "borgen",
    "monat",
)
