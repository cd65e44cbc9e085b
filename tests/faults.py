"""Fault injection shared by the tests of atomic saves."""

from __future__ import annotations

import builtins
import errno
import io


class DiskFull:
    """Patches ``io.open``/``open``: files opened for writing accept ``budget`` characters, then
    raise ENOSPC, having written what fitted (a real half-written file)."""

    def __init__(self, monkeypatch, budget=16):
        self.budget = budget
        self.tripped = 0
        real = io.open

        def fake_open(file, mode="r", *args, **kwargs):
            fh = real(file, mode, *args, **kwargs)
            if any(m in mode for m in "wax+"):
                return _Failing(fh, self)
            return fh

        monkeypatch.setattr(io, "open", fake_open)
        monkeypatch.setattr(builtins, "open", fake_open)


class _Failing:
    def __init__(self, fh, fault):
        self._fh, self._fault = fh, fault

    def write(self, data):
        room = self._fault.budget
        if len(data) <= room:
            self._fault.budget -= len(data)
            return self._fh.write(data)
        self._fh.write(data[:room])
        self._fh.flush()
        self._fault.budget = 0
        self._fault.tripped += 1
        raise OSError(errno.ENOSPC, "No space left on device (injected)")

    def writelines(self, lines):
        for line in lines:
            self.write(line)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self._fh.close()
        return False

    def __iter__(self):
        return iter(self._fh)

    def __getattr__(self, name):
        return getattr(self._fh, name)
