"""The rules of labkit.io pinned word for word and at their boundaries (fast; run per mutant).

Expected values are worked by hand from the docstrings and SPEC: sizes and limits counted in
bytes, line/column positions counted in the test text, digests of fixed strings that are
well known (SHA-256 of ``abc``), modes worked from the umask. The heavy hostile-input and fuzz
suites cover the same rules with many inputs; these tests are what ``make mutate`` runs.
"""

from __future__ import annotations

import errno
import json
import os
import socket
import stat

import pytest

from labkit import LabkitError
from labkit import io as lio

SHA_ABC = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"


class OwnError(LabkitError):
    """A format's own error class, to check that it is passed through."""


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch):
    monkeypatch.delenv(lio.MAX_BYTES_ENV, raising=False)
    monkeypatch.delenv(lio.READ_LOG_ENV, raising=False)


# --- constants -----------------------------------------------------------------------------------


def test_limits_and_variable_names():
    assert lio.DEFAULT_MAX_BYTES == 67_108_864  # 64 MiB
    assert lio.MAX_DEPTH == 64
    assert lio.MAX_BYTES_ENV == "LABKIT_MAX_BYTES"
    assert lio.READ_LOG_ENV == "LABKIT_READ_LOG"


# --- record_read ---------------------------------------------------------------------------------


def test_record_read_appends_one_json_line_per_read(tmp_path, monkeypatch):
    data = tmp_path / "d.txt"
    data.write_bytes(b"abc")
    log = tmp_path / "reads.jsonl"
    monkeypatch.setenv(lio.READ_LOG_ENV, str(log))
    lio.record_read(data)
    lio.record_read(str(data))
    text = log.read_text(encoding="utf-8")
    line = json.dumps({"path": str(data.resolve()), "sha256": SHA_ABC}) + "\n"
    assert text == line + line


def test_record_read_logs_the_resolved_path(tmp_path, monkeypatch):
    (tmp_path / "real.txt").write_bytes(b"abc")
    (tmp_path / "link.txt").symlink_to(tmp_path / "real.txt")
    log = tmp_path / "reads.jsonl"
    monkeypatch.setenv(lio.READ_LOG_ENV, str(log))
    monkeypatch.chdir(tmp_path)
    lio.record_read("link.txt")
    assert json.loads(log.read_text())["path"] == str((tmp_path / "real.txt").resolve())


def test_record_read_keeps_earlier_lines_of_the_log(tmp_path, monkeypatch):
    (tmp_path / "d.txt").write_bytes(b"abc")
    log = tmp_path / "reads.jsonl"
    log.write_text("earlier\n")
    monkeypatch.setenv(lio.READ_LOG_ENV, str(log))
    lio.record_read(tmp_path / "d.txt")
    assert log.read_text().splitlines()[0] == "earlier"
    assert json.loads(log.read_text().splitlines()[1])["sha256"] == SHA_ABC


def test_record_read_does_nothing_without_the_variable_or_with_it_empty(tmp_path, monkeypatch):
    (tmp_path / "d.txt").write_bytes(b"abc")
    monkeypatch.chdir(tmp_path)
    lio.record_read(tmp_path / "d.txt")  # unset: must not raise, must not write
    monkeypatch.setenv(lio.READ_LOG_ENV, "")
    lio.record_read(tmp_path / "d.txt")  # empty: open("") would raise
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d.txt"]


def test_record_read_skips_an_unreadable_file_quietly(tmp_path, monkeypatch):
    log = tmp_path / "reads.jsonl"
    monkeypatch.setenv(lio.READ_LOG_ENV, str(log))
    lio.record_read(tmp_path / "missing.json")
    assert not log.exists()


def test_load_json_records_the_file_it_read(tmp_path, monkeypatch):
    p = tmp_path / "a.json"
    p.write_bytes(b"{}")
    log = tmp_path / "reads.jsonl"
    monkeypatch.setenv(lio.READ_LOG_ENV, str(log))
    assert lio.load_json(p) == {}
    row = json.loads(log.read_text())
    # SHA-256 of the two bytes "{}" (as in the module's docstring)
    assert row == {"path": str(p.resolve()), "sha256": row["sha256"]}
    assert row["sha256"].startswith("44136fa355b3")


# --- the size limit ------------------------------------------------------------------------------


def _file(tmp_path, size, name="f.bin"):
    p = tmp_path / name
    p.write_bytes(b"x" * size)
    return p


def test_a_file_of_exactly_the_limit_is_read_whole_and_one_more_byte_is_refused(tmp_path):
    assert lio.read_bytes(_file(tmp_path, 10), max_bytes=10) == b"x" * 10
    p = _file(tmp_path, 11, "g.bin")
    with pytest.raises(lio.FormatError) as info:
        lio.read_bytes(p, max_bytes=10)
    assert str(info.value) == (
        f"{p}: file is 11 bytes, over this format's limit of 10 (set LABKIT_MAX_BYTES to raise it)"
    )
    assert info.value.file == str(p)


def test_an_empty_file_is_read_under_a_limit_of_zero(tmp_path):
    assert lio.read_bytes(_file(tmp_path, 0), max_bytes=0) == b""
    with pytest.raises(lio.FormatError, match="file is 1 bytes, over this format's limit of 0"):
        lio.read_bytes(_file(tmp_path, 1, "g.bin"), max_bytes=0)


def test_the_default_limit_is_64_mib(tmp_path):
    p = tmp_path / "big.bin"
    with open(p, "wb") as fh:  # sparse: no 64 MiB written
        fh.truncate(67_108_865)
    with pytest.raises(lio.FormatError) as info:
        lio.read_bytes(p)
    assert "file is 67108865 bytes, over this format's limit of 67108864 " in str(info.value)


def test_the_environment_variable_overrides_the_formats_limit(tmp_path, monkeypatch):
    monkeypatch.setenv("LABKIT_MAX_BYTES", "5")
    assert lio.read_bytes(_file(tmp_path, 5), max_bytes=1000) == b"xxxxx"
    with pytest.raises(lio.FormatError, match="file is 6 bytes, over this format's limit of 5 "):
        lio.read_bytes(_file(tmp_path, 6, "g.bin"), max_bytes=1000)
    monkeypatch.setenv("LABKIT_MAX_BYTES", "7")
    assert lio.read_bytes(_file(tmp_path, 6, "g.bin")) == b"x" * 6  # also over the default


def test_a_negative_override_means_zero_bytes(tmp_path, monkeypatch):
    monkeypatch.setenv("LABKIT_MAX_BYTES", "-5")
    assert lio.read_bytes(_file(tmp_path, 0)) == b""
    with pytest.raises(lio.FormatError, match="file is 1 bytes, over this format's limit of 0 "):
        lio.read_bytes(_file(tmp_path, 1, "g.bin"))


def test_an_empty_override_is_no_override(tmp_path, monkeypatch):
    monkeypatch.setenv("LABKIT_MAX_BYTES", "")
    with pytest.raises(lio.FormatError, match="limit of 3 "):
        lio.read_bytes(_file(tmp_path, 4), max_bytes=3)


def test_a_bad_override_is_named_with_its_value(tmp_path, monkeypatch):
    monkeypatch.setenv("LABKIT_MAX_BYTES", "lots")
    with pytest.raises(lio.FormatError) as info:
        lio.read_bytes(_file(tmp_path, 1), error=OwnError)
    assert (
        str(info.value)
        == "environment variable LABKIT_MAX_BYTES must be a number of bytes (got 'lots')"
    )
    assert info.value.value == "lots"
    assert info.value.__cause__ is None and info.value.__suppress_context__


def test_a_file_that_grows_past_its_stat_size_is_caught_by_the_read(tmp_path):
    # /proc files report size 0 but have content: the read itself must enforce the limit
    with pytest.raises(OwnError) as info:
        lio.read_bytes("/proc/self/status", max_bytes=10, error=OwnError)
    assert str(info.value) == "/proc/self/status: file is over this format's limit of 10 bytes"
    assert lio.read_bytes("/proc/self/status", max_bytes=100_000).startswith(b"Name:")


# --- read_bytes: what is refused, and how --------------------------------------------------------


def test_a_missing_file_is_named(tmp_path):
    p = tmp_path / "nope.json"
    with pytest.raises(OwnError) as info:
        lio.read_bytes(p, error=OwnError)
    assert str(info.value) == f"{p}: file not found"
    assert info.value.__suppress_context__


def test_an_unstatable_path_gives_the_system_reason(tmp_path):
    long = tmp_path / ("n" * 300)
    with pytest.raises(OwnError) as info:
        lio.read_bytes(long, error=OwnError)
    assert info.value.file == str(long)
    assert info.value.message == "cannot read file: File name too long"
    assert info.value.__suppress_context__
    with pytest.raises(OwnError) as info:
        lio.read_bytes("a\0b", error=OwnError)
    assert str(info.value) == "a\0b: cannot read file: embedded null byte"


@pytest.mark.parametrize(
    ("mode", "kind"),
    [
        (stat.S_IFREG | 0o644, None),
        (stat.S_IFDIR | 0o755, "a directory"),
        (stat.S_IFIFO | 0o644, "a FIFO"),
        (stat.S_IFCHR | 0o666, "a character device"),
        (stat.S_IFBLK | 0o660, "a block device"),
        (stat.S_IFSOCK | 0o755, "a socket"),
        (0o644, "not a regular file"),
    ],
)
def test_file_kinds_in_words(mode, kind):
    assert lio._file_kind(mode) == kind


def test_a_folder_fifo_device_and_socket_are_refused_before_opening(tmp_path, monkeypatch):
    opened = []
    real_open = os.open
    monkeypatch.setattr(
        os, "open", lambda path, *a, **k: (opened.append(path), real_open(path, *a, **k))[1]
    )
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    sock_path = tmp_path / "s.sock"
    sock = socket.socket(socket.AF_UNIX)
    try:
        sock.bind(str(sock_path))
        for path, kind in [
            (tmp_path, "a directory"),
            (fifo, "a FIFO"),  # opening it without O_NONBLOCK would block forever
            ("/dev/null", "a character device"),
            (sock_path, "a socket"),
        ]:
            with pytest.raises(OwnError) as info:
                lio.read_bytes(path, error=OwnError)
            assert str(info.value) == f"{path}: not a regular file ({kind})"
    finally:
        sock.close()
    assert opened == []


def test_the_file_is_opened_read_only_and_non_blocking(tmp_path, monkeypatch):
    seen = []
    real_open = os.open

    def spy(path, flags, *args, **kwargs):
        seen.append(flags)
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", spy)
    assert lio.read_bytes(_file(tmp_path, 3)) == b"xxx"
    assert seen == [os.O_RDONLY | os.O_NONBLOCK]


def _open_fds():
    return set(os.listdir("/proc/self/fd"))


def test_a_file_swapped_for_a_fifo_after_stat_is_refused_and_closed(tmp_path, monkeypatch):
    p = _file(tmp_path, 3)
    real_stat, real_open = os.stat, os.open

    def stat_then_swap(path, *args, **kwargs):
        st = real_stat(path, *args, **kwargs)
        if str(path) == str(p):
            p.unlink()
            os.mkfifo(p)
        return st

    def open_nonblocking(path, flags, *args, **kwargs):
        # without O_NONBLOCK opening the FIFO would hang the test instead of failing it
        assert flags & os.O_NONBLOCK
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "stat", stat_then_swap)
    monkeypatch.setattr(os, "open", open_nonblocking)
    before = _open_fds()
    stdout = os.fstat(1)
    with pytest.raises(OwnError) as info:
        lio.read_bytes(p, error=OwnError)
    monkeypatch.undo()
    assert str(info.value) == f"{p}: not a regular file (a FIFO)"
    assert _open_fds() == before  # the descriptor was closed
    assert os.fstat(1).st_ino == stdout.st_ino


def test_reading_a_regular_file_leaves_no_descriptor_open(tmp_path):
    p = _file(tmp_path, 3)
    before = _open_fds()
    stdout = os.fstat(1)
    assert lio.read_bytes(p) == b"xxx"
    assert _open_fds() == before
    assert os.fstat(1).st_ino == stdout.st_ino


def test_a_file_that_cannot_be_opened_gives_the_system_reason(tmp_path, monkeypatch):
    p = _file(tmp_path, 3)

    def refuse(path, flags, *args, **kwargs):
        raise PermissionError(errno.EACCES, "Permission denied", str(path))

    monkeypatch.setattr(os, "open", refuse)
    with pytest.raises(OwnError) as info:
        lio.read_bytes(p, error=OwnError)
    assert str(info.value) == f"{p}: cannot read file: Permission denied"
    assert info.value.__suppress_context__


def test_a_read_error_gives_the_system_reason():
    # /proc/self/mem is a regular file of size 0 whose first page cannot be read
    with pytest.raises(OwnError) as info:
        lio.read_bytes("/proc/self/mem", error=OwnError)
    assert str(info.value) == "/proc/self/mem: cannot read file: Input/output error"
    assert info.value.__suppress_context__


def test_os_reason_is_the_strerror_or_else_the_text():
    assert lio._os_reason(OSError(errno.ENOENT, "No such file or directory")) == (
        "No such file or directory"
    )
    assert lio._os_reason(ValueError("embedded null byte")) == "embedded null byte"
    assert lio._os_reason(OSError("plain")) == "plain"


def test_read_text_strips_the_bom_and_names_the_file_of_a_bad_byte(tmp_path):
    p = tmp_path / "t.csv"
    p.write_bytes(b"\xef\xbb\xbfa\nb\xff")
    with pytest.raises(OwnError) as info:
        lio.read_text(p, error=OwnError)
    assert str(info.value) == f"{p}: not UTF-8 text: byte 0xff at line 2 column 2"
    p.write_bytes(b"\xef\xbb\xbfa\nb")
    assert lio.read_text(p) == "a\nb"
    with pytest.raises(OwnError, match="limit of 3 "):
        lio.read_text(p, max_bytes=3, error=OwnError)


# --- decode_text ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "where"),
    [
        (b"\xff", "byte 0xff at line 1 column 1"),
        (b"ab\x80", "byte 0x80 at line 1 column 3"),
        (b"x\nyz\n\xc3(", "byte 0xc3 at line 3 column 1"),
        (b"a\nbc\xfe", "byte 0xfe at line 2 column 3"),
        # after a byte-order mark, columns count from the first character, not the mark
        (b"\xef\xbb\xbfab\xff", "byte 0xff at line 1 column 3"),
        (b"\xef\xbb\xbf\xff", "byte 0xff at line 1 column 1"),
        (b"\xef\xbb\xbfa\nbc\xff", "byte 0xff at line 2 column 3"),
        (b"\xef\xbb\xbf\n\n\xe9", "byte 0xe9 at line 3 column 1"),
    ],
)
def test_a_bad_byte_is_named_by_line_and_column(data, where):
    with pytest.raises(OwnError) as info:
        lio.decode_text(data, file="t.txt", error=OwnError)
    assert str(info.value) == f"t.txt: not UTF-8 text: {where}"
    assert info.value.__suppress_context__


def test_decode_text_accepts_a_bom_and_plain_utf8():
    assert lio.decode_text(b"\xef\xbb\xbf\xc3\xa9") == "é"
    assert lio.decode_text(b"\xc3\xa9") == "é"
    with pytest.raises(lio.FormatError) as info:
        lio.decode_text(b"\xff")
    assert str(info.value) == "not UTF-8 text: byte 0xff at line 1 column 1"


# --- parse_json ----------------------------------------------------------------------------------


def _nested(depth):
    return "[" * depth + "]" * depth


def test_nesting_at_the_limit_is_read_and_one_deeper_is_refused():
    assert lio.parse_json(_nested(2), max_depth=2) == [[]]
    with pytest.raises(OwnError) as info:
        lio.parse_json(_nested(3), file="d.json", max_depth=2, error=OwnError)
    assert str(info.value) == "d.json: /: JSON nested 3 deep, deeper than the limit of 2"
    assert info.value.pointer == ""


def test_the_default_nesting_limit_is_64():
    assert lio.parse_json("{" + '"a":' + _nested(63) + "}")["a"] is not None
    with pytest.raises(lio.FormatError, match="JSON nested 65 deep, deeper than the limit of 64"):
        lio.parse_json(_nested(65))


@pytest.mark.parametrize(
    ("text", "depth"),
    [
        ("1", 0),
        ('"[{"', 0),
        ("[]", 1),
        ("{}", 1),
        ('{"a": [[1], "[[["]}', 3),
        ('[{"x": "\\"]]"}, [[]]]', 3),
        ("[[],[],[]]", 2),
        ("[[[]]]", 3),
        (b"[{}]", 2),
    ],
)
def test_nesting_depth_counts_brackets_outside_strings(text, depth):
    assert lio.nesting_depth(text) == depth


def test_nesting_depth_carries_the_level_across_megabyte_slices():
    # 2**20 opening brackets, then one more: the second slice starts at level 2**20
    opened = (1 << 20) + 1
    text = "[" * opened + "]" * opened
    assert lio.nesting_depth(text) == opened
    # a deep part in the first slice, then a long flat tail: the maximum is kept
    text = "[[[" + "]]]" + " " * (1 << 20) + "[]"
    assert lio.nesting_depth(text) == 3
    # 2 Mi deep: slices must not overlap (one starting at 1 Mi would count 1 Mi brackets twice)
    opened = 2 << 20
    assert lio.nesting_depth("[" * opened + "]" * opened) == opened


def test_parse_json_reads_bytes_with_a_bom_and_text_with_a_bom():
    assert lio.parse_json(b'\xef\xbb\xbf{"a": [1, 2.5, "\xc3\xa9"]}') == {"a": [1, 2.5, "é"]}
    assert lio.parse_json('\ufeff{"a": 1}') == {"a": 1}
    assert type(lio.parse_json('{"a": {"b": 1}}')["a"]) is dict
    with pytest.raises(OwnError) as info:
        lio.parse_json(b"[\xff]", file="b.json", error=OwnError)
    assert str(info.value) == "b.json: not UTF-8 text: byte 0xff at line 1 column 2"


def test_a_syntax_error_names_line_and_column():
    with pytest.raises(OwnError) as info:
        lio.parse_json('{"a": 1,\n "b": }', file="s.json", error=OwnError)
    assert str(info.value) == "s.json: not valid JSON: Expecting value at line 2 column 7"
    assert info.value.pointer is None
    assert info.value.__suppress_context__


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_non_finite_constants_are_refused(constant):
    with pytest.raises(OwnError) as info:
        lio.parse_json(f'{{"x": [{constant}]}}', file="n.json", error=OwnError)
    assert str(info.value) == (  # column 8: just after '{"x": ['
        f"n.json: not valid JSON: {constant} is not valid JSON at line 1 column 8"
    )
    assert info.value.pointer is None


def test_a_number_that_overflows_is_refused_showing_its_first_40_characters():
    with pytest.raises(OwnError) as info:
        lio.parse_json("[1e999]", error=OwnError)
    assert (
        str(info.value) == "not valid JSON: number 1e999 is too large (it overflows to infinity)"
        " at line 1 column 2"
    )
    digits = "9" * 50 + ".5e400"
    with pytest.raises(OwnError) as info:
        lio.parse_json(f"[{digits}]", error=OwnError)
    assert str(info.value) == (
        f"not valid JSON: number {'9' * 40} is too large (it overflows to infinity)"
        " at line 1 column 2"
    )
    assert lio.parse_json("[1.5e308, -2.5]") == [1.5e308, -2.5]


def test_a_parser_recursion_error_is_a_format_error():
    deep = _nested(200_000)
    with pytest.raises(OwnError) as info:
        lio.parse_json(deep, max_depth=10**6, error=OwnError)
    assert str(info.value).startswith("/: not valid JSON: maximum recursion depth exceeded")


@pytest.mark.parametrize(
    ("text", "at", "key"),
    [
        ('{"a": 1, "a": 2}', "/a", "'a'"),
        ('{"a": {"b": 1, "b": 2}}', "/a/b", "'b'"),
        ('[0, {"y": 1, "z": 2, "y": 3}]', "/1/y", "'y'"),
        # the first key seen twice, in the order of the file
        ('{"p": 1, "q": 2, "q": 3, "p": 4}', "/q", "'q'"),
        ('{"a/b": {"~": 1, "~": 2}}', "/a~1b/~0", "'~'"),
    ],
)
def test_a_duplicate_key_is_named_with_its_pointer(text, at, key):
    with pytest.raises(OwnError) as info:
        lio.parse_json(text, file="k.json", error=OwnError)
    assert info.value.pointer == at
    assert str(info.value) == f"k.json: {at}: duplicate key {key}"


def test_the_same_key_in_two_objects_is_no_duplicate():
    assert lio.parse_json('[{"a": 1}, {"a": 2}]') == [{"a": 1}, {"a": 2}]


@pytest.mark.parametrize(
    ("text", "at"),
    [
        ('"\\ud800"', ""),
        ('{"a": ["ok", "\\ud800"]}', "/a/1"),
        ('{"a": {"b": "x\\uDBFF"}}', "/a/b"),  # upper-case escape
        ('["\\uDc00"]', "/0"),
        ('["\\udfff"]', "/0"),
        ('["\\uDAff"]', "/0"),
        ('["\\ud9ee"]', "/0"),
        ('["\\udcEE"]', "/0"),
    ],
)
def test_a_lone_surrogate_string_is_refused(text, at):
    with pytest.raises(OwnError) as info:
        lio.parse_json(text, file="u.json", error=OwnError)
    assert info.value.pointer == at
    assert str(info.value) == (
        f"u.json: {at or '/'}: string is not encodable text (a lone surrogate escape)"
    )


def test_a_lone_surrogate_key_is_refused_at_its_object():
    with pytest.raises(OwnError) as info:
        lio.parse_json('{"a": {"k\\udc00": 1}}', error=OwnError)
    assert info.value.pointer == "/a"
    assert str(info.value) == "/a: key 'k\\udc00' is not encodable text"


def test_surrogate_pairs_and_other_escapes_are_text():
    assert lio.parse_json('["\\ud83d\\ude00", "\\u00e9", "\\uD7FF"]') == ["😀", "é", "\ud7ff"]
    assert lio.parse_json('{"\\ud83d\\ude00": ["\\ud83d\\ude00"]}') == {"😀": ["😀"]}


# --- load_json -----------------------------------------------------------------------------------


def test_load_json_applies_the_formats_limit_and_error(tmp_path):
    p = tmp_path / "a.json"
    p.write_bytes(b'{"format": "x", "version": 1}')  # 29 bytes
    assert lio.load_json(p, format="x", versions=(1,), max_bytes=29)["version"] == 1
    with pytest.raises(OwnError) as info:
        lio.load_json(p, format="x", versions=(1,), max_bytes=28, error=OwnError)
    assert str(info.value) == (
        f"{p}: file is 29 bytes, over this format's limit of 28 (set LABKIT_MAX_BYTES to raise it)"
    )
    p.write_bytes(b'{"a": 1, "a": 1}')
    with pytest.raises(OwnError) as info:
        lio.load_json(p, error=OwnError)
    assert str(info.value) == f"{p}: /a: duplicate key 'a'"


def test_load_json_names_the_file_in_a_header_error_of_the_formats_class(tmp_path):
    p = tmp_path / "a.json"
    p.write_bytes(b'{"format": "x", "version": 3}')
    with pytest.raises(OwnError) as info:
        lio.load_json(p, format="x", versions=(1, 2), error=OwnError)
    assert (
        str(info.value) == f"{p}: /version: unsupported version, this labkit reads [1, 2] (got 3)"
    )
    assert info.value.__suppress_context__


def test_an_upgrade_works_on_a_copy(tmp_path):
    doc = {"format": "x", "version": 1, "hp": 3}

    def up(d):
        d["version"] = 2
        d["hp"] *= 10
        return d

    out = lio.check_header(doc, format="x", versions=(1, 2), upgrades={1: up})
    assert out == {"format": "x", "version": 2, "hp": 30}
    assert doc == {"format": "x", "version": 1, "hp": 3}


def test_a_current_document_needs_no_upgrades():
    doc = {"format": "x", "version": 2}
    assert lio.check_header(doc, format="x", versions=(1, 2), upgrades=None) is doc


# --- dumps and save_json -------------------------------------------------------------------------


def test_dumps_defaults_to_two_space_indent():
    assert lio.dumps({"a": [1]}) == '{\n  "a": [\n    1\n  ]\n}\n'
    assert lio.dumps({"a": "é"}, indent=None) == '{"a": "é"}\n'


def test_save_json_passes_the_indent_and_writes_utf8(tmp_path):
    p = tmp_path / "a.json"
    lio.save_json(p, {"é": 1}, indent=None)
    assert p.read_bytes() == b'{"\xc3\xa9": 1}\n'
    lio.save_json(p, {"format": "old", "x": 1}, format="new")
    assert p.read_text() == '{\n  "format": "new",\n  "x": 1\n}\n'
    lio.save_json(p, {"version": 9, "x": 1}, version=3, indent=None)
    assert p.read_text() == '{"version": 3, "x": 1}\n'


# --- atomic_write --------------------------------------------------------------------------------


def test_the_temporary_file_sits_beside_the_target_and_is_hidden(tmp_path):
    p = tmp_path / "out.txt"
    with lio.atomic_write(p) as fh:
        fh.write("é")
        names = [q.name for q in tmp_path.iterdir()]
        assert len(names) == 1
        assert names[0].startswith(".out.txt.") and names[0].endswith(".tmp")
    assert [q.name for q in tmp_path.iterdir()] == ["out.txt"]
    assert p.read_bytes() == b"\xc3\xa9"


def test_atomic_write_uses_the_encoding_asked_for(tmp_path):
    p = tmp_path / "l.txt"
    with lio.atomic_write(p, encoding="latin-1") as fh:
        fh.write("é")
    assert p.read_bytes() == b"\xe9"
    with lio.atomic_write(p, "wb", encoding="latin-1") as fh:  # binary: encoding ignored
        fh.write(b"\x00\xff")
    assert p.read_bytes() == b"\x00\xff"


def test_atomic_write_syncs_before_renaming(tmp_path, monkeypatch):
    events = []
    real_fsync, real_replace = os.fsync, os.replace
    monkeypatch.setattr(os, "fsync", lambda fd: (events.append("fsync"), real_fsync(fd))[1])
    monkeypatch.setattr(
        os, "replace", lambda a, b: (events.append("replace"), real_replace(a, b))[1]
    )
    with lio.atomic_write(tmp_path / "a.txt") as fh:
        fh.write("x")
    assert events == ["fsync", "replace"]


@pytest.mark.parametrize("exc", [ValueError("boom"), KeyboardInterrupt()])
def test_an_interrupted_write_removes_the_temporary_file_and_keeps_the_old(tmp_path, exc):
    p = tmp_path / "a.txt"
    p.write_text("old")
    with pytest.raises(type(exc)):
        with lio.atomic_write(p) as fh:
            fh.write("new")
            raise exc
    assert [q.name for q in tmp_path.iterdir()] == ["a.txt"]
    assert p.read_text() == "old"


def test_a_temporary_file_already_gone_does_not_hide_the_error(tmp_path):
    p = tmp_path / "a.txt"
    with pytest.raises(ValueError, match="boom"):
        with lio.atomic_write(p):
            for q in tmp_path.iterdir():
                q.unlink()
            raise ValueError("boom")
    assert list(tmp_path.iterdir()) == []


def test_a_failed_rename_removes_the_temporary_file(tmp_path, monkeypatch):
    def fail(a, b):
        raise OSError(errno.EXDEV, "Invalid cross-device link")

    monkeypatch.setattr(os, "replace", fail)
    with pytest.raises(OSError, match="cross-device"):
        with lio.atomic_write(tmp_path / "a.txt") as fh:
            fh.write("x")
    assert list(tmp_path.iterdir()) == []


def test_a_symlink_target_is_followed_and_the_link_stays(tmp_path):
    here, there = tmp_path / "here", tmp_path / "there"
    here.mkdir()
    there.mkdir()
    (there / "real.txt").write_text("old")
    (here / "link.txt").symlink_to(there / "real.txt")
    with lio.atomic_write(here / "link.txt") as fh:
        fh.write("new")
        assert [q.name for q in here.iterdir()] == ["link.txt"]  # temp file beside the target
    assert (here / "link.txt").is_symlink()
    assert (there / "real.txt").read_text() == "new"
    assert sorted(q.name for q in there.iterdir()) == ["real.txt"]


def test_a_symlink_to_a_new_file_creates_it(tmp_path):
    (tmp_path / "link.txt").symlink_to(tmp_path / "sub" / "new.txt")
    with lio.atomic_write(tmp_path / "link.txt") as fh:
        fh.write("x")
    assert (tmp_path / "link.txt").is_symlink()
    assert (tmp_path / "sub" / "new.txt").read_text() == "x"


def test_a_folder_target_is_refused_before_anything_is_written(tmp_path):
    (tmp_path / "d").mkdir()
    (tmp_path / "ld").symlink_to(tmp_path / "d")
    for target in (tmp_path / "d", tmp_path / "ld"):
        with pytest.raises(IsADirectoryError) as info:
            with lio.atomic_write(target):
                pytest.fail("the block must not run")
        assert info.value.errno == errno.EISDIR
        assert info.value.filename == str(target)
        assert str(info.value) == f"[Errno 21] is a directory: '{target}'"
    assert list((tmp_path / "d").iterdir()) == []


def test_missing_parent_folders_are_created(tmp_path):
    with lio.atomic_write(tmp_path / "a" / "b" / "c.txt") as fh:
        fh.write("x")
    assert (tmp_path / "a" / "b" / "c.txt").read_text() == "x"


@pytest.fixture
def umask():
    old = os.umask(0o022)
    os.umask(old)

    def set_mask(mask):
        os.umask(mask)

    yield set_mask
    os.umask(old)


@pytest.mark.parametrize(("mask", "mode"), [(0o022, 0o644), (0o027, 0o640), (0o000, 0o666)])
def test_a_new_file_gets_the_mode_open_would_give(tmp_path, umask, mask, mode):
    umask(mask)
    with lio.atomic_write(tmp_path / "n.txt") as fh:
        fh.write("x")
    assert stat.S_IMODE(os.stat(tmp_path / "n.txt").st_mode) == mode
    assert os.umask(mask) == mask  # the umask is left as it was


@pytest.mark.parametrize("mode", [0o600, 0o755, 0o2750, 0o4711])
def test_a_replaced_file_keeps_its_mode_special_bits_included(tmp_path, umask, mode):
    umask(0o022)
    p = tmp_path / "e.txt"
    p.write_text("old")
    os.chmod(p, mode)
    with lio.atomic_write(p) as fh:
        fh.write("new")
    assert stat.S_IMODE(os.stat(p).st_mode) == mode
    assert p.read_text() == "new"


# --- check_writable and check_writable_dir -------------------------------------------------------


def test_check_writable_returns_the_path_as_given_and_creates_nothing(tmp_path):
    p = tmp_path / "a" / "b" / "c.json"
    assert lio.check_writable(str(p)) == p
    assert lio.check_writable(p) == p
    (tmp_path / "e.json").write_text("{}")
    assert lio.check_writable(tmp_path / "e.json") == tmp_path / "e.json"
    assert sorted(q.name for q in tmp_path.iterdir()) == ["e.json"]


def test_check_writable_refuses_a_folder_or_a_link_to_one(tmp_path):
    (tmp_path / "d").mkdir()
    (tmp_path / "ld").symlink_to(tmp_path / "d")
    for target in (tmp_path / "d", tmp_path / "ld"):
        with pytest.raises(IsADirectoryError) as info:
            lio.check_writable(target)
        assert info.value.errno == errno.EISDIR
        assert str(info.value) == f"[Errno 21] is a directory: '{target}'"


def test_check_writable_refuses_a_path_under_a_file(tmp_path):
    (tmp_path / "f").write_text("")
    target = tmp_path / "f" / "sub" / "x.json"
    with pytest.raises(NotADirectoryError) as info:
        lio.check_writable(target)
    assert info.value.errno == errno.ENOTDIR
    assert info.value.filename == str(target)
    assert str(info.value) == f"[Errno 20] {tmp_path / 'f'} is not a directory: '{target}'"


def test_check_writable_asks_for_write_and_search_access_to_the_nearest_folder(
    tmp_path, monkeypatch
):
    asked = []

    def no_access(path, mode):
        asked.append((str(path), mode))
        return False

    monkeypatch.setattr(os, "access", no_access)  # root may write anywhere: ask the question
    target = tmp_path / "new" / "x.json"
    with pytest.raises(PermissionError) as info:
        lio.check_writable(target)
    assert asked == [(str(tmp_path), os.W_OK | os.X_OK)]
    assert info.value.errno == errno.EACCES
    assert str(info.value) == f"[Errno 13] folder {tmp_path} is not writable: '{target}'"
    with pytest.raises(PermissionError, match="is not writable"):
        lio.check_writable_dir(tmp_path / "new")


def test_check_writable_dir_accepts_folders_new_or_old_and_refuses_a_file(tmp_path):
    assert lio.check_writable_dir(tmp_path) == tmp_path
    assert lio.check_writable_dir(str(tmp_path / "n" / "m")) == tmp_path / "n" / "m"
    assert list(tmp_path.iterdir()) == []
    (tmp_path / "f").write_text("")
    with pytest.raises(NotADirectoryError) as info:
        lio.check_writable_dir(tmp_path / "f")
    assert info.value.errno == errno.ENOTDIR
    assert str(info.value) == f"[Errno 20] not a directory: '{tmp_path / 'f'}'"
    with pytest.raises(NotADirectoryError, match="is not a directory"):
        lio.check_writable_dir(tmp_path / "f" / "sub")


# --- limits of reading, raw surrogates, shorten --------------------------------------------------


def test_at_most_one_byte_over_the_limit_is_read(tmp_path, monkeypatch):
    sizes = []
    real_fdopen = os.fdopen

    class Spy:
        def __init__(self, fh):
            self.fh = fh

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.fh.close()

        def read(self, n=-1):
            sizes.append(n)
            return self.fh.read(n)

    monkeypatch.setattr(os, "fdopen", lambda fd, *a, **k: Spy(real_fdopen(fd, *a, **k)))
    assert lio.read_bytes(_file(tmp_path, 4), max_bytes=7) == b"xxxx"
    assert sizes == [8]


def test_a_raw_lone_surrogate_in_text_is_refused_like_an_escaped_one():
    assert lio.nesting_depth('["\ud800"]') == 1  # counted, not an encoding error
    with pytest.raises(OwnError) as info:
        lio.parse_json('{"a": ["\ud800"]}', error=OwnError)
    assert str(info.value) == "/a/0: string is not encodable text (a lone surrogate escape)"
    with pytest.raises(OwnError) as info:
        lio.parse_json('{"k\udc00": 1}', error=OwnError)
    assert str(info.value) == "/: key 'k\\udc00' is not encodable text"
    assert lio.parse_json('["\U0001f600"]') == ["😀"]


def test_shorten_keeps_the_start_of_a_long_value_within_120_characters():
    # repr cut to limit - 5 = 115 characters: the quote and 114 letters
    assert lio.shorten("x" * 1000) == "'" + "x" * 114 + "… (1000 characters)"
    assert lio.shorten("abc") == "'abc'"


def test_a_descriptor_numbered_zero_is_closed_too(tmp_path, monkeypatch):
    # with stdin closed, os.open hands out descriptor 0; refusing the file must still close it
    p = _file(tmp_path, 3)
    real_stat = os.stat

    def stat_then_swap(path, *args, **kwargs):
        st = real_stat(path, *args, **kwargs)
        if str(path) == str(p):
            p.unlink()
            os.mkfifo(p)
        return st

    saved = os.dup(0)
    os.close(0)
    try:
        monkeypatch.setattr(os, "stat", stat_then_swap)
        with pytest.raises(OwnError, match="a FIFO"):
            lio.read_bytes(p, error=OwnError)
        monkeypatch.undo()
        with pytest.raises(OSError):  # (listing /proc/self/fd would itself open descriptor 0)
            os.fstat(0)
    finally:
        os.dup2(saved, 0)
        os.close(saved)
