"""The judge of the multi-worker kill tests (`tests/support/answers.py`), on made-up sends."""

from __future__ import annotations

from tests.support.answers import IN_FLIGHT, Answer, twice

KILLS = {"w0": [10.0], "w1": [30.0]}


def _judge(*answers: Answer) -> tuple[set[int], set[int]]:
    return twice(answers, KILLS, IN_FLIGHT)


def test_a_copy_from_a_sender_killed_before_the_next_copy_is_the_send_window() -> None:
    assert _judge((1, 9.5, "w0"), (1, 14.0, "w2")) == ({1}, set())


def test_a_sender_killed_while_its_request_was_on_the_wire_explains_the_copy() -> None:
    assert _judge((1, 10.0 + IN_FLIGHT - 0.5, "w0"), (1, 16.0, "w1")) == ({1}, set())


def test_a_copy_whose_sender_lived_is_unexplained_whoever_else_died() -> None:
    assert _judge((1, 29.5, "w2"), (1, 33.0, "w0")) == ({1}, {1})


def test_a_sender_killed_only_after_the_second_copy_does_not_explain_it() -> None:
    assert _judge((1, 25.0, "w1"), (1, 28.0, "w2")) == ({1}, {1})


def test_an_unknown_sender_is_explained_by_any_workers_kill() -> None:
    assert _judge((1, 29.0, ""), (1, 33.0, "")) == ({1}, set())
    assert _judge((2, 50.0, ""), (2, 53.0, "")) == ({2}, {2})


def test_one_copy_each_is_no_double() -> None:
    assert _judge((1, 1.0, "w0"), (2, 1.0, "w0")) == (set(), set())
