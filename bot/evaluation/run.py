"""`clockbot eval`: run the scenarios (and the baseline) against the configured model, report.

Scenarios run one after another, the wrapper's first and then the baseline's,
so a server's prompt cache keeps the shared prefix (system prompt and tools)
from one scenario to the next.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from pathlib import Path

from bot.config.settings import Settings
from bot.evaluation.report import Judged, dumps, judged, markdown
from bot.evaluation.runner import run_scenario
from bot.evaluation.scenario import Scenario
from bot.llm.types import Provider, Sampling

__all__ = ["MODES", "evaluate", "write_report"]

MODES = ("wrapper", "baseline")
"""The two ways of prompting the model: clockbot's, and the time in the system prompt."""


async def evaluate(
    settings: Settings,
    scenarios: Sequence[Scenario],
    *,
    modes: Sequence[str] = MODES[:1],
    provider: Callable[[], Provider] | None = None,
    progress: Callable[[str, Judged], None] | None = None,
) -> dict[str, list[Judged]]:
    """Play every scenario once per mode of `modes` (`MODES`: as clockbot prompts, and as the
    baseline), in the order of `MODES`.

    `provider` makes a fresh provider per scenario (the fake models in tests);
    None uses the configured one. `progress` is told each result.
    """
    runs: dict[str, list[Judged]] = {}
    unknown = set(modes) - set(MODES)
    if unknown:
        raise ValueError(f"unknown eval modes {sorted(unknown)}; the modes are {list(MODES)}")
    for mode in (m for m in MODES if m in modes):
        results = runs.setdefault(mode, [])
        for scenario in scenarios:
            outcome = await run_scenario(
                scenario,
                settings,
                baseline=mode == "baseline",
                provider=provider() if provider is not None else None,
            )
            result = judged(outcome)
            results.append(result)
            if progress is not None:
                progress(mode, result)
    return runs


def write_report(
    runs: dict[str, list[Judged]],
    path: Path,
    *,
    about: str = "",
    sampling: Sampling | None = None,
    llm_mode: str | None = None,
) -> Path:
    """The Markdown report at `path` and the JSON beside it (``.json``); the JSON's path.

    `sampling`: what the model's requests carried (None: no model, the rules agent); the
    report says it under `about`, and the JSON under ``sampling``; `llm_mode` likewise
    (``llm.mode``: native or reader-first; None: no model), under ``llm_mode``.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    said = f"Sampling: {sampling}." if sampling is not None else "Sampling: none (no model)."
    if llm_mode is not None:
        said += f" LLM mode: {llm_mode}."
    about = f"{about}\n\n{said}" if about else said
    path.write_text(markdown(runs, title="clockbot eval", about=about), encoding="utf-8")
    data = path.with_suffix(".json")
    data.write_text(dumps(runs, sampling=sampling, llm_mode=llm_mode), encoding="utf-8")
    logging.getLogger(__name__).info("report written to %s and %s", path, data)
    return data
