"""The typography rules measured on prose nobody here wrote (the seeds 000, 001, 002,
004), and the prose harness that reads it (tools/prose_review.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.toolkit import tool

prose = tool("prose_review")


@pytest.fixture(scope="module")
def found(seeds: list[Path]) -> list[prose.ProseFinding]:
    return [
        f
        for lang in prose.LANGUAGES
        for f in prose.lint_seeds(seeds, lang, prose.DEFAULT_RULES[lang])[0]
    ]


@pytest.mark.slow
def test_the_report_is_up_to_date(seeds: list[Path]) -> None:
    on_disk = (ROOT / "docs" / "lint-typography.md").read_text(encoding="utf-8")
    assert on_disk == prose.report(seeds), "regenerate: " + prose._command(
        seeds, prose.LANGUAGES, None, None, None, "docs/lint-typography.md"
    )


@pytest.mark.slow  # seconds, even alone: out of the quick loop
def test_every_verdict_judges_one_finding_and_the_sample_is_judged(
    found: list[prose.ProseFinding],
) -> None:
    review = prose.load_review()
    judged, unused, ambiguous = prose.judge(found, review)
    assert not unused, f"verdicts whose finding is gone: {unused}"
    assert not ambiguous, f"verdicts judging several findings (lengthen `at`): {ambiguous}"
    needed = prose.sample(found, review)
    missing = [(f.seed, f.line, f.finding.code, f.excerpt) for f in needed if f.key not in judged]
    assert not missing, "judge them in glossaries/lint/typography-review.yaml"
    # Both languages and all four seeds are measured.
    assert {f.lang for f in found} == {"fr", "eo"}
    assert {f.seed[:3] for f in found} == {"000", "001", "002", "004"}


def test_only_the_newest_revision_is_read(seeds: list[Path]) -> None:
    text = seeds[2].read_text(encoding="utf-8")
    revisions = prose.pages(text)
    assert [p.title for p in revisions].count("Gamehelpcubirds") == 2
    newest = prose.newest(revisions)
    assert sorted(p.title for p in newest) == ["Gamehelpcubirds", "Gamehelpresarcana"]
    assert all(p.timestamp in ("2021-08-14T15:19:00Z", "2020-12-05T20:06:57Z") for p in newest)
    lines = prose.seed_prose(seeds[2], "fr")
    # One copy of each sentence, from the newest revision (lines 1-158 and 319-430).
    assert all(n < 159 or 319 <= n < 431 for n, _ in lines)
    assert not any(prose._TIMESTAMP.match(t) for _, t in lines)


def test_a_page_in_two_seeds_is_read_once(seeds: list[Path]) -> None:
    # Seed 001 holds a 2023 revision of the French style guide; seed 000 its 2025 one.
    lines = prose.seeds_prose(seeds, "fr")
    assert not any(seed.startswith("001") for seed, _, _ in lines)
    esperanto = prose.seeds_prose(seeds, "eo")
    assert {seed for seed, _, _ in esperanto} == {"001_8e7b5dc8221fcf00.txt"}
    texts = [t for _, _, t in esperanto]
    assert any(t.startswith("Kosto : Efiko") for t in texts)  # Arcmage Reguloj is read
    assert not any("<" in t or "&minus;" in t for t in texts)


@pytest.mark.parametrize(
    "raw, expected",
    [
        # URLs, and external links (their label stays)
        (
            "Translate the rules -> done : https://arcmage.org/wiki/index.php?title=X",
            "Translate the rules -> done :",
        ),
        (
            "Variante 2X1 : https://arcmage.org/wiki/index.php?title=ARC:_Amin_Duna_(2_vs_1)",
            "Variante 2X1 :",
        ),
        ("voir https://arcmage.org/a. Puis", "voir. Puis"),
        (
            "Questions ? Voir [http://WTactics.org/forum notre forum] ou [http://x.org].",
            "Questions ? Voir notre forum ou.",
        ),
        # wiki links: files, images, categories are not text; a link keeps its visible text
        ("[[File:cardlayout.png|middle|200px|Aranĝo de karto]]", ""),
        ("[[Image:Mémo Aminduna.png|800px|Les champs [[lien|à remplir]]]].", "."),
        ("[[Fichier:carte.png]] Texte", "Texte"),
        ("[[Category:French]]", ""),
        ("[[Catégorie:Règles]]", ""),
        ("vidu [[#Fluganto]] kaj [[Lexicon|English]]", "vidu #Fluganto kaj English"),
        # HTML tags, entities (read as what they print), nowiki, templates
        ('<span style="float:left; margin-right:50px">Teksto</span><br />', "Teksto"),
        ("<center>[[Lexicon|English]] - [[X#L|française]]</center><br />", "English - française"),
        ("la formo de &minus;1/&minus;1", "la formo de \u22121/\u22121"),
        ("Exemple&nbsp;: texte", "Exemple\u00a0: texte"),
        ("<nowiki>texte</nowiki> brut", "texte brut"),
        ("{{toc}}", ""),
        ('<div style="float:right">{{toc}}</div><br />', ""),
        # emoticons and a punctuation sign mentioned in parentheses
        (
            "(qui peut être une table de cuisine :-)) est séparée",
            "(qui peut être une table de cuisine) est séparée",
        ),
        ("Bonne partie ;)", "Bonne partie"),
        ("Bonne partie ;-) et :) et :( fin", "Bonne partie et et fin"),
        (
            "ce qui est à gauche des deux points (:) décrit le coût",
            "ce qui est à gauche des deux points décrit le coût",
        ),
        ("le point-virgule ( ; ) sépare", "le point-virgule sépare"),
        # bold and italic quotes: no double space made, a double space of the text kept
        ("===II. Actions - ''' une seule par tour'''===", "II. Actions - une seule par tour"),
        ("mot ''' ''' mot", "mot mot"),
        ("deux  espaces ''gras''", "deux  espaces gras"),
        ("l''''arme''' du joueur", "l'arme du joueur"),
        # card markup the style guide describes: symbol codes, a drop cap
        (":m: - mark :mi: - flèche « engager »", "- mark - flèche « engager »"),
        ("avec une majuscule ex :C:apital", "avec une majuscule ex Capital"),
        # real prose is left alone
        (
            "Phase 1 : poser; l'or « a » ! 10:30 et 2021-08-14T15:19:00Z",
            "Phase 1 : poser; l'or « a » ! 10:30 et 2021-08-14T15:19:00Z",
        ),
        ("Kosto : Efiko", "Kosto : Efiko"),
    ],
)
def test_what_is_not_prose(raw: str, expected: str) -> None:
    assert prose.prose_text(raw) == expected


def test_non_prose_yields_no_finding() -> None:
    lines = list(
        enumerate(
            [
                "Voir https://arcmage.org/wiki/index.php?title=Liste_des_capacit%C3%A9s;x=1 .",
                "[[File:carte.png|thumb|Légende]] [[Category:French]] [[Fichier:a.png]]",
                '<span style="a:b;c:d">Texte</span>',
                "Une table de cuisine :-) ou ;) ou :) et ;-)",
                "les deux points (:) et le point-virgule ( ; )",
                "II. Actions - ''' une seule par tour'''",
                "{{modèle|a=b;c}} Texte",
            ],
            start=1,
        )
    )
    prosed = [(n, prose.prose_text(t)) for n, t in lines]
    assert prose.lint_prose_lines(prosed, "fr", ["FR2"]) == []
    assert prose.lint_prose_lines(prosed, "eo", ["EO2"]) == []


def test_the_harness_still_finds_what_is_there() -> None:
    found = prose.lint_prose('Phase 1 : poser\nune "petite envolée"\nl\'or  aussi\n')
    assert {f.finding.code for f in found} == {"FR201", "FR202", "FR203", "FR205"}
    eo = prose.lint_prose_lines([(1, "Kosto : Efiko")], "eo", ["EO2"])
    assert [f.finding.code for f in eo] == ["EO201"]


def test_english_lines_are_not_read_as_french() -> None:
    english = frozenset({"the", "to", "and", "of", "card", "for"})
    known = {"deck", "decks", "armée", "infliger", "des", "dégâts", "la", "de", "cité"}.__contains__
    assert prose.english_sentence("Translate the rules (wiki) -> done :", english, known)
    assert prose.english_sentence("Ask ngoeminne to run the script", english, known)
    assert not prose.english_sentence("army : armée", english, known)
    assert not prose.english_sentence("deal damage : infliger des dégâts", english, known)


def test_review_format_errors(tmp_path: Path) -> None:
    path = tmp_path / "review.yaml"
    path.write_text(
        "verdicts:\n- rule: FR201\n  match: x\n  verdict: real\n  why: y\n", encoding="utf-8"
    )
    with pytest.raises(ValueError, match="needs seed, line, rule, at"):
        prose.load_review(path)
    assert prose.load_review(tmp_path / "missing.yaml").verdicts == []


def test_wiki_markup_is_not_prose() -> None:
    lines = dict(
        prose.prose_lines(
            "==But du jeu==\n* Au moins 1 Oiseau\n"
            '{| class="wikitable"\n| style="text-align:center;"|7\n'
            "|}\n'''Phase 1''' : poser"
        )
    )
    assert list(lines.values()) == ["But du jeu", "Au moins 1 Oiseau", "7", "Phase 1 : poser"]
