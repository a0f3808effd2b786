"""Structure, not behaviour: the import directions of docs/ARCHITECTURE.md, and public surfaces."""

from __future__ import annotations

import ast
import graphlib
import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("bot", "channels", "clockcore", "wrapper")
ALLOWED = {
    "clockcore": set(),
    "wrapper": {"clockcore"},
    "channels": {"clockcore"},
    "bot": {"clockcore", "wrapper", "channels"},
}
# clockcore is pure: no I/O, no network, no databases, no SDKs.
CLOCKCORE_FORBIDDEN = {
    "aiohttp", "aioimaplib", "aiosmtplib", "anthropic", "asyncio", "asyncpg", "httpx",
    "openai", "requests", "slack_bolt", "slack_sdk", "socket", "sqlalchemy", "sqlite3",
    "sqlmodel", "subprocess", "telegram", "urllib",
}  # fmt: skip


def _imports(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name.split(".")[0]) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module.split(".")[0]))
    return found


def _isort_key(name: str) -> tuple[int, str]:
    group = 0 if name.isupper() else 1 if name[:1].isupper() else 2
    return group, name


def _sources(package: str, root: Path = ROOT) -> list[Path]:
    """Every module of `package` under `root`, in order."""
    return sorted((root / package).rglob("*.py"))


@pytest.mark.parametrize("package", PACKAGES)
def test_imports_follow_the_design_directions(package: str) -> None:
    forbidden = set(PACKAGES) - ALLOWED[package] - {package}
    if package == "clockcore":
        forbidden |= CLOCKCORE_FORBIDDEN
    wrong = [
        f"{path.relative_to(ROOT)}:{line} imports {name}"
        for path in _sources(package)
        for line, name in _imports(path)
        if name in forbidden
    ]
    assert not wrong, "imports against docs/ARCHITECTURE.md's directions:\n" + "\n".join(wrong)


def test_the_checker_sees_a_wrong_import(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("import bot.cli.main\nfrom wrapper import x\nfrom . import y\n")
    assert [name for _, name in _imports(bad)] == ["bot", "wrapper"]


@pytest.mark.parametrize("package", PACKAGES)
def test_public_surface_is_a_sorted_all(package: str) -> None:
    module = importlib.import_module(package)
    exported = list(getattr(module, "__all__", []))
    # isort-style, as ruff's RUF022 keeps it: CONSTANTS, then Classes, then functions.
    assert exported == sorted(exported, key=_isort_key)
    missing = [name for name in exported if not hasattr(module, name)]
    assert not missing


@pytest.mark.parametrize("package", PACKAGES)
def test_package_is_typed(package: str) -> None:
    assert (ROOT / package / "py.typed").exists()


# One owner for a turn (issue "One turn, one owner, committed once"): the calls that open,
# write and end a turn's transaction, and the only module each may be called from.
TURN_CALLS = {
    "commit_turn": "bot/turns/lifecycle.py",  # the one transaction that commits a turn
    "release_turn": "bot/turns/lifecycle.py",  # a failed turn's message given back
    "commit_in": "wrapper/core.py",  # its body, run by commit_turn
    "release_in": "wrapper/core.py",
    "finish": "wrapper/turns/turn_commit.py",  # the message leaves the waiting list
}


def _calls(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
            if name in TURN_CALLS:
                found.append((node.lineno, name))
    return found


def test_only_bot_turns_commits_a_turn() -> None:
    seen: dict[str, set[str]] = {name: set() for name in TURN_CALLS}
    for package in PACKAGES:
        for path in _sources(package):
            where = path.relative_to(ROOT).as_posix()
            for _, name in _calls(path):
                seen[name].add(where)
    assert seen == {name: {owner} for name, owner in TURN_CALLS.items()}


def test_the_checker_sees_a_turn_commit(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("async def f(w, c):\n    await w.commit_turn(c)\n    commit_in(1, c)\n")
    assert sorted(_calls(bad)) == [(2, "commit_turn"), (3, "commit_in")]


# Keys are built and read in one place (issue "The middle floor"): nothing else in bot/ or
# wrapper/ takes a key string apart. The adapters' own ids (Slack's "<team>:<channel>:<ts>")
# are theirs to read, so channels/ is not checked.
KEY_SPLITTERS = {"partition", "rpartition", "split", "rsplit"}


def _key_splits(path: Path) -> list[int]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    return [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in KEY_SPLITTERS
        and node.args
        and isinstance(node.args[0], ast.Constant)
        and node.args[0].value == ":"
    ]


def test_only_wrapper_keys_splits_a_key() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{line}"
        for package in ("bot", "wrapper")
        for path in _sources(package)
        if path.relative_to(ROOT).as_posix() != "wrapper/keys.py"
        for line in _key_splits(path)
    ]
    assert not found, "split keys with wrapper.keys instead:\n" + "\n".join(found)


def test_the_checker_sees_a_key_split(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("a, _, b = key.partition(':')\nc = key.split(':', 3)\nd = t.split('/')\n")
    assert sorted(_key_splits(bad)) == [1, 2]


# The repository stands alone: what the code relies on is written in docs/.
OUTSIDE = ("DESIGN.md", "CLOCK.md", "seed 000", "seed 001", "seed 002", "seeds/")
CITED_DOC = r"docs/[\w./-]+\.md"


def _own_files() -> list[Path]:
    """Code, tests, docs and the README; not the CHANGELOG, which is history."""
    found = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    for top in (*PACKAGES, "tests", "bench", "deploy"):
        found += sorted(p for p in (ROOT / top).rglob("*") if p.suffix in {".py", ".md", ".yaml"})
    return [p for p in found if p.is_file()]


def _outside_citations(files: list[Path]) -> list[str]:
    wrong = []
    for path in files:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            wrong += [f"{path.name}:{number}: {word}" for word in OUTSIDE if word in line]
    return wrong


def test_nothing_cites_a_document_outside_the_repository() -> None:
    mine = Path(__file__).resolve()
    wrong = _outside_citations([p for p in _own_files() if p != mine])
    assert not wrong, "cite docs/ instead:\n" + "\n".join(wrong)


def test_every_cited_doc_exists() -> None:

    missing = {
        f"{path.relative_to(ROOT)}: {cited}"
        for path in _own_files()
        for cited in re.findall(CITED_DOC, path.read_text(encoding="utf-8"))
        if not (ROOT / cited).is_file()
    }
    assert not missing, "\n".join(sorted(missing))


def test_every_cited_eval_row_exists() -> None:
    """A guard's why is one line citing a row of docs/eval.md ("docs/eval.md, M7"); the row
    holds the story (issue 62): each cited row is in the table, and each row is cited."""
    table = (ROOT / "docs" / "eval.md").read_text(encoding="utf-8")
    rows = set(re.findall(r"^\| (M\d+) \|", table, re.MULTILINE))
    cited = {
        row
        for path in _own_files()
        if path.suffix == ".py"
        for match in re.finditer(r"docs/eval\.md,\s+(M\d+)", path.read_text(encoding="utf-8"))
        for row in [match.group(1)]
    }
    assert cited, "no row cited: the checker reads nothing"
    assert cited <= rows, f"cited, not in docs/eval.md: {sorted(cited - rows)}"
    assert rows <= cited, f"in docs/eval.md, cited by no code: {sorted(rows - cited)}"


def test_the_citation_checker_sees_one(tmp_path: Path) -> None:
    source = tmp_path / "x.py"
    source.write_text('"""The facade DESIGN.md fixes."""\n')
    assert _outside_citations([source]) == ["x.py:1: DESIGN.md"]


# The hot path lives in one module (docs/ARCHITECTURE.md, "The hot path").
HOT_PATH_CALLS = (".pg_pool(", ".fetchrow(", ".fetchval(", "hot.READ", "hot.WRITE")


def _hot_path_outside(files: list[Path]) -> list[str]:
    return [
        f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path.name}:{number}: {call}"
        for path in files
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        for call in HOT_PATH_CALLS
        if call in line
    ]


def test_the_hot_path_is_only_in_wrapper_hot() -> None:
    files = [
        path
        for top in PACKAGES
        for path in _sources(top)
        if path != ROOT / "wrapper" / "inbound" / "hot.py"
    ]
    wrong = _hot_path_outside(files)
    assert not wrong, "the hot path belongs in wrapper/inbound/hot.py:\n" + "\n".join(wrong)


def test_the_hot_path_checker_sees_a_call(tmp_path: Path) -> None:
    stray = tmp_path / "stray.py"
    stray.write_text("row = await conn.fetchrow(hot.READ)\n")
    assert len(_hot_path_outside([stray])) == 2


# No module over LONGEST lines, except these, each with its reason. A listed module
# that shrinks under the limit must leave the list, so the list stays true.
LONGEST = 450
LONG_MODULES = {
    "clockcore/geo/places.py": "one job: place names to zones, with its tables of names",
    "clockcore/actions.py": "one job: latest actions from words to expiry",
    "bot/turns/lifecycle.py": "one class: a message's life in the gateway",
    "bot/llm/rules_agent.py": "one class: the agent without a model",
    "bot/agent/claims.py": "one job: the words that claim a change, seven languages a kind",
    "bot/llm/everyday_words.py": "one job: the no-model requests' words, seven languages a table",
    "clockcore/recurrence.py": "one job: repeating times as RFC 5545 rules",
    "clockcore/parsing/cues.py": "one job: the evidence a reading needs",
    "clockcore/reading/leftover.py": "one job: the leftover scanner's parts (split next: issue 62)",
    "clockcore/parsing/timeparse.py": "one job: the reading pipeline's order (split next: issue 62)",
}


def _line_counts() -> dict[str, int]:
    return {
        str(path.relative_to(ROOT)): len(path.read_text(encoding="utf-8").splitlines())
        for top in PACKAGES
        for path in _sources(top)
    }


def test_no_module_is_long_without_a_reason() -> None:
    counts = _line_counts()
    long = {path for path, lines in counts.items() if lines > LONGEST}
    unlisted = sorted(long - LONG_MODULES.keys())
    assert not unlisted, f"split these, or list them with a reason: {unlisted}"
    shrunk = sorted(LONG_MODULES.keys() - long)
    assert not shrunk, f"under {LONGEST} lines now, take them off the list: {shrunk}"


def _module_graph(root: Path, packages: tuple[str, ...]) -> dict[str, set[str]]:
    """Which of the packages' modules each module imports, type-only imports included."""
    paths = {
        ".".join(path.relative_to(root).with_suffix("").parts).removesuffix(".__init__"): path
        for package in packages
        for path in _sources(package, root)
    }

    def known(name: str) -> str | None:
        while name and name not in paths:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {}
    for module, path in paths.items():
        here = module if path.name == "__init__.py" else module.rpartition(".")[0]
        names: list[str] = []
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names += [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parent = here.split(".")[: len(here.split(".")) - node.level + 1]
                    base = ".".join([*parent, base] if base else parent)
                names += [f"{base}.{alias.name}" for alias in node.names]
        graph[module] = {found for name in names if (found := known(name)) not in (None, module)}
    return graph


def _circle(graph: dict[str, set[str]]) -> list[str]:
    """One import circle of `graph` (its modules in order), or [] when there is none."""
    try:
        graphlib.TopologicalSorter(graph).prepare()
    except graphlib.CycleError as error:
        return list(error.args[1])
    return []


def test_no_import_circle() -> None:
    # docs/ARCHITECTURE.md: modules import each other one way; a type-only import counts.
    assert _circle(_module_graph(ROOT, PACKAGES)) == []


def test_the_circle_checker_sees_one(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "sub" / "__init__.py").write_text("")
    (package / "a.py").write_text("from pkg.sub import b\n")
    (package / "sub" / "b.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..a import A\n"
    )
    (package / "c.py").write_text("from pkg import a\n")
    assert set(_circle(_module_graph(tmp_path, ("pkg",)))) == {"pkg.a", "pkg.sub.b"}
    (package / "sub" / "b.py").write_text("import pkg.c\n")
    assert set(_circle(_module_graph(tmp_path, ("pkg",)))) == {"pkg.a", "pkg.sub.b", "pkg.c"}
    (package / "c.py").write_text("")
    assert _circle(_module_graph(tmp_path, ("pkg",))) == []


# docs/ARCHITECTURE.md, "Rooms": a folder shows one concern; past about fifteen modules a
# newcomer no longer sees it, so the folder splits into rooms.
MOST_MODULES = 15


def _crowded(root: Path, packages: tuple[str, ...]) -> dict[str, int]:
    """Each folder of `packages` holding more than MOST_MODULES modules (its __init__ aside).

    Migrations are left out: one file per schema version, read by Alembic, never by a person.
    """
    counts: dict[str, int] = {}
    for package in packages:
        for path in _sources(package, root):
            if path.name != "__init__.py" and "migrations" not in path.parts:
                folder = path.parent.relative_to(root).as_posix()
                counts[folder] = counts.get(folder, 0) + 1
    return {folder: n for folder, n in sorted(counts.items()) if n > MOST_MODULES}


def test_no_folder_is_crowded() -> None:
    assert _crowded(ROOT, PACKAGES) == {}, "split the folder into rooms (docs/ARCHITECTURE.md)"


def test_the_crowding_checker_sees_one(tmp_path: Path) -> None:
    (tmp_path / "pkg" / "room").mkdir(parents=True)
    for n in range(MOST_MODULES):
        (tmp_path / "pkg" / f"m{n}.py").write_text("")
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "room" / "x.py").write_text("")
    assert _crowded(tmp_path, ("pkg",)) == {}
    (tmp_path / "pkg" / "one_more.py").write_text("")
    assert _crowded(tmp_path, ("pkg",)) == {"pkg": MOST_MODULES + 1}


def _unnamed(root: Path, packages: tuple[str, ...]) -> list[str]:
    """Modules whose first line is not a docstring's one-line summary of what they hold."""
    found = []
    for package in packages:
        for path in _sources(package, root):
            first = path.read_text(encoding="utf-8").partition("\n")[0]
            summary = first.removeprefix('"""').removesuffix('"""').strip()
            if not first.startswith('"""') or len(summary) < 10 or len(first) > 100:
                found.append(path.relative_to(root).as_posix())
    return found


def test_every_module_names_its_concept_on_its_first_line() -> None:
    assert _unnamed(ROOT, PACKAGES) == []


def test_the_first_line_checker_sees_one(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "good.py").write_text('"""Reminders: set, moved, cancelled."""\n')
    (tmp_path / "pkg" / "bare.py").write_text("import os\n")
    (tmp_path / "pkg" / "empty.py").write_text('""""""\n')
    assert _unnamed(tmp_path, ("pkg",)) == ["pkg/bare.py", "pkg/empty.py"]


# docs/eval.md, "What models did": the story of what a model once did lives there, in a
# numbered row; the code keeps the why in one line citing the row (issue 62 §3).
_MODEL_NAMES = re.compile(
    r"(?i)\b(?:qwen|gemma|phi-?3|llama ?3|mistral|\d+(?:\.\d+)?b model|270m)\b"
)


def _model_names(root: Path, packages: tuple[str, ...]) -> list[str]:
    return [
        f"{path.relative_to(root).as_posix()}:{number}"
        for package in packages
        for path in _sources(package, root)
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if _MODEL_NAMES.search(line)
    ]


def test_no_model_is_named_in_the_code() -> None:
    assert _model_names(ROOT, PACKAGES) == [], "tell the story in a row of docs/eval.md"


def test_the_model_name_checker_sees_one(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "a.py").write_text("# llama.cpp's /props, an OpenAI-compatible server\n")
    (tmp_path / "pkg" / "b.py").write_text('"""x"""\n# a 1.5B model set it twice\n')
    assert _model_names(tmp_path, ("pkg",)) == ["pkg/b.py:2"]
