"""Blob over a local folder (the embedded default).

A key ``a/b/c`` is the file ``<root>/a/b/c``. ``set`` writes the value to a
temporary file ``.tmp-<random>`` in the target folder, fsyncs it, renames it
over the final name and fsyncs the folder, so a crash leaves either no file
or the complete one; a reader never sees a prefix. Temporary files left by a
crash are never listed and are removed by ``sweep_tmp``.

Unlike S3, a folder cannot also be a file: on this Blob the keys ``a`` and
``a/b`` cannot both exist (the second ``set`` fails determinately). txngate's
key scheme (``<shard>/<writer>/<part>``) never produces such a pair.

All filesystem calls run in worker threads so the event loop never blocks.
OS errors are determinate for reads and deletes (nothing changed) and for a
``set`` that failed before its rename; the rename itself is atomic.
"""

from __future__ import annotations

import asyncio
import errno
import os
import time
import uuid
from pathlib import Path

from storage.errors import ConfigError, DeterminateError, UsageError
from storage.location.blob import TMP_PREFIX, Blob, BlobMeta, validate_key


def _fsync_path(path) -> None:
    """Make a file's contents, or a folder's entries, durable."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class FsBlob(Blob):
    kind = "fs"

    def __init__(self, root: str | os.PathLike, *, fsync: bool = True):
        self.root = Path(root)
        self.fsync = fsync

    @classmethod
    async def open(cls, root: str, *, fsync: bool = True, setting: str = "blob") -> "FsBlob":
        """Create the folder if needed and check it is a writable directory."""

        def prepare() -> None:
            try:
                os.makedirs(root, exist_ok=True)
            except OSError as e:
                raise ConfigError(setting, f"cannot create folder {root}: {e.strerror}") from e
            if not os.path.isdir(root):
                raise ConfigError(setting, f"{root} is not a folder")
            if not os.access(root, os.W_OK | os.X_OK):
                raise ConfigError(setting, f"folder {root} is not writable")

        await asyncio.to_thread(prepare)
        return cls(root, fsync=fsync)

    def _path(self, key: str) -> Path:
        return self.root.joinpath(*validate_key(key).split("/"))

    async def get(self, key: str) -> bytes | None:
        path = self._path(key)

        def read() -> bytes | None:
            try:
                with open(path, "rb") as f:
                    return f.read()
            except FileNotFoundError:
                return None
            except NotADirectoryError:
                return None
            except OSError as e:
                raise DeterminateError(f"fs blob get {key!r}: {e}") from e

        return await asyncio.to_thread(read)

    async def set(self, key: str, value: bytes) -> None:
        path = self._path(key)
        await asyncio.to_thread(self._write, path, key, value)

    def _write(self, path: Path, key: str, value: bytes) -> None:
        tmp = path.parent / f"{TMP_PREFIX}{uuid.uuid4().hex}"
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
            try:
                view = memoryview(value)
                while view:
                    written = os.write(fd, view)
                    view = view[written:]
                if self.fsync:
                    os.fsync(fd)
            finally:
                os.close(fd)
            os.replace(tmp, path)
        except OSError as e:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise DeterminateError(f"fs blob set {key!r}: {e}") from e
        if self.fsync:
            # Make the rename durable. A failure here leaves the value
            # visible but possibly not durable; report it as determinate
            # anyway: a retry rewrites the same bytes (keys are write-once).
            try:
                _fsync_path(path.parent)
            except OSError as e:
                raise DeterminateError(f"fs blob set {key!r}: fsync of folder: {e}") from e

    async def delete(self, key: str) -> int | None:
        path = self._path(key)

        def remove() -> int | None:
            try:
                size = path.stat().st_size
                path.unlink()
                return size
            except (FileNotFoundError, NotADirectoryError):
                return None
            except OSError as e:
                raise DeterminateError(f"fs blob delete {key!r}: {e}") from e

        return await asyncio.to_thread(remove)

    async def list(self, prefix: str = "") -> list[BlobMeta]:
        return await asyncio.to_thread(self._list, prefix)

    def _list(self, prefix: str) -> list[BlobMeta]:
        # Walk only below the deepest folder the prefix fully names.
        folder_part = prefix.rsplit("/", 1)[0] if "/" in prefix else ""
        start = self.root.joinpath(*folder_part.split("/")) if folder_part else self.root
        out: list[BlobMeta] = []
        root_len = len(str(self.root)) + 1

        def walk(folder: str) -> None:
            try:
                entries = list(os.scandir(folder))
            except (FileNotFoundError, NotADirectoryError):
                return
            except OSError as e:
                raise DeterminateError(f"fs blob list {prefix!r}: {e}") from e
            for entry in entries:
                if entry.name.startswith(TMP_PREFIX):
                    continue
                key = entry.path[root_len:].replace(os.sep, "/")
                if entry.is_dir(follow_symlinks=False):
                    if key.startswith(prefix) or prefix.startswith(key + "/"):
                        walk(entry.path)
                elif key.startswith(prefix):
                    try:
                        out.append(BlobMeta(key, entry.stat().st_size))
                    except FileNotFoundError:
                        continue  # deleted while listing

        walk(str(start))
        out.sort()
        return out

    async def sweep_tmp(self, older_than_s: float = 3600.0) -> int:
        """Remove temporary files of crashed writes older than the grace period."""

        def sweep() -> int:
            removed = 0
            cutoff = time.time() - older_than_s
            for folder, _dirs, files in os.walk(self.root):
                for name in files:
                    if not name.startswith(TMP_PREFIX):
                        continue
                    path = os.path.join(folder, name)
                    try:
                        if os.stat(path).st_mtime < cutoff:
                            os.unlink(path)
                            removed += 1
                    except OSError as e:
                        if e.errno != errno.ENOENT:
                            raise DeterminateError(f"fs blob sweep: {e}") from e
            return removed

        return await asyncio.to_thread(sweep)

    def external_path(self, key: str) -> str:
        """The local file holding ``key`` (engines read Parquet there
        natively, and Spark's writer writes objects to ``adopt`` there)."""
        return str(self._path(key))

    async def adopt(self, staged: str, key: str) -> None:
        """A rename: the staged file is synced, moved to ``key``'s name,
        and the move made durable (as ``set`` leaves a value)."""
        src, dst = self._path(staged), self._path(key)

        def move() -> None:
            if not src.exists():
                if dst.exists():
                    return  # adopted already
                raise UsageError(f"fs blob adopt: nothing at {staged!r}")
            try:
                _fsync_path(src)
                dst.parent.mkdir(parents=True, exist_ok=True)
                os.replace(src, dst)
                if self.fsync:
                    for folder in {dst.parent, src.parent}:
                        _fsync_path(folder)
            except OSError as e:
                raise DeterminateError(f"fs blob adopt {staged!r} as {key!r}: {e}") from e

        await asyncio.to_thread(move)
