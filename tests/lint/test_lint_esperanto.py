"""The Esperanto style rules (EO): each with a finding and a near miss, quoted from the
wiki's Esperanto pages where they give examples, and their fixes, also through
``translator lint --fix`` on a copy of the sample."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.lintkit import apply_text_fixes, codes, copy_sample, lint_card, run
from translator import lint
from translator.lint.rules import esperanto

NBSP = "\u00a0"
SAMPLE = ROOT / "cards" / "sample"
OPTIONS = lint.Options(select=["EO"])
RESOURCES = lint.load_resources(["eo"], OPTIONS, [])


def card(
    english: str, text: str, *, select: list[str] | None = None, lang: str = "eo", **kwargs: object
) -> list[lint.Finding]:
    """The EO findings (or ``select``'s) on one translation made of these texts."""
    options = OPTIONS if select is None else lint.Options(select=select)
    kwargs.setdefault("name", "Karto")
    return lint_card(RESOURCES, options, english, text, lang=lang, **kwargs)  # type: ignore[arg-type]


def fixed(english: str, text: str, **kwargs: object) -> str:
    """The Esperanto text once the fixes of its EO findings are applied (one pass)."""
    return apply_text_fixes(card(english, text, **kwargs), text, "eo")


# --------------------------------------------------------------------------------------
# EO1: spelling.


def test_x_system_with_fix_keeping_case() -> None:
    english = "All your creatures get +1/+0 until the end of the turn."
    text = "Cxiuj viaj estajxoj akiras +1/+0 GXIS la fino de la vico."
    assert codes(card(english, text)) == ["EO101"] * 3
    assert fixed(english, text) == "Ĉiuj viaj estaĵoj akiras +1/+0 ĜIS la fino de la vico."
    assert fixed("Or.", "Aux.") == "Aŭ."


def test_x_system_near_misses() -> None:
    # names and English words whose x is no supersign; the variable x
    assert codes(card("Lux and Pollux get +x/+0.", "Lux kaj Pollux akiras +x/+0.")) == []
    assert esperanto.x_system("Lux") is None  # u + ŭ: no Esperanto word
    assert esperanto.x_system("Saxon") is None  # ax is no pair
    assert esperanto.x_system("sxipo") == "ŝipo"
    assert esperanto.x_system("CXu") == "Ĉu" and esperanto.x_system("CXU") == "ĈU"


def test_x_system_in_the_name_fields() -> None:
    found = card(
        "Draw.", "Eltiru.", name="Sxtala Gardisto", subtype="Sxipo", english_subtype="Ship"
    )
    assert [(f.code, f.field, f.fix) for f in found] == [
        ("EO101", "name", "Ŝtala"),
        ("EO101", "subtype", "Ŝipo"),
    ]


def test_h_system_with_fix() -> None:
    english = "Change the target of a spell or ability."
    text = "Shanghu la celon de sorcho au kapablo."
    assert codes(card(english, text)) == ["EO102"] * 3
    assert fixed(english, text) == "Ŝanĝu la celon de sorĉo aŭ kapablo."
    # the wiki's own slip: « eliĝa au aliĝa movo » (Arcmage Reguloj)
    assert fixed("Move.", "Eliĝa au aliĝa movo.") == "Eliĝa aŭ aliĝa movo."
    assert fixed("Also.", "Ankau antaue kontrauulon.") == "Ankaŭ antaŭe kontraŭulon."


def test_h_system_compounds_are_reported_without_a_fix() -> None:
    [finding] = card("Chop.", "Dishaki la arbon.")
    assert finding.code == "EO102" and finding.edit is None
    assert esperanto.h_system("longhara") == esperanto.HSpelling("lonĝara", False)
    assert esperanto.h_system("bushaltejo") == esperanto.HSpelling("buŝaltejo", False)


def test_h_system_near_misses() -> None:
    # pra|ulo is two vowels; a name inside a sentence; English left (TR504's); ship
    assert codes(card("Ancestor.", "Praulo kaj Sasha venas.")) == []
    assert codes(card("Each ship.", "Each ship.")) == []
    assert esperanto.h_system("each") is None and esperanto.h_system("English") is None
    assert esperanto.h_system("Sasha") is not None  # only its capital saves it


def test_alphabet() -> None:
    found = card("The work is done.", "La werko estas finita, ĉu ne? Kafé.")
    assert codes(found) == ["EO103"] and found[0].edit is None
    assert "w not in the Esperanto alphabet" in found[0].message
    [caron] = card("Or.", "Ǔ ne, aǔ jes.")
    assert "ǔ (for ŭ?)" in caron.message
    # near misses: names, parameters and variables, glossary words, English (TR504)
    assert codes(card("Wolfgang pays x.", "Wolfgang pagas x.")) == []
    assert codes(card("K-Warcrier.", "K-Batalkrianto N, y+1/+0.")) == []
    assert codes(card("Draw with it.", "Eltiru with ĝi.")) == []


# --------------------------------------------------------------------------------------
# EO2: typography.


@pytest.mark.parametrize(
    "text",
    ["Ĉu vi pretas ?", "Eltiru unu karton .", f"Haltu{NBSP}!", "Kosto : Efiko.", "Pagu :g2: ."],
)
def test_space_before_punctuation(text: str) -> None:
    assert codes(card("Ready?", text)) == ["EO201"]


def test_space_before_punctuation_fix_and_near_misses() -> None:
    assert (
        fixed("Ready? Draw a card.", "Ĉu vi pretas ? Eltiru unu karton .")
        == "Ĉu vi pretas? Eltiru unu karton."
    )
    # an ellipsis, a symbol before the mark, the footer's style, a smiley
    assert codes(card("3, 4, ... players.", "3, 4, ... ludantoj.")) == []
    assert codes(card("Pay :g2:.", "Pagu :g2:.")) == []
    assert codes(card("Join us!", "Aliĝu al ni!")) == []


@pytest.mark.parametrize(
    ("english", "text"),
    [
        (":m: : Target player draws one card.", ":m: : Cela ludanto eltiras unu karton."),
        (":m: :g2: : Draw one card.", ":m: :g2: : Eltiru unu karton."),
        (f":m:{NBSP}: Draw one card.", f":m:{NBSP}: Eltiru unu karton."),
    ],
)
def test_no_space_rule_for_the_colon_after_a_symbol_code(english: str, text: str) -> None:
    # the cost notation of the English card (« Cost : Effect », Awesome Rules Concept)
    assert codes(card(english, text)) == []
    # elsewhere the space is still reported: before a full stop after a symbol, before
    # a colon after a word
    assert codes(card("Pay :m: .", "Pagu :m: .")) == ["EO201"]
    assert codes(card(":m: : Cost: effect.", ":m: : Kosto : efiko.")) == ["EO201"]


def test_quotes_are_guillemets() -> None:
    english = '*"Steel does not hesitate."*'
    # flavour text in other quotes: TR302 leaves it to the language's quote rule
    found = card(english, '*"Ŝtalo ne hezitas."*', select=["EO", "TR302"])
    assert codes(found) == ["EO202"]
    assert fixed(english, '*"Ŝtalo ne hezitas."*') == "*«Ŝtalo ne hezitas.»*"
    assert fixed(english, "*“Ŝtalo ne hezitas.”*") == "*«Ŝtalo ne hezitas.»*"
    assert fixed(english, "*„Ŝtalo ne hezitas.“*") == "*«Ŝtalo ne hezitas.»*"
    # with esperanto-quotes = "either", the card's own spacing is kept
    text = f'La termino "la ludanto" kaj «{NBSP}ajna ludanto{NBSP}».'
    assert (
        fixed("The player.", text, settings={"esperanto-quotes": "either"})
        == f"La termino «{NBSP}la ludanto{NBSP}» kaj «{NBSP}ajna ludanto{NBSP}»."
    )
    # an unclosed quote opening the flavour: reported, no fix
    [unclosed] = card(english, '*"Ŝtalo ne hezitas.*', select=["EO", "TR302"])
    assert unclosed.code == "EO202" and unclosed.edit is None


def test_quotes_near_misses() -> None:
    assert codes(card("The city.", "Al l' urbo, al l’ urbo.")) == []
    assert codes(card('*"Steel."*', "*«Ŝtalo.»*", select=["EO", "TR302"])) == []
    assert (
        codes(
            card(
                '*"Steel."*',
                f"*«{NBSP}Ŝtalo.{NBSP}»*",
                select=["EO", "TR302"],
                settings={"esperanto-quotes": "either"},
            )
        )
        == []
    )


def test_guillemet_spacing() -> None:
    english = '*"It burns brightest near the dead."*'
    one_sided = f"*«{NBSP}Ĝi brulas plej hele apud la mortintoj.»*"
    either = {"esperanto-quotes": "either"}
    [finding] = card(english, one_sided, settings=either)
    assert finding.code == "EO203" and finding.fix == NBSP  # the other side's space
    assert (
        fixed(english, one_sided, settings=either)
        == f"*«{NBSP}Ĝi brulas plej hele apud la mortintoj.{NBSP}»*"
    )
    assert fixed(english, "*«Ĝi brulas. »*") == "*«Ĝi brulas.»*"
    # with "either", a card keeps to one style: the minority follows the majority
    text = "«Unu» kaj «du» kaj « tri »."
    assert codes(card("One.", text, settings=either)) == ["EO203", "EO203"]
    assert fixed("One.", text, settings=either) == "«Unu» kaj «du» kaj «tri»."


def test_guillemet_spacing_setting() -> None:
    spaced = f"*«{NBSP}Ĝi brulas.{NBSP}»*"
    # the default is the wiki's: « Fidelecaj Markoj », «la ludanto», never spaced
    assert codes(card('*"It burns."*', "*«Ĝi brulas.»*")) == []
    assert codes(card('*"It burns."*', spaced)) == ["EO203", "EO203"]
    assert fixed('*"It burns."*', spaced) == "*«Ĝi brulas.»*"
    assert codes(card('*"It burns."*', spaced, settings={"esperanto-quotes": "either"})) == []
    assert (
        fixed('*"It burns."*', "*«Ĝi brulas.»*", settings={"esperanto-quotes": "spaced"})
        == "*« Ĝi brulas. »*"
    )


# --------------------------------------------------------------------------------------
# EO3: deprecated roots in compounds.


def test_deprecated_root_in_compounds() -> None:
    # Listo de kapabloj (Hejmsopira): « mi perdas unu lojalecmarkon »
    english = "I lose one loyalty mark."
    found = card(english, "Mi perdas unu lojalecmarkon.")
    assert codes(found) == ["EO301"]
    assert "'lojaleco' ('loyalty')" in found[0].message
    assert fixed(english, "Mi perdas unu lojalecmarkon.") == "Mi perdas unu fidelecmarkon."
    assert fixed("Fellow residents.", "Ĉiuj kunurbanoj.") == "Ĉiuj kunloĝantoj."
    assert fixed("Resource cards.", "Du resurskartojn.") == "Du rimedkartojn."
    assert fixed("Resource cards.", "Resursokartaro.") == "Rimedokartaro."


def test_deprecated_root_near_misses() -> None:
    # current terms holding a deprecated root (ludan- in ludanto), derivations, turni,
    # and whole deprecated words, which are GL201's
    assert codes(card("Players.", "Ĉiuj kunludantoj kaj ludantoj.")) == []
    assert codes(card("Citizens.", "La urbanaro kaj la turnopunkto.")) == []
    assert codes(card("Resource card.", "Unu resursokarton.", select=["EO", "GL201"])) == ["GL201"]


def test_english_and_french_are_not_checked() -> None:
    assert codes(card("Cxiuj.", "Cxiuj ?", lang="fr")) == []


# --------------------------------------------------------------------------------------
# --fix on files, through the command.


@pytest.fixture
def library(tmp_path: Path) -> Path:
    return copy_sample(tmp_path)


def test_the_sample_lints_clean() -> None:
    # the sample writes the wiki's «...»
    for selection in (["--select", "EO"], []):
        code, out = run("lint", "--no-config", *selection, "--format", "json", str(SAMPLE))
        assert code == 0 and json.loads(out)["findings"] == [], selection


def test_fix_through_the_command_is_idempotent(library: Path) -> None:
    path = library / "grave-lantern.eo.md"
    original = path.read_text(encoding="utf-8")
    assert "*«Ĝi brulas plej hele apud la mortintoj.»*" in original
    broken = (
        original.replace("name: Tomba lanterno", "name: Tomba lanterno de Sxipo")
        .replace("Ĝi akiras +1/+0.", "Gxi akiras +1/+0 au perdas unu lojalecmarkon .")
        .replace("mortintoj.»", f"mortintoj.{NBSP}»")
    )
    path.write_text(broken, encoding="utf-8")
    english = {p.name: p.read_bytes() for p in library.glob("*.en.md")}
    french = path.with_name("grave-lantern.fr.md").read_bytes()
    code, diff = run("lint", "--no-config", "--select", "EO", "--diff", str(library))
    assert code == 1 and "-name: Tomba lanterno de Sxipo" in diff
    assert path.read_text(encoding="utf-8") == broken  # --diff writes nothing
    assert run("lint", "--fix", str(library))[0] == 0
    assert path.read_text(encoding="utf-8") == original.replace(
        "name: Tomba lanterno", "name: Tomba lanterno de Ŝipo"
    ).replace("Ĝi akiras +1/+0.", "Ĝi akiras +1/+0 aŭ perdas unu fidelecmarkon.")
    # idempotent: a second --fix changes nothing; English and French are not touched
    fixed_once = path.read_bytes()
    assert run("lint", "--fix", str(library))[0] == 0
    assert path.read_bytes() == fixed_once
    assert run("lint", "--no-config", "--diff", str(library)) == (0, "")
    assert {p.name: p.read_bytes() for p in library.glob("*.en.md")} == english
    assert path.with_name("grave-lantern.fr.md").read_bytes() == french


def test_fix_leaves_what_it_cannot_tell(library: Path) -> None:
    path = library / "courier.eo.md"
    text = path.read_text(encoding="utf-8")
    broken = text.replace("Mi ne povas ataki.", "Mi ne povas ataki, eĉ longhara werko.")
    path.write_text(broken, encoding="utf-8")
    code, out = run("lint", "--no-config", "--select", "EO", "--fix", str(library))
    assert code == 1 and "EO102" in out and "EO103" in out
    assert path.read_text(encoding="utf-8") == broken
