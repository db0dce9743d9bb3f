"""What a worker process is doing, readable after it died.

A worker of ``workers`` writes a line before it hands control to code it does not
trust (a player's decision): ``say("player x in seat 1, deal 4 of seed 7, in the
play phase")``, and ``say("")`` once that code has returned.  If that code ends the
process (``os._exit``, a signal, a crash in an extension), the main process reads the
line with ``heard(folder, pid)`` and names the culprit.  Each worker writes its own
file of ``folder``, in place (one ``pwrite``, no allocation of a new file), so saying
costs about a microsecond; a process that never called ``listen`` says nothing.
"""

from __future__ import annotations

import os

SIZE = 512
"""Bytes kept of a line: enough for a player's name, a seat and a deal."""

_fd: int | None = None


def listen(folder: str) -> None:
    """Let this process's lines be heard in ``folder`` (a worker calls it once)."""
    global _fd
    _fd = os.open(os.path.join(folder, str(os.getpid())), os.O_RDWR | os.O_CREAT, 0o600)
    say("")


def say(line: str) -> None:
    """Note what this process does now ("" when it has done it)."""
    if _fd is not None:
        data = line.encode("utf-8", "replace")[:SIZE]
        os.pwrite(_fd, data.ljust(SIZE, b"\0"), 0)


def heard(folder: str, pid: int) -> str:
    """The last line process ``pid`` said in ``folder`` ("" if none)."""
    try:
        with open(os.path.join(folder, str(pid)), "rb") as file:
            data = file.read(SIZE)
    except OSError:
        return ""
    return data.rstrip(b"\0").decode("utf-8", "replace")
