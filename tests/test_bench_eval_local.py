"""`make eval-local`'s choices reach the server and clockbot as asked (issue 63), with no model.

`--sampling greedy` starts llama-server with ``--temp 0`` and clockbot sends no sampling;
`server` leaves both to the server; `clockbot` sends clockbot's own defaults. `--mode` is
``llm.mode``; `--scenarios` picks the team's or the unseen ones. The environment is read by
clockbot's own settings loader, so the test sees what `clockbot eval` would.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.config.groups import DEFAULT_TEMPERATURE, LLMSettings
from bot.config.settings import load_settings
from bot.evaluation.scenario import load_scenarios
from tests.support.bench_modules import bench_module

eval_local = bench_module("eval_local")
prompt_cache_bench = bench_module("prompt_cache_bench")


def _argv(sampling: str, tmp_path: Path) -> list[str]:
    return prompt_cache_bench.server_command(
        Path("llama-server"), Path("m.gguf"), port=1, slot_dir=tmp_path, ctx=6144,
        n_predict=384, greedy=eval_local.server_greedy(sampling),
    )  # fmt: skip


def _settings(
    tmp_path: Path, sampling: str, mode: str = "native", model: str = "qwen"
) -> LLMSettings:
    # A CLOCKBOT_ setting of the caller's own must not reach the run.
    base = {"PATH": "/usr/bin", "CLOCKBOT_LLM_TEMPERATURE": "1.5", "CLOCKBOT_LLM_MODE": "native"}
    env = eval_local.eval_env(
        base, url="http://127.0.0.1:1", name="qwen", home=str(tmp_path), model=model,
        sampling=sampling, mode=mode,
    )  # fmt: skip
    assert env["PATH"] == "/usr/bin"
    return load_settings(environ=env).llm


@pytest.mark.parametrize(
    ("sampling", "temp_flag", "temperature"),
    [("greedy", True, None), ("server", False, None), ("clockbot", False, DEFAULT_TEMPERATURE)],
)
def test_sampling_reaches_server_and_requests(
    tmp_path: Path, sampling: str, temp_flag: bool, temperature: float | None
) -> None:
    argv = _argv(sampling, tmp_path)
    assert ("--temp" in argv) == temp_flag
    if temp_flag:
        assert argv[argv.index("--temp") + 1] == "0"
    llm = _settings(tmp_path, sampling)
    assert llm.sampling.temperature == temperature
    assert llm.sampling.top_p is None
    assert llm.base_url == "http://127.0.0.1:1/v1"


@pytest.mark.parametrize("mode", ["native", "constrained", "reader-first"])
def test_mode_is_llm_mode(tmp_path: Path, mode: str) -> None:
    assert _settings(tmp_path, "clockbot", mode).mode == mode


def test_gemma_runs_without_tools(tmp_path: Path) -> None:
    assert _settings(tmp_path, "greedy", model="gemma").tools is False
    assert _settings(tmp_path, "greedy").tools is True


def test_arguments_and_report_name() -> None:
    args = eval_local.arguments(["--sampling", "server", "--mode", "reader-first"])
    assert (args.sampling, args.mode, args.scenarios) == ("server", "reader-first", "all")
    assert eval_local.arguments([]).sampling == "greedy"
    with pytest.raises(SystemExit):
        eval_local.arguments(["--sampling", "hot"])
    with pytest.raises(SystemExit):
        eval_local.arguments(["--mode", "json"])
    name = eval_local.report_name("qwen", "clockbot", "constrained", "all")
    assert name == "eval-report-qwen-clockbot-constrained.md"
    assert eval_local.report_name("gemma", "server", "native", "unseen").endswith(
        "gemma-server-native-unseen.md"
    )


def test_scenario_sets_keep_unseen_apart() -> None:
    with eval_local.scenario_dir("all") as folder:
        assert folder is None
    everything = load_scenarios(eval_local.SHIPPED)
    with eval_local.scenario_dir("team") as folder:
        assert folder is not None
        team = load_scenarios(folder)
    with eval_local.scenario_dir("unseen") as folder:
        assert folder is not None
        unseen = load_scenarios(folder)
    assert team and not any(s.unseen for s in team)
    assert unseen and all(s.unseen for s in unseen)
    assert sorted(s.name for s in [*team, *unseen]) == sorted(s.name for s in everything)


def test_report_records_the_sampling(tmp_path: Path) -> None:
    report = tmp_path / "r.md"
    report.write_text("# clockbot eval\n\nModel: openai qwen\n\n| | wrapper |\n", encoding="utf-8")
    report.with_suffix(".json").write_text(json.dumps({"sampling": None}), encoding="utf-8")
    eval_local.note_sampling(report, "greedy")
    lines = report.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "# clockbot eval"
    assert lines[2].startswith("Served: greedy: llama-server --temp 0")
    assert lines[4] == "Model: openai qwen"
    data = json.loads(report.with_suffix(".json").read_text(encoding="utf-8"))
    assert data == {"sampling": None, "served_sampling": "greedy"}
