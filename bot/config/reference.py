"""The configuration reference of docs/configuration.md, made from the settings model.

Each line comes from `bot.config.settings`: the variable (`ENV_VARS`), the key in the YAML file,
the values the field takes and its default, and its meaning from the ``Attributes:``
section of its group's docstring. So the reference cannot drift from what
`load_settings` reads: ``python -m bot.config.reference`` prints it, and a test keeps
the copy in docs/configuration.md equal to it.
"""

from __future__ import annotations

import inspect
import re
import types
import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, SecretStr
from pydantic.fields import FieldInfo

from bot.config.settings import ENV_VARS, Settings

__all__ = ["BEGIN", "END", "meanings", "reference", "rewrite"]

BEGIN = "<!-- settings reference: python -m bot.config.reference --write; do not edit by hand -->"
END = "<!-- end of settings reference -->"

_ENTRY = re.compile(r"^    (\w+): (.*)$")
_GROUP_TITLES = {
    "": "Core",
    "llm": "Model (`llm`)",
    "worker": "Workers (`worker`)",
    "limit": "Turn limits (`limit`)",
    "telegram": "Telegram (`telegram`)",
    "slack": "Slack (`slack`)",
    "email": "Email (`email`)",
}


def meanings(model: type[BaseModel]) -> dict[str, str]:
    """Each field's meaning from `model`'s ``Attributes:`` docstring section, on one line."""
    doc = inspect.getdoc(model) or ""
    _, _, section = doc.partition("\nAttributes:\n")
    found: dict[str, str] = {}
    name = ""
    for line in section.splitlines():
        if not line.strip():
            break
        entry = _ENTRY.match(line)
        if entry:
            name = entry[1]
            found[name] = entry[2]
        elif name and line.startswith("        "):
            found[name] += " " + line.strip()
    return {key: _plain(text) for key, text in found.items()}


def _plain(text: str) -> str:
    """Docstring markup as Markdown (``x`` and `x` both become `x`); None is "unset"."""
    return re.sub(r"\bNone\b", "unset", re.sub(r"``([^`]+)``", r"`\1`", text))


def _values(field: FieldInfo) -> str:
    """What the field takes, as a reader would write it."""
    return _takes(field.annotation)


def _takes(kind: Any) -> str:
    """What a value of type `kind` may be; a union's kinds joined ("number | `x`")."""
    if typing.get_origin(kind) is typing.Annotated:
        kind = typing.get_args(kind)[0]
    if typing.get_origin(kind) in (typing.Union, types.UnionType):
        kinds = [arg for arg in typing.get_args(kind) if arg is not type(None)]
        return " \\| ".join(_takes(arg) for arg in kinds)
    if typing.get_origin(kind) is Literal:
        return " \\| ".join(f"`{value}`" for value in typing.get_args(kind))
    if kind is SecretStr:
        return "secret"
    if kind is bool:
        return "`true` \\| `false`"
    if kind is int:
        return "integer"
    if kind is float:
        return "number"
    if typing.get_origin(kind) is tuple:
        return "list (comma-separated)"
    if kind is Path:
        return "path"
    return "text"


def _default(field: FieldInfo) -> str:
    value = field.get_default(call_default_factory=True)
    if isinstance(value, Path) and value.is_relative_to(Path.home()):
        value = f"~/{value.relative_to(Path.home())}"  # the reader's home, not this machine's
    if value is None:
        return "unset"
    if isinstance(value, tuple):
        return "empty" if not value else ", ".join(value)
    if isinstance(value, bool):
        return f"`{str(value).lower()}`"
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return f"`{value}`"


def _rows() -> Iterator[tuple[str, str, str, str, str, str]]:
    """(group, variable, YAML key, values, default, meaning) for every variable."""
    top = Settings.model_fields
    for variable, where in ENV_VARS.items():
        group = where[0] if len(where) > 1 else ""
        model: Any = top[group].annotation if group else Settings
        field = model.model_fields[where[-1]]
        meaning = meanings(model).get(where[-1], "")
        yield group, variable, ".".join(where), _values(field), _default(field), meaning


def reference() -> str:
    """The reference as Markdown: one table per group, in `ENV_VARS` order."""
    out: list[str] = []
    group_seen = None
    for group, variable, key, values, default, meaning in _rows():
        if group != group_seen:
            group_seen = group
            out += ["", f"### {_GROUP_TITLES.get(group, group)}", ""]
            out += ["| variable | YAML key | takes | default | meaning |", "|---|---|---|---|---|"]
        out.append(f"| `{variable}` | `{key}` | {values} | {default} | {meaning} |")
    return "\n".join(out).strip() + "\n"


def rewrite(page: str) -> str:
    """`page` with the text between `BEGIN` and `END` replaced by the current reference."""
    head, begin, rest = page.partition(BEGIN)
    _, end, tail = rest.partition(END)
    if not begin or not end:
        raise ValueError(f"the page has no {BEGIN!r} … {END!r} block")
    return f"{head}{BEGIN}\n\n{reference()}\n{END}{tail}"


def main(argv: list[str] | None = None) -> None:
    """Print the reference; ``--write PAGE`` rewrites PAGE's block in place."""
    import sys

    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["--write"]:
        page = Path(args[1] if len(args) > 1 else "docs/configuration.md")
        page.write_text(rewrite(page.read_text(encoding="utf-8")), encoding="utf-8")
    else:
        print(reference(), end="")


if __name__ == "__main__":
    main()
