"""Files replaced whole, never in place: the one way this repository writes a file it keeps.

A process that dies inside ``Path.write_text`` (a kill, a full disk, a power cut) leaves a truncated file. Every
writer here instead writes a temporary file in the target's folder and renames it over the target with
:func:`os.replace`, which POSIX makes atomic within one file system: whatever stops the writer, the target is the
old file or the new one, never a third. The data reach the disk (``fsync``) before the rename, and the rename
itself before the call returns (the folder's ``fsync``), so a power cut cannot leave the new name on an empty file.

- :func:`write_text` and :func:`write_bytes`: a whole file from a string or bytes.
- :func:`replacing`: a file object to write into (``np.savez_compressed(f, ...)``, ``json.dump(..., f)``), the
  target replaced when the ``with`` block ends without an error and left as it was when it raises.

The package uses it for its trained parameters and snapshots; the workshop (``attention_workshop``) for lessons,
translation files, generated editions, results and everything else it replaces.
"""

from __future__ import annotations

import contextlib
import os
import pathlib
import tempfile
from collections.abc import Iterator
from typing import IO

__all__ = ["replacing", "write_bytes", "write_text"]


@contextlib.contextmanager
def replacing(path: str | os.PathLike, mode: str = "w", *, encoding: str | None = "utf-8") -> Iterator[IO]:
    """A file object for ``path``'s new content (``mode`` ``"w"`` for text, ``"wb"`` for bytes). When the block ends
    without an error, the content replaces ``path`` whole (``os.replace``); when it raises, ``path`` is left as it
    was and the temporary file is removed. The new file keeps the old one's permission bits (a new file gets the
    usual 0o666 less the umask)."""
    if mode not in ("w", "wb"):
        raise ValueError(f"mode must be 'w' or 'wb', got {mode!r}")
    target = pathlib.Path(path)
    folder = target.parent
    fd, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, mode, encoding=encoding if mode == "w" else None, newline="" if mode == "w" else None) as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.chmod(temporary, _mode_of(target))
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    _sync_folder(folder)


def write_text(path: str | os.PathLike, text: str, encoding: str = "utf-8") -> None:
    """Replace ``path`` with ``text`` (written as given: no newline translation), atomically (:func:`replacing`)."""
    with replacing(path, "w", encoding=encoding) as f:
        f.write(text)


def write_bytes(path: str | os.PathLike, data: bytes) -> None:
    """Replace ``path`` with ``data``, atomically (:func:`replacing`)."""
    with replacing(path, "wb") as f:
        f.write(data)


_UMASK = os.umask(0)  # read once, at import (reading it means setting it: not safe while other threads create files)
os.umask(_UMASK)


def _mode_of(target: pathlib.Path) -> int:
    try:
        return target.stat().st_mode & 0o7777
    except FileNotFoundError:
        return 0o666 & ~_UMASK


def _sync_folder(folder: pathlib.Path) -> None:
    """The rename reaches the disk (not possible on every system: a folder cannot be opened on Windows)."""
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
