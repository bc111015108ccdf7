"""Hover and completion for card files (translator/editor/assist.py), against the
shipped glossaries and the sample cards: what ``translator lsp`` shows an editor."""

from __future__ import annotations

import fnmatch
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from translator import api
from translator.editor.assist import (
    Assistant,
    Completion,
    Hover,
    esc,
    symbol_data,
    symbols_file,
)
from translator.lint.context import Resources
from translator.markup.tree import BREAK_CODE, EMPTY_PARAGRAPH_CODE, SYMBOL_CODES
from translator.shipped import glossaries_root

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "cards" / "sample"
HEAD = "---\nname: Essai\nstatus: Draft\n---\n"


@pytest.fixture(scope="module")
def resources():
    return api.lint_setup(["fr", "eo"], str(SAMPLE)).resources


@pytest.fixture(scope="module")
def fr(resources) -> Assistant:
    return Assistant(resources, "fr")


@pytest.fixture(scope="module")
def eo(resources) -> Assistant:
    return Assistant(resources, "eo")


@pytest.fixture(scope="module")
def en(resources) -> Assistant:
    return Assistant(resources, "en")


def hover_at(assistant: Assistant, text: str, needle: str, delta: int = 0) -> Hover:
    """The hover on the character ``delta`` into the first ``needle`` of ``text``."""
    offset = text.index(needle) + delta
    found = assistant.hover(text, offset)
    assert found is not None, f"no hover at {needle!r}"
    assert found.start <= offset <= found.end
    return found


def complete_end(assistant: Assistant, body: str, head: str = HEAD) -> list[Completion]:
    """Completions with the cursor at the end of ``head + body``."""
    text = head + body
    items = assistant.complete(text, len(text))
    for item in items:
        assert item.start <= len(text)
    return items


def inserted(items: list[Completion], label: str) -> Completion:
    found = [item for item in items if item.label == label]
    assert found, f"{label!r} not among {[i.label for i in items]}"
    return found[0]


# --------------------------------------------------------------------------------------
# hover: glossary terms


def test_hover_french_inflected_term(fr: Assistant) -> None:
    text = HEAD + "Détruis les créatures ciblées.\n"
    found = hover_at(fr, text, "créatures", 3)
    assert text[found.start : found.end] == "créatures"
    assert "**créature** · *creature* (concept, noun) · Lexique" in found.markdown
    assert "- preferred: **créature** (f); forms: créatures" in found.markdown
    # The word is also the card type Créature: both entries are shown.
    assert "*Creature* (type, noun)" in found.markdown
    target = hover_at(fr, text, "ciblées")
    assert "*target*" in target.markdown
    assert "ciblées" in target.markdown  # among the forms of the preferred term


def test_hover_after_elision(fr: Assistant) -> None:
    text = HEAD + "Mets-la dans l'armée de la joueureuse ciblée.\n"
    found = hover_at(fr, text, "armée", 1)
    assert text[found.start : found.end] == "armée"
    assert "*army*" in found.markdown
    assert fr.hover(text, text.index("l'armée")) is None  # the article is no term


def test_hover_esperanto_inflected_term(eo: Assistant) -> None:
    text = HEAD + "Metu ĝin en vian armeon.\n"
    found = hover_at(eo, text, "armeon", 2)
    assert text[found.start : found.end] == "armeon"
    assert "**armeo** · *army* (concept, noun) · Leksikono" in found.markdown
    assert "armeojn" in found.markdown
    assert "- deprecated: ~~militistaro~~ → **armeo** (since 2023\\-07\\-25)" not in found.markdown
    assert "~~militistaro~~ → **armeo**" in found.markdown


def test_hover_deprecated_term_says_so_first(fr: Assistant, eo: Assistant) -> None:
    found = hover_at(fr, HEAD + "Attaque la ville.\n", "ville")
    first = found.markdown.splitlines()[0]
    assert first.startswith("⚠ **ville** is deprecated (since 2024-08-11): use **cité**.")
    assert "**cité** · *city*" in found.markdown
    found = hover_at(eo, HEAD + "Via militistaro.\n", "militistaro")
    assert found.markdown.startswith("⚠ **militistaro** is deprecated")
    assert "use **armeo**" in found.markdown.splitlines()[0]


def test_hover_deprecated_spelling_of_a_subtype(fr: Assistant) -> None:
    """*Gardien, humain* and the deprecated *Gardien Humain* have the same words: what
    is written decides which one the hover describes."""
    good = hover_at(fr, HEAD + "Un Gardien, humain.\n", "Gardien")
    assert not good.markdown.startswith("⚠")
    bad = hover_at(fr, HEAD + "Un Gardien Humain.\n", "Gardien")
    assert bad.markdown.startswith("⚠ **Gardien Humain** is deprecated")


def test_hover_multi_word_term(fr: Assistant) -> None:
    text = HEAD + ":m2: Ajoute 2 aux points de défense de la cité.\n"
    found = hover_at(fr, text, "défense", 2)
    assert text[found.start : found.end] == "points de défense de la cité"
    assert "*city defense strength*" in found.markdown


def test_hover_term_running_over_a_line_break(fr: Assistant) -> None:
    """A paragraph's lines join: a term cut by a line break is one term, as the linter
    reads it; a blank line ends the paragraph."""
    text = HEAD + "Ajoute 2 aux points de\\\ndéfense de la cité.\n\nLes points de\n\ndéfense.\n"
    found = hover_at(fr, text, "défense")
    assert text[found.start : found.end] == "points de\\\ndéfense de la cité"
    apart = hover_at(fr, text, "défense.")
    assert text[apart.start : apart.end] == "défense"


def test_hover_ability_in_french_sample_card(fr: Assistant) -> None:
    text = (SAMPLE / "courier.fr.md").read_text(encoding="utf-8")
    found = hover_at(fr, text, "Vol")
    assert text[found.start : found.end] == "Vol"
    assert found.markdown.startswith("**Vol** · ability (*Flying*)")
    assert "*Seules les créatures dotées du vol ou de la longue portée" in found.markdown
    assert "- English: **Flying**: *Only creatures with flying" in found.markdown


def test_hover_ability_with_parameter_and_former_name(eo: Assistant) -> None:
    text = (SAMPLE / "thornback-hydra.eo.md").read_text(encoding="utf-8")
    assert eo.hover(text, text.index("Savebla")) is None  # in a YAML comment
    found = hover_at(eo, text, "***Savebla", 3)
    assert "Savebla" in found.markdown and "*Salvage*" in found.markdown
    assert "rimedojn" in found.markdown  # the Esperanto reminder
    old = hover_at(eo, HEAD + "***Nekromancianto***\n", "Nekromancianto")
    assert old.markdown.startswith("⚠ **Nekromancianto** is a former name of this ability")
    assert "use **Nekromanciulo**" in old.markdown


def test_hover_english_term_shows_translations(en: Assistant) -> None:
    text = (SAMPLE / "grave-lantern.en.md").read_text(encoding="utf-8")
    found = hover_at(en, text, "creature", 1)
    assert found.markdown.startswith("**creature** (concept, noun) · English glossary")
    assert "- French: **créature**" in found.markdown
    assert "- Esperanto: **estaĵo**, ~~ulo~~ → estaĵo" in found.markdown
    ability = hover_at(en, text, "Bruiser")
    assert "*To creatures, I deal damage in the form of" in ability.markdown
    assert "- French: **Gros bras**" in ability.markdown
    assert "- Esperanto: **Kontuzanto**" in ability.markdown


def test_hover_english_term_with_only_french_loaded() -> None:
    resources = api.lint_setup(["fr"], str(SAMPLE)).resources
    found = hover_at(Assistant(resources, "en"), HEAD + "Target city.\n", "city")
    assert "- French: **cité**, ~~ville~~ → cité" in found.markdown
    assert "Esperanto" not in found.markdown


def test_hover_front_matter_values(fr: Assistant) -> None:
    text = (SAMPLE / "courier.fr.md").read_text(encoding="utf-8")
    found = hover_at(fr, text, "Oiseau")
    assert text[found.start : found.end] == "Oiseau, soldat"
    assert "*Soldier Bird* (subtype, noun)" in found.markdown
    assert fr.hover(text, text.index("subtype")) is None  # a key
    assert fr.hover(text, text.index("Draft")) is None  # not a field of words
    assert fr.hover(text, text.index("13bd")) is None


# --------------------------------------------------------------------------------------
# hover: symbols


def test_hover_cypher_disc(fr: Assistant) -> None:
    text = HEAD + "Tu peux payer :g2: de plus.\n"
    found = hover_at(fr, text, ":g2:", 2)
    assert text[found.start : found.end] == ":g2:"
    assert found.markdown.startswith("`:g2:` prints a cypher disc with 2")
    assert "In the rule text Aminduna derives: 2" in found.markdown
    assert "⚠" not in found.markdown


def test_hover_large_mark_at_and_off_the_paragraph_start(fr: Assistant) -> None:
    text = HEAD + ":m: La joueureuse pioche.\n\nPioche. :m3: Défausse.\n"
    start = hover_at(fr, text, ":m:", 1)
    assert start.markdown.startswith("`:m:` prints the large mark")
    assert "indented" in start.markdown and "MK104" not in start.markdown
    middle = hover_at(fr, text, ":m3:", 1)
    assert middle.markdown.startswith("`:m3:` prints a large mark with 3")
    assert "MK104" in middle.markdown
    assert "In the rule text Aminduna derives: M3," in middle.markdown


@pytest.mark.parametrize(
    ("code", "prints"),
    [
        ("mc", "a column mark"),
        ("mic", "a column mark"),
        ("mis", "the small curved arrow, inline"),
        ("gx", "a cypher disc with X"),
        ("mt", "a large mark with T"),
    ],
)
def test_hover_every_kind_of_symbol(fr: Assistant, code: str, prints: str) -> None:
    text = HEAD + f":{code}: Pioche une carte.\n"
    found = hover_at(fr, text, f":{code}:", 1)
    assert found.markdown.startswith(f"`:{code}:` prints {prints}")


def test_hover_drop_cap_and_its_traps(fr: Assistant) -> None:
    text = HEAD + ":W:hen :G1: x\n\nÀ 10:30 et 11:45.\n\n:C: herche.\n"
    cap = hover_at(fr, text, ":W:", 1)
    assert text[cap.start : cap.end] == ":W:"
    assert cap.markdown.startswith("**:W:** prints a drop cap W")
    assert "two lines high" in cap.markdown and "⚠" not in cap.markdown
    wrong_case = hover_at(fr, text, ":G1:", 1)
    assert "not the symbol :g1: (MK102)" in wrong_case.markdown
    assert "MK104" in wrong_case.markdown
    colons = hover_at(fr, text, "30")
    assert text[colons.start : colons.end] == ":30 et 11:"
    assert "(MK101)" in colons.markdown
    split = hover_at(fr, text, ":C:", 1)
    assert "(MK105)" in split.markdown


def test_hover_breaks(fr: Assistant) -> None:
    text = HEAD + "Pioche une carte.\\\nDéfausse :br: une carte.\n\n\\\n\nPioche. :pa: Fin.\n"
    backslash = hover_at(fr, text, "\\")
    assert backslash.markdown.startswith("`\\` prints a line break")
    assert hover_at(fr, text, ":br:", 1).markdown.startswith("`:br:` prints a line break")
    lone = hover_at(fr, text, "\\\n\nPioche")
    assert lone.markdown.startswith("`\\` prints an empty paragraph")
    erasing = hover_at(fr, text, ":pa:", 1)
    assert "MK106" in erasing.markdown


# --------------------------------------------------------------------------------------
# hover: untrusted text is escaped


def test_escape_makes_no_markup() -> None:
    assert esc("*a* [b](javascript:x) <img src=x> &amp; `c` ~~d~~") == (
        "\\*a\\* \\[b\\](javascript:x) \\<img src=x\\> \\&amp; \\`c\\` \\~\\~d\\~\\~"
    )
    assert esc("# title") == "\\# title"
    assert esc("- item") == "\\- item"
    assert esc("1. item") == "1\\. item"
    assert esc("two\n\nlines") == "two lines"


def test_hover_escapes_card_text(fr: Assistant) -> None:
    text = HEAD + ":<img_src=x>: and :[a](http://x.org): ok\n"
    for needle in ("img", "[a]"):
        found = hover_at(fr, text, needle)
        # Every < [ ] _ of the card text is escaped: no HTML, no link.
        assert not re.search(r"(?<!\\)[<\[\]]", found.markdown)
        assert "\\<img\\_src=x\\>" in found.markdown or "\\[a\\](http" in found.markdown


def hostile_glossary(library: Path, english: str, note: str) -> Resources:
    """The French resources with a library glossary of one entry, *bidule*, whose
    English term and note are ``english`` and ``note`` (YAML single-quoted)."""
    folder = library / "glossary" / "fr"
    folder.mkdir(parents=True)
    (folder / "mine.yaml").write_text(
        "language: fr\n"
        "entries:\n"
        "  - id: gizmo\n"
        f"    en: '{english}'\n"
        "    section: other\n"
        "    pos: noun\n"
        "    terms:\n"
        "      - {term: bidule, status: preferred, gender: m}\n"
        f"    note: '{note}'\n",
        encoding="utf-8",
    )
    return api.lint_setup(["fr"], str(library)).resources


def test_hover_escapes_a_library_glossary(tmp_path: Path) -> None:
    """A library's own glossary is as untrusted as its cards."""
    resources = hostile_glossary(
        tmp_path,
        "<script>gizmo</script>",
        "[click](javascript:alert(1)) <b>bold</b> ![i](http://x/i.png)",
    )
    found = hover_at(Assistant(resources, "fr"), HEAD + "Un bidule.\n", "bidule")
    assert "<script>" not in found.markdown and "<b>" not in found.markdown
    assert "[click](" not in found.markdown and "![i](" not in found.markdown
    assert "\\[click\\](javascript" in found.markdown
    assert "\\<script\\>gizmo\\</script\\>" in found.markdown


def test_completion_documentation_escapes_a_library_glossary(tmp_path: Path) -> None:
    resources = hostile_glossary(
        tmp_path, "gizmo", "<img src=x onerror=alert(1)> [a](javascript:x)"
    )
    item = inserted(complete_end(Assistant(resources, "fr"), "Un bid"), "bidule")
    assert "\\<img src=x onerror=alert(1)\\> \\[a\\](javascript:x)" in item.documentation


# --------------------------------------------------------------------------------------
# completion: symbols


def test_complete_marks(fr: Assistant) -> None:
    items = complete_end(fr, ":m")
    labels = [item.label for item in items]
    assert {":m:", ":m0:", ":m9:", ":ma:", ":mt:", ":mx:", ":mi:", ":mc:", ":mic:", ":mis:"} <= set(
        labels
    )
    assert all(label.startswith(":m") for label in labels)
    mark = inserted(items, ":m:")
    assert mark.insert == ":m:" and mark.kind == "symbol"
    assert mark.start == len(HEAD)
    assert mark.detail == "the large mark: a tag with the curved arrow"
    assert "indented" in mark.documentation
    # At a paragraph's start the large marks come first, the inline arrow after them.
    ordered = sorted(items, key=lambda item: item.sort_text)
    assert ordered[0].label == ":m:"
    assert [i.label for i in ordered].index(":mis:") > [i.label for i in ordered].index(":mc:")


def test_complete_cyphers_in_running_text(fr: Assistant) -> None:
    items = complete_end(fr, "Tu peux payer :g")
    assert sorted(item.label for item in items) == sorted(
        f":{c}:" for c in SYMBOL_CODES if c.startswith("g")
    )
    two = inserted(items, ":g2:")
    assert two.detail == "a cypher disc with 2"
    assert two.start == len(HEAD) + len("Tu peux payer ")
    # In the middle of a paragraph a large mark is still offered, after the inline
    # symbols, saying where it belongs.
    marks = sorted(complete_end(fr, "Pioche :m"), key=lambda item: item.sort_text)
    assert marks[0].label == ":mis:"
    assert inserted(marks, ":m:").detail.endswith("(at a paragraph's start)")


def test_complete_after_a_lone_colon_and_inside_a_code(fr: Assistant) -> None:
    items = complete_end(fr, "Paye :")
    assert len(items) == len(SYMBOL_CODES) + 2  # with :br: and :pa:
    text = HEAD + "Paye :g2: de plus."
    offset = text.index(":g2:") + 2
    items = fr.complete(text, offset)
    two = inserted(items, ":g2:")
    assert (two.start, two.end) == (offset - 2, offset + 2)  # the whole code is replaced


@pytest.mark.parametrize(
    "body",
    [
        "À 10:3",  # a time
        "Coût\u00a0:",  # French punctuation: a no-break space before the colon
        "Coût\u202f:",
        "Note:",  # a colon after a word
        "Paye :g2:",  # right after a complete code
    ],
)
def test_complete_no_symbol_where_a_colon_is_no_code(fr: Assistant, body: str) -> None:
    assert complete_end(fr, body) == []


def test_complete_nothing_in_front_matter_keys_or_other_fields(fr: Assistant) -> None:
    text = "---\nname: :m\nsubtype: Oiseau\nstatus: Dra\n---\nx\n"
    assert fr.complete(text, text.index(":m") + 2) == []
    assert fr.complete(text, text.index("subtype") + 3) == []
    assert fr.complete(text, text.index("Dra") + 3) == []
    assert fr.complete(text, 2) == []  # the fence


# --------------------------------------------------------------------------------------
# completion: terms and abilities


def test_complete_french_term_in_the_case_typed(fr: Assistant) -> None:
    lower = complete_end(fr, "Détruis la cré")
    item = inserted(lower, "créature")
    assert item.insert == "créature" and item.kind == "term"
    assert item.start == len(HEAD) + len("Détruis la ")
    assert item.detail == "creature (concept)"
    capital = inserted(complete_end(fr, "Cré"), "Créature")
    assert capital.insert == "Créature"
    assert inserted(complete_end(fr, "Une CRÉ"), "CRÉATURE").insert == "CRÉATURE"
    # Accents need not be typed.
    assert inserted(complete_end(fr, "la crea"), "créature").insert == "créature"


def test_complete_subtype_without_capital_in_running_text(fr: Assistant) -> None:
    item = inserted(complete_end(fr, "Le sold"), "soldat")
    assert item.insert == "soldat"  # the glossary writes the field's « Soldat » (FR302)


def test_complete_deprecated_term_offers_its_replacement(fr: Assistant) -> None:
    items = complete_end(fr, "Attaque la vil")
    item = inserted(items, "ville → cité")
    assert item.deprecated and item.insert == "cité"
    assert item.filter_text == "ville"  # found by its own letters, not its replacement
    assert item.detail == "deprecated since 2024-08-11: use cité"
    preferred = [i for i in complete_end(fr, "la joueu") if not i.deprecated]
    deprecated = [i for i in complete_end(fr, "la joueu") if i.deprecated]
    assert preferred and deprecated
    assert max(i.sort_text for i in preferred) < min(i.sort_text for i in deprecated)


def test_complete_multi_word_term(fr: Assistant) -> None:
    items = complete_end(fr, "Ajoute 2 aux points de dé")
    item = inserted(items, "points de défense de la cité")
    assert item.start == len(HEAD) + len("Ajoute 2 aux ")
    # The longer match comes first, the one-word ones for « dé » after it.
    assert sorted(items, key=lambda i: i.sort_text)[0] is item
    assert inserted(items, "défense").start == len(HEAD) + len("Ajoute 2 aux points de ")


def test_complete_after_a_drop_cap(fr: Assistant) -> None:
    item = inserted(complete_end(fr, ":C:ré"), "Créature")
    assert item.insert == ":C:réature"
    assert item.start == len(HEAD)


def test_complete_french_ability_as_the_sample_cards_write_it(fr: Assistant) -> None:
    card = (SAMPLE / "courier.fr.md").read_text(encoding="utf-8")
    item = inserted(complete_end(fr, "Vo"), "Vol")
    assert item.kind == "ability"
    assert item.insert in card  # « ***Vol***\ » then « *Seules les créatures ...* »
    assert item.insert.startswith("***Vol***\\\n*Seules")
    assert item.documentation.startswith("*Seules les créatures dotées du vol")
    assert "English: **Flying**: *Only creatures with flying" in item.documentation
    assert item.filter_text == "Vol"
    # The asterisks already typed are part of what is replaced.
    typed = inserted(complete_end(fr, "***Vo"), "Vol")
    assert (typed.start, typed.insert) == (len(HEAD), item.insert)
    assert typed.filter_text == "***Vol"  # what the client compares with « ***Vo »
    # In running text: simple bold, no capital (FR302, FR303), as legion-shield.fr.md.
    running = inserted(complete_end(fr, "Il gagne +0/+2 et acquiert gar"), "Garde du corps")
    assert running.insert == "**garde du corps x**"
    assert "**garde du corps 1**" in (SAMPLE / "legion-shield.fr.md").read_text(encoding="utf-8")


def test_complete_esperanto_term_and_ability(eo: Assistant) -> None:
    item = inserted(complete_end(eo, "Cela lud"), "ludanto")
    assert item.insert == "ludanto"
    assert inserted(complete_end(eo, "Cela lud"), "ludano → ludanto").deprecated
    card = (SAMPLE / "courier.eo.md").read_text(encoding="utf-8")
    ability = inserted(complete_end(eo, "Flu"), "Fluganto")
    assert ability.insert in card
    running = inserted(complete_end(eo, "Ĝi gajnas la kapablon Kon"), "Kontuzanto")
    assert running.insert == "***Kontuzanto***"  # as grave-lantern.eo.md writes it
    former = inserted(complete_end(eo, "Nekromancia"), "Nekromancianto → Nekromanciulo")
    assert former.deprecated and former.insert.startswith("***Nekromanciulo***")


def test_complete_english(en: Assistant) -> None:
    item = inserted(complete_end(en, "Target pla"), "player")
    assert item.documentation == "eo: **ludanto**; fr: **joueureuse**"
    ability = inserted(complete_end(en, "Bod"), "Bodyguard")
    assert ability.insert.startswith("***Bodyguard x***\\\n*Each turn, I may divert")


def test_complete_subtype_field(fr: Assistant) -> None:
    text = "---\nname: Messager\nsubtype: Oiseau, sol\n---\nx\n"
    items = fr.complete(text, text.index("sol") + 3)
    assert inserted(items, "soldat").start == text.index("sol")
    assert inserted(items, "Oiseau, soldat").start == text.index("Oiseau")
    assert all(i.kind == "term" for i in items)
    text = "---\nname: Messager\nsubtype: Sol\n---\nx\n"
    assert inserted(fr.complete(text, text.index("Sol") + 3), "Soldat").insert == "Soldat"


def test_complete_needs_two_letters(fr: Assistant) -> None:
    assert complete_end(fr, "Détruis la c") == []
    assert complete_end(fr, "Détruis la ") == []
    assert complete_end(fr, "12") == []


# --------------------------------------------------------------------------------------
# robustness


EDGE_TEXTS = [
    "",
    "---",
    "---\n",
    "---\nname: [unclosed\n",  # a front matter never closed, broken YAML
    "---\nname: Essai\n---",
    "---\nname: : :\n  - x\n---\n:m",
    "no front matter :g",
    HEAD + ":",
    HEAD + "::::::",
    HEAD + "\\",
    HEAD + "\r\n\r\n:W:\r\n",
    HEAD + "\x00\u202e:g2:",
    (SAMPLE / "bonefield-keep.fr.md").read_text(encoding="utf-8"),
]


@pytest.mark.parametrize("text", EDGE_TEXTS)
def test_any_offset_of_edge_texts(fr: Assistant, en: Assistant, text: str) -> None:
    for assistant in (fr, en):
        for offset in [-1, len(text) + 1, *range(len(text) + 1)]:
            found = assistant.hover(text, offset)
            assert found is None or found.start <= offset <= found.end
            for item in assistant.complete(text, offset):
                assert 0 <= item.start <= offset


PIECES = st.sampled_from(
    [
        ":",
        "::",
        ":m",
        ":g2:",
        ":W:",
        "hen",
        "la ",
        "ville",
        "créatures",
        "\\",
        "\n",
        "\n\n",
        "---\n",
        "name: ",
        "*",
        "***",
        " ",
        "armeon",
        "l'",
        "é",
        "\r",
        "\u00a0",
        "#",
        "[",
        "<",
    ]
)


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(pieces=st.lists(PIECES, max_size=20), data=st.data())
def test_never_raises(fr: Assistant, pieces: list[str], data: st.DataObject) -> None:
    text = "".join(pieces)
    offset = data.draw(st.integers(min_value=0, max_value=len(text)))
    found = fr.hover(text, offset)
    assert found is None or found.start <= offset <= found.end
    for item in fr.complete(text, offset):
        assert 0 <= item.start <= offset


# --------------------------------------------------------------------------------------
# the symbol data


def test_symbol_data_describes_every_code() -> None:
    data = symbol_data()
    for code in [*SYMBOL_CODES, BREAK_CODE, EMPTY_PARAGRAPH_CODE]:
        assert data.prints.get(code), code
        assert data.descriptions.get(code), code
        assert data.placements.get(data.family(code)), code
    assert set(data.notes) >= {"misplaced", "case", "long", "lower", "colons", "space_after"}
    for template in (*data.drop_cap, *data.notes.values()):
        assert set(re.findall(r"\{(\w+)\}", template)) <= {"letter", "first", "code"}


def test_symbol_data_ships_with_the_package() -> None:
    """It lies where the package data glob takes it, and no glossary reads it."""
    path = symbols_file()
    root = glossaries_root()
    assert path is not None and root is not None
    relative = path.relative_to(root).as_posix()
    assert fnmatch.fnmatch(relative, "*/*.yaml")
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert '"translator.glossaries" = ["*/*.yaml"' in pyproject
    assert path.parent.name not in ("en", "fr", "eo")
