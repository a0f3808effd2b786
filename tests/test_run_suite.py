"""`make test`'s lane beside the parallel phase: its commands one after another, each status kept."""

from __future__ import annotations

import sys
import tempfile

from tests.run_suite import Lane


def test_a_lane_runs_its_commands_in_order_and_keeps_each_status_and_output() -> None:
    with tempfile.TemporaryFile(mode="w+") as log:
        lane = Lane(
            [
                [sys.executable, "-c", "print('first')"],
                [sys.executable, "-c", "import sys; print('second'); sys.exit(3)"],
            ],
            log,
        )
        lane.start()
        lane.join(timeout=60)
        log.seek(0)
        output = log.read()
    assert lane.statuses == [0, 3]
    assert len(lane.done) == 2 and lane.done[0] <= lane.done[1]
    assert output.index("first") < output.index("second")


def test_a_stopped_lane_starts_nothing_more() -> None:
    with tempfile.TemporaryFile(mode="w+") as log:
        lane = Lane(
            [
                [sys.executable, "-c", "import time; time.sleep(30)"],
                [sys.executable, "-c", "print('never')"],
            ],
            log,
        )
        lane.start()
        while lane.running is None:
            pass
        lane.stop()
        lane.join(timeout=60)
        log.seek(0)
        assert "never" not in log.read()
    assert not lane.is_alive()
    assert len(lane.statuses) == 1 and lane.statuses[0] != 0
