"""The Esperanto grammar rules (EO4): each with findings quoted from the wiki's own
Esperanto (seed 001) and the near misses that a careless grammar would report, and the
report of what they find on the wiki's prose (docs/lint-esperanto-grammar.md)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import yaml

from tests.conftest import ROOT
from tests.lintkit import codes, lint_card, run
from tests.toolkit import tool
from translator import lint
from translator.glossary.loader import load_glossary
from translator.glossary.matcher import words
from translator.lint.rules import esperanto_grammar as grammar

OPTIONS = lint.Options(select=["EO4"])
RESOURCES = lint.load_resources(["eo"], OPTIONS, [])
SEED = "001_8e7b5dc8221fcf00.txt"


def found(text: str, english: str = "Text.") -> list[str]:
    """The EO4 codes on one Esperanto card text."""
    return codes(lint_card(RESOURCES, OPTIONS, english, text, lang="eo", name="Karto"))


def analysed(text: str) -> list[str]:
    """The EO4 codes :func:`grammar.analyse` gives on a text (no card around it)."""
    return [f.code for f in grammar.analyse(text, words(text), grammar.load_grammar())]


# --------------------------------------------------------------------------------------
# The grammar data and the word classes.


def test_the_grammar_file_is_complete() -> None:
    data = yaml.safe_load(grammar.grammar_file().read_text(encoding="utf-8"))
    loaded = grammar.Grammar.from_data(data)
    assert {"de", "al", "kun", "el", "por"} <= loaded.no_accusative
    # the prepositions of place take the -n of direction: never reported
    assert (
        not {"en", "sur", "sub", "trans", "antaŭ", "inter", "ĝis", "je", "po", "krom", "kontraŭ"}
        & loaded.no_accusative
    )
    # the glossary's verbs are transitive verbs of the grammar
    for verb in ("eltiri", "forĵeti", "marki", "malmarki", "konverti", "akiri", "ricevi"):
        assert grammar._transitive(verb[:-1], loaded), verb


def test_the_glossary_parts_of_speech_agree_with_the_endings() -> None:
    # every one-word term of the Leksikono is read as its part of speech says: its
    # nouns as nouns, its adjectives as adjectives, its verbs as transitive verbs
    glossary, problems = load_glossary("eo")
    assert not problems
    loaded = grammar.load_grammar()
    wrong = []
    for entry in glossary.entries.values():
        for term in entry.terms:
            text = term.text.casefold()
            if term.deprecated or " " in text or "-" in text:
                continue
            info = grammar.classify(text, loaded, frozenset())
            expected = {
                "noun": ("o", "noun"),
                "adjective": ("a", "adjective"),
                "verb": ("i", "verb"),
            }.get(entry.pos or "")
            if (
                expected
                and text.endswith(expected[0])
                and (info.kind != expected[1] or (entry.pos == "verb" and not info.transitive))
            ):
                wrong.append((entry.en, text, info.kind))
    assert wrong == []


@pytest.mark.parametrize(
    ("word", "kind", "plural", "accusative"),
    [
        ("estaĵojn", "noun", True, True),
        ("cela", "adjective", False, False),
        ("viajn", "determiner", True, True),
        ("ĉiun", "determiner", False, True),
        ("ĝin", "pronoun", False, True),
        ("tion", "pronoun", False, True),
        ("kaj", "opener", False, False),
        ("tro", "other", False, False),
        ("kiujn", "opener", True, True),
        ("du", "transparent", False, False),
        ("kvardek", "transparent", False, False),
        ("precize", "adverb", False, False),
        ("de", "preposition", False, False),
        ("x", "other", False, False),
    ],
)
def test_word_classes(word: str, kind: str, plural: bool, accusative: bool) -> None:
    info = grammar.classify(word, grammar.load_grammar(), frozenset())
    assert (info.kind, info.plural, info.accusative) == (kind, plural, accusative)


def test_verbs() -> None:
    loaded = grammar.load_grammar()
    eltiru = grammar.classify("eltiru", loaded, frozenset())
    assert (eltiru.kind, eltiru.form, eltiru.transitive) == ("verb", "imperative", True)
    assert grammar.classify("revenigas", loaded, frozenset()).transitive  # -ig-
    assert not grammar.classify("moviĝas", loaded, frozenset()).transitive
    assert not grammar.classify("estas", loaded, frozenset()).transitive
    assert grammar.classify("eltiranta", loaded, frozenset()).participle


# --------------------------------------------------------------------------------------
# EO401: the direct object.


@pytest.mark.parametrize(
    "text",
    [
        "Eltiru du kartoj.",
        "Detruu cela estaĵo.",
        "Ĉiu ludanto eltiras unu karto.",
        "Detruu ĝi.",
        # Arcmage Reguloj (seed 001)
        "Ĉiu kartaro devas enteni precize kvardek kvin kartoj.",
        "Se la resto de la grupo sukcesas detrui ĉiuj urboj de ĉiuj kontraŭuloj.",
        "Grupo A havas la sekvanta ludanta sekvenco: ludanto 1.",
        "Ĉiu ludanto elektas tri urbojn kaj metas tioj en stakon.",
    ],
)
def test_object_without_accusative(text: str) -> None:
    assert analysed(text) == ["EO401"]


@pytest.mark.parametrize(
    "text",
    [
        "Eltiru du kartojn.",
        "Mi ne povas ataki.",
        "Kiam mi atakas, ĉiuj aliaj estaĵoj akiras +1/+0.",
        "Cela estaĵo akiras Fluganto.",  # an ability's name, capitalised
        "Elektu ĉu vi eltiras karton.",  # a clause: ĉu, ke, kiel, ki-words
        "Elektu kiu ludanto eltiras karton.",
        "Ĉiu damaĝo kiun mi kaŭzas dum defendado estas aldonita.",
        "La kartoj, kiujn regas la defendanta ludanto, estas markitaj.",  # object first
        "Kiam atakas la urbo, ĝi perdas.",  # no subject before: the phrase may be it
        "Kiam vi atakas la urbo perdas unu.",  # a finite verb follows: a subject
        "Metu x +1/+1 indikilojn sur ĝin.",  # a parameter and digits end the phrase
        "Pagu N rimedojn.",
        "Defendu kontraŭ ĉiuj estaĵoj.",  # a preposition: no object
        "Ĉiuj ludantoj (ankaŭ la aktiva) havas la oportuno ludi.",  # a parenthesis: no
        "La kartaro entenas la speco(j)n de la karto.",  # « speco(j)n » is no « speco »
        "Detruu ĉiujn.",
        "Atakante, vi povas arigi min kun aliaj estaĵoj.",
    ],
)
def test_object_near_misses(text: str) -> None:
    assert "EO401" not in analysed(text)


# --------------------------------------------------------------------------------------
# EO402: agreement.


@pytest.mark.parametrize(
    "text",
    [
        "Ĉiuj viaj estaĵo akiras +1/+0.",
        "Detruu celan estaĵo.",
        # Listo de kapabloj and Arcmage Reguloj (seed 001)
        "Kiam mi atakas kune kun aliaj sturmanta estaĵo, mi akiras +1/+0.",
        "Mi kostas unu rimedon malpli por ĉiu simion vi regas.",
        "Iam ajn, nova okazaĵokartoj povas ludiĝi.",
        "Supozi kontraŭulo ludigas tiun malbeno al vi.",
    ],
)
def test_adjective_agreement(text: str) -> None:
    assert analysed(text) == ["EO402"]


@pytest.mark.parametrize(
    "text",
    [
        "Ĉiuj viaj estaĵoj akiras +1/+0.",
        "La enluda kaj eksterluda statoj.",  # one state each (PMEG: la franca kaj germana lingvoj)
        "Viaj estaĵo kaj urbo perdas unu.",  # one adjective for two nouns
        "Eltiranta karton, vi gajnas.",  # a participle and its own object
        "Nur la ludanto tenanta la karton pagas.",
        "Ĝi estas nevundebla ĉi tiun vicon.",  # the -n of time opens another phrase
        "Igu la estaĵon forta.",  # a predicate after its noun: not compared
        "La kartoj, kiujn ludanto regas, restas.",  # kiu opens a relative clause
        "Ruĝa Flago kaj Ombra Legio.",
        "Tiu ĉi karto kaj iu ajn alia karto.",
        "Ĉiu ''K'' estaĵo.",
    ],
)
def test_agreement_near_misses(text: str) -> None:
    assert "EO402" not in analysed(text)


# --------------------------------------------------------------------------------------
# EO403: the -n after a preposition.


@pytest.mark.parametrize(
    "text",
    [
        "Metu ĝin el via mano al vian armeon.",  # Evoluonto (Listo de kapabloj)
        "Aliaj kartoj interagas kun la estaĵokartojn.",  # Arcmage Reguloj
        "Ĝi eltiras karton je la fino de sian vicon.",
        "Ludu kun ĝin.",
    ],
)
def test_accusative_after_preposition(text: str) -> None:
    assert analysed(text) == ["EO403"]


@pytest.mark.parametrize(
    "text",
    [
        "Metu ĝin en vian armeon.",  # the -n of direction
        "Metu ĝin sur la tablon.",
        "Movu ĝin trans la riveron.",
        "Ricevu po du kartojn.",  # po: the object's -n
        "Detruu ĉiujn krom lin.",
        "Iru ĝis la urbon.",
        "Defendi kontraŭ malamikajn atakojn.",  # kontraŭ is a place too: not reported
        "Por detrui la urbon, pagu du rimedojn.",  # an infinitive after por
        "Sen pagi ĝian koston.",
        "El la tombejo de via kontraŭulo.",
    ],
)
def test_preposition_near_misses(text: str) -> None:
    assert "EO403" not in analysed(text)


# --------------------------------------------------------------------------------------
# On cards.


def test_on_a_card_only_in_esperanto_translations() -> None:
    assert found("Eltiru du kartoj.", "Draw two cards.") == ["EO401"]
    # flavour and italic text are read too; a grammar finding has no fix
    [finding] = lint_card(
        RESOURCES, OPTIONS, "*Draw two cards.*", "*Eltiru du kartoj.*", lang="eo", name="Karto"
    )
    assert (finding.code, finding.column, finding.edit) == ("EO401", 9, None)  # at « du kartoj »
    # French text is not read
    assert (
        codes(lint_card(RESOURCES, OPTIONS, "Draw two cards.", "Pioche deux cartes.", lang="fr"))
        == []
    )


def test_symbols_and_line_breaks_end_a_phrase() -> None:
    assert (
        found(":m: : Cela ludanto eltiras unu karton.", ":m: : Target player draws one card.") == []
    )
    assert found("Pagu :m:\\\nkartoj.", "Pay :m:\\\ncards.") == []


def test_the_sample_is_grammatical() -> None:
    code, output = run("lint", str(ROOT / "cards" / "sample"), "--select", "EO4")
    assert code == 0, output


# --------------------------------------------------------------------------------------
# On the wiki's prose (seed 001).


def _seed() -> Path:
    shared = Path(os.environ.get("TRANSLATOR_SHARED", ROOT.parent / "shared"))
    path = shared / "seeds" / SEED
    if not path.is_file():
        pytest.skip("../shared/seeds is not next to this checkout (set TRANSLATOR_SHARED)")
    return path


def test_every_finding_on_the_wiki_is_judged_real() -> None:
    prose = tool("prose_review")

    path = _seed()
    findings = prose.lint_prose_lines(prose.seed_prose(path, "eo"), "eo", ["EO4"], seed=path.name)
    review = yaml.safe_load(
        (ROOT / "glossaries" / "lint" / "eo-grammar-review.yaml").read_text(encoding="utf-8")
    )["verdicts"]
    assert len(findings) == len(review) == 30
    judged = {(v["line"], v["rule"]) for v in review}
    assert {(f.line, f.finding.code) for f in findings} == judged
    assert {v["verdict"] for v in review} == {"real"}


def test_the_report_is_up_to_date() -> None:
    prose = tool("prose_review")

    path = _seed()
    review = ROOT / "glossaries" / "lint" / "eo-grammar-review.yaml"
    generated = prose.report(
        [path],
        ["eo"],
        ["EO4"],
        review,
        "Esperanto grammar on prose nobody here wrote",
        "docs/lint-esperanto-grammar.md",
    )
    on_disk = (ROOT / "docs" / "lint-esperanto-grammar.md").read_text(encoding="utf-8")
    assert on_disk == generated, "regenerate: see glossaries/lint/eo-grammar-review.yaml"
