"""Names a package exports but loads on first use (PEP 562's module ``__getattr__``).

A package lists each public name with the module that defines it, and keeps the real
imports under ``TYPE_CHECKING`` for the type checker::

    __getattr__ = lazy_names(__name__, {"Policy": "clockcore.policy"}, globals())

``from package import Policy`` then imports ``clockcore.policy`` at that moment, and the
name becomes a plain attribute of the package.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, MutableMapping
from typing import Any

__all__ = ["lazy_names"]


def lazy_names(
    package: str, home: Mapping[str, str], namespace: MutableMapping[str, Any]
) -> Callable[[str], Any]:
    """The package's ``__getattr__``: each name in `home` loaded from its module once."""

    def __getattr__(name: str) -> Any:
        module = home.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        namespace[name] = value  # from now on a plain attribute
        return value

    return __getattr__
