"""What stands before the sign-in forms: a same-origin check and the operator's backoff.

**Same origin.** A sign-in POST made by another site's page (login CSRF: the
victim's browser signed in as the attacker) carries ``Sec-Fetch-Site:
cross-site`` and that site in ``Origin``. `same_origin` trusts
``Sec-Fetch-Site`` where the browser sends it (only a browser can set it):
``same-origin`` and ``none`` (typed, a bookmark) pass, anything else is refused.
Without it, ``Origin`` must be the public URL's or the request's own host
(``null`` is refused). A request with neither header (curl, an old browser)
passes: the CSRF token and the SameSite cookie still guard it. (Our pages send
``Referrer-Policy: no-referrer``, under which Chromium sends ``Origin: null``
even to the page's own site: so ``Sec-Fetch-Site`` comes first.)

**Backoff.** Wrong operator tokens are counted per client address and for the
whole worker (`SignInBackoff`). From the fifth wrong try, an address waits
2^(n-4) seconds (up to 15 minutes) before its next try is even compared; an
address's count falls by one for every five minutes without a wrong try, so a
slow trickle of wrong tokens (one every 15 minutes kept the right one refused)
never adds up. Over 30 wrong tries in 10 minutes from everyone together, every
address that has a wrong try of its own still counted waits out the 10 minutes;
an address with none (the operator, at their own desk) is still compared, so a
flood cannot lock the operator out. A guesser with many addresses gets one try
per address per window, nothing near what a 16-character token needs. A refused try gets a 429 with
``Retry-After``. The client address is the connection's, or, when that is a
configured trusted proxy (`client_address`), the one the proxy forwarded:
behind HAProxy every client would otherwise share the proxy's address. Counts
live in the worker's memory: several workers each count their own, so the
limits are per worker.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Collection
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from urllib.parse import urlsplit

from aiohttp import web

__all__ = ["SignInBackoff", "client_address", "retry_after", "same_origin"]

_FREE_TRIES = 4
_DECAY = timedelta(minutes=5)  # one wrong try forgotten per this long without another
_MAX_WAIT = timedelta(minutes=15)
_GLOBAL_WINDOW = timedelta(minutes=10)
_GLOBAL_TRIES = 30
_ADDRESSES_KEPT = 10_000


def same_origin(request: web.Request, public_url: str | None) -> bool:
    """Whether a POST may come from this page's own site (see the module docstring)."""
    site = request.headers.get("Sec-Fetch-Site")
    if site is not None:
        return site.strip().lower() in ("same-origin", "none")
    origin = request.headers.get("Origin")
    if origin is None:
        return True
    given = urlsplit(origin.strip())
    if not given.netloc:
        return False  # "null" (a sandboxed frame, a data: page) or garbage
    allowed = {request.host.lower()}
    if public_url:
        allowed.add(urlsplit(public_url).netloc.lower())
    return given.netloc.lower() in allowed


def client_address(request: web.Request, trusted_proxies: Collection[str]) -> str:
    """Who is asking: the connection's address, or, from a trusted proxy, the last address
    in ``X-Forwarded-For`` that is not one of the trusted proxies (those before it are
    whatever the client wrote)."""
    remote = request.remote or "?"
    if remote not in trusted_proxies:
        return remote
    forwarded = [
        hop.strip()
        for header in request.headers.getall("X-Forwarded-For", [])
        for hop in header.split(",")
        if hop.strip()
    ]
    for hop in reversed(forwarded):
        if hop not in trusted_proxies:
            return hop
    return remote


@dataclass(slots=True)
class _Address:
    failures: int = 0
    until: datetime | None = None
    last: datetime | None = None


@dataclass(slots=True)
class SignInBackoff:
    """Counts wrong operator tokens; `wait` says how long a client must still wait."""

    addresses: dict[str, _Address] = field(default_factory=dict)
    recent: deque[datetime] = field(default_factory=deque)

    def wait(self, address: str, now: datetime) -> timedelta | None:
        """How long `address` must wait before a try is compared, or None."""
        while self.recent and self.recent[0] <= now - _GLOBAL_WINDOW:
            self.recent.popleft()
        state = self.addresses.get(address)
        if len(self.recent) >= _GLOBAL_TRIES and state is not None and _counted(state, now):
            return self.recent[0] + _GLOBAL_WINDOW - now
        if state is not None and state.until is not None and state.until > now:
            return state.until - now
        return None

    def failed(self, address: str, now: datetime) -> None:
        """A wrong token from `address`."""
        self.recent.append(now)
        if address not in self.addresses and len(self.addresses) >= _ADDRESSES_KEPT:
            self.addresses.pop(next(iter(self.addresses)))  # the oldest address goes
        state = self.addresses.setdefault(address, _Address())
        state.failures = _counted(state, now) + 1
        state.last = now
        if state.failures > _FREE_TRIES:
            seconds = 2.0 ** min(state.failures - _FREE_TRIES, 20)
            state.until = now + min(timedelta(seconds=seconds), _MAX_WAIT)

    def succeeded(self, address: str) -> None:
        """The right token from `address`: its count starts again."""
        self.addresses.pop(address, None)


def _counted(state: _Address, now: datetime) -> int:
    """The address's wrong tries still counted at `now`: one forgotten per `_DECAY`."""
    if state.last is None:
        return state.failures
    return max(0, state.failures - int((now - state.last) / _DECAY))


def retry_after(wait: timedelta) -> str:
    """A ``Retry-After`` value: whole seconds, at least one."""
    return str(max(1, math.ceil(wait.total_seconds())))
