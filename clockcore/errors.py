"""The errors clockcore raises.

Every error is also a builtin its callers already catch, and carries the data
that explains it::

    ClockError(Exception)
    ├── UnknownTimezoneError(ClockError, ValueError)   .zone, .suggestions
    ├── NaiveDatetimeError(ClockError, ValueError)     .value
    ├── InvalidContactWindowError(ClockError, ValueError)  .value
    ├── PolicyError(ClockError, ValueError)            .path, .field, .source
    │   └── InvalidDurationError(PolicyError)          .value
    └── StateError(ClockError, ValueError)             .problems

Parsing never raises for bad text: `parse_anchored_time` answers
``kind="invalid"`` instead, because users type anything.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = [
    "ClockError",
    "InvalidContactWindowError",
    "InvalidDurationError",
    "NaiveDatetimeError",
    "PolicyError",
    "StateError",
    "UnknownTimezoneError",
]


class ClockError(Exception):
    """Base of every clockcore error."""


class UnknownTimezoneError(ClockError, ValueError):
    """A zone name that is not an IANA id.

    Attributes:
        zone: the name as given.
        suggestions: close IANA ids, best first (may be empty).
    """

    def __init__(self, zone: str, suggestions: Sequence[str] = ()) -> None:
        self.zone = zone
        self.suggestions = tuple(suggestions)
        message = f"unknown timezone {zone!r}: use an IANA id such as 'Europe/Berlin'"
        if self.suggestions:
            message += "; did you mean " + ", ".join(repr(s) for s in self.suggestions) + "?"
        super().__init__(message)


class NaiveDatetimeError(ClockError, ValueError):
    """A datetime without tzinfo where an instant was required."""

    def __init__(self, value: object) -> None:
        self.value = value
        super().__init__(f"expected an aware datetime, got naive {value!r}")


class InvalidContactWindowError(ClockError, ValueError):
    """A contact window that cannot be read ("25:00-08:00", "9-5")."""

    def __init__(self, value: object, reason: str) -> None:
        self.value = value
        super().__init__(f"invalid contact window {value!r}: {reason}")


class PolicyError(ClockError, ValueError):
    """A CLOCK policy that does not validate.

    Attributes:
        path: the dotted path of the bad field, e.g. ``clock.checkins.rules.0.when.elapsed_gte``.
        field: the last element of that path.
        source: the file it came from, when it came from a file.
    """

    def __init__(self, path: str, reason: str, *, source: str | None = None) -> None:
        self.path = path
        self.field = path.rsplit(".", 1)[-1] if path else ""
        self.source = source
        where = f"{source}: " if source else ""
        super().__init__(f"{where}{path or '<policy>'}: {reason}")


class InvalidDurationError(PolicyError):
    """An ISO-8601 duration that cannot be read (``P1X``, ``1 day``)."""

    def __init__(
        self,
        value: object,
        path: str = "",
        *,
        source: str | None = None,
        reason: str = "is not an ISO-8601 duration such as P1D or PT2H",
    ) -> None:
        self.value = value
        super().__init__(path, f"{value!r} {reason}", source=source)


class StateError(ClockError, ValueError):
    """A CLOCK-STATE document (docs/clock-spec.md §10.2) that does not validate.

    The message lists the first problems, each as ``<JSON path>: <reason>``.
    Reasons quote at most a short scalar, never a whole object.

    Attributes:
        problems: every problem found, as ``(json_path, message)`` pairs in
            document order, e.g. ``("$.users.u1.latest_actions[0].status", "...")``.
    """

    SHOWN = 10

    def __init__(self, problems: Sequence[tuple[str, str]]) -> None:
        self.problems = tuple((str(path), str(message)) for path, message in problems)
        count = len(self.problems)
        head = f"invalid CLOCK state: {count} problem{'' if count == 1 else 's'}"
        lines = [f"{path}: {message}" for path, message in self.problems[: self.SHOWN]]
        if count > self.SHOWN:
            lines.append(f"and {count - self.SHOWN} more")
        super().__init__("\n  ".join([head, *lines]))

    def __reduce__(self) -> tuple[type[StateError], tuple[tuple[tuple[str, str], ...]]]:
        """Pickle by problems, so the error survives a trip between processes."""
        return type(self), (self.problems,)
