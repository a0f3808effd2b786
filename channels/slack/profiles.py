"""A person's Slack profile (zone, locale, name) from ``users.info``, asked at most once a day."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import aiohttp
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from channels.slack.errors import why
from clockcore import Clock, canonical_zone

__all__ = ["ZONE_MAX_AGE", "Profile", "Profiles"]

log = logging.getLogger(__name__)

ZONE_MAX_AGE = timedelta(days=1)
_ZONE_RETRY = timedelta(minutes=10)  # after a failed users.info, ask again this much later
_ZONE_TIMEOUT = 1.5  # users.info runs before the ack: never let it eat Slack's 3 s


@dataclass(frozen=True, slots=True)
class Profile:
    """What a person's Slack profile says: their IANA zone, locale ("es-ES") and name."""

    zone: str | None = None
    locale: str | None = None
    name: str | None = None


def _name_in(person: Mapping[str, Any]) -> str | None:
    """The name Slack shows for a person: the display name they chose, else their real name."""
    profile = person.get("profile")
    names = (
        [profile.get("display_name"), profile.get("real_name")]
        if isinstance(profile, Mapping)
        else []
    )
    for name in (*names, person.get("real_name")):
        if isinstance(name, str) and name.strip():
            return name
    return None


class Profiles:
    """The profiles of the people who write, each kept a day (`ZONE_MAX_AGE`)."""

    def __init__(self, clock: Clock) -> None:
        self._clock = clock
        self._known: dict[str, tuple[Profile, datetime]] = {}

    async def of(self, client: AsyncWebClient | None, user: str) -> Profile:
        """The zone, locale and name in the person's Slack profile, cached for a day.

        A failed ``users.info`` keeps what was known and asks again later.
        """
        now = self._clock.now()
        cached = self._known.get(user)
        if cached is not None and now - cached[1] < ZONE_MAX_AGE:
            return cached[0]
        previous = cached[0] if cached is not None else Profile()
        assert client is not None
        try:
            info = await asyncio.wait_for(
                client.users_info(user=user, include_locale=True), _ZONE_TIMEOUT
            )
        except (SlackApiError, aiohttp.ClientError, TimeoutError) as exc:
            log.warning("slack: users.info failed (%s); keeping the zone known so far", why(exc))
            self._known[user] = (previous, now - ZONE_MAX_AGE + _ZONE_RETRY)
            return previous
        person = info.get("user")
        tz = person.get("tz") if isinstance(person, Mapping) else None
        locale = person.get("locale") if isinstance(person, Mapping) else None
        profile = Profile(
            zone=canonical_zone(tz) if isinstance(tz, str) and tz else None,
            locale=locale if isinstance(locale, str) and locale else None,
            name=_name_in(person) if isinstance(person, Mapping) else None,
        )
        self._known[user] = (profile, now)
        return profile
