"""The numba cache cannot be turned against the user (issue 46.1, rule W5).

numba's cache index and entries are pickles: a file planted in a cache folder someone else can
write would run its payload when a kernel loads. Each case runs a fresh interpreter that
compiles one tiny kernel through :func:`labkit._jit.kernel` (a second or two, not a warm-up).
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from pathlib import Path

import numba
import pytest

from labkit import _jit

KERNEL = """
from labkit._jit import kernel

@kernel
def twice(x):
    return 2 * x
"""


class _Payload:
    """Unpickling this writes ``marker``: what a crafted index would do."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return (exec, (f"open({str(self.marker)!r}, 'w').write('ran')",))


def _run(
    tmp: Path, cache: Path, call: str = "print(kmod.twice(21))"
) -> subprocess.CompletedProcess:
    (tmp / "kmod.py").write_text(KERNEL)
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache), "XDG_CACHE_HOME": str(tmp / "home"),
           "HOME": str(tmp / "home")}  # fmt: skip
    code = f"import sys; sys.path.insert(0, {str(tmp)!r}); import kmod; {call}"
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                          cwd=tmp, timeout=120)  # fmt: skip


def _plant(cache: Path, marker: Path) -> list[Path]:
    """Replace every index under ``cache`` by one whose unpickling writes ``marker``."""
    planted = sorted(cache.rglob("*.nbi"))
    assert planted, "the first run wrote no cache index"
    for index in planted:
        index.write_bytes(pickle.dumps(numba.__version__) + pickle.dumps(_Payload(marker)))
    return planted


def _private_cache(tmp: Path) -> Path:
    cache = tmp / "cache"
    first = _run(tmp, cache)
    assert first.returncode == 0 and first.stdout.strip() == "42", first.stderr
    assert not first.stderr.strip(), first.stderr
    return cache


def test_a_cache_folder_others_can_write_is_refused_in_one_line(tmp_path):
    cache = _private_cache(tmp_path)
    marker = tmp_path / "payload-ran"
    _plant(cache, marker)
    os.chmod(cache, 0o777)  # a shared folder: anyone could have planted the index
    out = _run(tmp_path, cache)
    assert out.returncode == 0 and out.stdout.strip() == "42", out.stderr
    assert not marker.exists(), "a planted cache index ran its payload"
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1, out.stderr
    assert f"NUMBA_CACHE_DIR='{cache}' is writable by others (mode 0o777)" in lines[0], lines


def test_an_index_file_others_can_write_is_never_unpickled(tmp_path):
    cache = _private_cache(tmp_path)
    marker = tmp_path / "payload-ran"
    for index in _plant(cache, marker):
        os.chmod(index, 0o666)
    out = _run(tmp_path, cache)
    assert out.returncode == 0 and out.stdout.strip() == "42", out.stderr
    assert not marker.exists(), "a group/other-writable cache index was unpickled"
    assert not out.stderr.strip(), out.stderr


@pytest.mark.parametrize("damage", ["truncated index", "garbage index", "garbage entry",
                                    "empty entry"])  # fmt: skip
def test_a_corrupt_cache_entry_is_recompiled(tmp_path, damage):
    cache = _private_cache(tmp_path)
    suffix = ".nbi" if "index" in damage else ".nbc"
    files = sorted(cache.rglob(f"*{suffix}"))
    assert files
    for f in files:
        if damage == "truncated index":
            f.write_bytes(f.read_bytes()[:20])
        elif damage == "empty entry":
            f.write_bytes(b"")
        else:
            f.write_bytes(b"\x80\x05garbage" * 7)
    out = _run(tmp_path, cache)
    assert out.returncode == 0 and out.stdout.strip() == "42", out.stderr
    assert not out.stderr.strip(), out.stderr
    # the recompiled kernel was saved again: a readable index of this numba
    for index in cache.rglob("*.nbi"):
        with open(index, "rb") as fh:
            assert pickle.load(fh) == numba.__version__
            pickle.load(fh)


def test_a_cache_file_of_another_owner_is_not_read(tmp_path, monkeypatch):
    own = tmp_path / "own.nbi"
    own.write_bytes(b"data")
    assert _jit._read_own_file(str(own)) == b"data"
    link = tmp_path / "link.nbi"
    link.symlink_to(own)
    assert _jit._read_own_file(str(link)) is None  # never through a link
    assert _jit._read_own_file(str(tmp_path)) is None  # not a regular file
    monkeypatch.setattr(os, "geteuid", lambda: os.stat(own).st_uid + 1)
    assert _jit._read_own_file(str(own)) is None


def test_untrusted_reason_names_owner_mode_and_parents(tmp_path):
    private = tmp_path / "p"
    private.mkdir(mode=0o700)
    assert _jit.untrusted_reason(private) is None
    uid = os.stat(private).st_uid
    assert _jit.untrusted_reason(private, uid=uid + 1) == f"is owned by uid {uid}, not {uid + 1}"
    shared = tmp_path / "shared"
    shared.mkdir()
    os.chmod(shared, 0o777)  # no sticky bit: anyone can rename the folder below and replace it
    inner = shared / "cache"
    inner.mkdir(mode=0o700)
    assert _jit.untrusted_reason(inner) == f"has a parent writable by others ({shared}, mode 0o777)"
    os.chmod(shared, 0o1777)  # like /tmp
    assert _jit.untrusted_reason(inner) is None
    assert _jit.untrusted_reason(tmp_path / "missing").startswith("cannot be read")


def test_a_cache_file_over_the_size_limit_is_not_read(tmp_path, monkeypatch):
    entry = tmp_path / "big.nbc"
    entry.write_bytes(b"x" * 65)
    monkeypatch.setattr(_jit, "MAX_CACHE_FILE", 64)
    assert _jit._read_own_file(str(entry)) is None
    monkeypatch.setattr(_jit, "MAX_CACHE_FILE", 65)
    assert _jit._read_own_file(str(entry)) == b"x" * 65


def test_entries_this_user_wrote_are_loaded_not_recompiled(tmp_path):
    """The checks keep the cache working: a second run loads each signature it compiled."""
    cache = _private_cache(tmp_path)  # compiled twice(int)
    hits = "print(kmod.twice(21), kmod.twice(1.5), dict(kmod.twice.stats.cache_hits))"
    second = _run(tmp_path, cache, hits)  # int from the cache, float compiled and saved
    assert second.returncode == 0, second.stderr
    assert second.stdout.split()[:2] == ["42", "3.0"] and "(int64,): 1" in second.stdout
    third = _run(tmp_path, cache, hits)  # both signatures from the cache now
    assert "(int64,): 1" in third.stdout and "(float64,): 1" in third.stdout, third.stdout
