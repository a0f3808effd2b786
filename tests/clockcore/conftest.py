"""Fixtures for clockcore's tests."""

from __future__ import annotations

import pytest

from clockcore.parsing import duckling_reader


@pytest.fixture
def needs_duckling() -> None:
    """Skip, saying why, where Duckling has no wheel: there the English grammar reads alone.

    CI runs on x86_64 Linux, where the wheel exists, so these tests run there.
    """
    if not duckling_reader.available():
        pytest.skip("no pyduckling-native-phihos wheel on this platform: English grammar only")
