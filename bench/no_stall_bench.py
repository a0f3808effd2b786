"""Another chat's turn while a worst-case message is read, against a normal turn (a ratio).

Duckling's native parse once held the GIL for seconds on digit-heavy text and every
other chat waited (`tests/bot/test_no_stall.py` holds that both are answered). This prints,
for each of that test's worst messages, the slowest of five normal turns, the other chat's
turn beside the worst message, and their ratio, all measured in one run. Goal: a ratio
near 1 (the other chat waits no longer than a normal turn, plus a scheduler's slack).

Run: ``.venv/bin/python bench/no_stall_bench.py`` (about ten seconds).
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.bot.test_no_stall import WORST, beside_the_worst


async def main() -> None:
    print(f"{'worst message':<18} {'normal ms':>10} {'beside ms':>10} {'ratio':>6}")
    for worst in WORST:
        with tempfile.TemporaryDirectory() as home:
            normal, meanwhile, _ = await beside_the_worst(Path(home), worst)
        ratio = meanwhile / normal
        print(f"{worst[:12]!r:<18} {normal * 1e3:>10.0f} {meanwhile * 1e3:>10.0f} {ratio:>6.2f}")


if __name__ == "__main__":
    asyncio.run(main())
