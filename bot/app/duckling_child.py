"""The child process Duckling reads in when the gateway isolates it (`bot.app.duckling_pool`).

Run as ``python -m bot.app.duckling_child``. It reads one JSON request per
line on standard input, ``{"text": …, "stamp": <UTC seconds>, "language": "en"}``,
and writes one JSON line back: Duckling's entities as it returns them, or
``{"error": "<type>"}``. Its first line, ``ready``, says Duckling has started.
It ends at the end of its input. Nothing else is written to standard output.

Why a process: Duckling's native code holds Python's GIL while it parses, so a
thread does not help the event loop, and nothing can stop a parse midway. In a
child the parent waits on a pipe (which lets go of the GIL) and, past the time
limit, kills the child and starts another.
"""

from __future__ import annotations

import json
import sys

__all__ = ["main"]


def main() -> None:
    """Answer requests until standard input closes."""
    from clockcore.parsing.duckling_reader import entities

    entities("at 9", 0, "en")  # the runtime starts before the parent's clock runs
    sys.stdout.write("ready\n")
    sys.stdout.flush()
    for line in sys.stdin:
        try:
            request = json.loads(line)
            found = entities(request["text"], int(request["stamp"]), request["language"])
            answer = json.dumps(found, ensure_ascii=True)
        except Exception as exc:  # a bad request is answered, never the end of the child
            answer = json.dumps({"error": type(exc).__name__})
        sys.stdout.write(answer + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
