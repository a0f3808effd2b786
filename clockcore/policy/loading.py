"""Reading the policy from a config document or a YAML file; a missing block gives the defaults."""

from __future__ import annotations

import os
from collections.abc import Mapping

import yaml

from clockcore.errors import PolicyError
from clockcore.policy.model import DEFAULT_POLICY, ROOT, Policy, validate_block

__all__ = ["load_policy", "policy_from_mapping"]


def policy_from_mapping(data: Mapping[str, object], *, source: str | None = None) -> Policy:
    """Build the policy from a whole config document held in memory.

    `data` is the top level of the config, as `load_policy` reads it from a
    file: the policy is under its ``clock`` key and other keys are ignored.
    Without a ``clock`` key, or with ``clock: null``, the §0 defaults apply.

    Args:
        data: the config document, e.g. ``{"clock": {"mode": "normal"}}``.
        source: where it came from, for the error.

    Returns:
        The validated policy.

    Raises:
        PolicyError: `data` or its ``clock`` value is not a mapping, or a field
            does not validate; `.path` is the dotted path (``clock.mode``).
        InvalidDurationError: a duration field cannot be read.
    """
    if not isinstance(data, Mapping):
        raise PolicyError(
            "", f"the config must be a mapping, not {type(data).__name__}", source=source
        )
    block = data.get(ROOT)
    if block is None:
        return DEFAULT_POLICY
    if not isinstance(block, Mapping):
        raise PolicyError(ROOT, f"must be a mapping, not {type(block).__name__}", source=source)
    return validate_block(block, source)


def load_policy(path: str | os.PathLike[str] | None) -> Policy:
    """Read the policy from the ``clock:`` block of a YAML file.

    Args:
        path: the YAML file; None for the §0 defaults.

    Returns:
        The validated policy; the defaults when the file has no ``clock`` key
        (an empty file included).

    Raises:
        PolicyError: the file is missing or unreadable, is not valid YAML, its
            top level is not a mapping, or a field does not validate. `.source`
            is the file and `.path` the dotted path of the bad field (empty
            when the problem is the file itself).
        InvalidDurationError: a duration field cannot be read.
    """
    if path is None:
        return DEFAULT_POLICY
    source = os.fspath(path)
    try:
        with open(source, encoding="utf-8") as handle:
            text = handle.read()
    except FileNotFoundError:
        raise PolicyError("", "policy file not found", source=source) from None
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise PolicyError("", f"cannot read policy file: {reason}", source=source) from None
    except UnicodeDecodeError:
        raise PolicyError("", "policy file is not valid UTF-8", source=source) from None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise PolicyError("", _describe_yaml_error(exc), source=source) from None
    if data is None:
        return DEFAULT_POLICY
    if not isinstance(data, Mapping):
        raise PolicyError(
            "", f"the top level must be a mapping, not {type(data).__name__}", source=source
        )
    return policy_from_mapping(data, source=source)


def _describe_yaml_error(exc: yaml.YAMLError) -> str:
    """Say where the YAML is broken without quoting the file (it may hold secrets)."""
    if isinstance(exc, yaml.MarkedYAMLError):
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or exc.context or "cannot be parsed"
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        return f"invalid YAML{where}: {problem}"
    return f"invalid YAML ({type(exc).__name__})"
