"""The French style rules (FR): each with a finding and a near miss, quoted from the
style guide where it gives examples, and their fixes."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.lintkit import apply_text_fixes, codes, lint_card, run
from translator import lint

NBSP, NNBSP = "\u00a0", "\u202f"
SAMPLE = ROOT / "cards" / "sample"
OPTIONS = lint.Options(select=["FR"])
RESOURCES = lint.load_resources(["fr"], OPTIONS, [])


def card(english: str, french: str, **kwargs: object) -> list[lint.Finding]:
    """The FR findings on one French card made of these texts."""
    return lint_card(RESOURCES, OPTIONS, english, french, lang="fr", **kwargs)  # type: ignore[arg-type]


def fixed(english: str, french: str, **kwargs: object) -> str:
    """The French text once the fixes of its FR findings are applied."""
    return apply_text_fixes(card(english, french, **kwargs), french, "fr")


# --------------------------------------------------------------------------------------


def test_tutoiement() -> None:
    # The guide's own Example 2 keeps the old form.
    assert codes(card("Target player draws a card.", "Faites piocher une carte au ciblé.")) == [
        "FR101"
    ]
    assert codes(card("Put them in your hand.", "Mets-les dans votre main.")) == ["FR101"]
    assert codes(card("Draw two cards.", "Pioche deux cartes.")) == []
    # chez, assez are no imperatives
    assert codes(card("Draw two cards.", "Pioche deux cartes, assez vite.")) == []


def test_joueureuse_is_feminine_with_fixes() -> None:
    english = "Target player draws one card."
    found = card(english, "Le joueureuse ciblé pioche une carte.")
    assert codes(found) == ["FR102", "FR102"]
    assert (
        fixed(english, "Le joueureuse ciblé pioche une carte.")
        == "La joueureuse ciblée pioche une carte."
    )
    assert (
        fixed(english, "Fais piocher une carte au joueureuse.")
        == "Fais piocher une carte à la joueureuse."
    )
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


@pytest.mark.parametrize(
    "text", ["Pioche une carte !", "Pioche une carte!", "Au choix : pioche.", "« Chut. »"]
)
def test_no_break_spaces(text: str) -> None:
    assert set(codes(card("Draw a card.", text))) == {"FR201"}


def test_no_break_spaces_fix_and_setting() -> None:
    assert fixed("Draw a card!", "Pioche une carte !") == f"Pioche une carte{NBSP}!"
    assert fixed("Draw a card!", "Pioche une carte!") == f"Pioche une carte{NBSP}!"
    assert (
        fixed("Draw a card!", "Pioche une carte !", settings={"french-spaces": "narrow"})
        == f"Pioche une carte{NNBSP}!"
    )
    # either kind passes by default; one is required when configured
    assert codes(card("Draw a card!", f"Pioche une carte{NNBSP}!")) == []
    assert codes(
        card("Draw a card!", f"Pioche une carte{NNBSP}!", settings={"french-spaces": "no-break"})
    ) == ["FR201"]
    # near misses: a time, a symbol, ?! together
    assert codes(card("At 10:30.", "À 10:30.")) == []
    assert codes(card("Pay :g2:!", f"Paye :g2:{NBSP}!")) == []
    assert codes(card("Really?!", f"Vraiment{NBSP}?!")) == []


def test_quotes_apostrophes_ellipsis_spaces() -> None:
    assert fixed('*"Silence."*', '*"Silence."*') == f"*«{NBSP}Silence.{NBSP}»*"
    assert fixed("I deal damage.", "J'inflige des dégâts.") == "J’inflige des dégâts."
    assert (
        fixed("I deal damage.", "J’inflige des dégâts.", settings={"apostrophe": "'"})
        == "J'inflige des dégâts."
    )
    assert fixed("And then...", "Et puis...") == "Et puis…"
    assert fixed("Draw a card.", "Pioche  une carte .") == "Pioche une carte."
    assert codes(card("Draw a card.", "Pioche une carte.")) == []
    # a quote mark inside a word is an apostrophe, and an ellipsis of four dots is left
    assert codes(card("Wait....", "Attends....")) == []


def test_sentence_case_names() -> None:
    found = card("Draw.", "Pioche.", name="Seigneur Du Port", english_name="Harbor Lord")
    assert [(f.code, f.edit is not None) for f in found] == [("FR301", True), ("FR301", False)]
    assert found[0].field == "name"
    # any capitalised later word: a function or glossary word gets the fix, another
    # word (a proper noun the glossary may lack) none
    [finding] = card("Draw.", "Pioche.", name="Veilleur Silencieux")
    assert finding.code == "FR301" and finding.edit is None
    assert fixed_name("L’Armée des morts") == "L’armée des morts"
    # the glossary's proper nouns (factions), roman numerals, the English name kept
    assert codes(card("Draw.", "Pioche.", name="Fils de la Horde rouge")) == []
    assert codes(card("Draw.", "Pioche.", name="Fils de l’Ost de l’ombre")) == []
    assert codes(card("Draw.", "Pioche.", name="Légion de fer II")) == []
    assert codes(card("Draw.", "Pioche.", name="Sand Copy", english_name="Sand Copy")) == []
    # a proper noun that is neither in the glossary nor a card name is reported
    assert codes(card("Draw.", "Pioche.", name="Messager de Salmère")) == ["FR301"]


def fixed_name(name: str) -> str:
    """A French card name once FR301's fixes are applied."""
    for finding in sorted(
        card("Draw.", "Pioche.", name=name),
        reverse=True,
        key=lambda f: f.edit.start if f.edit else -1,
    ):
        if finding.edit is not None:
            edit = finding.edit
            name = name[: edit.start] + edit.replacement + name[edit.end :]
    return name


def test_sentence_case_card_names_of_the_library(tmp_path: Path) -> None:
    # Another card's French name is a proper noun (the sample's « Seigneur du port » /
    # « de Salmère », Salmère being a card); name2 is checked as the title's second line
    library = tmp_path / "sample"
    shutil.copytree(SAMPLE, library)
    path = library / "harbor-lord.fr.md"
    # linted alone, the card still sees the names of its deck's other cards
    code, output = run("lint", "--no-config", "--select", "FR301", str(path))
    assert code == 0 and "FR301" not in output
    path.write_text(
        path.read_text(encoding="utf-8").replace("name2: de Salmère", "name2: Du Port Franc"),
        encoding="utf-8",
    )
    code, output = run("lint", "--no-config", "--select", "FR301", str(library))
    assert code == 1 and output.count("FR301") == 3, output


def test_capitals_and_bold_in_running_text() -> None:
    # The guide: « Tous les '''squelettes''' gagnent +1/+1 et acquièrent '''vol'''. »
    english = "All ***Soldiers*** get +1/+1 and gain ***Flying***."
    assert codes(card(english, "Tous les **soldats** gagnent +1/+1 et acquièrent **vol**.")) == []
    found = card(english, "Tous les **Soldats** gagnent +1/+1 et acquièrent **Vol**.")
    assert codes(found) == ["FR302", "FR302"]
    assert codes(card(english, "Tous les soldats gagnent +1/+1 et acquièrent **vol**.")) == [
        "FR303"
    ]
    # an ability's heading keeps its capital and needs no check
    assert codes(card("***Flying***\\\n*I fly.*", "***Vol***\\\n*Je vole.*")) == []


def test_imperative_hyphen() -> None:
    # The guide's example: « Sacrifie moi pour produire une ressource des Enfants de Gaïa. »
    english = "Sacrifice me to produce one Gaian resource."
    text = "Sacrifie moi pour produire une ressource des Enfants de Gaïa."
    assert codes(card(english, text)) == ["FR401"]
    assert fixed(english, text) == "Sacrifie-moi pour produire une ressource des Enfants de Gaïa."
    assert fixed("Discard it.", "Défausse la.") == "Défausse-la."
    # articles and prepositions are no pronouns
    assert codes(card("Discard the card.", "Défausse la carte.")) == []
    assert codes(card("Put two counters on me.", "Place deux marqueurs sur moi.")) == []


def test_checklist() -> None:
    assert codes(
        card(
            "I cannot be the target of spells.",
            "Je ne peux pas être la cible d’évènements, de magies ou d’enchantements.",
        )
    ) == ["FR402"]
    assert (
        codes(card("I cannot be the target of spells.", "Je ne peux pas être la cible de sorts."))
        == []
    )
    # FR402 is for enumerations the English itself makes: for "spells", GL101 says sort
    assert codes(
        card(
            "I cannot be the target of enchantments, magic or events.",
            "Je ne peux pas être la cible d’enchantements, de magie ou d’évènements.",
        )
    ) == ["FR402"]


# --------------------------------------------------------------------------------------
# --fix on files.


@pytest.mark.slow
def test_fix_changes_only_what_it_reports_and_is_idempotent(tmp_path: Path) -> None:
    library = tmp_path / "sample"
    shutil.copytree(SAMPLE, library)
    path = library / "courier.fr.md"
    original = path.read_text(encoding="utf-8")
    broken = original.replace("pioche une carte.", "pioche une carte .").replace(
        "name: Messager", "name: Messager # the courier"
    )
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
    path.write_text(
        path.read_text(encoding="utf-8").replace("draws one card", "draws one card @@"), "utf-8"
    )
    before = path.read_bytes()
    code, _ = run("lint", "--no-config", "--select", "MK401", "--fix", str(library))
    assert code == 1  # MK401 has a fix, but not on the source language
    assert path.read_bytes() == before


def test_subtype_case_and_ability_definitions() -> None:
    # a subtype line the glossary cannot render (an unknown English word)
    found = card(
        "Draw a card.",
        "Pioche une carte.",
        subtype="Soldat, Ondin",
        english_subtype="Soldier Mermaidish",
    )
    assert codes(found) == ["FR304"] and found[0].fix == "o"
    assert (
        codes(
            card(
                "Draw a card.",
                "Pioche une carte.",
                subtype="Soldat, ondin",
                english_subtype="Soldier Mermaidish",
            )
        )
        == []
    )
    # The guide's Example 3: « '''''Vol -''' Seules les créatures ... bloquer'' »
    english = "***Flying***\\\n*Only creatures with flying can defend against me.*"
    plain = "**Vol**\\\nSeules les créatures dotées du vol peuvent me bloquer."
    styled = "***Vol***\\\n*Seules les créatures dotées du vol peuvent me bloquer.*"
    assert codes(card(english, plain)) == ["FR305"]
    assert codes(card(english, styled)) == []


def test_emphasis_of_the_wrong_kind() -> None:
    english = "All ***Soldiers*** get +1/+1 and gain ***Flying***."
    # italics where the guide wants bold, bold italics (the English habit) for bold
    [italic] = card(english, "Tous les *soldats* gagnent +1/+1 et acquièrent **vol**.")
    assert italic.code == "FR303" and "in italics" in italic.message
    found = card(english, "Tous les ***soldats*** gagnent +1/+1 et acquièrent ***vol***.")
    assert codes(found) == ["FR303", "FR303"] and "bold italics" in found[0].message
    # a compound subtype whose own subtype is in bold, as the English bolds it
    assert (
        codes(card("Put a 2/2 ***Mud*** token into play.", "Mets un jeton **boue** 2/2 en jeu."))
        == []
    )
    # a key noun group in bold italics (the guide's Genre example) is left to reviewers
    assert codes(card(english, "***Tous les soldats*** gagnent +1/+1 et acquièrent **vol**.")) == []


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        (
            "**Vol**\\\n*Seules les créatures dotées du vol peuvent me bloquer.*",
            "the name is in simple bold",
        ),
        (
            "*Vol*\\\n*Seules les créatures dotées du vol peuvent me bloquer.*",
            "the name is in italics",
        ),
        (
            "***Vol***\\\n**Seules les créatures dotées du vol peuvent me bloquer.**",
            "the reminder is in bold",
        ),
        (
            "***Vol***\\\n***Seules les créatures dotées du vol peuvent me bloquer.***",
            "the reminder is in bold italics",
        ),
        (
            "***Vol - Seules les créatures dotées du vol peuvent me bloquer.***",
            "the reminder is in bold italics",
        ),
        (
            "***Vol***\\\nSeules les créatures dotées du vol peuvent me bloquer.",
            "the reminder is not in italics",
        ),
    ],
)
def test_ability_definition_of_the_wrong_kind(text: str, problem: str) -> None:
    english = "***Flying***\\\n*Only creatures with flying can defend against me.*"
    [finding] = card(english, text)
    assert finding.code == "FR305" and problem in finding.message, finding.message


@pytest.mark.parametrize(
    "text",
    [
        "***Vol***\\\n*Seules les créatures dotées du vol peuvent me bloquer.*",
        # the guide's Example 3, on one line: « '''''Vol -''' Seules les créatures ...'' »
        "***Vol -*** *Seules les créatures dotées du vol peuvent me bloquer.*",
        "*__Vol -__ Seules les créatures dotées du vol peuvent me bloquer.*",
        "***Vol*** - *Seules les créatures dotées du vol peuvent me bloquer.*",
        # a name inside the reminder in simple bold, as the guide writes names in the text
        "***Vol***\\\n*Seules les créatures dotées du* **vol** *peuvent me bloquer.*",
    ],
)
def test_ability_definition_as_the_guide_writes_it(text: str) -> None:
    for english in (
        "***Flying***\\\n*Only creatures with flying can defend against me.*",
        "***Flying -*** *Only creatures with flying can defend against me.*",
    ):
        assert codes(card(english, text)) == []


#: The French card texts of seed 000 (the guide's examples, newest revision, and the
#: French rules' examples of card text), wiki markup written as Markdown, with their
#: English (the guide's own, or the English rules'; for Example 2, 3 and 4, which have
#: none, the English the examples translate), and the FR1/FR3 codes they should get.
GUIDE_EXAMPLES = [
    # Exemple 1: key noun groups in italics, where the English has bold italics
    (
        "All ***movement*** to or from target ***city*** is forbidden as long as your "
        "***army*** has more creatures than the city's controller's ***army***.",
        "Tout *déplacement* à destination ou en provenance de la *cité ciblée* est interdit "
        "tant que *ton armée* a plus de créatures que *l'armée de la joueureuse qui contrôle "
        "la cité*.",
        [],
    ),
    # Exemple 2: « Faites » is the guide's own slip (FR101)
    (
        "All ***Soldiers*** get +1/+1 and gain ***Flying***.\n\nTarget player draws a card.",
        "Tous les **soldats** gagnent +1/+1 et acquièrent **vol**.\n\nFaites piocher une "
        "carte au *joueur ciblé*.",
        ["FR101"],
    ),
    # Exemple 3, inline
    (
        "***Flying -*** *Only creatures with flying or ranged can defend against me.*",
        "***Vol -*** *Seules les créatures dotées du vol ou de la longue portée peuvent me "
        "bloquer*",
        [],
    ),
    # Exemple 4: a card name in bold
    (
        "When I attack a ***city*** where ***Little Brother*** resides, I deal 2 additional "
        "damage to that ***city***.",
        "Quand j'attaque une *cité* où réside **Petit frère**, j'inflige 2 dégâts "
        "supplémentaires à cette *cité*.",
        [],
    ),
    # Genre: noun groups in bold italics
    (
        "Mark all ***creatures*** from a player. Targeted ***player*** can choose to destroy "
        "another ***creature*** belongin to any player.",
        "Engage toutes ***les créatures d'une joueureuse***. ***La joueureuse ciblée*** peut "
        "choisir de renvoyer ***une créature*** dans la main de son propriétaire.",
        [],
    ),
    # Des chiffres et des lettres
    ("Deal 3 dammage.", "Inflige 3 dégâts.", []),
    ("Draw two cards.", "Pioche deux cartes.", []),
    (
        "Sacrifice me to produce one Gaian resource.",
        "Sacrifie moi pour produire une ressource des Enfants de Gaïa.",
        [],
    ),
    # Assemblage de Règles Chouettes / Awesome Rules Concept
    (
        "This card can only be played if you control fewer creatures than your opponent(s).",
        "Cette carte ne peut être jouée que si tu contrôles moins de créature que ton "
        "adversaire. (ou chacun de tes adversaires).",
        [],
    ),
    ("All Elvish creatures get +3 Defense", "Tous les elfes obtiennent +3 en défense", []),
    (
        "Discard a non-Dark-Legion creature every time a skeleton comes into play.",
        "Défausse une créature n'appartenant pas à l'Ost des ténèbres à chaque fois qu'un "
        "squelette entre en jeu.",
        [],
    ),
]
#: Card names of seed 000: the guide's « famélique de la nuit » (night goant) and
#: « Petit frère », the rules' « Délégué syndical gobelin » (Imp Union Leader).
GUIDE_NAMES = [
    ("Night Goant", "Famélique de la nuit"),
    ("Little Brother", "Petit frère"),
    ("Imp Union Leader", "Délégué syndical gobelin"),
]
FR13 = lint.Options(select=["FR1", "FR3"])


@pytest.mark.parametrize(("english", "french", "expected"), GUIDE_EXAMPLES)
def test_the_guides_examples(english: str, french: str, expected: list[str]) -> None:
    assert codes(lint_card(RESOURCES, FR13, english, french, lang="fr")) == expected


@pytest.mark.parametrize(("english", "french"), GUIDE_NAMES)
def test_the_guides_card_names(english: str, french: str) -> None:
    assert (
        codes(
            lint_card(
                RESOURCES,
                FR13,
                "Draw a card.",
                "Pioche une carte.",
                lang="fr",
                name=french,
                english_name=english,
            )
        )
        == []
    )


FLYING_EN = "Only creatures with flying and ranged can defend against me."
RANGED_EN = "I can defend against creatures with flying."
FLYING_FR = "Seules les créatures dotées du vol ou de la longue portée peuvent me bloquer."
RANGED_FR = "Je peux bloquer les créatures volantes."


@pytest.mark.parametrize(
    "layout",
    [
        "***{}***\\\n*{}*\\\n***{}***\\\n*{}*",  # a name, a line break, the reminder
        "***{} -*** *{}*\\\n***{} -*** *{}*",  # the guide's inline style
    ],
)
def test_bold_names_with_two_abilities_in_one_paragraph(layout: str) -> None:
    english = layout.format("Flying", FLYING_EN, "Ranged", RANGED_EN)
    # the English second ability was taken for a name in bold in the text, and the
    # Vol reminder's « longue portée » reported in italics (FR303, a false alarm)
    assert card(english, layout.format("Vol", FLYING_FR, "Longue portée", RANGED_FR)) == []
    # a name the English bolds in the text is still checked there
    text = "All my creatures gain ***Flying***."
    [wrong] = card(
        f"{english}\n\n{text}",
        layout.format("Vol", FLYING_FR, "Longue portée", RANGED_FR)
        + "\n\nToutes mes créatures acquièrent *vol*.",
    )
    assert wrong.code == "FR303" and "'vol' (ability) in italics" in wrong.message
    assert wrong.line == 5 + layout.count("\n") + 2


def test_bold_names_in_an_ability_reminder() -> None:
    # the English bolds Ranged in the text; the Vol reminder names it in italics, as the
    # reminder is (and as the list writes it): not FR303's
    english = f"***Flying***\\\n*{FLYING_EN}*\n\nAll my creatures gain ***Ranged***."
    reminder = f"***Vol***\\\n*{FLYING_FR}*\n\n"
    assert card(english, reminder + "Toutes mes créatures acquièrent **longue portée**.") == []
    [wrong] = card(english, reminder + "Toutes mes créatures acquièrent *longue portée*.")
    assert wrong.code == "FR303" and wrong.line == 8
