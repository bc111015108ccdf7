"""Hostile card libraries: files from outside, imports that escape, invisible characters,
YAML and JSON bombs, files that are not files.  Each class is closed at one place
(docs/security.md); these tests attack it through the command line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.lintkit import copy_sample, edit
from translator import jsonfile, untrusted, yamlfile
from translator.cli import main
from translator.problems import Problem
from translator.textio import InputError, atomic_write, read_file

BOMB = (
    'a: &a ["x","x","x","x","x","x","x","x","x"]\n'
    "b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\n"
    "c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n"
    "d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n"
    "e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n"
    "f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\n"
    "g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]\n"
    "h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]\n"
    "name: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]\n"
)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Exit code, standard output, and both outputs (``cards check`` reports on
    standard output, other commands on standard error)."""
    code = main(list(args))
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    return code, captured.out, captured.out + captured.err


# --------------------------------------------------------------------------------------
# Paths a card names resolve inside its library.


@pytest.mark.parametrize(
    "artwork", ["/etc/passwd", "../../../../../../etc/hostname", "art/../../outside.png"]
)
def test_artwork_outside_the_library_is_an_error(
    tmp_path: Path, artwork: str, capsys: pytest.CaptureFixture[str]
) -> None:
    deck = copy_sample(tmp_path)
    (tmp_path / "outside.png").write_bytes((deck / "art" / "courier.jpg").read_bytes())
    edit(deck / "courier.en.md", "artwork: art/courier.jpg", f"artwork: {artwork}")
    code, _, err = run(capsys, "cards", "check", str(deck))
    assert code == 2
    assert "courier.en.md:" in err and "is outside the library" in err


def test_symlinked_artwork_and_art_folder_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deck = copy_sample(tmp_path)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.jpg").write_bytes((deck / "art" / "courier.jpg").read_bytes())
    (deck / "art" / "courier.jpg").unlink()
    (deck / "art" / "courier.jpg").symlink_to(outside / "secret.jpg")
    (deck / "linked").symlink_to(outside, target_is_directory=True)
    edit(deck / "saltmere.en.md", "artwork: art/saltmere.jpg", "artwork: linked/secret.jpg")
    code, _, err = run(capsys, "cards", "check", str(deck))
    assert code == 2
    assert "courier.en.md:" in err and "saltmere.en.md:" in err
    assert err.count("is outside the library") == 2


def test_the_build_never_opens_artwork_outside(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from translator.typeset import artwork

    deck = copy_sample(tmp_path)
    edit(deck / "courier.en.md", "artwork: art/courier.jpg", "artwork: /proc/self/environ")
    opened: list[str] = []
    real = artwork.read_file
    monkeypatch.setattr(artwork, "read_file", lambda p, *a: opened.append(str(p)) or real(p, *a))
    code, _, err = run(
        capsys,
        "build",
        str(deck),
        "--lang",
        "en",
        "--card",
        "courier",
        "--out",
        str(tmp_path / "out"),
        "--jobs",
        "1",
    )
    assert code == 2 and "outside the library" in err
    assert not any("proc" in path for path in opened)
    assert not (tmp_path / "out" / "courier.en.pdf").exists()


def test_allowed_folder_in_translator_toml(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    deck = copy_sample(tmp_path)
    shared = tmp_path / "shared-art"
    shared.mkdir()
    (shared / "c.jpg").write_bytes((deck / "art" / "courier.jpg").read_bytes())
    edit(deck / "courier.en.md", "artwork: art/courier.jpg", "artwork: ../shared-art/c.jpg")
    monkeypatch.chdir(tmp_path)
    assert run(capsys, "cards", "check", "sample")[0] == 2
    from translator import config

    config._allowed.cache_clear()
    (tmp_path / "translator.toml").write_text('[library]\nallow-paths = ["shared-art"]\n')
    try:
        assert run(capsys, "cards", "check", "sample")[0] == 0
    finally:
        config._allowed.cache_clear()


def test_a_card_file_linking_outside_is_not_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deck = copy_sample(tmp_path)
    secret = tmp_path / "secret.md"
    secret.write_text(
        (deck / "courier.fr.md").read_text("utf-8").replace("name:", "name: SECRET", 1),
        encoding="utf-8",
    )
    (deck / "courier.fr.md").unlink()
    (deck / "courier.fr.md").symlink_to(secret)
    _, out, err = run(capsys, "cards", "list", str(deck))
    assert "courier.fr.md:1: is a link to" in err and "outside the library" in err
    assert "SECRET" not in out
    assert run(capsys, "cards", "check", str(deck))[0] == 2


# --------------------------------------------------------------------------------------
# Imports write inside the deck.


def _export(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> list:
    deck = copy_sample(tmp_path)
    out = tmp_path / "deck.json"
    assert run(capsys, "export", "arcmage", str(deck), "--lang", "en", "-o", str(out))[0] == 0
    return json.loads(out.read_text("utf-8"))["deckCards"]


@pytest.mark.parametrize(
    "slug", ["/tmp/abs-escape", "../../escaped", "Bad Slug!", "a/b", 5, "new\n"]
)
def test_import_slugs_are_checked(
    tmp_path: Path, slug: object, capsys: pytest.CaptureFixture[str]
) -> None:
    card = _export(tmp_path, capsys)[0]["card"]
    card.pop("guid", None)
    card["translator"]["slug"] = slug
    source = tmp_path / "one.json"
    source.write_text(json.dumps(card, indent=2), encoding="utf-8")
    before = sorted(str(p) for p in tmp_path.rglob("*"))
    code, _, err = run(
        capsys, "import", "arcmage", str(source), "--into", str(tmp_path / "lib" / "new")
    )
    assert code == 2
    assert f"{source}:" in err and "slug" in err and "nothing was imported" in err
    assert sorted(str(p) for p in tmp_path.rglob("*")) == before
    assert not Path("/tmp/abs-escape.en.md").exists()


@pytest.mark.slow
def test_killed_import_leaves_one_folder_that_the_next_write_sweeps(tmp_path: Path) -> None:
    cards = [
        {
            "name": f"Goblin {i}",
            "type": {"name": "Creature"},
            "faction": {"name": "Gaian"},
            "markdownText": "Draw a card.",
            "language": {"languageCode": "en"},
        }
        for i in range(3000)
    ]
    source = tmp_path / "many.json"
    source.write_text(json.dumps(cards), encoding="utf-8")
    library = tmp_path / "lib"
    command = (
        f"from translator.cli import main; main(['import', 'arcmage', '{source}', "
        f"'--into', '{library / 'deck'}'])"
    )
    process = subprocess.Popen([sys.executable, "-c", command])
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not any(library.glob(".import.*")):
        time.sleep(0.005)
    process.kill()
    process.wait()
    # What the killed import leaves is one staging folder, nothing beside the cards.
    leftovers = [p for p in library.rglob("*.tmp") if ".import." not in str(p.parent)]
    assert len(leftovers) == 1 and leftovers[0].name.startswith(".import.")
    assert leftovers[0].is_dir() and leftovers[0].parent == library
    assert main(["import", "arcmage", str(source), "--into", str(library / "deck")]) == 0
    assert not list(library.rglob("*.tmp"))


# --------------------------------------------------------------------------------------
# Invisible characters are refused, reported, and never sent raw to a terminal.


@pytest.mark.parametrize("char", ["\x1b", "\x07", "\r", "\u202e", "\u2028", "\u200b", "\x00"])
def test_control_characters_in_a_name_are_reported(
    tmp_path: Path, char: str, capsys: pytest.CaptureFixture[str]
) -> None:
    deck = copy_sample(tmp_path)
    edit(deck / "courier.fr.md", "name: Messager", f'name: "Mess\\u{ord(char):04x}[2Jager"')
    line = 2
    code, out, err = run(capsys, "cards", "check", str(deck))
    assert code == 2
    assert f"courier.fr.md:{line}: 'name' holds the invisible character U+{ord(char):04X}" in err
    for command in (
        ["cards", "list", str(deck)],
        ["cards", "show", "courier", str(deck)],
        ["lint", str(deck)],
    ):
        _, out, err = run(capsys, *command)
        assert char not in out + err or char == "\r"


def test_control_characters_in_a_card_text_are_reported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deck = copy_sample(tmp_path)
    path = deck / "courier.en.md"
    text = path.read_text("utf-8")
    path.write_text(text + "A NUL\x00 here\n", encoding="utf-8")
    code, _, err = run(capsys, "cards", "check", str(deck))
    assert code == 2 and "courier.en.md:" in err and "U+0000 NULL" in err


def test_untrusted_printable_keeps_our_colours() -> None:
    assert untrusted.printable("a\x1b[2Jb\u202ec") == "a\\x1b[2Jb\\u202ec"
    coloured = "\x1b[31mred\x1b[0m \x07\x1b[8m"
    assert untrusted.printable_output(coloured, colours=True) == "\x1b[31mred\x1b[0m \\x07\\x1b[8m"
    assert untrusted.printable_output(coloured) == "\\x1b[31mred\\x1b[0m \\x07\\x1b[8m"
    assert untrusted.character_problem("ok\u00a0«\u202f»", one_line=True) is None
    assert "U+2028 LINE SEPARATOR" in str(untrusted.character_problem("a\u2028", True))
    assert untrusted.bad_characters("line\r\nnext\rx", one_line=False) == [(10, "\r")]
    assert str(Problem("f", 1, "name \x1b[2J")) == "f:1: name \\x1b[2J"


# --------------------------------------------------------------------------------------
# Bombs and limits.


def test_yaml_aliases_are_refused_fast(tmp_path: Path) -> None:
    problems: list[Problem] = []
    started = time.perf_counter()
    assert yamlfile.load(BOMB, "card.md", 2, problems) is None
    assert time.perf_counter() - started < 0.5
    assert problems[0].line == 3 and "aliases" in problems[0].message


@pytest.mark.parametrize("where", ["card", "deck", "glossary"])
def test_yaml_bomb_in_library_files(
    tmp_path: Path, where: str, capsys: pytest.CaptureFixture[str]
) -> None:
    deck = copy_sample(tmp_path)
    if where == "card":
        path = deck / "courier.en.md"
        path.write_text("---\n" + BOMB + "---\nText\n", encoding="utf-8")
    elif where == "deck":
        path = deck / "deck.yaml"
        path.write_text(BOMB, encoding="utf-8")
    else:
        path = deck / "glossary.fr.yaml"
        path.write_text(BOMB, encoding="utf-8")
    started = time.perf_counter()
    code, out, err = run(capsys, "lint", str(deck), "--lang", "fr")
    assert time.perf_counter() - started < 30
    assert code == 2 and f"{path}:" in err and "aliases" in err
    assert len(out) + len(err) < 20_000


def test_json_bombs() -> None:
    for text, message in (
        ("[" * 100_000 + "]" * 100_000, "nested"),
        ('{"a": NaN}', "NaN"),
        ("[Infinity]", "Infinity"),
        ('{"attack": ' + "9" * 5000 + "}", "digits"),
    ):
        problems: list[Problem] = []
        assert jsonfile.load(text, "x.json", problems) == (False, None)
        assert message in problems[0].message


def test_json_line_of_a_value() -> None:
    text = '{"deckCards": [\n {"card": {"a": 1}},\n {"card": {\n  "attack": "x"}}]}'
    assert jsonfile.line_of(text, ("deckCards", 1, "card", "attack")) == 4
    assert jsonfile.line_of(text, ("deckCards", 0, "card")) == 2


@pytest.mark.parametrize("kind", ["fifo", "device", "directory", "large"])
def test_only_regular_files_are_read(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "x.en.md"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "device":
        path = Path("/dev/zero")
    elif kind == "directory":
        path.mkdir()
    else:
        path.write_bytes(b"x" * 2000)
    with pytest.raises(InputError) as caught:
        read_file(path, 1000, "card file")
    assert {
        "fifo": "named pipe",
        "device": "a device",
        "directory": "directory",
        "large": "at most",
    }[kind] in caught.value.message


@pytest.mark.slow
def test_a_fifo_in_a_deck_does_not_hang(tmp_path: Path) -> None:
    deck = copy_sample(tmp_path)
    os.mkfifo(deck / "ghost.en.md")
    (deck / "folder.fr.md").mkdir()
    for command in (["cards", "check"], ["lint"], ["status"], ["cards", "list"]):
        result = subprocess.run(
            [
                sys.executable,
                "-c",
                "import sys; from translator.cli import main; sys.exit(main(sys.argv[1:]))",
                *command,
                str(deck),
            ],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        output = result.stdout + result.stderr
        assert result.returncode == 2, (command, output)
        assert "ghost.en.md:1: is a named pipe" in output
        assert "folder.fr.md" in output and "Traceback" not in output


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("1000000", "(at most 100)"),
        ("1000000000000000000", "(at most 100)"),
        ("9" * 4000, "(at most 100)"),
        ("9" * 5000, "digits"),
    ],
)
def test_deck_quantities_are_bounded(
    tmp_path: Path, value: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    deck = copy_sample(tmp_path)
    edit(deck / "deck.yaml", "courier: ", f"courier: {value}\n  old-courier: ")
    code, _, err = run(capsys, "cards", "check", str(deck))
    assert code == 2 and "deck.yaml:" in err and message in err


@pytest.mark.parametrize(
    ("key", "value"),
    [("attack", "'²'"), ("cost", "'٣'"), ("attack", "9" * 5000), ("defense", "99999")],
)
def test_stats_are_ascii_numbers(
    tmp_path: Path, key: str, value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    deck = copy_sample(tmp_path)
    text = (deck / "sandhorn-archer.en.md").read_text("utf-8")
    lines = [
        f"{key}: {value}" if line.startswith(f"{key}:") else line for line in text.splitlines()
    ]
    (deck / "sandhorn-archer.en.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    for command in (["cards", "check"], ["cards", "list"], ["lint"], ["status"]):
        code, _, err = run(capsys, *command, str(deck))
        assert code == 2 and "sandhorn-archer.en.md:" in err, command


def test_creator_is_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    deck = copy_sample(tmp_path)
    path = deck / "deck.yaml"
    path.write_text(path.read_text("utf-8") + "creator: {a: 1}\n", encoding="utf-8")
    code, _, err = run(capsys, "cards", "check", str(deck))
    assert code == 2 and "'creator' must be text" in err


@pytest.mark.parametrize("value", ["5", "true", "1.5", "{a: 1}"])
def test_lint_ignore_of_the_wrong_type(
    tmp_path: Path, value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    deck = copy_sample(tmp_path)
    edit(deck / "courier.fr.md", "name:", f"lint-ignore: {value}\nname:")
    assert run(capsys, "cards", "check", str(deck))[0] == 2
    code, _, err = run(capsys, "lint", str(deck))
    assert code == 2 and "lint-ignore" in err


# --------------------------------------------------------------------------------------
# Configuration.


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[lint]\na = " + "[" * 50_000 + "]" * 50_000 + "\n", "nested"),
        ("[lint]\nspelling = " + "9" * 5000 + "\n", "not valid TOML"),
        ('[lint]\nglossary = ["does-not-exist"]\n', "no file or folder 'does-not-exist'"),
        ('[library]\nallow-paths = ["nowhere"]\n', "no folder 'nowhere'"),
    ],
)
def test_bad_configuration(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    text: str,
    message: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    copy_sample(tmp_path)
    (tmp_path / "translator.toml").write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, _, err = run(capsys, "lint", "sample")
    assert code == 2 and "translator.toml" in err and message in err


# --------------------------------------------------------------------------------------
# Writes keep what the file was.


def test_atomic_write_keeps_bom_and_link(tmp_path: Path) -> None:
    real = tmp_path / "real.md"
    real.write_bytes(b"\xef\xbb\xbfold\n")
    link = tmp_path / "link.md"
    link.symlink_to(real)
    atomic_write(str(link), "new\n", within=tmp_path)
    assert link.is_symlink()
    assert real.read_bytes() == b"\xef\xbb\xbfnew\n"


def test_lint_fix_keeps_bom_and_symlink(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    deck = copy_sample(tmp_path)
    store = deck / "store"
    store.mkdir()
    path = deck / "courier.fr.md"
    text = path.read_text("utf-8").replace("pioche une carte", "pioche  une carte")
    (store / "courier.fr.md").write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    path.unlink()
    path.symlink_to(Path("store") / "courier.fr.md")
    run(capsys, "lint", str(deck), "--fix")
    assert path.is_symlink()
    data = (store / "courier.fr.md").read_bytes()
    assert data.startswith(b"\xef\xbb\xbf")


def test_a_full_disk_names_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import errno

    deck = copy_sample(tmp_path)
    edit(deck / "courier.fr.md", "pioche une carte", "pioche  une carte")

    def full(*_: object) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full)
    code, _, err = run(capsys, "lint", str(deck), "--fix")
    assert code == 2
    assert err.count("translator:") == 1
    assert "courier.fr.md: No space left on device" in err
    assert ".tmp" not in err


def test_many_bad_cards_are_reported_in_linear_time(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A line is found for the first problems only: a search scans the JSON text, and
    one per card of a file that is wrong everywhere would make the report quadratic."""
    cards = [{"name": f"Goblin {i}", "markdownText": "x", "attack": "²"} for i in range(4000)]
    source = tmp_path / "bad.json"
    source.write_text(json.dumps(cards, indent=1), encoding="utf-8")
    started = time.perf_counter()
    code, _, err = run(
        capsys, "import", "arcmage", str(source), "--into", str(tmp_path / "lib" / "deck")
    )
    assert time.perf_counter() - started < 30
    lines = [line for line in err.splitlines() if "attack" in line]
    assert code == 2 and len(lines) == 4000
    assert lines[0].startswith(f"translator: {source}:5: [0].attack")
    assert lines[-1].startswith(f"translator: {source}:0: [3999].attack")
