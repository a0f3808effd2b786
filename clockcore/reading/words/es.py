"""Spanish time words (`clockcore.reading.words` says what each table is for)."""

WEEKDAYS = ("lunes", "martes", "miércoles", "jueves", "viernes", "sábado", "domingo")
MONTHS = ("enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre",
          "setiembre", "octubre", "noviembre", "diciembre")  # fmt: skip
DAY_WORDS = ("hoy", "mañana", "ayer", "anoche", "anteayer", "pasado mañana")
PARTS_OF_DAY = ("madrugada", "mediodía", "medianoche", "noche", "por la tarde", "de la tarde",
                "esta tarde", "en la tarde", "a la tarde")  # fmt: skip
HOUR_WORDS = ("una", "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve", "diez",
              "once", "doce")  # fmt: skip
CLOCK_WORDS = ("horas", "hs")
TIME_PREPOSITIONS = ("a las", "a la")
APPROXIMATIONS = ("sobre las", "hacia las", "alrededor de", "cerca de", "a eso de",
                  "aproximadamente")  # fmt: skip
RANGE_WORDS = ("desde", "a partir de", "hasta", "después de", "antes de", "no antes de",
               "desde las", "hasta las", "hace", "menos de", "más de", "dentro de")  # fmt: skip
START_WORDS = ("desde", "a partir de", "desde las", "después de", "después de las")
DAY_ARTICLES = ("el", "el día")
LOOSE = ("tarde", "ene", "abr", "ago", "dic")
NEXT_WORDS = ("próximo", "próxima", "que viene")
THIS_WORDS = ("este", "este mismo")
WEEK_WORDS = ("semana",)
HOLIDAYS = ("christmas_eve=nochebuena", "christmas=día de navidad", "christmas=navidad",
            "boxing_day=san esteban", "new_years_eve=nochevieja", "new_year=año nuevo",
            "epiphany=día de reyes", "epiphany=reyes magos", "good_friday=viernes santo",
            "easter_sunday=domingo de pascua", "easter_sunday=domingo de resurrección",
            "easter_monday=lunes de pascua", "ascension=día de la ascensión",
            "whit_sunday=pentecostés", "whit_monday=lunes de pentecostés",
            "corpus_christi=corpus christi", "assumption=día de la asunción",
            "all_saints=día de todos los santos", "all_saints=todos los santos",
            "labour_day=día del trabajo", "labour_day=día del trabajador", "halloween=halloween",
            "valentines_day=san valentín", "mothers_day=día de la madre",
            "fathers_day=día del padre")  # fmt: skip
MORNING_WORDS = ("la mañana", "esta mañana")
AFTERNOON_WORDS = ("tarde",)
EVENING_WORDS = ("noche",)
TONIGHT_WORDS = ("esta noche",)
NIGHT_WORDS = ()
MEALS = ("desayuno", "desayunar", "almuerzo", "almorzar", "comida", "comer", "cena", "cenar")
NOT_DAYS = (
    "toda",
    "todas",
    "vienen",
    "mares",
    "partes",
    "lunas",
    "hoja",
    "manzana",
    "segundo",
    "sexto",
    "quinto",
    "banana",
    "domino",
)
