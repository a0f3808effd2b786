"""Portuguese time words (`clockcore.reading.words` says what each table is for)."""

WEEKDAYS = ("segunda-feira", "terça-feira", "quarta-feira", "quinta-feira", "sexta-feira",
            "sábado", "domingo", "terça", "quinta", "sexta", "na segunda", "na quarta",
            "nesta segunda", "nesta quarta", "próxima segunda", "próxima quarta")  # fmt: skip
MONTHS = ("janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto",
          "setembro", "outubro", "novembro", "dezembro")  # fmt: skip
DAY_WORDS = ("hoje", "amanhã", "ontem", "anteontem")
PARTS_OF_DAY = ("manhã", "madrugada", "meio-dia", "meia-noite", "noite", "à tarde", "da tarde",
                "de tarde", "esta tarde", "pela tarde", "nesta tarde")  # fmt: skip
HOUR_WORDS = ("uma", "duas", "três", "quatro", "cinco", "seis", "sete", "oito", "nove", "dez",
              "onze", "doze")  # fmt: skip
CLOCK_WORDS = ("hora", "horas")
TIME_PREPOSITIONS = ("às", "pelas")
APPROXIMATIONS = ("por volta de", "por volta das", "lá pelas", "cerca de", "umas",
                  "aproximadamente")  # fmt: skip
RANGE_WORDS = ("a partir de", "a partir das", "desde", "até", "até as", "depois de",
               "depois das", "depois do", "depois da", "após", "antes de", "antes das", "há",
               "faz", "menos de",
               "mais de", "dentro de")  # fmt: skip
START_WORDS = ("a partir de", "a partir das", "desde", "depois de", "depois das", "após")
DAY_ARTICLES = ("dia", "o dia", "no dia")
LOOSE = ("segunda", "quarta", "fev", "mai", "set", "out", "dez")
NEXT_WORDS = ("próxima", "próximo", "que vem")
THIS_WORDS = ("esta", "este", "nesta", "neste")
WEEK_WORDS = ("semana",)
HOLIDAYS = ("christmas_eve=véspera de natal", "christmas_eve=consoada", "christmas=dia de natal",
            "christmas=natal", "new_years_eve=véspera de ano novo", "new_year=dia de ano novo",
            "new_year=ano novo", "epiphany=dia de reis", "good_friday=sexta-feira santa",
            "easter_monday=segunda-feira de páscoa", "easter_sunday=domingo de páscoa",
            "easter_sunday=páscoa", "ascension=dia da ascensão", "whit_sunday=pentecostes",
            "corpus_christi=corpo de deus", "corpus_christi=corpus christi",
            "assumption=dia da assunção", "all_saints=dia de todos os santos",
            "independence_day=dia da independência", "labour_day=dia do trabalho",
            "labour_day=dia do trabalhador", "halloween=halloween",
            "valentines_day=dia dos namorados", "mothers_day=dia das mães",
            "fathers_day=dia dos pais")  # fmt: skip
MORNING_WORDS = ("manhã",)
AFTERNOON_WORDS = ("tarde",)
EVENING_WORDS = ("noite",)
TONIGHT_WORDS = ("hoje à noite", "esta noite", "hoje de noite", "logo à noite")
NIGHT_WORDS = ()
MEALS = (
    "café da manhã",
    "pequeno-almoço",
    "pequeno almoço",
    "almoço",
    "almoçar",
    "jantar",
    "lanche",
)
NOT_DAYS = ("demais", "terra", "cerca", "quarto", "quinto", "sexto", "segundo", "banana", "dominó")
