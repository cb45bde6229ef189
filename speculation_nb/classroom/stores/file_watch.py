"""Wake up when a file is written, by any process: Linux's inotify, through :mod:`ctypes`.

The SQLite store (:mod:`.sqlite_store`) commits every record to its database's ``-wal`` file;
a kernel following a table sleeps until that file is written instead of looking every few
milliseconds. Waking costs nothing while the table is quiet, and comes at once when it is not.

:func:`watch` gives a :class:`FileWatch` on Linux, or ``None`` where inotify is missing (macOS,
Windows), the file does not exist, or the system's limit of watches is reached (any failure of
inotify): the caller then polls. A wake-up is a hint, never the truth: the caller reads what changed, and a write
that changed nothing it follows wakes it for nothing.

What one wake-up covers. The kernel queues an event for each step of a write, as it happens: the
data written (``IN_MODIFY``, once per ``write``; SQLite's commit is several), then, for a writer that
closes the file, its closing (``IN_CLOSE_WRITE``). :meth:`FileWatch.wait` wakes at the first event
and takes every event queued by then. So a write that was *finished* before a call is taken whole by
that call, and the next call sleeps; a write still going on while a call wakes may wake the next
call too. No write is ever missed, but one write may wake two calls: a caller that finds nothing
new after a wake-up waits again (as :meth:`.SQLiteStore.wait` does).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import select
import sys
from pathlib import Path

__all__ = ["FileWatch", "watch"]

_IN_MODIFY = 0x00000002
_IN_ATTRIB = 0x00000004
_IN_CLOSE_WRITE = 0x00000008
_IN_DELETE_SELF = 0x00000400
_IN_MOVE_SELF = 0x00000800
_MASK = _IN_MODIFY | _IN_ATTRIB | _IN_CLOSE_WRITE | _IN_DELETE_SELF | _IN_MOVE_SELF
_IN_NONBLOCK = os.O_NONBLOCK
_IN_CLOEXEC = getattr(os, "O_CLOEXEC", 0o2000000)

_libc: ctypes.CDLL | None = None
_missing = False


def _inotify() -> ctypes.CDLL | None:
    """libc with its inotify functions, or None where there is none (loaded once)."""
    global _libc, _missing
    if _libc is None and not _missing:
        name = ctypes.util.find_library("c") if sys.platform.startswith("linux") else None
        try:
            libc = ctypes.CDLL(name, use_errno=True) if name else None
        except OSError:
            libc = None
        if libc is None or not hasattr(libc, "inotify_init1"):
            _missing = True
        else:
            libc.inotify_init1.argtypes = [ctypes.c_int]
            libc.inotify_add_watch.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_uint32]
            _libc = libc
    return _libc


class FileWatch:
    """One inotify descriptor watching one file: :meth:`wait` until it is written."""

    def __init__(self, fd: int) -> None:
        self._fd = fd
        self._poll = select.poll()  # no limit on the descriptor's number, unlike select()
        self._poll.register(fd, select.POLLIN)

    def wait(self, timeout: float) -> bool:
        """Sleep until the file is written or ``timeout`` seconds pass, whichever comes first.

        True when the file was written since this watch was made or the previous call took its
        events (a write between two calls is never missed); every event queued by the time it
        wakes is taken, so a write finished before the call wakes this call only. False when
        nothing was written, the whole ``timeout`` long (``timeout=0`` only looks). The events of
        a write still going on when it wakes (its close after its data) wake the next call too.
        """
        if self._fd < 0:
            raise ValueError("the file watch is closed")
        if not self._poll.poll(max(0, round(timeout * 1000))):
            return False
        try:
            while os.read(self._fd, 4096):
                pass
        except BlockingIOError:
            pass
        return True

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    def __enter__(self) -> FileWatch:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()


def watch(path: str | os.PathLike[str]) -> FileWatch | None:
    """A watch on ``path``'s writes, or None where it cannot be had (then poll)."""
    libc = _inotify()
    if libc is None:
        return None
    fd = libc.inotify_init1(_IN_NONBLOCK | _IN_CLOEXEC)
    if fd < 0:
        return None  # EMFILE: the user's limit of inotify instances
    if libc.inotify_add_watch(fd, os.fsencode(Path(path)), _MASK) < 0:  # ENOENT, ENOSPC, EACCES...
        os.close(fd)
        return None
    return FileWatch(fd)
