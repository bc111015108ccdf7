"""The language server's session without the protocol: a library read once, the
editor's buffers linted in place of the files, positions in the client's units, the
safe fixes as edits, and what the server does with files outside a library."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import ROOT
from translator.editor.buffers import Buffers
from translator.editor.session import (
    MAX_FINDING_ISSUES,
    Lines,
    Session,
    Sessions,
    fix_title,
    library_root,
    offset_at,
    readable,
    text_change,
    text_changes,
    too_large,
)
from translator.errors import UserError
from translator.limits import MAX_CARD_FILE_BYTES, MAX_TEXT_CHARS
from translator.lint import spelling

CARD = "veil-stalker"


def apply(text: str, changes: tuple[tuple[int, int, str], ...]) -> str:
    """``changes`` applied to ``text`` as an editor applies LSP text edits: each
    offset in the text before any of them."""
    for start, end, replacement in sorted(changes, reverse=True):
        text = text[:start] + replacement + text[end:]
    return text


# --------------------------------------------------------------------------------------
# positions


def test_lines_count_characters_in_the_clients_units() -> None:
    text = "---\nname: Rôdeur\n---\n𝄞 é!\n"
    offset = text.index("!")
    assert Lines(text, "utf-16").position(offset) == (3, 4)  # 𝄞 is two UTF-16 units
    assert Lines(text, "utf-32").position(offset) == (3, 3)
    assert Lines(text, "utf-8").position(offset) == (3, 7)  # 𝄞 four bytes, é two
    for encoding in ("utf-8", "utf-16", "utf-32"):
        lines = Lines(text, encoding)
        assert lines.offset(*lines.position(offset)) == offset
        assert lines.offset(*lines.position(text.index("é"))) == text.index("é")


def test_lines_read_the_linters_lines_and_lsps_line_breaks() -> None:
    text = "a\r\nbé c\rd\n"
    lines = Lines(text)
    # The linter counts line feeds only, its columns in characters from 1.
    assert text[lines.offset_of(2, 4)] == "c"
    # LSP counts \r\n, \r and \n: "d" is on line 2.
    assert lines.position(text.index("d")) == (2, 0)
    assert lines.offset(2, 0) == text.index("d")
    # Past a line's end is its end; past the last line the text's end.
    assert lines.offset(0, 99) == 1
    assert lines.offset(99, 0) == len(text)
    assert lines.offset_of(99, 99) == len(text)


@given(
    st.text(st.sampled_from([*"ab\n\r é😀\u2028", "\ud800", "\udc00"]), max_size=30),
    st.integers(-2, 12),
    st.integers(-2, 20),
    st.sampled_from(["utf-8", "utf-16", "utf-32"]),
)
@settings(max_examples=500, derandomize=True)
def test_an_offset_found_without_a_table_is_the_one_lines_find(
    text: str, line: int, character: int, encoding: str
) -> None:
    """A change of a buffer of any size is placed by :func:`offset_at` (no table of
    its lines): where :class:`Lines` places it, lone surrogates and every LSP line
    break included."""
    assert offset_at(text, line, character, encoding) == Lines(text, encoding).offset(
        line, character
    )


def test_lines_count_a_lone_surrogate_as_one_unit_and_three_bytes() -> None:
    text = "a\ud800b\U0001d11e\udc00c"
    offset = text.index("c")
    assert Lines(text, "utf-16").position(offset) == (0, 6)
    assert Lines(text, "utf-8").position(offset) == (0, 1 + 3 + 1 + 4 + 3)
    for encoding in ("utf-8", "utf-16", "utf-32"):
        lines = Lines(text, encoding)
        assert lines.offset(*lines.position(offset)) == offset


def test_a_buffer_is_changed_as_lsp_says_and_dropped_past_what_is_kept(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    buffers = Buffers()
    buffers.open("u", "ab\r\ncd\u2028ef", 1)
    # Past a line's end is its end, past the last line the text's end; U+2028 is no
    # line break of LSP's (pygls took it for one).
    buffer = buffers.change("u", 2, [((1, 99, 1, 99), "!"), ((9, 0, 9, 0), "?")], "utf-16")
    assert buffer is not None and buffer.text == "ab\r\ncd\u2028ef!?"
    # A range given backwards is the range; two halves typed apart make a character.
    buffers.change("u", 3, [((0, 2, 0, 0), "\ud83d"), ((0, 1, 0, 1), "\ude00")], "utf-16")
    assert buffer.text == "\U0001f600\r\ncd\u2028ef!?"
    assert buffer.size == len(buffer.text.encode("utf-8"))
    assert buffers.change("not open", 1, [(None, "x")], "utf-16") is None
    monkeypatch.setattr("translator.editor.buffers.MAX_BUFFER_BYTES", 100)
    buffers.change("u", 4, [((0, 0, 0, 0), "x" * 200)], "utf-8")
    assert (buffer.text, buffer.dropped, buffer.size) == ("", True, 215)
    buffers.change("u", 5, [((0, 0, 0, 0), "ignored")], "utf-8")  # no text to change
    assert buffer.text == "" and buffer.dropped
    buffers.change("u", 6, [(None, "back")], "utf-8")
    assert (buffer.text, buffer.dropped, buffer.size, buffer.version) == ("back", False, 4, 6)


def test_a_buffer_too_large_for_a_card_is_said_so_not_linted() -> None:
    assert too_large("---\nname: x\n---\nshort\n") is None
    said = too_large("é" * (MAX_CARD_FILE_BYTES // 2 + 1))  # bytes, not characters
    assert said is not None and said.startswith("this buffer is 1 MB, more than a card file")
    said = too_large("", 80 << 20)  # its size as counted by the server
    assert said is not None and said.startswith("this buffer is 80 MB")
    said = too_large("---\nname: x\n---\n" + "a" * (MAX_TEXT_CHARS + 1))
    assert said is not None and said.startswith("the card text is 65,537 characters long")
    assert readable("a\ud800b") == "a\ufffdb" and readable("ab") == "ab"


def test_a_change_is_the_smallest_replacement() -> None:
    assert text_change("J'inflige", "J’inflige") == (1, 2, "’")
    assert text_change("abc", "abc") == (3, 3, "")
    old = "les villes des adversaires !"
    new = "les cités des adversaires\u00a0!"
    changes = text_changes(old, new)
    assert changes == ((4, 10, "cités"), (26, 27, "\u00a0"))
    assert apply(old, changes) == new


def test_fix_titles_name_invisible_characters() -> None:
    assert fix_title("FR201", " ", "\u00a0") == "FR201: replace “ ” with “U+00A0”"
    assert fix_title("FR206", " ", "") == "FR206: delete “ ”"
    assert fix_title("FR201", "", "\u202f") == "FR201: insert “U+202F”"


# --------------------------------------------------------------------------------------
# finding the library


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A workspace holding a copy of the sample library (``cards/sample``)."""
    folder = tmp_path_factory.mktemp("workspace")
    shutil.copytree(ROOT / "cards" / "sample", folder / "cards" / "sample")
    return folder


def test_the_library_is_the_folder_of_decks_inside_the_workspace(workspace: Path) -> None:
    card = workspace / "cards" / "sample" / f"{CARD}.fr.md"
    assert library_root(card, [workspace]) == workspace / "cards"
    # A workspace that is the deck itself: the deck alone.
    deck = workspace / "cards" / "sample"
    assert library_root(card, [deck]) == deck
    # Not in a deck: no library.
    assert library_root(workspace / "notes.fr.md", [workspace]) is None
    sessions = Sessions([workspace])
    assert sessions.for_path(workspace / "notes.fr.md") is None
    assert sessions.for_path(card) is sessions.for_path(card)
    assert sessions.default_roots() == [workspace / "cards"]


# --------------------------------------------------------------------------------------
# a session


@pytest.fixture(scope="module")
def warm(workspace: Path) -> Session:
    """The sample library read, its linter warm (one session for the module)."""
    session = Sessions([workspace]).for_path(workspace / "cards" / "sample" / f"{CARD}.fr.md")
    assert session is not None
    session.warm()
    assert session.loaded and session.failure is None, session.failure
    return session


@pytest.fixture
def session(warm: Session) -> Iterator[Session]:
    """The warm session; what a test left open is closed after it (the disk wins)."""
    yield warm
    for path in list(warm.buffers):
        warm.close(path)


def card(session: Session, name: str) -> tuple[str, str]:
    """The library path of a card file of the sample, and its text on disk."""
    path = session.path_of(session.root / "sample" / name)
    return path, Path(path).read_text("utf-8")


def test_an_untouched_translation_has_no_issue(session: Session) -> None:
    path, text = card(session, f"{CARD}.fr.md")
    assert session.lint(path, text).issues == []


def test_a_finding_is_ranged_on_what_it_is_about(session: Session) -> None:
    path, text = card(session, f"{CARD}.fr.md")
    changed = text.replace("créatures.", "créatures !")  # accented letters before it
    (issue,) = session.lint(path, changed).issues
    assert (issue.code, issue.severity, issue.fixable) == ("FR201", "warning", True)
    assert changed[issue.start : issue.end] == " "
    assert issue.start == changed.index(" !")
    # The editor's position: the line of the text, its character counted in UTF-16.
    line_text = next(line for line in changed.splitlines() if "créatures !" in line)
    line, character = Lines(changed).position(issue.start)
    assert changed.splitlines()[line] == line_text
    assert character == line_text.index(" !")
    # In UTF-8 every é before it is two bytes.
    before = line_text[: line_text.index(" !")]
    assert Lines(changed, "utf-8").position(issue.start)[1] == len(before.encode())


def test_a_quick_fix_fixes_its_finding(session: Session) -> None:
    path, text = card(session, f"{CARD}.fr.md")
    changed = text.replace("J’inflige", "J'inflige")
    (fix,) = session.fixes(path, changed)
    assert fix.title == "FR203: replace “'” with “’”"
    assert fix.issue is not None and fix.issue.code == "FR203"
    assert apply(changed, fix.changes) == text
    assert session.lint(path, text).issues == []
    # Only the fixes of the range asked for.
    assert session.fixes(path, changed, 0, 10) == []


def test_apply_all_safe_fixes_fixes_until_nothing_is_left(session: Session) -> None:
    path, text = card(session, f"{CARD}.fr.md")
    changed = text.replace("J’inflige", "J'inflige").replace("cités", "villes")
    changed = changed.replace("créatures.", "créatures !")
    assert len(session.lint(path, changed).issues) == 3
    every = session.fix_all(path, changed)
    assert every is not None and every.title == "Apply all safe fixes (3 fixes)"
    assert len(every.changes) == 3
    fixed = apply(changed, every.changes)
    assert session.lint(path, fixed).issues == []
    # The buffer, not the fixed text, stays in the library until the edit is applied.
    assert session.lint(path, changed).issues
    assert session.fix_all(path, text) is None


def test_the_english_card_is_never_fixed(session: Session) -> None:
    path, text = card(session, f"{CARD}.en.md")
    changed = text.replace("I can", "I&nbsp;can")
    assert any(issue.fixable for issue in session.lint(path, changed).issues)
    assert session.fixes(path, changed) == []
    assert session.fix_all(path, changed) is None


def test_the_english_buffer_is_what_translations_are_checked_against(session: Session) -> None:
    english, english_text = card(session, f"{CARD}.en.md")
    french, french_text = card(session, f"{CARD}.fr.md")
    assert session.english(french) == english
    assert french in session.translations(english)
    assert session.translations(french) == []
    assert "-1/-1" in english_text
    session.lint(english, english_text.replace("-1/-1", "-2/-2"))
    codes = {issue.code for issue in session.lint(french, french_text).issues}
    assert "TR101" in codes  # the numbers differ from the unsaved English
    session.close(english)  # back to the file on disk
    assert session.lint(french, french_text).issues == []


def test_broken_yaml_is_a_problem_where_the_parser_stopped(session: Session) -> None:
    path, text = card(session, f"{CARD}.fr.md")
    broken = text.replace("name: Rôdeur du voile", "name: Rôdeur: du voile")
    (issue,) = session.lint(path, broken).issues
    assert issue.code is None and issue.severity == "error"
    assert issue.message.startswith("malformed YAML: mapping values are not allowed")
    assert "(check the indentation, colons and quotes of this line)" in issue.message
    # The column YAML gives (characters, after the accented letter) is the colon's.
    assert issue.start == broken.index("Rôdeur:") + len("Rôdeur")
    assert Lines(broken).position(issue.start) == (1, len("name: Rôdeur"))
    # The library keeps the last version that parsed, for its other cards.
    assert session.english(path) is not None
    assert session.lint(path, text).issues == []


def test_a_new_file_an_unknown_language_and_a_misnamed_file(session: Session) -> None:
    path, text = card(session, f"{CARD}.fr.md")
    german = str(Path(path).with_name(f"{CARD}.de.md"))
    issues = session.lint(german, text)  # unsaved, a language without a glossary
    assert all(issue.severity in ("error", "warning", "info") for issue in issues.issues)
    session.close(german)  # never saved: gone from the library
    assert "de" not in session.library.cards[("sample", CARD)].translations  # type: ignore[union-attr]


@pytest.mark.skipif(
    spelling.find_dictionary("fr") is None, reason="no French Hunspell dictionary (hunspell-fr)"
)
def test_spelling_is_checked_as_one_types(session: Session) -> None:
    path, text = card(session, f"{CARD}.fr.md")
    changed = text.replace("adversaires.", "adversairres.")
    issues = session.lint(path, changed).issues
    (spelt,) = [issue for issue in issues if issue.code == "SP101"]
    assert changed[spelt.start : spelt.end] == "adversairres"
    assert "adversaires" in spelt.message


def test_a_configuration_problem_is_said_on_the_file(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "cards" / "sample", tmp_path / "cards" / "sample")
    (tmp_path / "translator.toml").write_text('[lint]\nselect = ["XX9"]\n', "utf-8")
    path = tmp_path / "cards" / "sample" / f"{CARD}.fr.md"
    session = Sessions([tmp_path]).for_path(path)
    assert session is not None
    (issue,) = session.lint(str(path), path.read_text("utf-8")).issues
    assert "XX9" in issue.message and "translator.toml" in issue.message
    assert not session.loaded
    # Fixed: the next lint reads the library.
    (tmp_path / "translator.toml").write_text("[lint]\n", "utf-8")
    assert session.lint(str(path), path.read_text("utf-8")).issues == []


def test_a_file_changed_on_disk_is_read_again(session: Session, workspace: Path) -> None:
    english, text = card(session, f"{CARD}.en.md")
    french, french_text = card(session, f"{CARD}.fr.md")
    Path(english).write_text(text.replace("-1/-1", "-3/-3"), "utf-8")
    try:
        session.refresh(english)
        assert "TR101" in {i.code for i in session.lint(french, french_text).issues}
    finally:
        Path(english).write_text(text, "utf-8")
        session.refresh(english)
    assert session.lint(french, french_text).issues == []


def test_a_buffer_too_large_gets_one_issue_and_the_library_keeps_its_last_version(
    session: Session,
) -> None:
    path, text = card(session, f"{CARD}.fr.md")
    large = text + "x" * MAX_CARD_FILE_BYTES
    linted = session.lint(path, large)
    assert linted.refused is not None and linted.file is None
    (issue,) = linted.issues
    assert (issue.start, issue.end, issue.severity) == (0, 0, "error")
    assert session.fixes(path, large) == [] and session.fix_all(path, large) is None
    assert session.english(path) is not None  # the card is still in the library
    with pytest.raises(UserError, match="more than a card file may be"):
        session.preview(path, large, session.root)
    assert session.lint(path, text).issues == []


def test_a_lone_surrogate_is_an_issue_and_the_rest_is_linted(session: Session) -> None:
    path, text = card(session, f"{CARD}.fr.md")
    changed = text.replace("voile", "vo\ud800ile").replace("J’inflige", "J'inflige")
    issues = session.lint(path, changed).issues
    (lone,) = [issue for issue in issues if issue.code is None]
    assert (lone.start, lone.end) == (changed.index("\ud800"), changed.index("\ud800") + 1)
    assert lone.message.startswith("a lone surrogate, U+D800: half of a character")
    assert [issue.code for issue in issues if issue.code] == ["FR203"]
    (fix,) = session.fixes(path, changed)  # offsets of the buffer the editor holds
    assert apply(changed, fix.changes) == changed.replace("J'inflige", "J’inflige")
    # In UTF-8 positions too (a lone surrogate counted as three bytes, as it is sent).
    assert session.lint(path, changed, "utf-8").issues == issues


def test_findings_beyond_a_few_hundred_are_counted_not_each_shown(session: Session) -> None:
    path, text = card(session, f"{CARD}.fr.md")
    front = text[: text.index("---\n", 4) + 4]
    linted = session.lint(path, front + ":" * 2000)
    assert len(linted.findings) > MAX_FINDING_ISSUES
    *shown, more = linted.issues
    assert len(shown) == MAX_FINDING_ISSUES
    assert more.message.startswith(f"{len(linted.findings) - MAX_FINDING_ISSUES:,} more findings")
