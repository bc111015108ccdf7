"""``translator.cards.edit``: front matter changes made line by line, nothing else touched.

Every edit is checked twice: byte for byte (the lines that must not change are compared
as lists) and by reading the result back with the card file parser.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from translator.cards import edit as edit_module
from translator.cards.edit import REMOVE, EditError, edit_card, render, scalar, set_line
from translator.cards.files import parse_card_text
from translator.cards.model import CardFile

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "cards" / "sample" / "courier.fr.md"
PATH = "deck/courier.fr.md"

#: A translation card written by hand: every quoting style, comments, a Markdown body.
CARD = (
    "---\n"
    "# Traduction : Camille\n"
    'name: "Messager"  # le nom imprimé\n'
    "name2: 'du ciel de fer'\n"
    "subtype: Oiseau, soldat # sous-type\n"
    "status: Draft\n"
    'source: "13bd-01c1-b0f5-5f06-7423"\n'
    "---\n"
    "***Vol***\\\n"
    "*Seules les créatures dotées du vol peuvent me bloquer.*\n"
    "\n"
    ":m: La *joueureuse ciblée* pioche une carte.\n"
)
FIELDS = {
    "name": "Messager",
    "name2": "du ciel de fer",
    "subtype": "Oiseau, soldat",
    "status": "Draft",
    "source": "13bd-01c1-b0f5-5f06-7423",
}


def parse(text: str, path: str = PATH) -> CardFile:
    problems: list = []
    card = parse_card_text(path, "deck", text, problems)
    assert card is not None, problems
    return card


def edit(
    text: str, changes: dict[str, Any] | None = None, body: str | None = None, path: str = PATH
) -> str:
    return edit_card(parse(text, path), text, changes, body)


def front_lines(text: str) -> list[str]:
    card = parse(text)
    return card.front_matter.splitlines(keepends=True)


def index_of(lines: list[str], key: str) -> int:
    found = [i for i, line in enumerate(lines) if line.startswith(f"{key}:")]
    assert len(found) == 1, (key, lines)
    return found[0]


def without(lines: list[str], index: int) -> list[str]:
    return lines[:index] + lines[index + 1 :]


def test_the_hand_written_card_reads_as_intended() -> None:
    card = parse(CARD)
    assert card.fields == FIELDS
    assert CARD.startswith(card.front_matter)


# --------------------------------------------------------------------------------------
# 1. One value changed: its quoting and comment kept, every other line identical


@pytest.mark.parametrize(
    ("key", "value", "line"),
    [
        # double quoted stays double quoted, and keeps its comment and its spacing
        ("name", "Courrier", 'name: "Courrier"  # le nom imprimé\n'),
        ("name", 'Le "vrai" courrier', 'name: "Le \\"vrai\\" courrier"  # le nom imprimé\n'),
        # single quoted stays single quoted (a quote is doubled, as YAML wants)
        ("name2", "de l'air", "name2: 'de l''air'\n"),
        # plain stays plain, with its comment
        ("subtype", "Oiseau", "subtype: Oiseau # sous-type\n"),
        ("subtype", "Oiseau, soldat, messager", "subtype: Oiseau, soldat, messager # sous-type\n"),
        ("status", "Final", "status: Final\n"),
        # plain is impossible: quoted, so that it reads back as the same string
        ("subtype", "2026-01-01", 'subtype: "2026-01-01" # sous-type\n'),
        ("subtype", "yes", 'subtype: "yes" # sous-type\n'),
        ("subtype", "a # b", 'subtype: "a # b" # sous-type\n'),
        ("subtype", "Oiseau: soldat", 'subtype: "Oiseau: soldat" # sous-type\n'),
        # a fingerprint on a quoted line stays quoted
        ("source", "0000-1111-2222-3333-4444", 'source: "0000-1111-2222-3333-4444"\n'),
    ],
)
def test_changing_one_value_rewrites_only_its_line(key: str, value: str, line: str) -> None:
    before = front_lines(CARD)
    new = edit(CARD, {key: value})
    after = front_lines(new)
    index = index_of(before, key)
    assert len(after) == len(before)
    assert after[index] == line
    assert without(after, index) == without(before, index)
    assert new.endswith(parse(CARD).body) and parse(new).body == parse(CARD).body
    assert parse(new).fields == {**FIELDS, key: value}


def test_several_values_changed_at_once() -> None:
    new = edit(CARD, {"name": "Courrier", "name2": "des nuages", "status": "Final"})
    before, after = front_lines(CARD), front_lines(new)
    changed = [i for i, (a, b) in enumerate(zip(before, after, strict=True)) if a != b]
    assert [after[i] for i in changed] == [
        'name: "Courrier"  # le nom imprimé\n',
        "name2: 'des nuages'\n",
        "status: Final\n",
    ]
    assert parse(new).fields == {
        **FIELDS,
        "name": "Courrier",
        "name2": "des nuages",
        "status": "Final",
    }


def test_no_change_returns_the_content_unchanged() -> None:
    assert edit(CARD) == CARD
    assert edit(CARD, {}) == CARD
    # the value the file already holds is no change
    assert edit(CARD, {"name": "Messager", "status": "Draft"}) == CARD


def test_a_string_replacing_an_unquoted_date_is_quoted() -> None:
    text = CARD.replace("status: Draft\n", "status: Draft\nreviewed: 2026-01-01\n")
    assert parse(text).fields["reviewed"] != "2026-01-01"  # a date, not a string
    new = edit(text, {"reviewed": "2026-11-30"})
    assert 'reviewed: "2026-11-30"\n' in new
    assert parse(new).fields["reviewed"] == "2026-11-30"


def test_changing_a_value_of_the_sample_card() -> None:
    content = SAMPLE.read_text("utf-8")
    card = parse(content, "sample/courier.fr.md")
    new = edit_card(card, content, {"status": "Final"})
    before = content.splitlines(keepends=True)
    after = new.splitlines(keepends=True)
    index = index_of(before, "status")
    assert after[index] == "status: Final\n"
    assert without(after, index) == without(before, index)  # the body too
    assert parse(new, "sample/courier.fr.md").fields == {**card.fields, "status": "Final"}
    # the fingerprint keeps its quotes when it is changed
    new = edit_card(card, content, {"source": "1111-2222-3333-4444-5555"})
    assert 'source: "1111-2222-3333-4444-5555"\n' in new
    assert parse(new, "sample/courier.fr.md").fields == {
        **card.fields,
        "source": "1111-2222-3333-4444-5555",
    }


# --------------------------------------------------------------------------------------
# 2, 3. New keys: where the file order puts them, quoted when needed, idempotent


def test_adding_reviewed_inserts_one_quoted_line_after_source() -> None:
    before = front_lines(CARD)
    new = edit(CARD, {"reviewed": "2026-11-30"})
    after = front_lines(new)
    at = index_of(before, "source") + 1
    assert after == [*before[:at], 'reviewed: "2026-11-30"\n', *before[at:]]
    read = parse(new)
    assert read.fields["reviewed"] == "2026-11-30"
    assert isinstance(read.fields["reviewed"], str)
    assert read.body == parse(CARD).body
    # applied again, the same change changes nothing
    assert edit_card(read, new, {"reviewed": "2026-11-30"}) == new


def test_adding_reviewed_to_the_sample_card() -> None:
    content = SAMPLE.read_text("utf-8")
    card = parse(content, "sample/courier.fr.md")
    new = edit_card(card, content, {"reviewed": "2026-11-30"})
    lines = content.splitlines(keepends=True)
    at = index_of(lines, "source") + 1
    assert new.splitlines(keepends=True) == [*lines[:at], 'reviewed: "2026-11-30"\n', *lines[at:]]
    read = parse(new, "sample/courier.fr.md")
    assert read.fields == {**card.fields, "reviewed": "2026-11-30"}
    assert edit_card(read, new, {"reviewed": "2026-11-30"}) == new


@pytest.mark.parametrize("text", [CARD, SAMPLE.read_text("utf-8")], ids=["hand", "sample"])
def test_adding_wip_puts_it_right_after_status(text: str) -> None:
    before = front_lines(text)
    assert [line.split(":")[0] for line in before if ":" in line and line[0] != "#"] == [
        "name",
        "name2",
        "subtype",
        "status",
        "source",
    ]
    new = edit(text, {"wip": True})
    after = front_lines(new)
    at = index_of(before, "status") + 1
    assert after == [*before[:at], "wip: true\n", *before[at:]]
    assert parse(new).fields["wip"] is True
    assert edit(new, {"wip": True}) == new


@pytest.mark.parametrize(
    ("text", "key", "value", "after_key", "line"),
    [
        # nothing comes before name: right after the opening ---
        ("---\nstatus: Draft\n---\nx\n", "name", "Messager", None, "name: Messager\n"),
        ("---\nname: A\nstatus: Draft\n---\nx\n", "name2", "B", "name", "name2: B\n"),
        (
            "---\nname: A\nsubtype: S\nstatus: Draft\n---\nx\n",
            "info",
            "Pied",
            "subtype",
            "info: Pied\n",
        ),
        # guid comes before source
        (
            '---\nname: A\nstatus: Draft\nsource: "13bd-01c1-b0f5-5f06-7423"\n---\nx\n',
            "guid",
            "3e2a7c51-0b9d-4f0e-a6c4-1d2e3f405162",
            "status",
            "guid: 3e2a7c51-0b9d-4f0e-a6c4-1d2e3f405162\n",
        ),
        # lint-ignore is last; a list is written in flow style on one line
        (
            "---\nname: A\nstatus: Draft\n---\nx\n",
            "lint-ignore",
            ["TR404"],
            "status",
            'lint-ignore: ["TR404"]\n',
        ),
        # after the lines that continue the value of the key before
        (
            "---\nname: A\nname2: |\n  two\n  lines\nstatus: Draft\n---\nx\n",
            "subtype",
            "S",
            "name2",
            "subtype: S\n",
        ),
    ],
)
def test_new_key_goes_where_the_file_order_puts_it(
    text: str, key: str, value: Any, after_key: str | None, line: str
) -> None:
    before = front_lines(text)
    new = edit(text, {key: value})
    after = front_lines(new)
    if after_key is None:
        at = 1
    else:
        at = index_of(before, after_key) + 1
        while before[at][:1] == " ":
            at += 1
    assert after == [*before[:at], line, *before[at:]]
    assert parse(new).fields == {**parse(text).fields, key: value}


@pytest.mark.parametrize(
    "value", ["2026-11-30", "true", "1.0", "123456789012", "null", "~", "12:30", "0x1F", "yes"]
)
def test_a_new_string_value_that_yaml_would_retype_is_quoted(value: str) -> None:
    new = edit(CARD, {"info": value})
    line = front_lines(new)[index_of(front_lines(new), "info")]
    assert line == f'info: "{value}"\n'
    assert parse(new).fields["info"] == value


def test_several_new_keys_keep_the_file_order_whatever_the_order_of_changes() -> None:
    text = "---\nname: A\nstatus: Draft\n---\nx\n"
    one = edit(text, {"reviewed": "2026-11-30", "wip": True})
    two = edit(text, {"wip": True, "reviewed": "2026-11-30"})
    expected = '---\nname: A\nstatus: Draft\nwip: true\nreviewed: "2026-11-30"\n---\nx\n'
    assert one == expected
    assert two == expected


# --------------------------------------------------------------------------------------
# 4. Removing keys


@pytest.mark.parametrize("key", ["name2", "subtype", "name", "source"])
def test_removing_a_key_removes_exactly_its_line(key: str) -> None:
    before = front_lines(CARD)
    new = edit(CARD, {key: REMOVE})
    assert front_lines(new) == without(before, index_of(before, key))
    expected = {k: v for k, v in FIELDS.items() if k != key}
    assert parse(new).fields == expected
    assert parse(new).body == parse(CARD).body


def test_removing_an_absent_key_changes_nothing() -> None:
    assert edit(CARD, {"info": REMOVE}) == CARD
    assert edit(CARD, {"wip": REMOVE, "reviewed": REMOVE}) == CARD


def test_review_changes_add_replace_and_remove_in_one_edit() -> None:
    """What ``translator review`` does: date, fresh fingerprint, no more ``wip``."""
    text = CARD.replace("status: Draft\n", "status: Draft\nwip: true  # brouillon\n")
    before = front_lines(text)
    new = edit(
        text, {"reviewed": "2026-11-30", "source": "aaaa-bbbb-cccc-dddd-eeee", "wip": REMOVE}
    )
    expected = without(before, index_of(before, "wip"))
    at = index_of(expected, "source")
    expected[at] = 'source: "aaaa-bbbb-cccc-dddd-eeee"\n'
    expected.insert(at + 1, 'reviewed: "2026-11-30"\n')
    assert front_lines(new) == expected
    assert parse(new).fields == {
        **FIELDS,
        "source": "aaaa-bbbb-cccc-dddd-eeee",
        "reviewed": "2026-11-30",
    }


# --------------------------------------------------------------------------------------
# 5. Values on several lines: written again from the fields, data kept

BLOCK = (
    "---\n"
    "name: Messager # le nom\n"
    "name2: |\n"
    "  two\n"
    "  lines\n"
    "subtype: Oiseau\n"
    "status: Draft\n"
    "lint-ignore:\n"
    "- TR404\n"
    "- GL1\n"
    "---\n"
    "Corps.\n"
)


def test_the_block_card_reads_as_intended() -> None:
    assert parse(BLOCK).fields == {
        "name": "Messager",
        "name2": "two\nlines\n",
        "subtype": "Oiseau",
        "status": "Draft",
        "lint-ignore": ["TR404", "GL1"],
    }


@pytest.mark.parametrize(
    "changes",
    [
        {"name2": "one line"},
        {"name2": "three\nlines\nnow"},
        {"name2": REMOVE},
        {"lint-ignore": ["TR1"]},
        {"lint-ignore": REMOVE},
        {"name2": REMOVE, "lint-ignore": REMOVE, "wip": True},
        {"name2": "one line", "status": "Final", "reviewed": "2026-11-30"},
    ],
)
def test_a_multi_line_value_is_rewritten_with_the_intended_fields(changes: dict[str, Any]) -> None:
    new = edit(BLOCK, changes)
    expected = {**parse(BLOCK).fields}
    for key, value in changes.items():
        if value is REMOVE:
            expected.pop(key)
        else:
            expected[key] = value
    read = parse(new)
    assert read.fields == expected
    assert read.body == "Corps.\n"
    assert new.endswith("---\nCorps.\n")
    if "reviewed" in changes:
        assert isinstance(read.fields["reviewed"], str)


def test_a_one_line_change_next_to_a_block_value_is_made_line_by_line() -> None:
    before = front_lines(BLOCK)
    new = edit(BLOCK, {"status": "Final"})
    after = front_lines(new)
    index = index_of(before, "status")
    assert after[index] == "status: Final\n"
    assert without(after, index) == without(before, index)  # the comment is kept


# --------------------------------------------------------------------------------------
# 6. A new body


def test_a_new_body_replaces_only_the_body() -> None:
    card = parse(CARD)
    body = "*Nouveau* texte.\n\n:m: Pioche deux cartes.\n"
    new = edit_card(card, CARD, body=body)
    assert new == card.front_matter + body
    assert parse(new).body == body
    assert parse(new).fields == FIELDS


def test_a_new_body_and_a_change_together() -> None:
    card = parse(CARD)
    body = "Texte.\n"
    new = edit_card(card, CARD, {"status": "Final"}, body)
    assert new == card.front_matter.replace("status: Draft\n", "status: Final\n") + body


def test_a_new_body_of_the_sample_card() -> None:
    content = SAMPLE.read_text("utf-8")
    card = parse(content, "sample/courier.fr.md")
    new = edit_card(card, content, None, "Pioche.\n")
    assert new == card.front_matter + "Pioche.\n"
    assert content.startswith(card.front_matter)


def test_the_same_body_changes_nothing() -> None:
    card = parse(CARD)
    assert edit_card(card, CARD, body=card.body) == CARD


# --------------------------------------------------------------------------------------
# 7. CRLF

CRLF = CARD.replace("\n", "\r\n")


@pytest.mark.parametrize(
    ("key", "value", "line"),
    [
        ("name", "Courrier", 'name: "Courrier"  # le nom imprimé\r\n'),
        ("name2", "des nuages", "name2: 'des nuages'\r\n"),
        ("subtype", "Oiseau", "subtype: Oiseau # sous-type\r\n"),
        ("status", "Final", "status: Final\r\n"),
    ],
)
def test_crlf_edited_line_keeps_crlf(key: str, value: str, line: str) -> None:
    before = CRLF.splitlines(keepends=True)
    new = edit(CRLF, {key: value})
    after = new.splitlines(keepends=True)
    index = index_of(before, key)
    assert after[index] == line
    assert without(after, index) == without(before, index)
    assert parse(new).fields == {**FIELDS, key: value}


def test_crlf_removed_line_leaves_crlf_lines() -> None:
    new = edit(CRLF, {"name2": REMOVE})
    assert new == CRLF.replace("name2: 'du ciel de fer'\r\n", "")


def test_crlf_new_key_line_ends_with_crlf() -> None:
    new = edit(CRLF, {"wip": True})
    assert "wip: true\r\n" in new
    assert new.count("\n") == new.count("\r\n")


def test_crlf_front_matter_written_again_keeps_crlf() -> None:
    text = BLOCK.replace("\n", "\r\n")
    new = edit(text, {"name2": "one line"})
    assert parse(new).fields["name2"] == "one line"
    assert new.count("\n") == new.count("\r\n")


# --------------------------------------------------------------------------------------
# 8. The file changed since it was read; a result that would not read back


@pytest.mark.parametrize(
    "content",
    [
        CARD.replace("status: Draft", "status: Final"),  # front matter changed
        CARD + "Une ligne de plus.\n",  # body changed
        CARD.replace("\n", "\r\n"),  # line ends changed
        "",
    ],
)
def test_edit_error_when_the_content_is_not_what_was_read(content: str) -> None:
    card = parse(CARD)
    with pytest.raises(EditError, match="changed since it was read"):
        edit_card(card, content, {"status": "Final"})
    with pytest.raises(EditError):
        edit_card(card, content)


def test_edit_error_when_no_way_of_writing_reads_back(monkeypatch: pytest.MonkeyPatch) -> None:
    """The read-back guard: a wrong line and a wrong rewrite are both refused."""
    monkeypatch.setattr(edit_module, "render", lambda value, style="": '"not it"')
    card = parse(CARD)
    # the line is wrong, but the front matter written again is right
    new = edit_card(card, CARD, {"status": "Final"})
    assert parse(new).fields == {**FIELDS, "status": "Final"}
    monkeypatch.setattr(edit_module, "_rewritten", lambda file, changes: file.front_matter)
    with pytest.raises(EditError, match="would not read back"):
        edit_card(card, CARD, {"status": "Final"})


# --------------------------------------------------------------------------------------
# The helpers: scalar, render, set_line


@pytest.mark.parametrize(
    ("rest", "found"),
    [
        ('"a \\" b"  # c', ('"', 'a \\" b', "  # c")),
        ("'l''air' # c", ("'", "l''air", " # c")),
        ("Oiseau, soldat   # c", ("", "Oiseau, soldat", "   # c")),
        ("a#b", ("", "a#b", "")),
        ("|", None),
        (">-", None),
        ("[TR1]", None),
        ("{a: 1}", None),
        ("&x a", None),
        ("*x", None),
        ("!!str a", None),
        ("", None),
        ('"unclosed', None),
    ],
)
def test_scalar(rest: str, found: tuple[str, str, str] | None) -> None:
    assert scalar(rest) == found


@pytest.mark.parametrize(
    "value",
    [
        "Messager",
        "Oiseau, soldat",
        "2026-11-30",
        "true",
        "no",
        "1.0",
        "1e3",
        "null",
        "",
        " a",
        "a ",
        "a # b",
        "a: b",
        "- a",
        "'",
        '"',
        "l'air",
        "two\nlines",
        "\t",
        "#",
    ],
)
@pytest.mark.parametrize("style", ["", '"', "'"])
def test_render_reads_back_as_the_same_string(value: str, style: str) -> None:
    import yaml

    written = render(value, style)
    if "\n" not in written:  # single quotes cannot hold a line break on one line
        assert yaml.safe_load(f"k: {written}") == {"k": value}
    if style == '"':
        assert written.startswith('"')


def test_set_line_keeps_style_comment_and_line_end() -> None:
    lines = ["---\r\n", "name: 'Messager'   # nom\r\n", "status: Draft\r\n", "---\r\n"]
    assert set_line(lines, 1, "name", "L'oiseau")
    assert lines[1] == "name: 'L''oiseau'   # nom\r\n"
    assert set_line(lines, 2, "status", "Final")
    assert lines[2] == "status: Final\r\n"


@pytest.mark.parametrize(
    ("line", "key"),
    [
        ("name: Messager\n", "status"),  # another key
        ("name2: |\n", "name2"),  # a block scalar
        ("lint-ignore: [TR1]\n", "lint-ignore"),  # a flow list
        ("lint-ignore:\n", "lint-ignore"),  # a block list follows
        ("# name: commented out\n", "name"),
    ],
)
def test_set_line_refuses_what_it_cannot_rewrite(line: str, key: str) -> None:
    lines = [line]
    assert not set_line(lines, 0, key, "x")
    assert lines == [line]


# --------------------------------------------------------------------------------------
# 9. Any name: read back exactly, or refused


TRICKY = [
    "yes",
    "no",
    "on",
    "off",
    "null",
    "~",
    "true",
    "False",
    "1e3",
    "1.0",
    ".inf",
    "0x1F",
    "0o17",
    "12:30",
    "2026-01-01",
    "2026-01-01 10:00:00",
    "123456789012",
    "13bd-01c1-b0f5-5f06-7423",
    ": ",
    "a: b",
    "#",
    " # c",
    "a #b",
    "'",
    '"',
    "''",
    '"a"',
    "'a'",
    " lead",
    "trail ",
    "- a",
    "? a",
    "[a]",
    "{a}",
    "&a",
    "*a",
    "!a",
    "|",
    ">",
    "%",
    "@",
    "`",
    "<<",
    "=",
    "---",
    "...",
    "\\",
    "\t",
    "a\nb",
    "\r",
    "é",
]
NAMES = st.one_of(
    st.sampled_from(TRICKY),
    st.text(max_size=24),
    st.builds(
        lambda a, b, c: a + b + c,
        st.sampled_from(TRICKY),
        st.text(max_size=6),
        st.sampled_from(TRICKY),
    ),
)
BASES = [
    CARD,
    CRLF,
    CARD.replace('name: "Messager"  # le nom imprimé', "name: Messager # plain"),
    CARD.replace('name: "Messager"  # le nom imprimé', "name: 'Messager'"),
    BLOCK,
    "---\nstatus: Draft\n---\nSans nom.\n",  # name is added
]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(BASES), NAMES)
@pytest.mark.slow
def test_any_name_reads_back_exactly_or_is_refused(text: str, name: str) -> None:
    card = parse(text)
    try:
        new = edit_card(card, text, {"name": name})
    except EditError:
        return
    problems: list = []
    read = parse_card_text(PATH, "deck", new, problems)
    assert read is not None, (name, new)
    assert type(read.fields["name"]) is str
    assert read.fields["name"] == name
    assert read.fields == {**card.fields, "name": name}
    assert read.body == card.body
    assert new.endswith(card.body)
