"""English time words (`clockcore.reading.words` says what each table is for)."""

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
            "tues", "thurs", "weds")  # fmt: skip
"""Weekday names: time-like wherever they stand."""
MONTHS = ("january", "february", "april", "june", "july", "september", "october", "november",
          "december", "sept")  # fmt: skip
"""Month names: time-like wherever they stand."""
DAY_WORDS = ("today", "tomorrow", "yesterday", "tonight", "tmrw", "tmr", "overnight")
"""Words that name a day: time-like wherever they stand."""
PARTS_OF_DAY = ("morning", "afternoon", "evening", "night", "noon", "midday", "midnight")
"""Parts of the day: time-like wherever they stand."""
HOUR_WORDS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
              "eleven", "twelve")  # fmt: skip
"""Hours written as words: time-like after a time, start or approximation word."""
CLOCK_WORDS = ("o'clock", "oclock")
"""Words after a number (or an hour word) that make it a clock time."""
TIME_PREPOSITIONS = ("at", "@")
"""Words before a number that make it a time of day."""
APPROXIMATIONS = ("around", "about", "approximately", "approx", "roughly", "circa",
                  "round about")  # fmt: skip
"""Words before a number that make it an approximate time."""
RANGE_WORDS = ("from", "after", "since", "until", "till", "til", "before", "by",
               "starting", "starting at", "no later than", "not before", "less than",
               "more than", "within")  # fmt: skip
"""Start and end words before a number or an hour word: an open range."""
START_WORDS = ("from", "starting", "starting at", "starting from", "as of")
"""Start words of an open range ("from 6pm"): the reading is its start."""
DAY_ARTICLES = ("on the",)
"""Words before a bare number that make it a day of the month."""
LOOSE = ("mon", "tue", "wed", "thu", "thur", "fri", "sat", "sun", "jan", "feb", "mar", "march",
         "apr", "may", "jun", "jul", "aug", "august", "sep", "oct", "nov", "dec")  # fmt: skip
"""Time words that are other words too ("may", "sun"): time-like only beside a number."""
NEXT_WORDS = ("next", "coming")
"""Words beside a weekday that may skip this week's ("next Wednesday", "vendredi prochain")."""
THIS_WORDS = ("this",)
"""Words before a weekday that keep to this week ("this Friday")."""
WEEK_WORDS = ("week",)
"""The week itself: "Thursday next week" names its week."""
HOLIDAYS = ("christmas_eve=christmas eve", "christmas=christmas day", "christmas=christmas",
            "christmas=xmas", "boxing_day=boxing day", "boxing_day=st stephen's day",
            "new_years_eve=new year's eve", "new_years_eve=new years eve",
            "new_year=new year's day", "new_year=new years day", "epiphany=epiphany",
            "good_friday=good friday", "easter_sunday=easter sunday", "easter_sunday=easter",
            "easter_monday=easter monday", "ascension=ascension day", "whit_sunday=whitsun",
            "whit_sunday=whit sunday", "whit_sunday=pentecost", "whit_monday=whit monday",
            "corpus_christi=corpus christi", "assumption=assumption day",
            "all_saints=all saints' day", "all_saints=all saints day", "kings_day=king's day",
            "kings_day=kings day", "thanksgiving=thanksgiving day", "thanksgiving=thanksgiving",
            "independence_day=independence day", "independence_day=fourth of july",
            "independence_day=4th of july", "labour_day=labor day", "labour_day=labour day",
            "halloween=halloween", "valentines_day=valentine's day",
            "valentines_day=valentines day", "mothers_day=mother's day", "mothers_day=mothers day",
            "fathers_day=father's day", "fathers_day=fathers day",
            "st_patricks_day=st patrick's day", "st_patricks_day=st. patrick's day",
            "st_patricks_day=saint patrick's day", "memorial_day=memorial day", "mlk_day=mlk day",
            "mlk_day=martin luther king day", "presidents_day=presidents day",
            "presidents_day=presidents' day", "veterans_day=veterans day",
            "columbus_day=columbus day", "shrove_tuesday=mardi gras",
            "shrove_tuesday=shrove tuesday", "ash_wednesday=ash wednesday",
            "palm_sunday=palm sunday", "maundy_thursday=maundy thursday",
            "holy_saturday=holy saturday", "trinity_sunday=trinity sunday",
            "kings_day=koningsdag",
            # Other calendars' feasts, named alike in every language (English is always read).
            "rosh_hashanah=rosh hashanah", "rosh_hashanah=rosh hashana",
            "rosh_hashanah=rosh hashanna", "yom_kippur=yom kippur", "yom_kippur=jom kippur",
            "sukkot=sukkot", "sukkot=succos", "simchat_torah=simchat torah",
            "simchat_torah=shemini atzeret", "passover=passover", "passover=pesach",
            "shavuot=shavuot", "hanukkah=hanukkah", "hanukkah=chanukah", "hanukkah=hanukah",
            "hanukkah=hannukkah", "hanukkah=chanukka", "purim=purim",
            "eid_al_fitr=eid al-fitr", "eid_al_fitr=eid ul-fitr", "eid_al_adha=eid al-adha",
            "eid_al_adha=id ul-adha", "eid_al_adha=eid ul-adha", "eid_al_adha=bakr id",
            "ashura=ashura", "mawlid=mawlid", "mawlid=mawlid al-nabawi",
            "isra_miraj=isra and mi'raj", "laylat_al_qadr=laylat al-qadr",
            "laylat_al_qadr=laylat al kadr", "laylat_al_qadr=lailat al-qadr",
            "diwali=diwali", "diwali=deepavali", "holi=holi", "dussehra=dussehra",
            "dussehra=vijayadashami", "janmashtami=janmashtami",
            "janmashtami=krishna janmashtami", "maha_shivaratri=maha shivaratri",
            "ram_navami=ram navami", "ram_navami=rama navami",
            "mahavir_jayanti=mahavir jayanti", "buddha_purnima=buddha purnima",
            "buddha_purnima=vesak", "chinese_new_year=chinese new year",
            "pongal=thai pongal", "onam=onam", "vaisakhi=vaisakhi", "vaisakhi=baisakhi",
            "makar_sankranti=makar sankranti", "ganesh_chaturthi=ganesh chaturthi",
            "navaratri=navaratri", "raksha_bandhan=raksha bandhan",
            "ugadi=ugadi", "ugadi=yugadi")  # fmt: skip
MORNING_WORDS = ("morning",)
"""A part of the day read as the morning hour when no clock time is written (docs/time-rules.md)."""
AFTERNOON_WORDS = ("afternoon",)
"""Afternoon words: the afternoon hour."""
EVENING_WORDS = ("evening",)
"""Evening words: the evening hour."""
TONIGHT_WORDS = ("tonight",)
"""This day's evening ("tonight"): the tonight hour, never a time already past."""
NIGHT_WORDS = ("night",)
"""Night words: the night hour."""
MEALS = ("breakfast", "brunch", "lunch", "lunchtime", "dinner", "dinnertime", "supper")
"""Meals: time-like after a start, end or time word ("after lunch", "nach dem Mittagessen").

No table holds their hour, so a reading beside one is asked about (docs/time-rules.md).
"""
NOT_DAYS = (
    "layer",
    "payer",
    "western",
    "home",
    "hole",
    "hope",
    "hose",
    "lines",
    "lanes",
    "tours",
    "dues",
    "cues",
    "domain",
    "remain",
    "banana",
    "marked",
    "domino",
    "dominion",
)
"""Everyday words one or two letters from a day word: never asked about as a misspelt day."""
