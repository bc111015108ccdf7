"""Bad input, as a user (or an attacker) can give it: every reader must answer with a
one-line message naming the file (and the line, where there is one) and saying what to
do, exit code 2, and never a traceback.  Black-box: everything goes through
``translator.cli.main`` in-process (no exception may escape it), or a subprocess where
a case could hang the test run (YAML alias bombs)."""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import traceback
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path

import pytest

from tests.lintkit import SAMPLE
from translator.cli import main

#: The longest acceptable line of a message (a message that echoes a 5,000-digit
#: number or a 200,000-character text is no one-line message).
MAX_LINE = 1000
ESC = "\x1b"

# --------------------------------------------------------------------------------------
# Helpers


@dataclass
class Result:
    args: tuple[str, ...]
    code: int
    out: str
    err: str

    @property
    def text(self) -> str:
        return self.out + self.err

    def show(self) -> str:
        return (
            f"translator {' '.join(a if len(a) < 80 else a[:77] + '...' for a in self.args)}"
            f" -> exit {self.code}\n--- stdout ---\n{self.out[-3000:]}\n"
            f"--- stderr ---\n{self.err[-3000:]}"
        )


def cli(*args: str) -> Result:
    """``main(args)`` in-process, its exit code, standard output (the ``out`` stream and
    anything printed to ``sys.stdout``) and standard error.  An exception escaping
    ``main`` fails the test (``SystemExit`` with an exit code is argparse's way)."""
    out, err, stdout = io.StringIO(), io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(stdout):
            code = main(list(args), out)
    except KeyboardInterrupt:
        raise
    except SystemExit as error:
        code = error.code if isinstance(error.code, int) else 2
    except BaseException as error:  # the test's very subject
        tb = "".join(traceback.format_exception(error))
        pytest.fail(
            f"{type(error).__name__} escaped main({[a[:60] for a in args]}): "
            f"{str(error)[:300]}\n{tb[-2500:]}",
            pytrace=False,
        )
    return Result(tuple(args), code, out.getvalue() + stdout.getvalue(), err.getvalue())


def cli_subprocess(*args: str, cwd: Path, timeout: float = 20) -> Result:
    """The command in a subprocess (for inputs that could hang or crash the test run)."""
    env = {**os.environ, "NO_COLOR": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "translator.cli", *args],
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        errors="replace",
        start_new_session=True,
    )
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, 9)
        proc.communicate()
        pytest.fail(
            f"translator {' '.join(args)} did not finish in {timeout} s (a hang)", pytrace=False
        )
    return Result(tuple(args), proc.returncode, out, err)


def message_lines(result: Result, name: str, where: str = "err") -> list[str]:
    """The lines of the output (``err``, ``out`` or ``any``) that name ``name``."""
    text = {"err": result.err, "out": result.out, "any": result.text}[where]
    return [line for line in text.splitlines() if name in line]


def assert_input_error(
    result: Result,
    name: str,
    *,
    lines: range | None = None,
    where: str = "err",
    codes: tuple[int, ...] = (2,),
    pattern: str | None = None,
) -> str:
    """``result`` is an input error: exit code in ``codes``, no traceback, a message line
    naming ``name`` (``name:LINE`` with LINE in ``lines`` when given), short enough to
    be one line, and matching ``pattern`` (case-insensitive) when given.  Returns it."""
    assert "Traceback" not in result.err, result.show()
    assert result.code in codes, f"exit code {result.code}, expected {codes}\n{result.show()}"
    found = message_lines(result, name, where)
    assert found, f"no message naming {name!r} (on {where})\n{result.show()}"
    if lines is not None:
        located = [
            line
            for line in found
            if any(int(m) in lines for m in re.findall(re.escape(name) + r":(\d+)", line))
        ]
        assert located, (
            f"no message naming {name}:LINE with LINE in "
            f"{lines.start}-{lines.stop - 1}\n{result.show()}"
        )
        found = located
    if pattern is not None:
        matching = [line for line in found if re.search(pattern, line, re.IGNORECASE)]
        assert matching, f"no message naming {name!r} matches /{pattern}/\n{result.show()}"
        found = matching
    short = [line for line in found if len(line) <= MAX_LINE]
    assert short, (
        f"the message naming {name!r} is {len(found[0])} characters long "
        f"(not a one-line message)\n{result.show()[:2000]}"
    )
    return short[0]


def line_of(text: str, needle: str) -> int:
    """The 1-based line of the first ``needle`` in ``text``."""
    index = text.index(needle)
    return text.count("\n", 0, index) + 1


def near(line: int, before: int = 0, after: int = 0) -> range:
    return range(max(1, line - before), line + after + 1)


def copy_library(root: Path) -> Path:
    """``root/cards/sample``: a copy of the sample deck (artwork included)."""
    deck = root / "cards" / "sample"
    shutil.copytree(SAMPLE, deck)
    return deck


@pytest.fixture
def deck(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the sample at ``tmp_path/cards/sample``; the working directory is
    ``tmp_path`` (so ``cards`` is the library)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("NO_COLOR", "1")
    return copy_library(tmp_path)


def set_front(path: Path, key: str, raw: str) -> int:
    """Set ``key: raw`` (raw YAML) in a card file's front matter, in place of the key's
    line, or else as the line after the first key.  Returns the line number."""
    lines = path.read_text(encoding="utf-8").split("\n")
    for number, line in enumerate(lines):
        if line.startswith(f"{key}:"):
            lines[number] = f"{key}: {raw}"
            break
    else:
        number = 2
        lines.insert(number, f"{key}: {raw}")
    path.write_text("\n".join(lines), encoding="utf-8")
    return number + 1


def snapshot(directory: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(directory)): p.read_bytes()
        for p in sorted(directory.rglob("*"))
        if p.is_file()
    }


# --------------------------------------------------------------------------------------
# Aminduna JSON: import arcmage and lint --source


@pytest.fixture(scope="module")
def exports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict]:
    """The sample exported as Aminduna JSON: ``en`` (the local artwork paths removed,
    so that it imports into an empty library) and ``fr``."""
    root = tmp_path_factory.mktemp("exports")
    sample = copy_library(root)
    found = {}
    for lang in ("en", "fr"):
        output = root / f"deck.{lang}.json"
        with contextlib.chdir(root):
            result = cli("export", "arcmage", str(sample), "--lang", lang, "-o", str(output))
        assert result.code == 0, result.show()
        found[lang] = json.loads(output.read_text(encoding="utf-8"))
    for entry in found["en"]["deckCards"]:
        entry["card"].get("translator", {}).pop("artwork", None)
    return found


def dump(document: object) -> str:
    return json.dumps(document, indent=2, ensure_ascii=False)


def first_card(document: dict) -> dict:
    return document["deckCards"][0]["card"]


RAW = "__RAW_VALUE__"
DIGITS = "9" * 5000


def raw_json(document: dict, setter, raw: str) -> str:
    setter(document, RAW)
    return dump(document).replace(f'"{RAW}"', raw, 1)


def _set_quantity(doc: dict, value: object) -> None:
    doc["deckCards"][0]["quantity"] = value


def _set_attack(doc: dict, value: object) -> None:
    first_card(doc)["attack"] = value


def _set_card(doc: dict, value: object) -> None:
    doc["deckCards"][0]["card"] = value


def _set_key(key: str, value: object):
    def setter(doc: dict) -> dict:
        doc[key] = value
        return doc

    return setter


def _card_key(key: str, value: object):
    def setter(doc: dict) -> dict:
        first_card(doc)[key] = value
        return doc

    return setter


def _json(transform):
    return lambda doc: dump(transform(doc))


def _raw(setter, raw: str):
    return lambda doc: raw_json(doc, setter, raw)


#: id -> (the JSON text from the valid document, the text whose line the message must
#: name, or None)
JSON_CASES = {
    "deckCards-5": (_json(_set_key("deckCards", 5)), '"deckCards": 5'),
    "items-5": (lambda doc: dump({"items": 5}), None),
    "deck-language-string": (_json(_set_key("language", "fr")), '"language": "fr"'),
    "card-language-string": (_json(_card_key("language", "fr")), '"language": "fr"'),
    "quantity-abc": (_raw(_set_quantity, '"abc"'), '"quantity": "abc"'),
    "quantity-NaN": (_raw(_set_quantity, "NaN"), '"quantity": NaN'),
    "quantity-Infinity": (_raw(_set_quantity, "Infinity"), '"quantity": Infinity'),
    "attack-NaN": (_raw(_set_attack, "NaN"), '"attack": NaN'),
    "attack-minus-Infinity": (_raw(_set_attack, "-Infinity"), '"attack": -Infinity'),
    "card-list": (_raw(_set_card, "[1]"), '"card": [1]'),
    "list-of-a-list": (lambda doc: dump([first_card(doc), [1]]), None),
    "quantity-5000-digits": (_raw(_set_quantity, DIGITS), '"quantity": 999'),
    "attack-5000-digits": (_raw(_set_attack, DIGITS), '"attack": 999'),
    "attack-5000-digits-string": (_raw(_set_attack, f'"{DIGITS}"'), '"attack": "999'),
    "attack-superscript-two": (_json(_card_key("attack", "²")), '"attack": "²"'),
    "bad-slug": (_json(_card_key("translator", {"slug": "Bad Slug!"})), '"slug": "Bad Slug!"'),
    "slug-path-traversal": (
        _json(_card_key("translator", {"slug": "../../evil"})),
        '"slug": "../../evil"',
    ),
    "nested-100000": (lambda doc: "[" * 100000 + "]" * 100000, None),
}


def json_lines(text: str, needle: str | None) -> range | None:
    """The lines a message may name: the offending line, or a line of the deck entry or
    card that holds it (from the ``deckCards`` line on: the cases break the first card)."""
    if needle is None:
        return None
    line = line_of(text, needle)
    start = line_of(text, '"deckCards"') if '"deckCards"' in text else line
    return range(min(start, line), line + 3)


def test_json_baseline(
    exports: dict[str, dict], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The valid export imports (so that each case below breaks one thing only)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "deck.json").write_text(dump(exports["en"]), encoding="utf-8")
    (tmp_path / "cards" / "imported").mkdir(parents=True)
    result = cli("import", "arcmage", "deck.json", "--into", "cards/imported")
    assert result.code == 0, result.show()
    (tmp_path / "deck.fr.json").write_text(dump(exports["fr"]), encoding="utf-8")
    result = cli("lint", "deck.fr.json", "--source", "deck.json")
    assert result.code in (0, 1), result.show()


@pytest.mark.parametrize("case", list(JSON_CASES))
def test_import_arcmage_bad_json(
    case: str, exports: dict[str, dict], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    make, needle = JSON_CASES[case]
    text = make(json.loads(json.dumps(exports["en"])))
    (tmp_path / "deck.json").write_text(text, encoding="utf-8")
    target = tmp_path / "cards" / "imported"
    target.mkdir(parents=True)
    result = cli("import", "arcmage", "deck.json", "--into", "cards/imported")
    assert_input_error(result, "deck.json", lines=json_lines(text, needle))
    assert not any(target.iterdir()), "a failed import wrote files"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cards", "deck.json"], (
        "the import wrote outside its deck"
    )


LINT_JSON_CASES = [
    "deckCards-5",
    "quantity-NaN",
    "card-list",
    "attack-5000-digits",
    "card-language-string",
    "nested-100000",
]


@pytest.mark.parametrize("case", LINT_JSON_CASES)
def test_lint_source_bad_json(
    case: str, exports: dict[str, dict], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The translations broken, then the English cards broken."""
    monkeypatch.chdir(tmp_path)
    make, needle = JSON_CASES[case]
    good = {lang: dump(doc) for lang, doc in exports.items()}
    bad = {lang: make(json.loads(json.dumps(doc))) for lang, doc in exports.items()}
    for broken in ("fr", "en"):
        texts = {**good, broken: bad[broken]}
        for lang, text in texts.items():
            (tmp_path / f"deck.{lang}.json").write_text(text, encoding="utf-8")
        result = cli("lint", "deck.fr.json", "--source", "deck.en.json")
        assert_input_error(result, f"deck.{broken}.json", lines=json_lines(bad[broken], needle))


# --------------------------------------------------------------------------------------
# Card front matter


@pytest.mark.parametrize("value", ["5", "true", "1.5"])
@pytest.mark.parametrize("command", ["cards check", "lint"])
def test_lint_ignore_wrong_type(value: str, command: str, deck: Path) -> None:
    line = set_front(deck / "courier.fr.md", "lint-ignore", value)
    path = "cards/sample/courier.fr.md"
    result = cli(*command.split(), "cards" if command == "cards check" else path)
    assert_input_error(
        result,
        "courier.fr.md",
        lines=near(line),
        where="any" if command == "cards check" else "err",
    )


def test_lint_ignore_wrong_type_build(deck: Path) -> None:
    line = set_front(deck / "courier.fr.md", "lint-ignore", "5")
    result = cli(
        "build",
        "cards/sample",
        "--lang",
        "fr",
        "--card",
        "courier",
        "--out",
        "out",
        "--no-preflight",
        "--jobs",
        "1",
    )
    assert_input_error(result, "courier.fr.md", lines=near(line))
    assert not list(Path().glob("out/**/*.pdf")), "the build printed an invalid library"


HUGE_ATTACK_COMMANDS = {
    "cards check": ("cards", "check", "cards"),
    "cards list": ("cards", "list", "cards"),
    "lint": ("lint", "cards/sample/courier.en.md"),
    "status": ("status", "cards"),
    "export arcmage": ("export", "arcmage", "cards/sample", "--lang", "en", "-o", "x.json"),
}


@pytest.mark.parametrize("command", list(HUGE_ATTACK_COMMANDS))
def test_attack_of_5000_digits(command: str, deck: Path) -> None:
    line = set_front(deck / "courier.en.md", "attack", DIGITS)
    result = cli(*HUGE_ATTACK_COMMANDS[command])
    assert_input_error(
        result,
        "courier.en.md",
        lines=near(line),
        where="any" if command == "cards check" else "err",
    )


def test_unreadable_source_is_not_called_missing(deck: Path) -> None:
    """An English card that cannot be read is reported as such; its translations and
    its deck entry are not told it is missing (it is there: fix it, do not create it)."""
    set_front(deck / "courier.en.md", "attack", DIGITS)
    result = cli("cards", "check", "cards")
    assert_input_error(result, "courier.en.md", lines=near(9), where="any")
    misleading = [
        line
        for line in result.text.splitlines()
        if re.search(r"courier\.en\.md is missing|'courier', which has no card file", line)
    ]
    assert not misleading, "the report says an existing file is missing:\n" + "\n".join(misleading)


@pytest.mark.parametrize(
    "command",
    [
        ("lint", "cards/sample/courier.fr.md"),
        ("lint", "cards/sample", "--select", "TR1"),
        pytest.param(
            ("review-sheet", "cards/sample", "--lang", "fr", "--out", "review"),
            marks=pytest.mark.slow,  # renders the deck
        ),
    ],
    ids=" ".join,
)
def test_number_of_5000_digits_in_card_text(command: tuple[str, ...], deck: Path) -> None:
    """A long number in card text is text: it is compared (or reported), never an
    exception, and an error names the card file."""
    for name, old, new in (
        ("courier.en.md", "draws one card", f"draws {DIGITS} cards"),
        ("courier.fr.md", "pioche une carte", f"pioche {DIGITS} cartes"),
    ):
        path = deck / name
        path.write_text(path.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
    result = cli(*command)
    assert "Traceback" not in result.err, result.show()
    assert result.code in (0, 1, 2), result.show()
    if result.code == 2:
        assert_input_error(result, "courier.")


@pytest.mark.parametrize(
    ("key", "raw"), [("attack", "'²'"), ("cost", "'٣'"), ("defense", "'①'"), ("attack", "'５'")]
)
def test_stat_that_is_no_ascii_number(key: str, raw: str, deck: Path) -> None:
    """``str.isdigit`` holds for these, ``int()`` fails or reads a digit Aminduna does
    not print: "not a number"."""
    line = set_front(deck / "courier.en.md", key, raw)
    result = cli("cards", "check", "cards")
    assert_input_error(
        result, "courier.en.md", lines=near(line), where="any", pattern="not a (whole )?number"
    )


@pytest.mark.parametrize("raw", ["{a: 1}", "[a, b]", "5"])
def test_deck_creator_not_text(raw: str, deck: Path) -> None:
    path = deck / "deck.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("creator: translator", f"creator: {raw}"), encoding="utf-8")
    line = line_of(path.read_text(encoding="utf-8"), "creator:")
    result = cli("cards", "check", "cards")
    if raw == "5":  # a number is a name one can write: reported or accepted
        assert result.code in (0, 2) and "Traceback" not in result.err, result.show()
        return
    assert_input_error(result, "deck.yaml", lines=near(line), where="any")


@pytest.mark.parametrize("char", ["\x00", ESC, "\x07", "\x7f"], ids=["NUL", "ESC", "BEL", "DEL"])
def test_control_character_in_card_body(char: str, deck: Path) -> None:
    path = deck / "courier.en.md"
    text = path.read_text(encoding="utf-8")
    text = text.replace("draws one card", f"draws{char} one card")
    path.write_text(text, encoding="utf-8")
    line = line_of(text, char)
    result = cli("cards", "check", "cards")
    assert_input_error(result, "courier.en.md", lines=near(line), where="any")


#: Characters no card name may hold, as YAML double-quoted escapes.
NAME_CHARS = {
    "ESC": "\\e",
    "BEL": "\\a",
    "CR": "\\r",
    "U+202E": "\\u202E",
    "U+2028": "\\L",
    "U+200B": "\\u200B",
}


@pytest.mark.parametrize("char", list(NAME_CHARS))
@pytest.mark.parametrize("command", ["cards check", "lint"])
def test_control_character_in_card_name(char: str, command: str, deck: Path) -> None:
    line = set_front(deck / "courier.fr.md", "name", f'"Mess{NAME_CHARS[char]}ager"')
    if command == "cards check":
        result = cli("cards", "check", "cards")
        assert_input_error(result, "courier.fr.md", lines=near(line), where="any")
    else:
        result = cli("lint", "cards/sample/courier.fr.md")
        assert_input_error(result, "courier.fr.md", lines=near(line), where="any", codes=(1, 2))
    assert ESC not in result.text, "a raw ESC from the card reached the terminal"


@pytest.mark.parametrize("char", ["\u202e", "\u200b"], ids=["U+202E", "U+200B"])
def test_invisible_character_in_card_name_raw(char: str, deck: Path) -> None:
    """The same characters written as they are (YAML allows them raw)."""
    line = set_front(deck / "courier.fr.md", "name", f"Mess{char}ager")
    result = cli("cards", "check", "cards")
    assert_input_error(result, "courier.fr.md", lines=near(line), where="any")


@pytest.mark.parametrize(
    "command",
    [
        ("cards", "list", "cards"),
        ("cards", "list", "--lang", "fr", "cards"),
        ("cards", "show", "courier"),
        ("lint", "cards/sample"),
        ("lint", "--format", "github", "cards/sample"),
        ("cards", "check", "cards"),
        ("status", "cards"),
        ("markup", "check", "cards/sample/courier.fr.md"),
    ],
    ids=" ".join,
)
def test_no_raw_escape_reaches_the_terminal(command: tuple[str, ...], deck: Path) -> None:
    """A card's ESC (which could drive the terminal: colours, titles, hyperlinks, ...)
    never comes out raw, in a name or in the text."""
    set_front(deck / "courier.fr.md", "name", '"Mess\\e]0;pwned\\a\\e[31mager"')
    text_path = deck / "courier.fr.md"
    text = text_path.read_text(encoding="utf-8")
    text_path.write_text(
        text.replace("pioche une carte", "pioche \x1b[2J une carte"), encoding="utf-8"
    )
    result = cli(*command)
    assert "Traceback" not in result.err, result.show()
    assert ESC not in result.text, f"a raw ESC in the output\n{result.show()!r}"


# --------------------------------------------------------------------------------------
# PO import


@pytest.fixture
def po_file(deck: Path) -> Path:
    result = cli("export", "po", "cards/sample", "--lang", "fr", "-o", "f.po", "--no-tbx")
    assert result.code == 0, result.show()
    return Path("f.po").resolve()


def replace_msgstr(po_path: Path, context: str, new: str) -> range:
    """Replace the msgstr of the entry ``context`` by ``new`` (PO-quoted text, one line);
    returns the lines of the entry (from its first comment to the msgstr)."""
    text = po_path.read_text(encoding="utf-8")
    start = text.index(f'msgctxt "{context}"')
    begin = text.rfind("\n\n", 0, start) + 2
    msgstr = text.index("\nmsgstr ", start) + 1
    end = text.find("\n\n", msgstr)
    end = len(text) if end < 0 else end
    text = text[:msgstr] + f"msgstr {new}" + text[end:]
    po_path.write_text(text, encoding="utf-8")
    return range(text.count("\n", 0, begin) + 1, text.count("\n", 0, msgstr) + 2)


def test_po_baseline(po_file: Path, deck: Path) -> None:
    replace_msgstr(po_file, "courier:name", '"Messagère"')
    result = cli("import", "po", "f.po")
    assert result.code in (0, 1), result.show()
    assert "name: Messagère" in (deck / "courier.fr.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("language", ["FR", "fr_CA", "fr-CA", "fr_FR.UTF-8", "../en", ""])
def test_po_header_language(language: str, po_file: Path, deck: Path) -> None:
    """The language works (read as French) or is a clear error naming the file."""
    text = po_file.read_text(encoding="utf-8")
    po_file.write_text(
        text.replace('"Language: fr\\n"', f'"Language: {language}\\n"', 1), encoding="utf-8"
    )
    replace_msgstr(po_file, "courier:name", '"Messagère"')
    before = snapshot(deck)
    result = cli("import", "po", "f.po")
    assert "Traceback" not in result.err, result.show()
    if result.code == 2:
        assert_input_error(result, "f.po")
        assert snapshot(deck) == before
        return
    assert result.code in (0, 1), result.show()
    names = [p.name for p in deck.iterdir() if p.suffix == ".md"]
    odd = [n for n in names if not re.fullmatch(r"[a-z0-9-]+\.[a-z]{2}\.md", n)]
    assert not odd, f"card files with no valid language: {odd}"
    changed = {
        name
        for name in snapshot(deck).keys() | before.keys()
        if snapshot(deck).get(name) != before.get(name)
    }
    assert changed <= {"courier.fr.md"}, f"the import changed {changed}"
    if result.code == 0:
        assert "name: Messagère" in (deck / "courier.fr.md").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("label", "msgstr"),
    [
        ("ESC", '"Mess\x1bager"'),
        ("U+202E", '"Mess\u202eager"'),
        ("newline", '"Mess\\nager"'),
        ("CR", '"Mess\\rager"'),
    ],
)
def test_po_name_with_control_character_refused(
    label: str, msgstr: str, po_file: Path, deck: Path
) -> None:
    entry = replace_msgstr(po_file, "courier:name", msgstr)
    before = (deck / "courier.fr.md").read_bytes()
    result = cli("import", "po", "f.po")
    assert_input_error(result, "f.po", lines=entry, where="any", codes=(1, 2))
    assert (deck / "courier.fr.md").read_bytes() == before, "the name was written"
    assert ESC not in result.text


def test_po_text_too_long_refused(po_file: Path, deck: Path) -> None:
    entry = replace_msgstr(po_file, "courier:text", '"' + "a" * 200_001 + '"')
    before = (deck / "courier.fr.md").read_bytes()
    result = cli("import", "po", "f.po")
    assert_input_error(result, "f.po", lines=entry, where="any", codes=(1, 2))
    assert (deck / "courier.fr.md").read_bytes() == before, "the text was written"


def test_xliff_external_entity_not_read(deck: Path) -> None:
    """An XLIFF target made of an external entity must not bring a local file's content
    into a card (XXE)."""
    result = cli("export", "xliff", "cards/sample", "--lang", "fr", "-o", "f.xlf", "--no-tbx")
    assert result.code == 0, result.show()
    secret = Path("secret.txt").resolve()
    secret.write_text("TOP-SECRET-CONTENT", encoding="utf-8")
    text = Path("f.xlf").read_text(encoding="utf-8")
    header, _, rest = text.partition("\n")
    doctype = f'<!DOCTYPE xliff [<!ENTITY xxe SYSTEM "file://{secret}">]>'
    rest = rest.replace(
        '<target state="translated">Messager</target>',
        '<target state="translated">&xxe;</target>',
        1,
    )
    Path("f.xlf").write_text(f"{header}\n{doctype}\n{rest}", encoding="utf-8")
    result = cli("import", "xliff", "f.xlf")
    assert "Traceback" not in result.err, result.show()
    assert result.code in (0, 1, 2), result.show()
    for path in deck.glob("*.md"):
        assert "TOP-SECRET" not in path.read_text(encoding="utf-8"), f"XXE into {path.name}"
    assert "TOP-SECRET" not in result.text


# --------------------------------------------------------------------------------------
# translator.toml


TOML_CASES = {
    "nested-50000": "a = " + "[" * 50000 + "]" * 50000,
    "spelling-5000-digits": "spelling = " + DIGITS,
    "glossary-missing": 'glossary = ["does-not-exist"]',
    "glossary-not-a-list": "glossary = 5",
    "select-table": "select = {a = 1}",
    "fail-on-number": "fail-on = 1e999",
}


@pytest.mark.parametrize("case", list(TOML_CASES))
def test_translator_toml(case: str, deck: Path) -> None:
    Path("translator.toml").write_text(f"[lint]\n{TOML_CASES[case]}\n", encoding="utf-8")
    result = cli("lint", "cards/sample/courier.fr.md")
    assert_input_error(result, "translator.toml", lines=None if case == "nested-50000" else near(2))


def test_translator_toml_baseline(deck: Path) -> None:
    Path("translator.toml").write_text(
        '[lint]\nglossary = ["cards"]\nspelling = false\n', encoding="utf-8"
    )
    result = cli("lint", "cards/sample/courier.fr.md")
    assert result.code in (0, 1), result.show()


# --------------------------------------------------------------------------------------
# Library glossary files


GLOSSARY_HEAD = "language: fr\nsource: test\n"
VALID_ENTRY = """entries:
  - id: saltmere-town
    en: Saltmere town
    section: other
    pos: noun
    terms:
      - term: ville de Salmère
        status: preferred
        gender: f
"""
#: id -> (file text, the line a message must name, or None)
GLOSSARY_CASES = {
    "malformed": (GLOSSARY_HEAD + "entries: [\n  - id: x\n", 3),
    "tab-indent": (GLOSSARY_HEAD + "entries:\n\t- id: x\n", 4),
    "top-level-list": ("- 1\n- 2\n", 1),
    "top-level-string": ("just text\n", 1),
    "entries-5": (GLOSSARY_HEAD + "entries: 5\n", 3),
    "entries-list-of-numbers": (GLOSSARY_HEAD + "entries: [5, 6]\n", 3),
    "language-list": ("language: [fr]\nsource: test\n" + VALID_ENTRY, 1),
    "id-mapping": (GLOSSARY_HEAD + VALID_ENTRY.replace("id: saltmere-town", "id: {a: 1}"), 4),
    "terms-5": (
        GLOSSARY_HEAD + VALID_ENTRY.split("    terms:", maxsplit=1)[0] + "    terms: 5\n",
        8,
    ),
    "term-list": (GLOSSARY_HEAD + VALID_ENTRY.replace("term: ville de Salmère", "term: [a, b]"), 9),
    "gender-5000-digits": (
        GLOSSARY_HEAD + VALID_ENTRY.replace("gender: f", f"gender: {DIGITS}"),
        11,
    ),
    "date-not-a-date": (
        GLOSSARY_HEAD
        + VALID_ENTRY.replace(
            "status: preferred", "status: deprecated\n        replaced_by: x\n        date: 5"
        ),
        12,
    ),
    "subtypes-5": (GLOSSARY_HEAD + "subtypes: 5\n" + VALID_ENTRY, 3),
    "abilities-mapping": (GLOSSARY_HEAD + "abilities: {a: 1}\n", 3),
    "not-utf8": ((GLOSSARY_HEAD + VALID_ENTRY).replace("Salmère", "Salm\udce8re"), 9),
    "nul-byte": ((GLOSSARY_HEAD + VALID_ENTRY).replace("Salmère", "Salm\x00re"), 9),
    "python-tag": (GLOSSARY_HEAD + "entries: !!python/object/apply:os.system ['true']\n", 3),
    "nested-10000": (GLOSSARY_HEAD + "entries: " + "[" * 10000 + "]" * 10000 + "\n", None),
}


def write_glossary(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8", "surrogateescape"))


@pytest.mark.parametrize("where", ["glossary/fr/extra.yaml", "sample/glossary.fr.yaml"])
def test_glossary_baseline(where: str, deck: Path) -> None:
    write_glossary(Path("cards") / where, GLOSSARY_HEAD + VALID_ENTRY)
    result = cli("glossary", "check", "--library", "cards")
    assert result.code in (0, 1), result.show()
    result = cli("lint", "cards")
    assert result.code in (0, 1), result.show()


@pytest.mark.parametrize("command", ["glossary check", "lint"])
@pytest.mark.parametrize("case", list(GLOSSARY_CASES))
def test_glossary_file_bad(case: str, command: str, deck: Path) -> None:
    text, line = GLOSSARY_CASES[case]
    write_glossary(Path("cards/glossary/fr/extra.yaml"), text)
    if command == "lint":
        result = cli("lint", "cards")
    else:
        result = cli("glossary", "check", "--library", "cards")
    assert_input_error(
        result,
        "extra.yaml",
        lines=None if line is None else near(line, 1, 1),
        where="any" if command == "glossary check" else "err",
    )


def test_glossary_in_deck_bad(deck: Path) -> None:
    write_glossary(deck / "glossary.fr.yaml", GLOSSARY_HEAD + "entries: 5\n")
    result = cli("lint", "cards")
    assert_input_error(result, "glossary.fr.yaml", lines=near(3))


#: The billion-laughs pattern: 9 levels of 9 aliases (9**9 strings once expanded).
X9 = ",".join(['"x"'] * 9)


def alias_bomb_list(indent: str = "  ") -> str:
    """The chain ``&a [x * 9]``, ``&b [*a * 9]`` ... ``&i [*h * 9]``, as the items of a
    YAML list (the value of one key)."""
    items = [f"&a [{X9}]"]
    items += [f"&{b} [{','.join(['*' + a] * 9)}]" for a, b in pairwise("abcdefghi")]
    return "\n" + "\n".join(f"{indent}- {item}" for item in items)


def test_glossary_alias_bomb(deck: Path, tmp_path: Path) -> None:
    write_glossary(
        Path("cards/glossary/fr/bomb.yaml"), GLOSSARY_HEAD + "entries:" + alias_bomb_list()
    )
    for args in (("lint", "cards"), ("glossary", "check", "--library", "cards")):
        result = cli_subprocess(*args, cwd=tmp_path, timeout=20)
        assert_input_error(result, "bomb.yaml", where="any")


def test_card_alias_bomb(deck: Path, tmp_path: Path) -> None:
    path = deck / "courier.fr.md"
    path.write_text(
        path.read_text(encoding="utf-8").replace("name: Messager", "name: " + alias_bomb_list(), 1),
        encoding="utf-8",
    )
    result = cli_subprocess("cards", "check", "cards", cwd=tmp_path, timeout=20)
    assert_input_error(result, "courier.fr.md", where="any")
