"""labkit.share.bundle_zip: a bundle's zip checked whole (names, methods, sizes) before reading.

The limits are the module's documented ones, written out here as numbers: 10 000 entries,
256 MiB per entry (268 435 456 bytes), 16 MiB for ``manifest.json`` (16 777 216 bytes), 1 GiB
together (1 073 741 824 bytes). The zips are small: a declared (uncompressed) size is patched
into the central directory, which is all the constructor reads, so a multi-megabyte claim costs
nothing. Messages are the whole one-line error, file name first.
"""

from __future__ import annotations

import io
import struct
import zipfile
import zlib
from pathlib import Path

import pytest

from labkit.share import bundle_zip
from labkit.share.bundle import BundleError
from labkit.share.bundle_zip import BundleZip, check_manifest, safe_name

MIB = 1024 * 1024
ENTRY_LIMIT = 268_435_456  # 256 MiB
MANIFEST_LIMIT = 16_777_216  # 16 MiB
TOTAL_LIMIT = 1_073_741_824  # 1 GiB
ENTRIES_LIMIT = 10_000


def make_zip(entries, method=zipfile.ZIP_STORED) -> bytes:
    """A zip of ``(name, data)`` pairs, each written under ``method``."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for name, data in entries:
            info = zipfile.ZipInfo(name, date_time=(2000, 1, 1, 0, 0, 0))
            info.compress_type = method
            zf.writestr(info, data)
    return buf.getvalue()


def patch_central(data: bytes, name: str, *, size=None, crc=None, flag=None) -> bytes:
    """``data`` with ``name``'s central-directory record given another size, CRC or flag bits."""
    out = bytearray(data)
    start, hits = 0, 0
    while (start := out.find(b"PK\x01\x02", start)) >= 0:
        (n,) = struct.unpack_from("<H", out, start + 28)
        if out[start + 46 : start + 46 + n] == name.encode():
            hits += 1
            if flag is not None:
                struct.pack_into("<H", out, start + 8, flag)
            if crc is not None:
                struct.pack_into("<I", out, start + 16, crc)
            if size is not None:
                struct.pack_into("<I", out, start + 24, size)
        start += 4
    assert hits == 1, hits
    return bytes(out)


def open_zip(tmp_path: Path, data: bytes) -> BundleZip:
    path = tmp_path / "b.zip"
    path.write_bytes(data)
    return BundleZip(path, "b.zip")


def refusal(tmp_path: Path, data: bytes) -> str:
    with pytest.raises(BundleError) as err:
        open_zip(tmp_path, data)
    return str(err.value)


def test_the_documented_limits():
    assert (bundle_zip.MAX_ENTRIES, bundle_zip.MAX_ENTRY_BYTES) == (ENTRIES_LIMIT, ENTRY_LIMIT)
    assert (bundle_zip.MAX_MANIFEST_BYTES, bundle_zip.MAX_TOTAL_BYTES) == (
        MANIFEST_LIMIT,
        TOTAL_LIMIT,
    )


# --- sizes, from the declared (central directory) sizes, before any byte is read ----------


def test_an_entry_declaring_exactly_the_entry_limit_is_accepted(tmp_path):
    data = patch_central(make_zip([("data/big", b"abc")]), "data/big", size=268_435_456)
    with open_zip(tmp_path, data) as bz:
        assert bz.entries["data/big"].file_size == 268_435_456


def test_an_entry_declaring_one_byte_over_the_entry_limit_is_refused(tmp_path):
    data = patch_central(make_zip([("data/big", b"abc")]), "data/big", size=268_435_457)
    assert refusal(tmp_path, data) == (
        "b.zip: entry 'data/big' declares 268435457 bytes, over the limit of 268435456"
    )


def test_the_manifest_has_its_own_smaller_limit(tmp_path):
    at = patch_central(make_zip([("manifest.json", b"{}")]), "manifest.json", size=16_777_216)
    with open_zip(tmp_path, at) as bz:
        assert bz.entries["manifest.json"].file_size == 16_777_216
    over = patch_central(make_zip([("manifest.json", b"{}")]), "manifest.json", size=16_777_217)
    assert refusal(tmp_path, over) == (
        "b.zip: entry 'manifest.json' declares 16777217 bytes, over the limit of 16777216"
    )


def test_the_manifest_limit_follows_the_normalised_name(tmp_path):
    data = patch_central(make_zip([("./manifest.json", b"{}")]), "./manifest.json",
                         size=16_777_217)  # fmt: skip
    assert refusal(tmp_path, data) == (
        "b.zip: entry 'manifest.json' declares 16777217 bytes, over the limit of 16777216"
    )


def test_a_data_entry_over_the_manifest_limit_is_within_its_own(tmp_path):
    data = patch_central(make_zip([("manifest.json.bak", b"{}")]), "manifest.json.bak",
                         size=16_777_217)  # fmt: skip
    with open_zip(tmp_path, data) as bz:
        assert bz.entries["manifest.json.bak"].file_size == 16_777_217


def _four_full_entries(extra: int | None) -> bytes:
    names = [f"data/{i}" for i in range(4)] + (["data/extra"] if extra is not None else [])
    data = make_zip([(n, b"x") for n in names])
    for n in names[:4]:
        data = patch_central(data, n, size=268_435_456)  # 4 x 256 MiB = 1 GiB
    if extra is not None:
        data = patch_central(data, "data/extra", size=extra)
    return data


def test_entries_declaring_exactly_the_total_limit_are_accepted(tmp_path):
    with open_zip(tmp_path, _four_full_entries(None)) as bz:
        assert sum(i.file_size for i in bz.entries.values()) == 1_073_741_824
    with open_zip(tmp_path, _four_full_entries(0)) as bz:
        assert len(bz.entries) == 5


def test_entries_declaring_one_byte_over_the_total_are_refused(tmp_path):
    assert refusal(tmp_path, _four_full_entries(1)) == (
        "b.zip: entries declare 1073741825 bytes together, over the limit of 1073741824"
    )


def test_exactly_the_entry_count_limit_is_accepted_one_more_refused(tmp_path):
    names = [f"d/{i}" for i in range(10_000)]
    with open_zip(tmp_path, make_zip([(n, b"") for n in names])) as bz:
        assert len(bz.entries) == 10_000
    data = make_zip([(n, b"") for n in [*names, "d/last"]])
    assert refusal(tmp_path, data) == "b.zip: 10001 entries, over the limit of 10000"


# --- names ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "normal"),
    [("data/./levels/a.json", "data/levels/a.json"), ("data//x", "data/x"), ("a", "a"),
     ("notebook/n.ipynb", "notebook/n.ipynb"), ("data/", "data"), ("x..y/..z", "x..y/..z")],
)  # fmt: skip
def test_safe_names_are_normalised(name, normal):
    assert safe_name(name) == normal


@pytest.mark.parametrize(
    "name",
    ["/etc/passwd", "../x", "a/../../x", "a/../b", "..", ".", "", "a\\b", "..\\x", "a\x01b",
     "a\x1fb", "a\nb", "\tx"],
)  # fmt: skip
def test_unsafe_names_are_refused_naming_the_name(name):
    with pytest.raises(BundleError) as err:
        safe_name(name)
    assert str(err.value) == f"unsafe path inside the bundle (got {name!r})"


def test_a_name_that_is_not_a_string_is_refused():
    with pytest.raises(BundleError) as err:
        safe_name(3)  # type: ignore[arg-type]
    assert str(err.value) == "unsafe path inside the bundle (got 3)"


@pytest.mark.parametrize("name", ["/tmp/evil", "../evil", "data/../../evil", "a\\b", "a\x02b"])
def test_an_unsafe_entry_name_refuses_the_zip_naming_file_and_entry(tmp_path, name):
    data = make_zip([("manifest.json", b"{}"), (name, b"x")])
    assert refusal(tmp_path, data) == f"b.zip: unsafe path inside the bundle (got {name!r})"


@pytest.mark.parametrize(
    ("first", "second", "shown"),
    [("manifest.json", "manifest.json", "manifest.json"), ("data/x", "data/./x", "data/x"),
     ("data/x", "data//x", "data/x"), ("data/x", "./data/x", "data/x")],
)  # fmt: skip
@pytest.mark.filterwarnings("ignore:Duplicate name")  # zipfile's own, when writing the zip
def test_two_entries_of_one_normalised_name_are_refused(tmp_path, first, second, shown):
    data = make_zip([(first, b"1"), (second, b"2")])
    assert refusal(tmp_path, data) == f"b.zip: entry {shown!r} appears twice in the bundle"


# --- methods and flags ---------------------------------------------------------------------


def test_an_encrypted_entry_is_refused(tmp_path):
    data = patch_central(make_zip([("data/x", b"secret")]), "data/x", flag=0x1)
    assert refusal(tmp_path, data) == "b.zip: entry 'data/x' is encrypted (not supported)"


def test_other_flag_bits_are_not_taken_for_encryption(tmp_path):
    data = patch_central(make_zip([("data/x", b"plain")]), "data/x", flag=0x800)  # UTF-8 names
    with open_zip(tmp_path, data) as bz:
        assert bz.read("data/x") == b"plain"


@pytest.mark.parametrize(("method", "number"), [(zipfile.ZIP_BZIP2, 12), (zipfile.ZIP_LZMA, 14)])
def test_compression_other_than_stored_and_deflate_is_refused(tmp_path, method, number):
    data = make_zip([("data/x", b"payload")], method)
    assert refusal(tmp_path, data) == (
        f"b.zip: entry 'data/x' uses compression method {number} (only stored and deflate)"
    )


@pytest.mark.parametrize("method", [zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED])
def test_stored_and_deflated_entries_read_back_whole(tmp_path, method):
    body = bytes(range(256)) * 8192 + b"tail"  # 2 MiB + 4: more than one read chunk
    data = make_zip([("manifest.json", b"{}"), ("data/x", body), ("data/empty", b"")], method)
    with open_zip(tmp_path, data) as bz:
        assert sorted(bz.entries) == ["data/empty", "data/x", "manifest.json"]
        assert bz.read("data/x") == body
        assert bz.read("data/empty") == b""
        assert bz.read("manifest.json") == b"{}"


# --- reading: bounded, damaged data refused --------------------------------------------------


def test_a_missing_entry_is_named(tmp_path):
    with open_zip(tmp_path, make_zip([("data/x", b"1")])) as bz, pytest.raises(BundleError) as e:
        bz.read("data/y")
    assert str(e.value) == "b.zip: entry 'data/y' is missing from the bundle"


def test_a_bad_crc_is_refused_on_read(tmp_path):
    data = bytearray(make_zip([("data/x", b"hello world")]))
    data[data.index(b"hello world")] ^= 0x20  # the bytes change, the recorded CRC-32 does not
    with open_zip(tmp_path, bytes(data)) as bz, pytest.raises(BundleError) as err:
        bz.read("data/x")
    assert str(err.value).startswith("b.zip: entry 'data/x' cannot be read: Bad CRC-32")


def test_damaged_deflate_data_is_refused_on_read(tmp_path):
    body = b"abcdefgh" * 1000
    data = bytearray(make_zip([("data/x", body)], zipfile.ZIP_DEFLATED))
    comp = zlib.compressobj(zlib.Z_DEFAULT_COMPRESSION, zlib.DEFLATED, -15)
    raw = comp.compress(body) + comp.flush()
    at = data.index(raw)
    data[at : at + 4] = b"\xff\xff\xff\xff"  # an invalid block type
    with open_zip(tmp_path, bytes(data)) as bz, pytest.raises(BundleError) as err:
        bz.read("data/x")
    assert str(err.value).startswith("b.zip: entry 'data/x' cannot be read: ")


def test_a_header_declaring_fewer_bytes_than_stored_stops_the_stream_there(tmp_path):
    # the CRC matches the first 5 bytes, so only the declared size can stop the read
    data = make_zip([("data/x", b"hello world")])
    data = patch_central(data, "data/x", size=5, crc=zlib.crc32(b"hello"))
    with open_zip(tmp_path, data) as bz:
        assert bz.read("data/x") == b"hello"


def test_a_header_declaring_fewer_bytes_with_the_whole_crc_is_refused(tmp_path):
    data = patch_central(make_zip([("data/x", b"hello world")]), "data/x", size=5)
    with open_zip(tmp_path, data) as bz, pytest.raises(BundleError) as err:
        bz.read("data/x")
    assert str(err.value).startswith("b.zip: entry 'data/x' cannot be read: Bad CRC-32")


class EndlessStream:
    """A decompressed stream that always has more: what a zip bomb looks like to ``read``."""

    def __init__(self, total: int | None = None) -> None:
        self.total, self.given, self.asks = total, 0, []

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def read(self, n=-1):
        self.asks.append(n)
        assert n is not None and n > 0, f"unbounded read({n})"
        assert len(self.asks) < 50, "read on past the declared size"
        if self.total is not None:
            n = min(n, self.total - self.given)
        self.given += n
        return b"z" * n


def test_a_stream_longer_than_declared_is_refused_within_one_chunk(tmp_path, monkeypatch):
    with open_zip(tmp_path, make_zip([("data/x", b"0123456789")])) as bz:
        stream = EndlessStream()
        monkeypatch.setattr(bz._zf, "open", lambda info: stream)
        with pytest.raises(BundleError) as err:
            bz.read("data/x")
    assert str(err.value) == "b.zip: entry 'data/x' holds more than its declared 10 bytes"
    assert stream.asks == [MIB]  # one chunk of 1 MiB already passes 10 bytes


def test_a_stream_of_exactly_the_declared_size_is_read(tmp_path, monkeypatch):
    body = b"q" * (3 * MIB + 7)
    with open_zip(tmp_path, make_zip([("data/x", body)])) as bz:
        stream = EndlessStream(total=len(body))
        monkeypatch.setattr(bz._zf, "open", lambda info: stream)
        assert bz.read("data/x") == b"z" * len(body)
    assert stream.asks == [MIB] * 5  # 3 full chunks, the 7-byte rest, the empty end


# --- the file as a whole ---------------------------------------------------------------------


@pytest.mark.parametrize("content", [b"", b"PK\x03\x04 not really", b"just text"])
def test_a_file_that_is_not_a_zip_is_one_line(tmp_path, content):
    message = refusal(tmp_path, content)
    assert message.startswith("b.zip: not a readable bundle: ") and "\n" not in message


def test_a_file_object_is_read_too_and_closed_on_exit():
    with BundleZip(io.BytesIO(make_zip([("data/x", b"1")])), "mem.zip") as bz:
        assert bz.read("data/x") == b"1"
        assert bz.file == "mem.zip"
    assert bz._zf.fp is None


# --- the manifest, key by key ----------------------------------------------------------------

SHA = "ab" * 32


def _doc(**file):
    entry = {"path": "data/x", "sha256": SHA, "bytes": 1, "external": False, **file}
    return {"notebook": "notebook/n.ipynb", "files": [entry], "packages": {"numpy": "2.0"}}


def test_a_packed_file_of_exactly_the_entry_limit_is_accepted():
    doc = _doc(bytes=268_435_456)
    assert check_manifest(doc, {}, "m") is doc


@pytest.mark.parametrize(
    ("change", "message"),
    [({"bytes": 268_435_457}, "m: /files/0/bytes: must be between 0 and 268435456 (got 268435457)"),
     ({"bytes": -1}, "m: /files/0/bytes: must be between 0 and 268435456 (got -1)"),
     ({"bytes": True}, "m: /files/0/bytes: must be int (got True)"),
     ({"sha256": SHA.upper()}, f"m: /files/0/sha256: must be 64 lowercase hex digits (got "
                                f"{SHA.upper()!r})"),
     ({"sha256": SHA + "0"}, f"m: /files/0/sha256: must be 64 lowercase hex digits (got "
                             f"{SHA + '0'!r})"),
     ({"external": 1}, "m: /files/0/external: must be true/false (got 1)"),
     ({"path": "a/../../x"}, "m: /files/0/path: unsafe path inside the bundle (got 'a/../../x')")],
)  # fmt: skip
def test_a_bad_packed_file_entry_names_its_pointer(change, message):
    with pytest.raises(BundleError) as err:
        check_manifest(_doc(**change), {}, "m")
    assert str(err.value) == message


def test_an_external_path_is_not_checked_as_a_bundle_path():
    doc = _doc(path="/home/someone/data.json", external=True)
    assert check_manifest(doc, {}, "m") is doc


def test_the_manifest_entry_is_read_and_checked(tmp_path):
    import json

    doc = {"format": "labkit.bundle", "version": 1, **_doc()}
    with open_zip(tmp_path, make_zip([("manifest.json", json.dumps(doc).encode())])) as bz:
        assert bz.manifest() == doc
    bad = {**doc, "format": "other"}
    with open_zip(tmp_path, make_zip([("manifest.json", json.dumps(bad).encode())])) as bz:
        with pytest.raises(BundleError) as err:
            bz.manifest()
    assert str(err.value).startswith("b.zip:manifest.json: ")
