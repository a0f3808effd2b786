"""Ids chosen before a row is stored: random, unless the eval asks for a repeatable run."""

from __future__ import annotations

from wrapper.store.queries.common import chosen_hex, chosen_id, repeatable_ids


def _draw() -> tuple[int, int, str]:
    return chosen_id(), chosen_id(), chosen_hex(6)


def test_the_same_seed_draws_the_same_ids_and_another_seed_others() -> None:
    with repeatable_ids("remind-in-two-minutes"):
        first = _draw()
    with repeatable_ids("remind-in-two-minutes"):
        again = _draw()
    with repeatable_ids("clock-it-gym"):
        other = _draw()
    assert first == again
    assert other != first
    assert all((1 << 32) <= n < (1 << 53) for n in (*first[:2], *other[:2]))
    assert len(first[2]) == 12 and int(first[2], 16) >= 0


def test_outside_the_block_ids_are_random_again() -> None:
    with repeatable_ids("seed"):
        seeded = _draw()
    drawn = [_draw() for _ in range(3)]
    assert seeded not in drawn
    assert len(set(drawn)) == 3
    assert all((1 << 32) <= n < (1 << 53) for d in drawn for n in d[:2])


def test_a_block_inside_another_restores_the_outer_source() -> None:
    with repeatable_ids("outer"):
        head = chosen_id()
        with repeatable_ids("inner"):
            chosen_id()
        tail = chosen_id()
    with repeatable_ids("outer"):
        assert [chosen_id(), chosen_id()] == [head, tail]
