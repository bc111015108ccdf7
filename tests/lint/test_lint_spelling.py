"""SP101: spelling with the Debian Hunspell dictionaries (hunspell-fr, myspell-eo),
the glossaries and the library's card names."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.lintkit import copy_sample, edit
from tests.toolkit import tool
from translator import cards, languages, lint
from translator.cli import main
from translator.glossary.matcher import words
from translator.lint import spelling
from translator.lint.rules import spelling as spelling_rules

prose = tool("prose_review")

SAMPLE = ROOT / "cards" / "sample"

requires_dictionaries = pytest.mark.skipif(
    spelling.find_dictionary("fr") is None or spelling.find_dictionary("eo") is None,
    reason="the Hunspell dictionaries are not installed "
    "(apt-get install hunspell-fr myspell-eo, as ./dev setup does)",
)


@pytest.fixture(scope="module")
def resources() -> lint.engine.Resources:
    problems: list = []
    found = lint.load_resources(["fr", "eo"], lint.Options(), problems)
    assert not problems
    return found


def lexicon(
    resources: lint.engine.Resources, lang: str, allowed: frozenset[str] = frozenset()
) -> spelling.Lexicon:
    dictionary = spelling.dictionary(lang)
    assert dictionary is not None
    language = resources.language(lang)
    return spelling.Lexicon.build(lang, dictionary, language.vocabulary, allowed, language.accepted)


def misspelt(words_: spelling.Lexicon, text: str) -> list[str]:
    return [word for _, word in words_.misspellings(text, words(text))]


@pytest.fixture
def library(tmp_path: Path) -> Path:
    return copy_sample(tmp_path)


def spelling_findings(*args: str) -> list[dict]:
    out = io.StringIO()
    main(["lint", "--no-config", "--format", "json", "--select", "SP", *args], out)
    return json.loads(out.getvalue())["findings"]


# --------------------------------------------------------------------------------------
# French


@requires_dictionaries
def test_french_words_inflected_elided_hyphenated_are_accepted(resources) -> None:
    fr = lexicon(resources, "fr")
    assert misspelt(fr, "Pioche deux cartes, puis défausse-les. Piochez, piochèrent.") == []
    # Elision with either apostrophe; a word with an apostrophe (aujourd'hui, quelqu'un).
    assert (
        misspelt(
            fr,
            "L’armée d’un joueur jusqu’à ce qu’il l'attaque aujourd’hui ; "
            "quelqu'un presqu’île prud'homme",
        )
        == []
    )
    # Imperatives with their pronouns, and other hyphenated words.
    assert misspelt(fr, "Joue-moi, désengage-la, donne-lui, c’est-à-dire, a-t-il, peut-être.") == []
    # Capitals, numbers, symbol codes and single letters.
    assert misspelt(fr, "CRÉATURE Créature 1er 2e 3 X IV g2") == []


@requires_dictionaries
def test_french_glossary_terms_not_in_hunspell_are_accepted(resources) -> None:
    fr = lexicon(resources, "fr")
    assert not spelling.dictionary("fr").lookup("joueureuse")  # type: ignore[union-attr]
    assert misspelt(fr, "La joueureuse ciblée pioche. Les joueureuses ciblées piochent.") == []


@requires_dictionaries
def test_french_misspellings_are_found(resources) -> None:
    fr = lexicon(resources, "fr")
    assert misspelt(fr, "Pioche une crate et défausse-moa.") == ["crate", "moa"]
    assert misspelt(fr, "L’arrmée d’un jouer aujourdhui") == ["arrmée", "aujourdhui"]
    # An elided word that is none: reported as written.
    assert misspelt(fr, "Quoiqz’il arrive") == ["Quoiqz"]


@requires_dictionaries
def test_the_suggestion_is_the_closest_glossary_word_or_card_name(resources) -> None:
    fr = lexicon(resources, "fr", frozenset({"salmère"}))
    assert fr.suggest("joueureus") == "joueureuse"
    assert fr.suggest("marqueurr") == "marqueur"
    assert fr.suggest("Salmèrre") == "Salmère"  # in the word's case
    assert fr.suggest("crate") == "carte"
    assert fr.suggest("zorblax") is None  # nothing close: no suggestion


# --------------------------------------------------------------------------------------
# Esperanto


@requires_dictionaries
def test_esperanto_words_with_supersigns_and_endings_are_accepted(resources) -> None:
    eo = lexicon(resources, "eo")
    assert (
        misspelt(
            eo,
            "Ĉiuj viaj kartoj ŝanĝiĝas ĝis ĵaŭdo; la ĥoro kantas aŭ ne. Tiru du kartojn, ludanto.",
        )
        == []
    )
    # A glossary root with another ending; compounds of known roots and words.
    assert (
        misspelt(
            eo,
            "atakantaj milicanaj estaĵoj, distancfrapantaj, "
            "Milican-Batalkrianto 1, ĵetkosto, bataldamaĝon, ri pluvivas",
        )
        == []
    )


@requires_dictionaries
def test_esperanto_misspellings_are_found(resources) -> None:
    eo = lexicon(resources, "eo")
    assert misspelt(eo, "Tiru du karrtojn kaj kauzu damaĝoo.") == ["karrtojn", "kauzu", "damaĝoo"]
    # The x-system is not Esperanto's spelling (EO101 also says so, with a fix).
    assert misspelt(eo, "cxiuj") == ["cxiuj"]


@requires_dictionaries
def test_what_other_rules_report_is_not_reported_again(library: Path) -> None:
    # A sentence left in English is TR504's (and TR503's for glossary terms), even when
    # its words are allowed: allowing "the" allows its sentence.
    edit(library / "song-of-the-herd.fr.md", "Chut.", "Hush, the harbor sleeps. Chutt.")
    assert [f["message"] for f in spelling_findings(str(library))] == [
        "'Chutt' is not in the French dictionary"
    ]
    # Esperanto in the x-system or the h-system, or with foreign letters: EO101-EO103.
    edit(library / "harbor-lord.eo.md", "Salmarĉo ĉiam", "Salmarĉo cxiam shanghas werkojn")
    assert [
        (f["code"], f["message"])
        for f in spelling_findings(str(library), "--select", "EO1", "--lang", "eo")
    ] == [
        ("EO101", "'cxiam' is in the x-system: write 'ĉiam'"),
        ("EO102", "'shanghas' is in the h-system: write 'ŝanĝas'"),
        ("EO103", "'werkojn': w not in the Esperanto alphabet"),
    ]
    # A drop cap cut from its word by a space is MK105's, not a misspelt "ioche".
    text = (library / "courier.fr.md").read_text("utf-8")
    (library / "courier.fr.md").write_text(
        text.replace(":m: La *joueureuse", ":P: ioche une carte. La *joueureuse"), "utf-8"
    )
    assert [f["message"] for f in spelling_findings(str(library))] == [
        "'Chutt' is not in the French dictionary"
    ]


# --------------------------------------------------------------------------------------
# The rule in a lint run


@requires_dictionaries
def test_the_sample_has_no_misspelling() -> None:
    assert spelling_findings(str(SAMPLE)) == []


@requires_dictionaries
def test_a_misspelling_in_a_card_is_reported_where_it_is(library: Path) -> None:
    edit(library / "courier.fr.md", "pioche une carte", "pioche une crate")
    edit(library / "bonefield-keep.fr.md", "La *joueureuse", "La *joueureus")
    edit(library / "harbor-lord.eo.md", "Salmarĉo ĉiam", "Salmarco ĉiam")
    found = spelling_findings(str(library))
    assert [(f["card"], f["lang"], f["message"]) for f in found] == [
        (
            "bonefield-keep",
            "fr",
            "'joueureus' is not in the French dictionary (did you mean 'joueureuse'?)",
        ),
        ("courier", "fr", "'crate' is not in the French dictionary (did you mean 'carte'?)"),
        (
            "harbor-lord",
            "eo",
            "'Salmarco' is not in the Esperanto dictionary (did you mean 'Salmarĉo'?)",
        ),
    ]
    courier = next(f for f in found if f["card"] == "courier")
    line = (library / "courier.fr.md").read_text("utf-8").splitlines()[courier["line"] - 1]
    assert line[courier["column"] - 1 :].startswith("crate")
    assert all(f["severity"] == "warning" and f["fix"] is None for f in found)


@requires_dictionaries
def test_the_setting_turns_the_rule_off(library: Path) -> None:
    edit(library / "courier.fr.md", "pioche une carte", "pioche une crate")
    loaded, problems = cards.load_library([str(library)])
    options = lint.Options(select=["SP"], languages=["fr"])
    resources = lint.load_resources(["fr"], options, problems)
    assert [f.code for f in lint.lint(loaded, resources, options).findings] == ["SP101"]
    options = lint.Options(select=["SP"], languages=["fr"], settings={"spelling": False})
    resources = lint.load_resources(["fr"], options, problems)
    assert lint.lint(loaded, resources, options).findings == []
    (library / "translator.toml").write_text("[lint]\nspelling = false\n", encoding="utf-8")
    out = io.StringIO()
    main(
        [
            "lint",
            "--config",
            str(library / "translator.toml"),
            "--format",
            "json",
            "--select",
            "SP",
            str(library),
        ],
        out,
    )
    assert json.loads(out.getvalue())["findings"] == []


@requires_dictionaries
def test_allowed_words_and_card_names_are_accepted(library: Path) -> None:
    # (In lower case: a capitalised word inside a sentence is a proper noun.)
    edit(library / "courier.fr.md", "pioche une carte", "pioche une carte de zorblax")
    assert [f["message"] for f in spelling_findings(str(library))] == [
        "'zorblax' is not in the French dictionary"
    ]
    (library / "translator.toml").write_text(
        '[lint]\nallow-english = ["Zorblax"]\n', encoding="utf-8"
    )
    out = io.StringIO()
    main(
        [
            "lint",
            "--config",
            str(library / "translator.toml"),
            "--format",
            "json",
            "--select",
            "SP",
            str(library),
        ],
        out,
    )
    assert json.loads(out.getvalue())["findings"] == []
    # A card of the library named so: its name is a word of the language.
    edit(library / "mossgate.fr.md", "name: ", "name: Zorblax ")
    assert spelling_findings(str(library)) == []


# --------------------------------------------------------------------------------------
# Finding the dictionaries, and keeping lookups


def test_a_missing_dictionary_is_said_once_and_skipped(
    library: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setattr(spelling, "SEARCH_PATH", [tmp_path / "nowhere"])
    monkeypatch.delenv("DICPATH", raising=False)
    monkeypatch.setattr(spelling, "_LOADED", {})
    monkeypatch.setattr(spelling, "_MISSING", {})
    edit(library / "courier.fr.md", "pioche une carte", "pioche une crate")
    assert spelling_findings(str(library)) == []
    assert spelling_findings(str(library), "--lang", "fr") == []
    assert spelling_rules.missing_dictionaries() == [
        "no Esperanto Hunspell dictionary (install myspell-eo): spelling not checked",
        "no French Hunspell dictionary (install hunspell-fr-comprehensive): spelling not checked",
    ]
    # The command line says it on standard error, once per language.
    capsys.readouterr()
    main(["lint", "--no-config", "--select", "SP", str(library)], io.StringIO())
    err = capsys.readouterr().err
    assert err.count("no French Hunspell dictionary (install hunspell-fr-comprehensive)") == 1


def test_a_language_without_a_dictionary_table_is_not_checked() -> None:
    assert spelling.find_dictionary("de") is None
    assert spelling.dictionary("de") is None
    assert all("German" not in message for message in spelling.missing_dictionaries())


@requires_dictionaries
def test_dicpath_is_searched_first(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    found = spelling.find_dictionary("eo")
    assert found is not None
    for suffix in (".aff", ".dic"):
        (tmp_path / f"eo{suffix}").symlink_to(found.with_suffix(suffix))
    monkeypatch.setenv("DICPATH", str(tmp_path))
    assert spelling.find_dictionary("eo") == tmp_path / "eo"


@requires_dictionaries
def test_lookups_are_kept_between_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRANSLATOR_CACHE", str(tmp_path / "cache"))
    path = spelling.find_dictionary("eo")
    assert path is not None
    cache = spelling._cache_file("eo", path)
    assert cache is not None and cache.parent == tmp_path / "cache"
    (cache.parent).mkdir()
    stale = cache.parent / "spelling-eo-0000000000000000.txt"
    stale.write_text("+malnova\n", encoding="utf-8")
    first = spelling.Dictionary("eo", path, cache)
    assert first.lookup("kartojn") and not first.lookup("karrtojn") and first.loaded
    first.save()
    assert not stale.exists()
    again = spelling.Dictionary("eo", path, cache)
    assert again.lookup("kartojn") and not again.lookup("karrtojn")
    assert not again.loaded  # answered from the file: the dictionary was not read
    monkeypatch.setenv("TRANSLATOR_CACHE", "")
    assert spelling._cache_file("eo", path) is None


def test_the_rule_is_registered_with_its_documentation() -> None:
    from translator.diagnostics import REGISTRY, Severity

    rule = REGISTRY.get("SP101")
    assert rule is not None and rule.name == "misspelling"
    assert rule.severity == Severity.WARNING and rule.fix is None
    assert "name2" in rule.rationale and rule.bad != rule.good


# --------------------------------------------------------------------------------------
# Prose nobody here wrote: the inclusive forms, the 1990 spellings, Esperanto word
# formation, what is no word; measured in docs/lint-spelling.md


@requires_dictionaries
def test_the_french_dictionary_has_both_spellings() -> None:
    found = spelling.find_dictionary("fr")
    assert found is not None and spelling.preferred(found, languages.get("fr").hunspell), (
        "install hunspell-fr-comprehensive (./dev setup does)"
    )


@requires_dictionaries
def test_french_inclusive_and_1990_forms_are_accepted(resources) -> None:
    fr = lexicon(resources, "fr")
    # The guide's fused forms (fr-inclusive.yaml) and the 1990 reform (évènement).
    assert (
        misspelt(
            fr,
            "Toustes les joueureuses face à ellui ; iel pioche. Celleux qui "
            "paraissent : un évènement, paraitre, le nénufar.",
        )
        == []
    )
    # Middle-dot forms read as one word: masculine and feminine are words.
    assert (
        misspelt(
            fr,
            "Chaque joueur·euse, les joueur·euse·s, un·e ami·e, les ami·e·s, "
            "le·a joueureuse, passif·ve, Tou·te·s, considéré·es.",
        )
        == []
    )
    # ...and mistyped ones are reported whole.
    assert misspelt(fr, "Les cartes qu'un·e joureu·euse a. Des jouereuses.") == [
        "joureu·euse",
        "jouereuses",
    ]


@requires_dictionaries
def test_what_is_no_prose_and_names_are_not_checked(resources) -> None:
    fr = lexicon(resources, "fr")
    assert misspelt(
        fr,
        "Voir https://aminduna.arcmage.org/#/decks, arcmage.org/wiki, "
        "ecrire a ngoeminne@exemple.org, l'image Xcost.png ou cardlayout.svg, "
        "<blockquote> {{toc}} Awesome_Rules_Concept.",
    ) == ["ecrire"]
    # Acronyms, proper nouns inside a sentence, English quoted or left in the text.
    assert (
        misspelt(
            fr,
            "Le deck de la Rebirth, en PNG ou CMJN, pour Lovecraft : « night "
            "goant ». Une column guidelines.",
        )
        == []
    )
    # A capital at a sentence's start is checked, and so is a mistyped name.
    assert misspelt(fr, "Zorblax pioche. Crate.") == ["Zorblax", "Crate"]
    assert misspelt(
        lexicon(resources, "fr", frozenset({"salmère"})), "La carte de Salmèrre pioche."
    ) == ["Salmèrre"]


@requires_dictionaries
def test_esperanto_derivations_are_accepted(resources) -> None:
    eo = lexicon(resources, "eo")
    assert not spelling.dictionary("eo").lookup("defendisto")  # type: ignore[union-attr]
    assert (
        misspelt(
            eo,
            "La defendisto ne povas pagiĝi; ĉiuope ili uziĝas, malfortigitaj "
            "defendistinoj, reludonta, tiamaniere, ĉiujn, ekz. la ensorĉokarto.",
        )
        == []
    )


@requires_dictionaries
def test_real_misspellings_of_the_seeds_are_still_found(resources) -> None:
    eo = lexicon(resources, "eo")
    # trombejo reads tromb-ej-o but is the glossary's tombejo mistyped.
    assert misspelt(
        eo, "Por ekzamplo, serĉi tra la trombejo; ests, sept kartoj, kontraui, efikoo."
    ) == ["ekzamplo", "trombejo", "ests", "sept", "kontraui", "efikoo"]
    fr = lexicon(resources, "fr")
    assert misspelt(fr, "Les autres jouereuses, les dégats, par exeple, larmée.") == [
        "jouereuses",
        "dégats",
        "exeple",
        "larmée",
    ]


REVIEW = ROOT / "glossaries" / "lint" / "spelling-review.yaml"
TITLE = "Spelling (SP101) on prose nobody here wrote"


@requires_dictionaries
@pytest.mark.slow
def test_the_spelling_report_is_up_to_date(seeds: list[Path]) -> None:
    on_disk = (ROOT / "docs" / "lint-spelling.md").read_text(encoding="utf-8")
    assert on_disk == prose.report(
        seeds, prose.LANGUAGES, ["SP101"], REVIEW, TITLE, "docs/lint-spelling.md"
    ), "regenerate: " + prose._command(
        seeds, prose.LANGUAGES, ["SP101"], REVIEW, TITLE, "docs/lint-spelling.md"
    )


@requires_dictionaries
@pytest.mark.slow
def test_every_spelling_finding_of_the_seeds_is_judged(seeds: list[Path]) -> None:
    found = [f for lang in prose.LANGUAGES for f in prose.lint_seeds(seeds, lang, ["SP101"])[0]]
    review = prose.load_review(REVIEW)
    judged, unused, ambiguous = prose.judge(found, review)
    assert not unused, f"verdicts whose finding is gone: {unused}"
    assert not ambiguous, f"verdicts judging several findings (lengthen `at`): {ambiguous}"
    missing = [(f.seed, f.line, f.excerpt) for f in found if f.key not in judged]
    assert not missing, "judge them in glossaries/lint/spelling-review.yaml"
    # The misspellings found before this work are still found.
    words_found = {f.finding.message.split("'")[1] for f in found}
    assert {"ekzamplo", "trombejo", "jouereuses"} <= words_found


@requires_dictionaries
@pytest.mark.parametrize(
    "word",
    [
        "tout-à-fait-peut-être-celui-là-vis-à-vis-au-dessus-là-bas-c-est-à-dire",
        "-".join(["a"] * 40),
        "·".join(["joueur"] * 30),
    ],
)
def test_a_word_of_many_breaks_is_checked_in_linear_time(word: str) -> None:
    """spylls tries every way of breaking a word at its hyphens: 18 hyphens took 28 s,
    this French phrase of 13 more than a minute (issue 35, found by an independent
    attack: lint, the language server's diagnostics and a push stalled).  Beyond
    three breaks the parts are looked up one by one, as Hunspell accepts them."""
    import time

    path = spelling.find_dictionary("fr")
    assert path is not None
    dictionary = spelling.Dictionary("fr", path)
    started = time.perf_counter()
    found = dictionary.lookup(word)
    assert time.perf_counter() - started < 5
    parts = [part for part in spelling._BREAKS.split(word) if part]
    assert found == all(dictionary.lookup(part) for part in parts)
    assert dictionary.lookup("peut-être") and dictionary.lookup("c'est-à-dire")


def test_a_damaged_lookup_file_is_not_trusted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A kept answer changed after it was written (``-karrtojn`` made ``+karrtojn``):
    the file's first line holds the digest of the rest, which no longer matches, so
    the whole file is read as no answers at all."""
    monkeypatch.setenv("TRANSLATOR_CACHE", str(tmp_path / "cache"))
    path = spelling.find_dictionary("eo")
    assert path is not None
    cache = spelling._cache_file("eo", path)
    assert cache is not None
    first = spelling.Dictionary("eo", path, cache)
    assert not first.lookup("karrtojn")
    first.save()
    kept = cache.read_bytes()
    assert b"\n-karrtojn\n" in kept
    cache.write_bytes(kept.replace(b"\n-karrtojn\n", b"\n+karrtojn\n"))
    again = spelling.Dictionary("eo", path, cache)
    assert again.known == {}
    assert not again.lookup("karrtojn")
