"""The French style rules (FR): each with a finding and a near miss, quoted from the
style guide where it gives examples, and their fixes."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from translator import lint

from .conftest import ROOT
from .lintkit import apply_text_fixes, codes, lint_card, run

NBSP, NNBSP = "\u00a0", "\u202f"
SAMPLE = ROOT / "cards" / "sample"
OPTIONS = lint.Options(select=["FR"])
RESOURCES = lint.load_resources(["fr"], OPTIONS, [])


def card(english: str, french: str, **kwargs: object) -> list[lint.Finding]:
    """The FR findings on one French card made of these texts."""
    return lint_card(RESOURCES, OPTIONS, english, french, lang="fr",
                     **kwargs)  # type: ignore[arg-type]


def fixed(english: str, french: str, **kwargs: object) -> str:
    """The French text once the fixes of its FR findings are applied."""
    return apply_text_fixes(card(english, french, **kwargs), french, "fr")


# --------------------------------------------------------------------------------------


def test_tutoiement() -> None:
    # The guide's own Example 2 keeps the old form.
    assert codes(card("Target player draws a card.",
                      "Faites piocher une carte au ciblé.")) == ["FR101"]
    assert codes(card("Put them in your hand.", "Mets-les dans votre main.")) == ["FR101"]
    assert codes(card("Draw two cards.", "Pioche deux cartes.")) == []
    # chez, assez are no imperatives
    assert codes(card("Draw two cards.", "Pioche deux cartes, assez vite.")) == []


def test_joueureuse_is_feminine_with_fixes() -> None:
    english = "Target player draws one card."
    found = card(english, "Le joueureuse ciblé pioche une carte.")
    assert codes(found) == ["FR102", "FR102"]
    assert fixed(english, "Le joueureuse ciblé pioche une carte.") == \
        "La joueureuse ciblée pioche une carte."
    assert fixed(english, "Fais piocher une carte au joueureuse.") == \
        "Fais piocher une carte à la joueureuse."
    assert codes(card(english, "La joueureuse ciblée pioche une carte.")) == []
    assert codes(card(english, "Chaque joueureuse pioche une carte.")) == []


def test_digits_and_letters_follow_the_english() -> None:
    # The guide: « Draw two cards. » -> « Pioche deux cartes. », « Deal 3 dammage. » ->
    # « Inflige 3 dégâts. »
    assert codes(card("Draw two cards.", "Pioche deux cartes.")) == []
    assert codes(card("Deal 3 damage.", "Inflige 3 dégâts.")) == []
    assert fixed("Draw two cards.", "Pioche 2 cartes.") == "Pioche deux cartes."
    assert fixed("Deal three damage.", "Inflige trois dégâts.") == "Inflige 3 dégâts."
    assert fixed("Pay 2 resources.", "Paye deux ressources.") == "Paye 2 ressources."
    # 1: un or une, the rule cannot tell: reported without a fix
    [finding] = card("Draw one card.", "Pioche 1 carte.")
    assert finding.code == "FR103" and finding.edit is None


@pytest.mark.parametrize("text", ["Pioche une carte !", "Pioche une carte!",
                                  "Au choix : pioche.", "« Chut. »"])
def test_no_break_spaces(text: str) -> None:
    assert set(codes(card("Draw a card.", text))) == {"FR201"}


def test_no_break_spaces_fix_and_setting() -> None:
    assert fixed("Draw a card!", "Pioche une carte !") == f"Pioche une carte{NBSP}!"
    assert fixed("Draw a card!", "Pioche une carte!") == f"Pioche une carte{NBSP}!"
    assert fixed("Draw a card!", "Pioche une carte !", settings={"french-spaces": "narrow"}) \
        == f"Pioche une carte{NNBSP}!"
    # either kind passes by default; one is required when configured
    assert codes(card("Draw a card!", f"Pioche une carte{NNBSP}!")) == []
    assert codes(card("Draw a card!", f"Pioche une carte{NNBSP}!",
                      settings={"french-spaces": "no-break"})) == ["FR201"]
    # near misses: a time, a symbol, ?! together
    assert codes(card("At 10:30.", "À 10:30.")) == []
    assert codes(card("Pay :g2:!", f"Paye :g2:{NBSP}!")) == []
    assert codes(card("Really?!", f"Vraiment{NBSP}?!")) == []


def test_quotes_apostrophes_ellipsis_spaces() -> None:
    assert fixed('*"Silence."*', '*"Silence."*') == f"*«{NBSP}Silence.{NBSP}»*"
    assert fixed("I deal damage.", "J'inflige des dégâts.") == "J’inflige des dégâts."
    assert fixed("I deal damage.", "J’inflige des dégâts.",
                 settings={"apostrophe": "'"}) == "J'inflige des dégâts."
    assert fixed("And then...", "Et puis...") == "Et puis…"
    assert fixed("Draw a card.", "Pioche  une carte .") == "Pioche une carte."
    assert codes(card("Draw a card.", "Pioche une carte.")) == []
    # a quote mark inside a word is an apostrophe, and an ellipsis of four dots is left
    assert codes(card("Wait....", "Attends....")) == []


def test_sentence_case_names() -> None:
    found = card("Draw.", "Pioche.", name="Seigneur Du Port", english_name="Harbor Lord")
    assert codes(found) == ["FR301"] and found[0].edit is not None
    assert found[0].field == "name"
    # a proper noun keeps its capital; the glossary's capitalised words too
    assert codes(card("Draw.", "Pioche.", name="Messager de Salmère")) == []
    assert codes(card("Draw.", "Pioche.", name="Fils de la Horde rouge")) == []


def test_capitals_and_bold_in_running_text() -> None:
    # The guide: « Tous les '''squelettes''' gagnent +1/+1 et acquièrent '''vol'''. »
    english = "All ***Soldiers*** get +1/+1 and gain ***Flying***."
    assert codes(card(english, "Tous les **soldats** gagnent +1/+1 et acquièrent "
                               "**vol**.")) == []
    found = card(english, "Tous les **Soldats** gagnent +1/+1 et acquièrent **Vol**.")
    assert codes(found) == ["FR302", "FR302"]
    assert codes(card(english, "Tous les soldats gagnent +1/+1 et acquièrent "
                               "**vol**.")) == ["FR303"]
    # an ability's heading keeps its capital and needs no check
    assert codes(card("***Flying***\\\n*I fly.*", "***Vol***\\\n*Je vole.*")) == []


def test_imperative_hyphen() -> None:
    # The guide's example: « Sacrifie moi pour produire une ressource des Enfants de Gaïa. »
    english = "Sacrifice me to produce one Gaian resource."
    text = "Sacrifie moi pour produire une ressource des Enfants de Gaïa."
    assert codes(card(english, text)) == ["FR401"]
    assert fixed(english, text) == "Sacrifie-moi pour produire une ressource des Enfants " \
                                   "de Gaïa."
    assert fixed("Discard it.", "Défausse la.") == "Défausse-la."
    # articles and prepositions are no pronouns
    assert codes(card("Discard the card.", "Défausse la carte.")) == []
    assert codes(card("Put two counters on me.", "Place deux marqueurs sur moi.")) == []


def test_checklist() -> None:
    assert codes(card("I cannot be the target of spells.",
                      "Je ne peux pas être la cible d’évènements, de magies ou "
                      "d’enchantements.")) == ["FR402"]
    assert codes(card("I cannot be the target of spells.",
                      "Je ne peux pas être la cible de sorts.")) == []
    # FR402 is for enumerations the English itself makes: for "spells", GL101 says sort
    assert codes(card("I cannot be the target of enchantments, magic or events.",
                      "Je ne peux pas être la cible d’enchantements, de magie ou "
                      "d’évènements.")) == ["FR402"]


# --------------------------------------------------------------------------------------
# --fix on files.


def test_fix_changes_only_what_it_reports_and_is_idempotent(tmp_path: Path) -> None:
    library = tmp_path / "sample"
    shutil.copytree(SAMPLE, library)
    path = library / "courier.fr.md"
    original = path.read_text(encoding="utf-8")
    broken = original.replace("pioche une carte.", "pioche une carte .").replace(
        "name: Messager", "name: Messager # the courier")
    path.write_text(broken, encoding="utf-8")
    english = (library / "courier.en.md").read_bytes()
    code, diff = run("lint", "--no-config", "--diff", str(library))
    assert code == 1 and "-:m: La *joueureuse ciblée* pioche une carte ." in diff
    assert path.read_text(encoding="utf-8") == broken  # --diff writes nothing
    assert run("lint", "--no-config", "--fix", str(library))[0] == 0
    assert path.read_text(encoding="utf-8") == broken.replace("carte .", "carte.")
    assert (library / "courier.en.md").read_bytes() == english
    assert run("lint", "--no-config", "--diff", str(library)) == (0, "")


def test_fix_never_touches_english(tmp_path: Path) -> None:
    library = tmp_path / "sample"
    shutil.copytree(SAMPLE, library)
    path = library / "courier.en.md"
    path.write_text(path.read_text(encoding="utf-8").replace("draws one card",
                                                             "draws one card @@"), "utf-8")
    before = path.read_bytes()
    code, _ = run("lint", "--no-config", "--select", "MK401", "--fix", str(library))
    assert code == 1  # MK401 has a fix, but not on the source language
    assert path.read_bytes() == before


def test_subtype_case_and_ability_definitions() -> None:
    # a subtype line the glossary cannot render (an unknown English word)
    found = card("Draw a card.", "Pioche une carte.", subtype="Soldat, Ondin",
                 english_subtype="Soldier Mermaidish")
    assert codes(found) == ["FR304"] and found[0].fix == "o"
    assert codes(card("Draw a card.", "Pioche une carte.", subtype="Soldat, ondin",
                      english_subtype="Soldier Mermaidish")) == []
    # The guide's Example 3: « '''''Vol -''' Seules les créatures ... bloquer'' »
    english = "***Flying***\\\n*Only creatures with flying can defend against me.*"
    plain = "**Vol**\\\nSeules les créatures dotées du vol peuvent me bloquer."
    styled = "***Vol***\\\n*Seules les créatures dotées du vol peuvent me bloquer.*"
    assert codes(card(english, plain)) == ["FR305"]
    assert codes(card(english, styled)) == []
