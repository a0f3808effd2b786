"""The peer rule: a test whose outside program is missing skips, unless CI asks for every peer.

A fixture that needs an outside program (PostgreSQL, Dovecot, ...) calls `require_peer` when the
program is not there. On a developer's machine that skips the test with the reason; with
`CLOCKBOT_REQUIRE_PEERS=1` (set by `.ci/run`) it fails instead, so CI can never go green by
skipping.

Tests that use a peer's fixture are marked `peer(<name>)` automatically (see `PEER_FIXTURES` and
the hooks in `tests/conftest.py`), so `-m "not peer"` runs the suite without any peer.
"""

from __future__ import annotations

import os
from typing import NoReturn

import pytest

REQUIRE_PEERS_ENV = "CLOCKBOT_REQUIRE_PEERS"

# Fixture name -> peer name for the `peer` marker. A peer fixture's module adds its fixtures here.
PEER_FIXTURES: dict[str, str] = {
    "postgres_server": "postgres",
    "postgres_url": "postgres",
}


def peers_required() -> bool:
    """True when a missing peer must fail the test rather than skip it."""
    return os.environ.get(REQUIRE_PEERS_ENV) == "1"


def require_peer(name: str, reason: str) -> NoReturn:
    """Skip the current test because peer `name` is missing; fail instead under CI's rule."""
    message = f"{name} not available: {reason}"
    if peers_required():
        pytest.fail(message, pytrace=False)
    pytest.skip(message)


def peers_used_by(fixturenames: list[str] | tuple[str, ...]) -> list[str]:
    """The peers behind the given fixture names, each once, in first-seen order."""
    found: list[str] = []
    for fixture in fixturenames:
        peer = PEER_FIXTURES.get(fixture)
        if peer is not None and peer not in found:
            found.append(peer)
    return found
