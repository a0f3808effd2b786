"""`make test`'s lane beside the parallel phase: its commands one after another, each status kept."""

from __future__ import annotations

import sys
import tempfile

from tests.run_suite import PARALLEL, Lane, lane_commands


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


def test_the_timed_tests_follow_the_long_ones_and_the_image_ends_the_lane() -> None:
    files = {"long": ["a_long.py"], "timed": ["a_timed.py"]}
    names = [name for name, _ in lane_commands(files, image=True)]
    assert names == ["long", "timed", "image"]
    assert [name for name, _ in lane_commands(files, image=False)] == ["long", "timed"]
    timed = dict(lane_commands(files, image=False))["timed"]
    assert timed[-1] == "a_timed.py" and "timed and not image" in timed
    assert "not long and not timed" in " ".join(PARALLEL)
