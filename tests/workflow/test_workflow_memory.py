"""The translation memory: what the library's translations offer, and what they may not.

A small library made here: deck *first* translated into French (reviewed, translated,
a draft, a stale card), deck *second* in English only.  The memory must offer what a
translator would reuse, and nothing a translator would have to undo.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ROOT
from tests.lintkit import run, stamp_reviews
from translator.cards import load_library
from translator.cards.files import parse_card_text
from translator.cards.model import source_fingerprint
from translator.workflow import memory
from translator.workflow.memory import Memory, Origin, Unit, build_memory
from translator.workflow.stored import load_memory

GUARD_EN = (
    "***Bodyguard 2***\\\n"
    "*Each turn, I may divert up to 2 damage from target creature you control and put "
    "that damage on myself instead.*\n\n"
    ":m: Target ***player*** draws one card. Guard gets +1/+0."
)
GUARD_FR = (
    "***Garde du corps 2***\\\n"
    "*Je peux endurer jusqu'à 2 dégâts à la place de la créature ciblée que tu contrôles "
    "pour la protéger.*\n\n"
    ":m: La ***joueureuse*** ciblée pioche une carte. Garde gagne +1/+0."
)


def _card(deck: Path, slug: str, lang: str, front: str, body: str) -> None:
    deck.mkdir(parents=True, exist_ok=True)
    (deck / f"{slug}.{lang}.md").write_text(f"---\n{front}---\n{body}\n", encoding="utf-8")


def _english(deck: Path, slug: str, name: str, body: str) -> None:
    front = f"name: {name}\ntype: Creature\nfaction: Gaian\nsubtype: Soldier\ncost: 1\n"
    front += "loyalty: 1\nattack: 1\ndefense: 1\n"
    _card(deck, slug, "en", front, body)


def _french(deck: Path, slug: str, name: str, body: str, extra: str = "") -> None:
    library, problems = load_library([str(deck)])
    source = next(c for (_, s), c in library.cards.items() if s == slug).source
    assert source is not None, problems
    front = f'name: {name}\nsubtype: Soldat\nsource: "{source_fingerprint(source)}"\n{extra}'
    _card(deck, slug, "fr", front, body)


def _deck(deck: Path, *slugs: str) -> None:
    cards = "".join(f"  {slug}: 1\n" for slug in slugs)
    (deck / "deck.yaml").write_text(f"name: {deck.name}\ncards:\n{cards}", encoding="utf-8")


@pytest.fixture
def library(tmp_path: Path) -> Path:
    first = tmp_path / "cards" / "first"
    _english(first, "guard", "Guard", GUARD_EN)
    _english(
        first, "herald", "Herald", "***Flying***\\\n*Only creatures with flying can block me.*"
    )
    _english(first, "draft", "Draft", "Deal 3 damage to target creature.")
    _english(first, "stale", "Stale", "Destroy target city.")
    _deck(first, "guard", "herald", "draft", "stale")
    _french(first, "guard", "Garde", GUARD_FR, 'reviewed: "2026-11-30"\n')
    _french(first, "herald", "Héraut", "***Vol***\\\n*Seules les créatures volantes me bloquent.*")
    _french(first, "draft", "Brouillon", "Inflige 3 dégâts.", "wip: true\n")
    _french(first, "stale", "Périmé", "Détruis la cité ciblée.")
    stamp_reviews(first)  # guard reviewed as translator review does
    # The English changes after the translation: the French is stale.
    stale = first / "stale.en.md"
    stale.write_text(stale.read_text("utf-8").replace("city", "creature"), "utf-8")
    second = tmp_path / "cards" / "second"
    _english(second, "sentinel", "Sentinel", "Sentinel gets +1/+0.")
    _deck(second, "sentinel")
    return tmp_path / "cards"


def _memory(root: Path) -> Memory:
    loaded, problems = load_library([str(root)])
    assert not problems, problems
    return build_memory(loaded, "fr")


def test_paragraphs_and_sentences_of_reviewed_and_translated_cards(library: Path) -> None:
    found = _memory(library)
    paragraph = GUARD_EN.split("\n\n", maxsplit=1)[0]
    match = found.exact("paragraph", paragraph)
    assert match is not None and match.exact
    assert match.target == GUARD_FR.split("\n\n", maxsplit=1)[0]
    assert str(match.unit.origin) == "first/guard, reviewed"
    # A sentence of a paragraph of two: aligned with the translation's second sentence.
    sentence = found.exact("sentence", ":m: Target ***player*** draws one card.")
    assert sentence is not None
    assert sentence.target == ":m: La ***joueureuse*** ciblée pioche une carte."
    herald = found.exact("paragraph", "***Flying***\\\n*Only creatures with flying can block me.*")
    assert herald is not None and herald.unit.origin.state == "translated"
    assert found.exact("name", "Herald") is not None


def test_drafts_and_stale_parts_are_not_used(library: Path) -> None:
    found = _memory(library)
    assert found.exact("paragraph", "Deal 3 damage to target creature.") is None
    assert found.exact("name", "Draft") is None
    # The stale card's text changed: its old text is not offered, for the old English
    # or the new one; its name did not change, so the name still is.
    assert found.exact("paragraph", "Destroy target city.") is None
    assert found.exact("paragraph", "Destroy target creature.") is None
    name = found.exact("name", "Stale")
    assert name is not None and name.target == "Périmé"


def test_the_cards_own_name_is_a_placeholder(library: Path) -> None:
    found = _memory(library)
    match = found.exact(
        "sentence", "Sentinel gets +1/+0.", name="Sentinel", target_name="Sentinelle"
    )
    assert match is not None
    assert match.target == "Sentinelle gagne +1/+0."
    # Without the name, the text is another text.
    assert found.exact("sentence", "Sentinel gets +1/+0.") is None


def test_whitespace_does_not_count(library: Path) -> None:
    found = _memory(library)
    assert found.exact("sentence", ":m:  Target ***player***\ndraws one card.") is not None


def test_fuzzy_matches_show_the_difference(library: Path) -> None:
    found = _memory(library)
    matches = found.fuzzy(
        "paragraph", "***Flying***\\\n*Only creatures with flying can attack me.*"
    )
    assert [m.unit.origin.where for m in matches] == ["first/herald"]
    assert 75 <= matches[0].score < 100
    changed = [(kind, text) for kind, text in matches[0].words() if kind != "="]
    assert changed == [("-", "block"), ("+", "attack")]
    assert matches[0].to_dict()["from"] == "first/herald"
    # Below the cut-off: nothing.
    assert found.fuzzy("paragraph", "Return target creature to its owner's hand.") == []
    # A card's own units are no suggestion for itself.
    paragraph = "***Flying***\\\n*Only creatures with flying can block me.*"
    assert found.fuzzy("paragraph", paragraph, exclude="first/herald") == []


def test_reviewed_wins_then_the_most_frequent() -> None:
    def unit(target: str, state: str, where: str) -> Unit:
        return Unit("sentence", "Draw a card.", target, Origin(state, where))

    found = Memory(
        "fr",
        [
            unit("Pioche une carte.", "translated", "a/one"),
            unit("Pioche une carte.", "translated", "a/two"),
            unit("Piochez une carte.", "reviewed", "a/three"),
            unit("Tire une carte.", "imported", "memory/fr.tmx"),
        ],
    )
    match = found.exact("sentence", "Draw a card.")
    assert match is not None and match.target == "Piochez une carte."
    assert sorted(u.target for u in match.alternatives) == [
        "Pioche une carte.",
        "Pioche une carte.",
        "Tire une carte.",
    ]
    found = Memory("fr", [unit("Tire une carte.", "imported", "x"), unit("A.", "translated", "y")])
    match = found.exact("sentence", "Draw a card.")
    assert match is not None and match.target == "A."


def test_pairs_whose_numbers_or_symbols_differ_are_not_aligned() -> None:
    # Two sentences each, but the translator merged and split them differently: the
    # numbers tell.
    assert not memory.agree("Deal 2 damage.", "Inflige 3 dégâts.")
    assert not memory.agree(":m: Draw.", "Pioche.")
    assert memory.agree(":m: Deal 2 damage, then 1.", ":m: Inflige 1 puis 2 dégâts.")
    # A drop cap is the first letter of the language's sentence.
    assert memory.agree(":D:eal 3 damage.", ":I:nflige 3 dégâts.")
    assert not memory.agree(":g2: Deal.", ":g3: Inflige.")


def test_sentences_split_where_a_translator_would() -> None:
    assert memory.sentences("Draw a card. Then discard one!") == [
        "Draw a card.",
        "Then discard one!",
    ]
    assert memory.sentences("Pioche une carte\u00a0! Puis défausse-toi.") == [
        "Pioche une carte\u00a0!",
        "Puis défausse-toi.",
    ]
    # Inside italics and quotes; a number after the full stop starts a sentence too.
    assert memory.sentences('*"Boom. Boom."*') == ['*"Boom.', 'Boom."*']
    assert memory.sentences("It gets +1/+0. 2 tokens come.") == ["It gets +1/+0.", "2 tokens come."]
    # No split inside a sentence: "+1/+0." is followed by a lowercase word.
    assert memory.sentences("Gets +1/+0. and more") == ["Gets +1/+0. and more"]


def test_a_reminder_is_the_same_segment_in_both_ability_styles(library: Path) -> None:
    found = _memory(library)
    reminder = GUARD_EN.split("\n\n", maxsplit=1)[0].split("\n")[1]
    inline = f"***Bodyguard 3 -*** {reminder}"
    assert memory.segments(inline) == ["***Bodyguard 3 -***", reminder]
    assert memory.segments(GUARD_EN.split("\n\n", maxsplit=1)[0]) == [
        "***Bodyguard 2***\\",
        reminder,
    ]
    match = found.exact("sentence", reminder)
    assert match is not None and match.target.startswith("*Je peux endurer")
    assert memory.segments("***Flying*** - *Only me.*") == ["***Flying*** -", "*Only me.*"]
    # The name alone is the glossary's: no memory unit.
    assert memory.name_run("***Bodyguard 2***\\") and memory.name_run("***Flying*** -")
    assert found.exact("sentence", "***Bodyguard 2***\\") is None
    # A bold run followed by plain text is no ability name of its own.
    assert memory.segments("***Salvage 2*** It does.") == ["***Salvage 2*** It does."]


def test_the_whole_library_is_the_memory_of_one_deck(library: Path) -> None:
    # Work on the second deck alone: the first deck, beside it, is its memory.
    loaded, _ = load_library([str(library / "second")])
    found = load_memory(loaded, "fr")
    assert found.exact("name", "Guard") is not None
    assert load_memory(loaded, "fr", whole=False).exact("name", "Guard") is None


def test_a_broken_sibling_deck_adds_nothing_and_stops_nothing(library: Path) -> None:
    broken = library / "broken"
    broken.mkdir()
    (broken / "deck.yaml").write_text("name: [", encoding="utf-8")
    loaded, _ = load_library([str(library / "second")])
    assert load_memory(loaded, "fr").exact("name", "Guard") is not None


# --------------------------------------------------------------------------------------
# Drafts from the memory, on a library written by someone who had not read this code
# (tests/data/memory-library: its EXPECTED.md is the answer key).

KEY = ROOT / "tests" / "data" / "memory-library"


@pytest.fixture(scope="module")
def drafted(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    library = tmp_path_factory.mktemp("memory") / "library"
    shutil.copytree(KEY, library)
    code, output = run("translate", str(library / "second"), "--lang", "fr")
    assert code == 0, output
    return library / "second", output


def _draft(deck: Path, slug: str) -> tuple[dict, str]:
    path = deck / f"{slug}.fr.md"
    problems: list = []
    parsed = parse_card_text(str(path), "second", path.read_text("utf-8"), problems)
    assert parsed is not None and not problems, problems
    return parsed.fields, parsed.body


def test_drafts_take_exact_paragraphs_and_sentences_from_the_other_deck(
    drafted: tuple[Path, str],
) -> None:
    deck, output = drafted
    assert "6 parts taken from the translation memory" in output
    fields, body = _draft(deck, "ironhold")
    # EXPECTED.md, ironhold p1: exact, greywall p1 (reviewed).
    assert body.startswith(":Q:uand tu fondes cette *cité*, pioche une carte.\n")
    assert fields["memory"] == ["paragraph 1: first/greywall, reviewed"]
    # grave-toll p1.l1 exact (grave-tithe p1.l1); p1.l2 only fuzzy: still English.
    fields, body = _draft(deck, "grave-toll")
    assert body.startswith(
        ":I:nflige 3 dégâts à la *créature ciblée*.\\\nIf it dies, draw three cards.\n"
    )
    assert fields["memory"] == ["paragraph 1, sentence 1: first/grave-tithe, reviewed"]
    # spring-tide p1.l1 from a translated (not reviewed) card.
    fields, body = _draft(deck, "spring-tide")
    assert body.startswith(":L:a *créature ciblée* gagne +3/+3 jusqu’à la fin du tour.\\\n")
    assert fields["memory"] == ["paragraph 1, sentence 1: first/wildroot-surge, translated"]
    # red-banner p2, tidewatch-guard p3, cinder-imp p3: whole paragraphs.
    _, body = _draft(deck, "red-banner")
    assert ":ma: La *créature équipée* gagne +1/+1 jusqu’à la fin du tour." in body
    _, body = _draft(deck, "tidewatch-guard")
    assert "*«\u00a0La marée n’obéit à aucune couronne, seulement au port.\u00a0»*" in body
    fields, body = _draft(deck, "cinder-imp")
    assert body.rstrip().endswith(":m: Inflige 1 dégât à la *créature ciblée*.")
    # The inline Incentive with a new parameter: the glossary's name and reminder.
    assert "***Motivation 3 -*** *Je ne peux pas attaquer à moins que tu ne payes 3" in body


def test_stale_and_draft_translations_are_not_reused(drafted: tuple[Path, str]) -> None:
    deck, _ = drafted
    # ashen-vigil p1, p2: identical to the stale omen-of-ash; bone-chanter p2, p3:
    # identical to the draft bone-piper.
    fields, body = _draft(deck, "ashen-vigil")
    assert "memory" not in fields
    assert "At the end of your turn" in body and "Au début" not in body
    fields, body = _draft(deck, "bone-chanter")
    assert "memory" not in fields
    assert ":m: Target ***joueureuse*** discards one card." in body


def test_a_memory_fill_is_no_untranslated_text_and_review_clears_the_list(
    drafted: tuple[Path, str], tmp_path: Path
) -> None:
    shutil.copytree(drafted[0].parent, tmp_path / "library")
    deck = tmp_path / "library" / "second"
    _, output = run("lint", str(deck / "ironhold.fr.md"), "--lang", "fr", "--format", "json")
    untranslated = [f["message"] for f in json.loads(output)["findings"] if f["code"] == "TR401"]
    assert untranslated and not [m for m in untranslated if "paragraph 1 " in m], untranslated
    code, output = run(
        "review", "second/ironhold", "--lang", "fr", "--force", "--library", str(deck.parent)
    )
    assert code in (0, 1), output
    fields, _ = _draft(deck, "ironhold")
    assert "memory" not in fields and fields.get("reviewed")


def test_no_memory_fills_from_the_glossary_only(tmp_path: Path) -> None:
    library = tmp_path / "library"
    shutil.copytree(KEY, library)
    code, output = run(
        "translate", str(library / "second"), "--lang", "fr", "--no-memory", "--format", "json"
    )
    assert code == 0, output
    result = json.loads(output)
    assert result["memory"] is None
    assert all(draft["memory"] == [] for draft in result["drafts"])
    assert "memory:" not in (library / "second" / "ironhold.fr.md").read_text("utf-8")


# --------------------------------------------------------------------------------------
# Suggestions in the PO export


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """The second deck's PO file (no drafts: every entry untranslated), by context."""
    from translate.storage import po

    library = tmp_path_factory.mktemp("po") / "library"
    shutil.copytree(KEY, library)
    target = library / "second.fr.po"
    code, output = run("export", "po", str(library / "second"), "--lang", "fr", "-o", str(target))
    assert code == 0, output
    store = po.pofile.parsefile(str(target))
    return library, {unit.getcontext(): unit for unit in store.units if not unit.isheader()}


def test_a_whole_match_is_a_fuzzy_translation_with_its_english_as_previous(
    exported: tuple[Path, dict[str, Any]],
) -> None:
    _, units = exported
    subtype = units["tidewatch-guard:subtype"]
    assert subtype.target == "Soldat, ondin" and subtype.isfuzzy()
    assert subtype.prev_source == "Merfolk Soldier"
    assert subtype.getnotes("translator") == (
        "memory 100% (first/harbor-sentinel, reviewed): Merfolk Soldier → Soldat, ondin"
    )
    # A one-paragraph text 91 % like wildroot-surge's flavour: offered, with the
    # difference, the English it translates as the previous source.
    flavour = units["spring-tide:flavour"]
    assert (
        flavour.isfuzzy()
        and flavour.target == "*«\u00a0La forêt répond quand on l’appelle.\u00a0»*"
    )
    assert "forest" in flavour.prev_source
    assert "[-forest-]{+river+}" in flavour.getnotes("translator")


def test_a_partial_match_is_only_a_comment(exported: tuple[Path, dict[str, Any]]) -> None:
    _, units = exported
    text = units["ironhold:text"]
    assert text.target == "" and not text.isfuzzy()
    notes = text.getnotes("translator").split("\n")
    assert notes == [
        "memory 100% (first/greywall, reviewed), paragraph 1: :W:hen you found this "
        "***city***, draw one card. → :Q:uand tu fondes cette *cité*, pioche une carte.",
        "memory 90% (first/greywall, reviewed), paragraph 2: :m1: Your "
        "***[-Soldiers-]{+Knights+}*** in this ***city*** get +1/+0. → :m1: Tes **soldats** "
        "dans cette *cité* gagnent +1/+0.",
    ]
    # Stale and draft sources suggest nothing.
    assert not units["ashen-vigil:text"].getnotes("translator")
    assert not units["bone-chanter:text"].getnotes("translator")


def test_suggestions_are_not_imported_until_a_person_confirms_them(
    exported: tuple[Path, dict[str, Any]], tmp_path: Path
) -> None:
    library, _ = exported
    copy = tmp_path / "library"
    shutil.copytree(library, copy)
    po_file = copy / "second.fr.po"
    code, output = run("import", "po", str(po_file), "--library", str(copy))
    assert code == 0, output
    assert not list((copy / "second").glob("*.fr.md"))
    # The translator takes the subtype's suggestion: no longer fuzzy, imported.
    text = po_file.read_text("utf-8")
    taken = text.replace('#, fuzzy\n#| msgid "Merfolk Soldier"\n', "", 1)
    assert taken != text
    po_file.write_text(taken, "utf-8")
    code, output = run("import", "po", str(po_file), "--library", str(copy))
    assert code == 1 and "1 card updated" in output, output  # 1: the rest is English
    assert "subtype: Soldat, ondin" in (copy / "second" / "tidewatch-guard.fr.md").read_text(
        "utf-8"
    )


def test_an_imported_memory_leading_out_of_the_library_is_not_read(
    library: Path, tmp_path: Path
) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "fr.tmx").write_text("not even XML", encoding="utf-8")
    (library / "memory").symlink_to(outside, target_is_directory=True)
    assert memory.memory_files([library], "fr") == []
    loaded, _ = load_library([str(library / "second")])
    assert load_memory(loaded, "fr").exact("name", "Guard") is not None


def test_the_memory_is_read_only_when_an_entry_or_a_draft_needs_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from translator.workflow import stored

    def unread(*_: object, **__: object) -> None:
        raise AssertionError("the memory was read")

    monkeypatch.setattr(stored, "load_memory", unread)
    library = tmp_path / "library"
    shutil.copytree(KEY / "first", library / "first")
    # The first deck: every card has a translation, so no draft to make.
    code, output = run("translate", str(library / "first"), "--lang", "fr", "--format", "json")
    assert code == 0 and json.loads(output)["memory"] is None, output
    # Without its one draft, every PO entry is translated: nothing to suggest.
    for path in (library / "first").glob("bone-piper.*.md"):
        path.unlink()
    deck = library / "first" / "deck.yaml"
    deck.write_text(re.sub(r"  bone-piper: \d+\n", "", deck.read_text("utf-8")), "utf-8")
    code, output = run("export", "po", str(library / "first"), "--lang", "fr", "-o", "-")
    assert code == 0 and "msgctxt" in output, output


def test_a_draft_confirmed_entry_by_entry_loses_its_memory_list(
    drafted: tuple[Path, str], tmp_path: Path
) -> None:
    from translate.storage import po

    shutil.copytree(drafted[0].parent, tmp_path / "library")
    deck = tmp_path / "library" / "second"
    target = tmp_path / "ironhold.fr.po"
    run("export", "po", str(deck), "--lang", "fr", "-o", str(target), "--no-tbx")
    store = po.pofile.parsefile(str(target))
    for unit in store.units:
        if unit.getcontext().startswith("ironhold:"):
            unit.target = unit.target or "Fortefer"  # the translator finishes the card
            unit.markfuzzy(False)
        elif not unit.isheader():
            unit.target = ""
    target.write_bytes(bytes(store))
    _, output = run("import", "po", str(target), "--library", str(tmp_path / "library"))
    fields, _ = _draft(deck, "ironhold")
    assert "wip" not in fields and "memory" not in fields, output
