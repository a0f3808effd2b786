"""The time reader's questions as values: what it asks, and with what (issue 61).

A reading that cannot be one instant carries a `Question`: its `kind`, the values
it was asked with (the words it could not read, the hour it read, the month
numbers, the instants offered are `ParseResult.candidates`) and `english`, the
question worded for a model or an English reader. The bot says it in the
person's language from its catalog (`bot.agent.tools.question_words`); nothing
parses the English back (docs/languages.md).

    WEAK_CUE = Asking("weak_cue", "Do you mean {text!r} as a time?")
    WEAK_CUE.ask(text="10").english  -> "Do you mean '10' as a time?"
"""

from __future__ import annotations

from dataclasses import dataclass, replace

__all__ = ["WHICH_DAY", "WHICH_TIME", "Asking", "Question"]


@dataclass(frozen=True, slots=True)
class Question:
    """One question to the person: `kind` names its template, `values` fill it."""

    kind: str
    template: str
    values: tuple[tuple[str, object], ...]

    @property
    def english(self) -> str:
        """The question in English, as a model or an English reader reads it."""
        return self.template.format(**dict(self.values))

    def text(self, name: str) -> str:
        """The value `name` as text ("9/5", "09:30", "DE")."""
        return str(dict(self.values)[name])

    def with_values(self, **values: object) -> Question:
        """This question with `values` in place of its own ("02:30 or 03:30" for ISO instants)."""
        return replace(self, values=tuple((dict(self.values) | values).items()))


@dataclass(frozen=True, slots=True)
class Asking:
    """A kind of question: its name and its English template (`str.format` fields)."""

    kind: str
    template: str

    def ask(self, **values: object) -> Question:
        """This question asked with `values`."""
        return Question(self.kind, self.template, tuple(values.items()))

    def format(self, **values: object) -> str:
        """This question's English with `values`."""
        return self.ask(**values).english


WHICH_DAY = Asking("which_day", "Which day do you mean by {text!r}?")
WHICH_TIME = Asking("which_time", "Which time do you mean by {text!r}?")
"""Words read two ways, with nothing better to offer than asking."""
