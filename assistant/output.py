"""The output edge: every file the program writes for the user goes through `write_text`.

The text goes to a temporary file in the target's folder and replaces the target by one rename, so a
run stopped half-way leaves the earlier file whole (at worst a stray `.NAME.*.tmp` beside it after a
hard kill). A folder or a missing parent folder is refused with one line before anything is written.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import IO

from .errors import BadInput

CHUNK = 1 << 20          # characters written per call (a kill lands between chunks, never in the target)


def check_target(path: str | Path) -> Path:
    """The path to write, or BadInput when it is empty, a folder, or its folder does not exist."""
    raw = str(path)
    if not raw.strip():
        raise BadInput(key="arg_empty", params={"name": "--out"})
    target = Path(raw).expanduser()
    try:
        if target.is_dir():
            raise BadInput(key="out_is_dir", params={"path": raw})
        folder = target.parent
        if not folder.is_dir():
            raise BadInput(key="out_no_folder", params={"path": raw, "folder": str(folder)})
    except OSError as err:               # e.g. a name too long for the file system
        raise BadInput(key="out_cannot_write", params={"path": raw, "reason": err.strerror or "error"}) from None
    return target


def _write_chunks(fh: IO[str], text: str) -> None:
    for i in range(0, len(text), CHUNK):
        fh.write(text[i:i + CHUNK])


def write_text(path: str | Path, text: str) -> Path:
    """Write `text` (UTF-8) to `path` atomically: temp file in the same folder, fsync, rename."""
    target = check_target(path)
    tmp: str | None = None
    try:
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name[:100]}.", suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            _write_chunks(fh, text)
            fh.flush()
            os.fsync(fh.fileno())
        if target.exists():
            os.chmod(tmp, target.stat().st_mode & 0o7777)
        else:
            os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, target)
        tmp = None
    except OSError as err:
        raise BadInput(key="out_cannot_write", params={"path": str(path), "reason": err.strerror or "error"}) from None
    finally:
        if tmp is not None:              # an error or an interrupt (KeyboardInterrupt) before the rename
            try:
                os.unlink(tmp)
            except OSError:
                pass
    return target


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
