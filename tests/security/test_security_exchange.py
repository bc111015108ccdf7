"""PO and XLIFF files are the translators' (Weblate's, a CAT tool's): untrusted input.
``translator import po|xliff`` reads them within limits and refuses, with a one-line
message naming the file and the line, whatever it cannot use: a language it does not
translate into, a malformed or oversized file, an XML file with entities, invisible or
control characters in a translation, a context that is no card's.  Nothing is written
on a refusal, nothing ever outside the library; and the import is linear in the
entries."""

from __future__ import annotations

import contextlib
import io
import os
import re
import shutil
import signal
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from translate.storage import po, xliff

from tests.lintkit import SAMPLE
from translator.cards import load_library
from translator.cards.files import parse_card_text
from translator.cards.model import Library, source_fingerprint
from translator.cli import main
from translator.limits import MAX_LINE_CHARS, MAX_TEXT_CHARS
from translator.workflow import exchange

#: A refused entry as the import reports it on standard error.
REFUSED = re.compile(
    r"^translator: refused (?P<path>[^:]+):(?P<line>\d+): "
    r"(?P<key>\S+): (?P<message>.*)$"
)


# --------------------------------------------------------------------------------------
# Helpers


@dataclass
class Result:
    code: int
    out: str
    err: str

    def show(self) -> str:
        return (
            f"exit {self.code}\n--- stdout ---\n{self.out[-2000:]}\n--- stderr ---\n"
            f"{self.err[-2000:]}"
        )


def cli(*args: str) -> Result:
    """``main(args)`` in-process; an exception escaping it fails the test."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err):
        code = main(list(args), out)
    return Result(code, out.getvalue(), err.getvalue())


def input_error(result: Result, name: str, line: int | None = None) -> str:
    """The one-line message of an input error (exit 2) naming ``name`` (and ``line``)."""
    assert "Traceback" not in result.err, result.show()
    assert result.code == 2, result.show()
    lines = result.err.splitlines()
    assert len(lines) == 1, result.show()
    where = f"translator: {name}:{line}:" if line else f"translator: {name}"
    assert lines[0].startswith(where), result.show()
    assert len(lines[0]) < 400, result.show()
    assert result.out == ""
    return lines[0]


def refusals(result: Result) -> dict[str, tuple[str, int, str]]:
    """``key`` -> (file, line, message) of the refused entries."""
    assert "Traceback" not in result.err, result.show()
    found = {}
    for line in result.err.splitlines():
        if line.startswith("translator: refused "):
            match = REFUSED.match(line)
            assert match, line
            found[match["key"]] = (match["path"], int(match["line"]), match["message"])
    return found


def copy_deck(directory: Path) -> Path:
    """A copy of the sample deck (artwork included: a link out is refused)."""
    target = directory / "sample"
    shutil.copytree(SAMPLE, target)
    return target


def snapshot(directory: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(directory)): p.read_bytes()
        for p in sorted(directory.rglob("*"))
        if p.is_file() and not p.is_symlink()
    }


def units_of(path: str | Path) -> tuple[po.pofile, dict[str, po.pounit]]:
    store = po.pofile.parsefile(str(path))
    return store, {u.getcontext(): u for u in store.units if not u.isheader()}


def context_line(path: str | Path, key: str) -> int:
    lines = Path(path).read_text("utf-8").splitlines()
    return lines.index(f'msgctxt "{key}"') + 1


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Exports of an untouched copy of the sample: ``sample.fr.po``, ``sample.eo.xlf``."""
    directory = tmp_path_factory.mktemp("exported")
    deck = copy_deck(directory)
    for kind, name in (("po", "sample.fr.po"), ("xliff", "sample.eo.xlf")):
        lang = name.split(".")[1]
        result = cli(
            "export", kind, str(deck), "--lang", lang, "-o", str(directory / name), "--no-tbx"
        )
        assert result.code == 0, result.show()
    return directory


@pytest.fixture
def deck(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the sample at ``tmp_path/sample``, the working directory ``tmp_path``."""
    monkeypatch.chdir(tmp_path)
    return copy_deck(tmp_path)


def fresh(pristine: Path, name: str) -> str:
    shutil.copyfile(pristine / name, name)
    return name


def import_po(name: str = "sample.fr.po", *extra: str) -> Result:
    return cli("import", "po", name, "--library", "sample", *extra)


def edited_po(
    pristine: Path, targets: dict[str, str], contexts: dict[str, str] | None = None
) -> str:
    """``sample.fr.po`` with the msgstr of some entries (by context) replaced, and the
    context of others."""
    name = fresh(pristine, "sample.fr.po")
    store, by_context = units_of(name)
    for key, target in targets.items():
        by_context[key].target = target
    for key, new in (contexts or {}).items():
        by_context[key].setcontext(new)
    Path(name).write_bytes(bytes(store))
    return name


@contextlib.contextmanager
def deadline(seconds: int) -> Iterator[None]:
    """Fail instead of hanging (a FIFO read would block forever)."""

    def expired(*_: object) -> None:
        raise TimeoutError(f"still running after {seconds} s: a hang")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


# --------------------------------------------------------------------------------------
# The file's language


def set_header_language(name: str, language: str) -> int:
    """Replace the PO header's ``Language``; returns its line."""
    text = Path(name).read_text("utf-8")
    assert text.count('"Language: fr\\n"') == 1
    Path(name).write_text(text.replace('"Language: fr\\n"', f'"Language: {language}\\n"'), "utf-8")
    return text[: text.index('"Language: fr')].count("\n") + 1


@pytest.mark.parametrize("language", ["FR", "fr_CA", "fr-CA", "Fr_fr.UTF-8", " fr "])
def test_po_header_language_is_normalised(language: str, pristine: Path, deck: Path) -> None:
    name = edited_po(pristine, {"mossgate:name": "Porte moussue"})
    set_header_language(name, language)
    before = snapshot(deck)
    result = import_po(name)
    assert result.code == 0, result.show()
    after = snapshot(deck)
    assert {k for k in after if after[k] != before.get(k)} == {"mossgate.fr.md"}
    assert "name: Porte moussue" in (deck / "mossgate.fr.md").read_text("utf-8")


@pytest.mark.parametrize(
    ("language", "says"),
    [
        ("de", "'de', not a language translator translates into (fr, eo)"),
        ("zz-ZZ", "'zz-ZZ', not a language"),
        ("../fr", "not a language"),
        ("EN_us", "the English of the cards"),
        ("fr\x1b[2J", "not a language"),
    ],
)
def test_po_header_language_unknown_is_an_input_error(
    language: str, says: str, pristine: Path, deck: Path
) -> None:
    name = edited_po(pristine, {"mossgate:name": "Porte moussue"})
    line = set_header_language(name, language)
    before = snapshot(deck)
    message = input_error(import_po(name), name, line)
    assert "the header's Language is" in message and says in message, message
    assert "\x1b" not in message
    assert snapshot(deck) == before


def test_po_without_language_asks_for_lang(pristine: Path, deck: Path) -> None:
    name = edited_po(pristine, {"mossgate:name": "Porte moussue"})
    text = Path(name).read_text("utf-8").replace('"Language: fr\\n"\n', "")
    Path(name).write_text(text, "utf-8")
    message = input_error(import_po(name), name)
    assert "names no target language" in message and "--lang" in message
    # --lang gives it
    assert import_po(name, "--lang", "fr").code == 0
    assert "name: Porte moussue" in (deck / "mossgate.fr.md").read_text("utf-8")


@pytest.mark.parametrize(("language", "works"), [("EO", True), ("eo_XX", True), ("de", False)])
def test_xliff_target_language(language: str, works: bool, pristine: Path, deck: Path) -> None:
    name = fresh(pristine, "sample.eo.xlf")
    text = Path(name).read_text("utf-8")
    assert text.count('target-language="eo"') == 1
    line = text[: text.index('target-language="eo"')].count("\n") + 1
    Path(name).write_text(
        text.replace('target-language="eo"', f'target-language="{language}"'), "utf-8"
    )
    before = snapshot(deck)
    result = cli("import", "xliff", name, "--library", "sample")
    if works:
        assert result.code == 0, result.show()
        return
    message = input_error(result, name, line)
    assert "the target-language is 'de'" in message
    assert snapshot(deck) == before


# --------------------------------------------------------------------------------------
# What a translation may hold


CONTROL = {
    "NUL": "\x00",
    "ESC": "\x1b[2J",
    "BEL": "\x07",
    "CR": "\r",
    "tab": "\t",
    "U+202E": "\u202e",
    "U+2028": "\u2028",
    "zero-width space": "\u200b",
    "BOM": "\ufeff",
    "DEL": "\x7f",
    "C1": "\x9b",
}
NAMED = {
    "NUL": "U+0000",
    "ESC": "U+001B",
    "BEL": "U+0007",
    "CR": "U+000D",
    "tab": "U+0009",
    "U+202E": "U+202E",
    "U+2028": "U+2028",
    "zero-width space": "U+200B",
    "BOM": "U+FEFF",
    "DEL": "U+007F",
    "C1": "U+009B",
}


@pytest.mark.parametrize("char", list(CONTROL))
@pytest.mark.parametrize("key", ["harbor-lord:name", "courier:name2", "courier:subtype"])
def test_control_character_in_a_one_line_unit_is_refused(
    key: str, char: str, pristine: Path, deck: Path
) -> None:
    _, by_context = units_of(pristine / "sample.fr.po")
    target = str(by_context[key].target)
    name = edited_po(
        pristine, {key: target[:3] + CONTROL[char] + target[3:], "mossgate:name": "Porte moussue"}
    )
    before = snapshot(deck)
    result = import_po(name)
    assert result.code == 1, result.show()
    refused = refusals(result)
    assert set(refused) == {key}, result.show()
    path, line, message = refused[key]
    assert (path, line) == (name, context_line(name, key))
    assert NAMED[char] in message, message
    assert "\x1b" not in result.err + result.out
    after = snapshot(deck)
    # the other entry is imported, the refused one is not
    assert {k for k in after if after[k] != before.get(k)} == {"mossgate.fr.md"}


def test_control_character_in_the_footer_is_refused(pristine: Path, deck: Path) -> None:
    english = deck / "courier.en.md"
    english.write_text(
        english.read_text("utf-8").replace(
            "serie: Sample\n", "serie: Sample\ninfo: Sample footer\n"
        ),
        "utf-8",
    )
    assert cli("export", "po", "sample", "--lang", "fr", "-o", "f.po", "--no-tbx").code == 0
    store, by_context = units_of("f.po")
    by_context["courier:info"].target = "Pied\u202ede page"
    Path("f.po").write_bytes(bytes(store))
    before = snapshot(deck)
    result = import_po("f.po")
    refused = refusals(result)
    assert result.code == 1 and set(refused) == {"courier:info"}, result.show()
    assert refused["courier:info"][1] == context_line("f.po", "courier:info")
    assert "U+202E" in refused["courier:info"][2]
    assert snapshot(deck) == before


@pytest.mark.parametrize(
    "char", ["NUL", "ESC", "BEL", "CR", "U+202E", "U+2028", "zero-width space"]
)
@pytest.mark.parametrize("key", ["courier:text", "restless-bones:flavour"])
def test_control_character_in_a_text_is_refused(
    key: str, char: str, pristine: Path, deck: Path
) -> None:
    _, by_context = units_of(pristine / "sample.fr.po")
    target = str(by_context[key].target)
    name = edited_po(pristine, {key: target.replace(" ", " " + CONTROL[char], 1)})
    before = snapshot(deck)
    result = import_po(name)
    refused = refusals(result)
    assert result.code == 1 and set(refused) == {key}, result.show()
    assert refused[key][:2] == (name, context_line(name, key))
    assert NAMED[char] in refused[key][2]
    assert snapshot(deck) == before


def test_newlines_and_tabs_in_a_text_are_fine(pristine: Path, deck: Path) -> None:
    _, by_context = units_of(pristine / "sample.fr.po")
    target = str(by_context["courier:text"].target)
    name = edited_po(pristine, {"courier:text": target + "\n\n:m: Pioche\tdeux cartes."})
    result = import_po(name)
    assert refusals(result) == {}, result.show()
    assert "Pioche\tdeux cartes." in (deck / "courier.fr.md").read_text("utf-8")


@pytest.mark.parametrize(
    "target", ["Seigneur\ndu port", "Seigneur\u2028du port", "Seigneur\r\ndu port"]
)
def test_a_name_on_several_lines_is_refused(target: str, pristine: Path, deck: Path) -> None:
    name = edited_po(pristine, {"harbor-lord:name": target})
    before = snapshot(deck)
    result = import_po(name)
    refused = refusals(result)
    assert result.code == 1 and set(refused) == {"harbor-lord:name"}, result.show()
    assert refused["harbor-lord:name"][1] == context_line(name, "harbor-lord:name")
    assert snapshot(deck) == before


@pytest.mark.parametrize(
    ("key", "length", "limit"),
    [
        ("courier:text", 200_001, MAX_TEXT_CHARS),
        ("courier:text", MAX_TEXT_CHARS + 1, MAX_TEXT_CHARS),
        ("restless-bones:flavour", 100_000, MAX_TEXT_CHARS),
        ("harbor-lord:name", MAX_LINE_CHARS + 1, MAX_LINE_CHARS),
        ("courier:subtype", 50_000, MAX_LINE_CHARS),
    ],
)
def test_a_translation_too_long_is_refused(
    key: str, length: int, limit: int, pristine: Path, deck: Path
) -> None:
    name = edited_po(pristine, {key: "a" * length})
    before = snapshot(deck)
    start = time.perf_counter()
    result = import_po(name)
    assert time.perf_counter() - start < 60
    refused = refusals(result)
    assert result.code == 1 and set(refused) == {key}, result.show()
    path, line, message = refused[key]
    assert (path, line) == (name, context_line(name, key))
    assert f"{length:,} characters" in message and f"at most {limit:,}" in message
    assert len(result.err.splitlines()[0]) < 400
    assert snapshot(deck) == before


# --------------------------------------------------------------------------------------
# Contexts, and where files are written


@pytest.mark.parametrize(
    "context",
    [
        "../../x:name",
        "/abs:name",
        "/tmp/evil:text",
        "../sample/courier:name",
        "courier/../../x:name",
        "Courier:name",
        "courier\n:name",
        "-courier:name",
        "cour ier:name",
        "a" * 101 + ":name",
        "courier\x1b[2J:name",
        ".:name",
        "..:name",
        "courier:name:name",
    ],
)
def test_a_context_that_is_no_slug_is_an_unknown_card(
    context: str, pristine: Path, deck: Path, tmp_path: Path
) -> None:
    name = edited_po(pristine, {"courier:name": "Messagère"}, contexts={"courier:name": context})
    before = snapshot(tmp_path)
    result = import_po(name)
    assert result.code == 1, result.show()
    refused = [
        line for line in result.err.splitlines() if line.startswith(f"translator: refused {name}:")
    ]
    assert len(refused) == 1, result.show()
    assert "no card" in refused[0] or "not an entry of translator's" in refused[0]
    assert "\x1b" not in result.err and len(refused[0]) < 400
    # the line is the entry's (the one after the courier:name2 entry, or so)
    assert int(refused[0].split(":")[2]) > 1
    after = snapshot(tmp_path)
    assert {k for k in after if after[k] != before.get(k)} == set(), "something was written"
    assert not Path("/abs.fr.md").exists() and not Path("/tmp/evil.fr.md").exists()


def test_a_duplicate_entry_is_refused(pristine: Path, deck: Path) -> None:
    name = fresh(pristine, "sample.fr.po")
    text = Path(name).read_text("utf-8")
    Path(name).write_text(
        text + '\nmsgctxt "mossgate:name"\nmsgid "Mossgate"\nmsgstr "Autre"\n', "utf-8"
    )
    result = import_po(name)
    refused = refusals(result)
    assert set(refused) == {"mossgate:name"}, result.show()
    assert refused["mossgate:name"][1] == len(text.splitlines()) + 2
    assert (
        f"the first is on line {context_line(name, 'mossgate:name')}" in refused["mossgate:name"][2]
    )


def test_a_translation_file_linked_out_of_the_deck_is_not_written(
    pristine: Path, deck: Path, tmp_path: Path
) -> None:
    """A dangling link where the new translation would go: the import would write
    through it, outside the library."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (deck / "mossgate.fr.md").unlink()
    (deck / "mossgate.fr.md").symlink_to(outside / "mossgate.fr.md")
    name = edited_po(pristine, {"mossgate:name": "Porte moussue"})
    result = import_po(name)
    assert "Traceback" not in result.err, result.show()
    assert not (outside / "mossgate.fr.md").exists(), "written outside the library"
    if result.code == 1:  # the library loads: the entry is refused
        refused = refusals(result)
        assert set(refused) == {"mossgate:name"}, result.show()
        assert "leads out of its deck" in refused["mossgate:name"][2]
    else:  # or the library refuses the link first
        assert result.code == 2, result.show()
        assert "mossgate.fr.md" in result.err


def test_the_planned_file_must_stay_in_the_deck(deck: Path, tmp_path: Path) -> None:
    """The check itself, on a library whose translation file is a link out."""
    outside = tmp_path / "outside"
    outside.mkdir()
    library, problems = load_library([str(deck)])
    assert not problems
    card = library.cards[("sample", "mossgate")]
    version = card.translations["fr"]
    (outside / "mossgate.fr.md").write_bytes(Path(version.path).read_bytes())
    Path(version.path).unlink()
    Path(version.path).symlink_to(outside / "mossgate.fr.md")
    Path("f.po").write_text(
        '# \nmsgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
        '"Language: fr\\n"\n\nmsgctxt "mossgate:name"\nmsgid "Mossgate"\n'
        'msgstr "Porte moussue"\n',
        "utf-8",
    )
    result = exchange.plan_import("f.po", library)
    assert result.updates == []
    assert [r.key for r in result.refused] == ["mossgate:name"]
    assert "leads out of its deck" in result.refused[0].message
    assert result.refused[0].line == 7


# --------------------------------------------------------------------------------------
# The file itself


def test_a_fifo_is_refused_without_hanging(deck: Path) -> None:
    os.mkfifo("sample.fr.po")
    with deadline(20):
        result = import_po("sample.fr.po")
    message = input_error(result, "sample.fr.po")
    assert "named pipe" in message


def test_a_directory_is_refused(deck: Path) -> None:
    os.mkdir("sample.fr.po")
    input_error(import_po("sample.fr.po"), "sample.fr.po")


def test_too_many_entries_are_refused(
    pristine: Path, deck: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(exchange, "MAX_EXCHANGE_ENTRIES", 10)
    name = fresh(pristine, "sample.fr.po")
    before = snapshot(deck)
    lines = Path(name).read_text("utf-8").splitlines()
    eleventh = [i for i, line in enumerate(lines, 1) if line.startswith("msgid ")][11]
    message = input_error(import_po(name), name, eleventh)
    assert "more than 10 entries" in message
    assert snapshot(deck) == before
    # XLIFF too
    xlf = fresh(pristine, "sample.eo.xlf")
    message = input_error(cli("import", "xliff", xlf, "--library", "sample"), xlf)
    assert "more than 10 entries" in message


def test_the_entry_limit_is_the_shared_one() -> None:
    from translator import limits

    assert exchange.MAX_EXCHANGE_ENTRIES == limits.MAX_EXCHANGE_ENTRIES
    assert exchange.MAX_EXCHANGE_BYTES == limits.MAX_EXCHANGE_BYTES


def truncated_po(pristine: Path) -> tuple[bytes, int]:
    data = (pristine / "sample.fr.po").read_bytes()
    at = data.index(b'msgstr "', len(data) // 2) + 20
    return data[:at], data[:at].count(b"\n") + 1


@pytest.mark.parametrize(
    "case",
    [
        "truncated",
        "garbage",
        "control bytes",
        "unclosed",
        "bad keyword",
        "non-UTF-8",
        "empty",
        "only a header",
        "plural",
    ],
)
def test_malformed_po_is_a_one_line_input_error(case: str, pristine: Path, deck: Path) -> None:
    line: int | None = None
    if case == "truncated":
        data, line = truncated_po(pristine)
    elif case == "garbage":
        data = bytes(range(1, 128)) * 40
    elif case == "control bytes":
        data, line = b"\x1b[2J\x00\x07 msgid\n", 1
    elif case == "unclosed":
        data, line = b'msgid ""\nmsgstr ""\n"Language: fr\\n"\n\nmsgctxt "courier:name\n', 5
    elif case == "bad keyword":
        data, line = b'msgid ""\nmsgstr ""\n"Language: fr\\n"\n\nmsgtext "x"\n', 5
    elif case == "non-UTF-8":
        data, line = b'msgid ""\nmsgstr ""\n\xff\xfe\n', 3
    elif case == "empty":
        data = b""
    elif case == "only a header":
        data = b'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
    else:
        data = (
            b'msgid ""\nmsgstr ""\n"Language: fr\\n"\n\nmsgctxt "courier:name"\n'
            b'msgid "Courier"\nmsgid_plural "Couriers"\nmsgstr[0] "\x1b"\n'
            b'msgstr[1] "b"\n'
        )
    Path("f.po").write_bytes(data)
    before = snapshot(deck)
    result = import_po("f.po")
    assert snapshot(deck) == before
    assert "Traceback" not in result.err, result.show()
    if case == "plural":  # a valid PO file: its plural entry is no card's name
        assert result.code in (0, 1), result.show()
        return
    message = input_error(result, "f.po", line)
    assert "\x1b" not in message and "\x00" not in message


def xliff_with(pristine: Path, prolog: str = "", target: str | None = None) -> str:
    text = (pristine / "sample.eo.xlf").read_text("utf-8")
    declaration, _, rest = text.partition("\n")
    if target is not None:
        rest = re.sub(
            r"<target([^>]*)>[^<]*</target>", rf"<target\1>{target}</target>", rest, count=1
        )
    Path("f.xlf").write_text(f"{declaration}\n{prolog}{rest}", "utf-8")
    return "f.xlf"


#: A billion laughs: ten entities of ten of the one before.
BOMB = (
    '<!DOCTYPE xliff [\n <!ENTITY lol0 "lol">\n'
    + "".join(f' <!ENTITY lol{i} "{f"&lol{i - 1};" * 10}">\n' for i in range(1, 10))
    + "]>\n"
)


@pytest.mark.parametrize(
    "case",
    [
        "bomb",
        "external entity",
        "parameter entity",
        "doctype only",
        "undeclared entity",
        "truncated",
        "not xliff",
        "garbage",
        "deep",
        "no file element",
    ],
)
def test_malformed_or_dangerous_xliff_is_refused(
    case: str, pristine: Path, deck: Path, tmp_path: Path
) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET", "utf-8")
    line: int | None = None
    if case == "bomb":
        name, line = xliff_with(pristine, BOMB, "&lol9;"), 2
    elif case == "external entity":
        name, line = (
            xliff_with(
                pristine, f'<!DOCTYPE xliff [<!ENTITY x SYSTEM "file://{secret}">]>\n', "&x;"
            ),
            2,
        )
    elif case == "parameter entity":
        name, line = (
            xliff_with(
                pristine, f'<!DOCTYPE xliff [<!ENTITY % p SYSTEM "file://{secret}"> %p;]>\n'
            ),
            2,
        )
    elif case == "doctype only":
        name, line = xliff_with(pristine, "<!DOCTYPE xliff>\n"), 2
    elif case == "undeclared entity":
        name = xliff_with(pristine, "", "&x;")
    elif case == "truncated":
        data = (pristine / "sample.eo.xlf").read_bytes()
        Path("f.xlf").write_bytes(data[: len(data) // 2])
        name = "f.xlf"
    elif case == "not xliff":
        Path("f.xlf").write_text('<?xml version="1.0"?>\n<html><body/></html>\n', "utf-8")
        name = "f.xlf"
    elif case == "garbage":
        Path("f.xlf").write_bytes(bytes(range(1, 128)) * 10)
        name = "f.xlf"
    elif case == "deep":
        Path("f.xlf").write_text(
            "<xliff>" + "<a>" * 100_000 + "</a>" * 100_000 + "</xliff>", "utf-8"
        )
        name = "f.xlf"
    else:
        Path("f.xlf").write_text(
            '<?xml version="1.0"?>\n<xliff version="1.1" xmlns="urn:'
            'oasis:names:tc:xliff:document:1.1"/>\n',
            "utf-8",
        )
        name = "f.xlf"
    before = snapshot(deck)
    start = time.perf_counter()
    with deadline(60):
        result = cli("import", "xliff", name, "--library", "sample")
    assert time.perf_counter() - start < 30
    message = input_error(result, name, line)
    if case in ("bomb", "external entity", "parameter entity", "doctype only"):
        assert "document type or entities" in message
    assert "TOP-SECRET" not in result.err + result.out
    assert snapshot(deck) == before


def test_xliff_edit_is_imported_with_its_line(pristine: Path, deck: Path) -> None:
    """A valid XLIFF file: an edit imported, a refusal named by the unit's line."""
    name = fresh(pristine, "sample.eo.xlf")
    store = xliff.xlifffile.parsefile(name)
    by_id = {u.xmlelement.get("id"): u for u in store.units}
    by_id["mossgate:name"].target = "Muska pordo"
    by_id["harbor-lord:name"].target = "Havena\u202esinjoro"
    Path(name).write_bytes(bytes(store))
    result = cli("import", "xliff", name, "--library", "sample")
    refused = refusals(result)
    assert result.code == 1 and set(refused) == {"harbor-lord:name"}, result.show()
    lines = Path(name).read_text("utf-8").splitlines()
    assert 'id="harbor-lord:name"' in lines[refused["harbor-lord:name"][1] - 1]
    assert "U+202E" in refused["harbor-lord:name"][2]
    assert "name: Muska pordo" in (deck / "mossgate.eo.md").read_text("utf-8")


# --------------------------------------------------------------------------------------
# Speed: linear in the entries


ENGLISH = (
    "---\nname: Card {i}\ntype: Event\nfaction: Red Banner\ncost: 2\n"
    "status: Draft\n---\nDraw a card.\n"
)
FRENCH = '---\nname: Carte {i}\nstatus: Draft\nsource: "{fingerprint}"\n---\nPioche une carte.\n'
#: What an export says to the translator about an entry (the glossary's words).
NOTES = "".join(f"#. glossary: word {n} → mot {n} ({'x' * 40})\n" for n in range(8))


def scaling_library(root: Path, cards: int) -> tuple[Library, list[str]]:
    """A deck of ``cards`` small cards in English and French, on disk and in memory
    (loading a big library is not what is timed); and the PO files of the first half of
    the cards and of all of them (two entries a card, one name in a hundred edited)."""
    deck = root / "big"
    deck.mkdir()
    library = Library()
    entries = []
    for i in range(cards):
        english = ENGLISH.format(i=i)
        source = parse_card_text(str(deck / f"card-{i}.en.md"), "big", english, [])
        assert source is not None
        french = FRENCH.format(i=i, fingerprint=source_fingerprint(source))
        version = parse_card_text(str(deck / f"card-{i}.fr.md"), "big", french, [])
        assert version is not None
        library.add(source)
        library.add(version)
        (deck / f"card-{i}.en.md").write_text(english, "utf-8")
        (deck / f"card-{i}.fr.md").write_text(french, "utf-8")
        target = f"Carte {i}" + (" bis" if i % 100 == 0 else "")
        entries.append(
            f'{NOTES}#: big/card-{i}.en.md:2\nmsgctxt "card-{i}:name"\n'
            f'msgid "Card {i}"\nmsgstr "{target}"\n'
        )
        entries.append(
            f'{NOTES}#: big/card-{i}.en.md:8\nmsgctxt "card-{i}:text"\n'
            'msgid "Draw a card."\nmsgstr "Pioche une carte."\n'
        )
    header = (
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Language: fr\\n"\n'
    )
    names = []
    for count in (cards, 2 * cards):
        path = root / f"big-{count}.fr.po"
        path.write_text("\n".join([header, *entries[:count]]), "utf-8")
        names.append(str(path))
    return library, names


def cpu_seconds(path: str, library: Library, runs: int = 2) -> float:
    """The least CPU time of ``runs`` plans (CPU time: the machine is shared)."""
    best = float("inf")
    for _ in range(runs):
        start = time.process_time()
        result = exchange.plan_import(path, library)
        best = min(best, time.process_time() - start)
        assert result.refused == [] and result.updates
    return best


@pytest.mark.slow
def test_import_is_linear_in_the_entries(tmp_path: Path) -> None:
    """Planning an import of N = 5,000 entries, then 2N: twice the time, not four."""
    entries = 5_000
    library, (small, large) = scaling_library(tmp_path, entries)
    t_small = cpu_seconds(small, library)
    t_large = cpu_seconds(large, library)
    assert t_large < 3 * t_small, (
        f"not linear: {t_small:.2f} s for {entries:,} entries, {t_large:.2f} s for {2 * entries:,}"
    )
