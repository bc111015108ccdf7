"""What a run keeps for the next one (translator.cache): used only for the very bytes
it was made from, never trusted when unreadable, never in the way when it cannot be
written; the glossaries read through it are the glossaries read afresh.  And the
attacks of issue 35: a kept file rewritten by someone else runs no code and hands the
program no value of the wrong type; a folder another user owns or may write to is not
used; a FIFO, a link to /dev/zero or a deep JSON in its place is read as nothing."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.conftest import ROOT
from translator import cache
from translator.glossary.loader import load_glossary


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    where = tmp_path / "cache"
    monkeypatch.setenv("TRANSLATOR_CACHE", str(where))
    return where


def counting(value: object) -> tuple[list[int], object]:
    calls: list[int] = []

    def make() -> object:
        calls.append(1)
        return value

    return calls, make


def test_a_kept_value_is_made_once_for_the_same_files(folder: Path, tmp_path: Path) -> None:
    data = tmp_path / "data.yaml"
    data.write_text("a: 1\n", encoding="utf-8")
    calls, make = counting({"a": [1, 2]})
    first = cache.kept("thing", [data], [], make, dict[str, list[int]])
    second = cache.kept("thing", [data], [], make, dict[str, list[int]])
    assert first == second == {"a": [1, 2]}
    assert len(calls) == 1
    assert (folder / "thing.json").is_file()
    assert (folder / "thing.json").stat().st_mode & 0o777 == 0o600
    assert folder.stat().st_mode & 0o777 == 0o700


def test_new_bytes_are_seen_even_with_the_same_size_and_date(folder: Path, tmp_path: Path) -> None:
    """An editor or a test that saves twice within a clock tick: the date and the
    size are the same, the bytes are not."""
    data = tmp_path / "data.yaml"
    data.write_text("a: 1\n", encoding="utf-8")
    stat = data.stat()
    cache.kept("thing", [data], [], lambda: "one", str)
    data.write_text("a: 2\n", encoding="utf-8")
    os.utime(data, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert cache.kept("thing", [data], [], lambda: "two", str) == "two"
    data.unlink()
    assert cache.kept("thing", [data], [], lambda: "gone", str) == "gone"


def test_changed_code_starts_afresh(folder: Path, tmp_path: Path) -> None:
    code = tmp_path / "reader.py"
    code.write_text("x = 1\n", encoding="utf-8")
    cache.kept("thing", [], [code], lambda: "old reader", str)
    code.write_text("x = 22\n", encoding="utf-8")
    assert cache.kept("thing", [], [code], lambda: "new reader", str) == "new reader"


@pytest.mark.parametrize("content", [b"", b"garbage", b"0" * 64 + b"not json", b"\x80"])
def test_an_unreadable_cache_file_is_made_afresh(
    folder: Path, tmp_path: Path, content: bytes
) -> None:
    cache.kept("thing", [], [], lambda: "first", str)
    (folder / "thing.json").write_bytes(_key(folder) + content if content[:1] == b"0" else content)
    assert cache.kept("thing", [], [], lambda: "again", str) == "again"


def _key(folder: Path, kind: str = "thing") -> bytes:
    """The first line (key, digest, line break) of a kept file: what an attacker keeps
    to have the payload read."""
    stored = (folder / f"{kind}.json").read_bytes()
    return stored[: stored.index(b"\n") + 1]


def _forged(payload: bytes, key: bytes) -> bytes:
    """A kept file with another payload and a first line that matches it: the key kept,
    the payload's digest made anew (what someone who read this module can write)."""
    import hashlib

    digest = hashlib.blake2b(payload, digest_size=16).hexdigest().encode()
    return key.split(b" ")[0] + b" " + digest + b"\n" + payload


def test_a_payload_changed_after_it_was_written_is_made_afresh(folder: Path) -> None:
    """A kept value of the right shape but other content (a flipped byte, a hand edit):
    its digest no longer matches; the value is made afresh, not read as something the
    glossary does not say."""
    shape = dict[str, list[int]]
    cache.kept("thing", [], [], lambda: {"a": [1]}, shape)
    (folder / "thing.json").write_bytes(_key(folder) + b'{"a":[7]}')
    assert cache.kept("thing", [], [], lambda: {"a": [2]}, shape) == {"a": [2]}


def test_a_replaced_payload_runs_no_code(folder: Path, tmp_path: Path) -> None:
    """The attack: a pickle that runs a command, after the kept file's own key.  The
    cache holds JSON: the payload is not JSON, so the value is made afresh, and
    nothing ran."""
    import pickle

    proof = tmp_path / "ran"

    class Exploit:
        def __reduce__(self) -> tuple[object, ...]:
            return (os.system, (f"touch {proof}",))

    cache.kept("thing", [], [], lambda: "first", str)
    key = _key(folder)
    for forged in (key + pickle.dumps(Exploit()), _forged(pickle.dumps(Exploit()), key)):
        (folder / "thing.json").write_bytes(forged)
        assert cache.kept("thing", [], [], lambda: "again", str) == "again"
        assert not proof.exists()
    # An old version's pickle beside it is never read, and goes at the next write.
    (folder / "thing.pickle").write_bytes(key[:64] + pickle.dumps(Exploit()))
    cache.kept("other", [], [], lambda: "x", str)
    assert cache.kept("thing", [], [], lambda: "made", str) in ("again", "made")
    assert not proof.exists()


@pytest.mark.parametrize(
    "payload",
    [b"[1, 2]", b'{"a": "not a list"}', b"null", b'{"a": [1, "2"]}', b"[" * 100_000],
)
def test_a_value_of_the_wrong_type_is_made_afresh(folder: Path, payload: bytes) -> None:
    """A kept value read back is checked against its declared type: a list where a
    dict is expected, a string among ints, JSON nested 100,000 deep: made afresh,
    never handed to the code (a TypeError traceback in lint before)."""
    shape = dict[str, list[int]]
    cache.kept("thing", [], [], lambda: {"a": [1]}, shape)
    (folder / "thing.json").write_bytes(_forged(payload, _key(folder)))
    assert cache.kept("thing", [], [], lambda: {"a": [2]}, shape) == {"a": [2]}


def test_a_glossary_of_the_wrong_shape_is_read_afresh(folder: Path) -> None:
    library = str(ROOT / "cards" / "sample")
    fresh, _ = load_glossary("fr", [library])
    key = _key(folder, "glossary-fr")
    for payload in (b'[{"lang": 1}, []]', b'[{"lang": "fr", "entries": [1]}, []]', b"{}"):
        (folder / "glossary-fr.json").write_bytes(_forged(payload, key))
        again, _ = load_glossary("fr", [library])
        assert again == fresh


@pytest.mark.parametrize("kind", ["fifo", "zero", "directory"])
def test_a_cache_file_that_is_no_file_is_read_as_nothing(folder: Path, kind: str) -> None:
    """A FIFO would hang the reader, /dev/zero fill the memory: neither is read."""
    cache.kept("thing", [], [], lambda: "first", str)
    target = folder / "thing.json"
    target.unlink()
    if kind == "fifo":
        os.mkfifo(target)
    elif kind == "zero":
        target.symlink_to("/dev/zero")
    else:
        target.mkdir()
    assert cache.kept("thing", [], [], lambda: "again", str) == "again"


def test_a_folder_others_may_write_to_is_not_used(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder.mkdir(mode=0o777)
    folder.chmod(0o777)
    calls, make = counting("value")
    assert cache.kept("thing", [], [], make, str) == "value"
    assert cache.kept("thing", [], [], make, str) == "value"
    assert len(calls) == 2
    assert not (folder / "thing.json").exists()
    said = capsys.readouterr().err
    assert said.count(f"the cache folder {folder} may be written by other users") == 1
    assert f"chmod 700 {folder}" in said


@pytest.mark.skipif(os.geteuid() != 0, reason="giving a folder to another user needs root")
def test_a_folder_of_another_user_is_not_used(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder.mkdir(mode=0o700)
    os.chown(folder, 65534, 65534)  # nobody
    assert cache.cache_directory() is None
    assert "belongs to another user" in capsys.readouterr().err


def test_a_kept_file_others_may_write_is_made_afresh(folder: Path) -> None:
    cache.kept("thing", [], [], lambda: "first", str)
    (folder / "thing.json").chmod(0o666)
    assert cache.kept("thing", [], [], lambda: "again", str) == "again"


def test_no_cache_folder_keeps_nothing(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("TRANSLATOR_CACHE", "")
    calls, make = counting("value")
    assert cache.kept("thing", [], [], make, str) == "value"
    assert cache.kept("thing", [], [], make, str) == "value"
    assert len(calls) == 2


def test_a_cache_that_cannot_be_written_only_costs_time(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("", encoding="utf-8")
    monkeypatch.setenv("TRANSLATOR_CACHE", str(blocker / "cache"))  # under a file
    assert cache.kept("thing", [], [], lambda: [1], list[int]) == [1]
    assert cache.kept("not-plain", [], [], lambda: lambda: 1, object)() == 1


@pytest.mark.parametrize("lang", ["en", "fr", "eo"])
def test_a_kept_glossary_is_the_glossary_read_afresh(folder: Path, lang: str) -> None:
    fresh, fresh_problems = load_glossary(lang, [str(ROOT / "cards" / "sample")])
    kept, kept_problems = load_glossary(lang, [str(ROOT / "cards" / "sample")])
    assert (folder / f"glossary-{lang}.json").is_file()
    assert kept == fresh
    assert kept is not fresh
    assert kept_problems == fresh_problems


def test_a_library_glossary_edited_is_read_again(folder: Path, tmp_path: Path) -> None:
    library = tmp_path / "cards"
    library.mkdir()
    own = library / "glossary.fr.yaml"
    own.write_text("language: fr\nentries: []\n", encoding="utf-8")
    _, problems = load_glossary("fr", [str(library)])
    assert problems == []
    own.write_text("language: eo\nentries: []\n", encoding="utf-8")
    _, problems = load_glossary("fr", [str(library)])
    assert [p.message for p in problems] == ["language 'eo' in a fr glossary"]
