"""The wiki's abilities lists, linted as if they were cards.

The French *Liste des capacités* and the Esperanto *Listo de kapabloj* translate the
English *Abilities list* entry by entry, and the community's lexicons (the French
Lexique, the Esperanto Leksikono) say which words those translations should use.  So
each ability can be read as a small card: its English entry is the source card, its
French and Esperanto entries are the translations, and what the linter finds on them
are inconsistencies of the wiki itself (or false alarms of the linter).

    python -m translator.lint.abilities > docs/lint-abilities.md

:func:`abilities_library` builds that in-memory library: one card per ability of the
English list (``glossaries/en/abilities.yaml``), whose text is the ability's template
in bold italics, a line break and its reminder in italics (``***Salvage x***\\`` then
``*You may pay x resources ...*``).  Two artefacts of reading lists as cards are removed
before linting:

- Parameter letters.  The lists name an ability's parameters in their own way: the
  Esperanto list writes ``Savebla N`` where English writes ``Salvage x`` (N for nombro,
  K for kapablo, S for estaĵospeco).  A real card would write a number or a word
  there, the same in every language, so each translation's parameter letters are
  renamed to the English ones by position (:func:`parameter_map`: ``Sturmanto K N``
  for ``Charge y x`` gives K -> y, N -> x), in its template and its reminder, whole
  words only (:func:`rename_parameters`): the virtual Esperanto card reads
  ``***Savebla x***`` and ``*Vi povas pagi x rimedojn ...*``, and the number rules
  (TR101, TR103, TR104) compare x with x.  Placeholders that are words
  (``<frakcio>``) keep the list's spelling, as a card writes them in its language.
- Missing English text.  An ability whose English entry has no reminder (Peaceful:
  the seeds hold no English text for it) is its template alone in every language, so
  that the line-break rule (TR303) does not compare a reminder with nothing.

:func:`lint_abilities` lints it and traces every finding back to the ability's
entry in ``glossaries/<lang>/abilities.yaml``.  :data:`JUDGMENTS` holds a reviewer's
verdict on each finding (a real inconsistency of the wiki, with the wiki's words, or a
false alarm, and why); :func:`report` writes it all as Markdown.
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import yaml

from .. import yamlfile
from ..cards.model import (
    SOURCE_LANGUAGE,
    Card,
    CardFile,
    Deck,
    Library,
    source_fingerprint,
)
from ..diagnostics import REGISTRY
from ..glossary.loader import load_glossary
from ..glossary.model import Ability, Glossary
from ..problems import Problem
from .engine import Options, lint, load_resources
from .model import Finding

#: The virtual deck holding one card per ability.
DECK = "wiki-abilities"
#: The translated lists linted by default.
LANGUAGES = ("fr", "eo")
#: What is not run: the markup rules (MK) would judge the Markdown this module writes
#: around the lists' words, not the wiki.
IGNORED_RULES = ("MK",)
#: The command that writes the report.
COMMAND = "python -m translator.lint.abilities > docs/lint-abilities.md"
#: The wiki pages, and the seed documents they were extracted from.
PAGES = {"en": "Abilities list", "fr": "Liste des capacités", "eo": "Listo de kapabloj"}
SEEDS = {"fr": "000_701c6856a19b3056.txt", "eo": "001_8e7b5dc8221fcf00.txt"}
LANGUAGE_TITLES = {"fr": "French", "eo": "Esperanto"}

#: Where each virtual card file comes from: path -> (YAML file, line of the entry).
Origins = dict[str, tuple[str, int]]


# --------------------------------------------------------------------------------------
# The abilities as cards.


def display_path(path: str) -> str:
    """``glossaries/<lang>/abilities.yaml``, wherever the glossaries are installed."""
    file = Path(path)
    return f"glossaries/{file.parent.name}/{file.name}"


def rename_parameters(text: str, mapping: dict[str, str]) -> str:
    """``text`` with each parameter letter of ``mapping`` replaced, whole words only.

    The replacements are simultaneous (``{"K": "y", "N": "x"}`` cannot turn a K into
    an x), and a parameter is a whole word when no letter or digit touches it:
    ``K-Batalkrianto N`` becomes ``x-Batalkrianto y``, and the N of a word like ``Nago``
    stays.
    """
    if not mapping:
        return text
    names = sorted(mapping, key=len, reverse=True)
    pattern = r"(?<!\w)(" + "|".join(re.escape(name) for name in names) + r")(?!\w)"
    return re.sub(pattern, lambda match: mapping[match.group(1)], text)


def parameter_map(ability: Ability, english: Ability) -> dict[str, str]:
    """A translation's parameter letters -> the English ones, by position.

    The Esperanto list writes ``Savebla N`` where English writes ``Salvage x``, and
    ``Sturmanto K N`` for ``Charge y x``: {N: x} and {K: y, N: x}.  Only letters are
    renamed: a placeholder such as ``<frakcio>`` (English ``<faction>``) stands for a
    word that a card writes in its own language.
    """
    return {mine: theirs for mine, theirs in zip(ability.params, english.params, strict=False)
            if mine != theirs and _is_letter(mine) and _is_letter(theirs)}


def _is_letter(parameter: str) -> bool:
    return len(parameter) == 1 and parameter.isalpha()


def card_text(ability: Ability, english: Ability | None = None,
              reminder: bool = True) -> str:
    """An ability as card text: its template in bold italics, then its reminder.

    With ``english`` (the English entry of a translated ability), the parameter letters
    are the English ones (:func:`parameter_map`).  Without ``reminder``, or when the
    ability has none, the text is the template alone.
    """
    mapping = parameter_map(ability, english) if english is not None else {}
    name = f"***{rename_parameters(ability.template or ability.name, mapping)}***"
    if not (reminder and ability.reminder):
        return name
    return f"{name}\\\n*{rename_parameters(ability.reminder, mapping)}*"


def card_file(ability: Ability, lang: str, fields: dict[str, str], text: str) -> CardFile:
    """A card file as if read from disk: a front matter of quoted values, then ``text``."""
    lines = ["---"]
    keys: dict[str, int] = {}
    for key, value in fields.items():
        keys[key] = len(lines) + 1
        lines.append(f"{key}: {json.dumps(value, ensure_ascii=False)}")
    lines.append("---")
    return CardFile(f"{DECK}/{ability.id}.{lang}.md", DECK, ability.id, lang, dict(fields),
                    keys, text, len(lines) + 1, "\n".join(lines) + "\n")


def _require(problems: list[Problem], what: str) -> None:
    if problems:
        raise ValueError(f"{what} do not load: "
                         + "; ".join(f"{p.path}:{p.line}: {p.message}" for p in problems))


def _glossaries(languages: Iterable[str]) -> dict[str, Glossary]:
    found: dict[str, Glossary] = {}
    problems: list[Problem] = []
    for lang in (SOURCE_LANGUAGE, *languages):
        found[lang], errors = load_glossary(lang)
        problems.extend(errors)
    _require(problems, "the glossaries")
    return found


def _build(languages: Sequence[str]) -> tuple[Library, Origins, dict[str, Glossary]]:
    glossaries = _glossaries(languages)
    english = glossaries[SOURCE_LANGUAGE].abilities
    library = Library({DECK: Deck(PAGES[SOURCE_LANGUAGE], DECK, dict.fromkeys(english, 1))})
    origins: Origins = {}
    for ability_id, ability in english.items():
        # An English entry without a reminder (Peaceful: the seeds hold no English text)
        # makes cards of the template alone in every language.
        reminders = bool(ability.reminder)
        source = card_file(ability, SOURCE_LANGUAGE, {"name": ability.name},
                           card_text(ability))
        card = Card(ability_id, DECK, source)
        origins[source.path] = (display_path(ability.path), ability.line)
        fingerprint = source_fingerprint(source)
        for lang in languages:
            translated = glossaries[lang].abilities.get(ability_id)
            if translated is None:
                continue
            file = card_file(translated, lang, {"name": translated.name, "source": fingerprint},
                             card_text(translated, ability, reminders))
            card.translations[lang] = file
            origins[file.path] = (display_path(translated.path), translated.line)
        library.cards[(DECK, ability_id)] = card
    return library, origins, glossaries


def abilities_library(languages: Sequence[str] = LANGUAGES) -> tuple[Library, Origins]:
    """One card per ability of the English list, translated by the lists of ``languages``.

    The card's name is the ability's name, its text the template and reminder; each
    translation holds the source fingerprint of its English card, so the staleness
    rules stay quiet.  Returns the library and, for each virtual card file path, the
    (YAML file, line) of the ability's entry in ``glossaries/<lang>/abilities.yaml``.
    """
    library, origins, _ = _build(languages)
    return library, origins


# --------------------------------------------------------------------------------------
# Judgments: is a finding a real inconsistency of the wiki?


#: Why a finding is a false alarm, by kind (the False alarms section follows this order).
CAUSES = {
    "reading": "Artefacts of reading the lists as cards",
    "linter": "Limits of the linter",
    "glossary": "Gaps of the glossaries",
    "wording": "Deliberate or faithful wordings",
}


@dataclass(frozen=True)
class Judgment:
    """A reviewer's verdict on a finding.

    ``real``: the finding is a real inconsistency of the wiki, explained by ``why``,
    and ``quote`` is the wiki's own words as the seed document writes them (wiki markup
    included), which the test checks.  Otherwise a false alarm, and ``cause`` (a key of
    :data:`CAUSES`) says whose: this module's reading, the linter's, the glossaries'.
    """

    real: bool
    why: str
    quote: str | None = None
    cause: str | None = None


def real(why: str, quote: str) -> Judgment:
    return Judgment(True, why, quote)


def false_alarm(cause: str, why: str) -> Judgment:
    assert cause in CAUSES, cause
    return Judgment(False, why, cause=cause)


#: False alarms that recur (the False alarms section groups them).
GAIN_ABILITY = false_alarm(
    "wording", "the Esperanto ability names are adjectives and -anto nouns, so gaining an "
    "ability is « iĝi » + name throughout the list (Sturmanto « iĝas K », Rabia « iĝas "
    "rabia »); gajni is for stats and marks (Akvotempesto, Hejmsopira)")
LEGEND_FR = ("the French list leaves the derived ability Legend in English (name and "
             "reminder, section « Arcmage Derived Abilities List »)")
SAND_COPY_FR = "the French list leaves Sand Copy in English (name and reminder)"
COUNTERS = "the Lexique says « counter : marqueur »; the list writes « compteurs »"
JOUEUSE = "the Lexique says « player : la joueureuse »; the list writes « joueuse »"
BLOOD_VENGEANCE_FR = (
    "the French glues the number of counters to their modifier, « des marqueurs x+1/+0 », "
    "which reads as one modifier x+1/+0; the English and Esperanto write x counters of "
    "+1/+0 ('x +1/+0 counters', « x +1/+0 indikiloj »), and Déterré « x marqueurs »")
BLOOD_VENGEANCE_QUOTE = "J'entre en jeu avec des marqueurs x+1/+0"

#: (language, ability id, rule code) -> verdict; where one card has several findings
#: of a rule with different verdicts, a fourth element, a part of the message (the
#: quoted English term), tells them apart.  A finding without one is "to review".
JUDGMENTS: dict[tuple[str, ...], Judgment] = {
    # ---- French: Liste des capacités.
    ("fr", "blood-vengeance", "TR101"): real(BLOOD_VENGEANCE_FR, BLOOD_VENGEANCE_QUOTE),
    ("fr", "blood-vengeance", "TR103"): real(BLOOD_VENGEANCE_FR, BLOOD_VENGEANCE_QUOTE),
    ("fr", "boost", "GL201"): real(COUNTERS, "ajouter des compteurs +1/1"),
    ("fr", "boost", "TR101"): real(
        "« compteurs +1/1 » (sic) for +1/+1 counters", "des compteurs +1/1."),
    ("fr", "boost", "TR103"): real(
        "the English puts x +1/+1 counters on the card; the French « ajouter des compteurs "
        "+1/1 » drops their number (x resources pay for an unstated number of counters)",
        "paye x ressources supplémentaires pour ajouter des compteurs +1/1."),
    ("fr", "bruiser", "GL201"): real(COUNTERS, "sous la forme de compteurs -1/-1"),
    ("fr", "deadly", "GL101"): real(
        "the English says 'in combat'; the French drops it, so Fatal reads as if it "
        "worked outside combat too",
        "Les créatures auxquelles j'inflige des dégâts sont tuées (quelle"),
    ("fr", "deadly", "GL201"): real(
        "the Lexique says « defense strength : valeur de défense »; the list writes « force "
        "défensive »", "quelle que soit leur force défensive"),
    ("fr", "dual-attack", "GL101"): false_alarm(
        "wording", "« dégâts normaux » for 'normal combat damage': the ability is about "
        "combat damage anyway (« les dégâts d'initiative en plus des dégâts normaux »), the "
        "rendering is faithful"),
    ("fr", "freeze", "GL101"): real(
        "the Lexique says « defend : bloquer » (only defending a city keeps « défendre »); "
        "Gelée says « ni défendre » of a creature", "Je ne peux ni attaquer ni défendre"),
    ("fr", "infiltrate", "GL101"): real(
        "the Lexique says « move : déplacer » (Voyageur: « quand je me déplace »); "
        "Infiltré says « aller »", "Je peux aller dans la cité d'un adversaire"),
    ("fr", "legend", "GL101"): real(LEGEND_FR, "''Legend'' - No player cannot control"),
    ("fr", "legend", "TR103"): real(LEGEND_FR + "; the English 'one' is no French number "
                                    "word", "''Legend'' - No player cannot control"),
    ("fr", "legend", "TR501"): real(LEGEND_FR, "''Legend'' - No player cannot control"),
    ("fr", "legend", "TR503"): real(LEGEND_FR, "''Legend'' - No player cannot control"),
    ("fr", "legend", "TR504"): real(LEGEND_FR, "''Legend'' - No player cannot control"),
    ("fr", "necromancer", "GL101"): real(
        "'dealt damage' is « blessé » here, « infliger des dégâts » (Lexique: deal damage) "
        "in every other reminder; « blessé » does not agree with « créature » either",
        "Quand une créature que j'ai blessé ce tour meurt"),
    ("fr", "plunder", "GL101"): real(
        "'target city's defense strength' is « la cité »: « ciblée » is dropped "
        "(Esperanto: « cela urbo »)", "sont ajoutés aux points de défense de la cité."),
    ("fr", "produce", "TR403"): real(
        "the heading names the ability « Producteurice », the template « Produit x "
        "ressources pour <faction> »: a card cannot write both",
        "''Produit x ressources pour <faction>''"),
    ("fr", "rabies", "GL101"): false_alarm(
        "wording", "'gains rabies' is « contracte la rage », the French for catching "
        "rabies; « gagne » would not be better French"),
    ("fr", "rabies", "GL201"): real(JOUEUSE, "À la fin du tour d'une joueuse"),
    ("fr", "sand-copy", "TR501"): real(SAND_COPY_FR, "''Sand Copy'' - I am a copy"),
    ("fr", "sand-copy", "TR504"): real(SAND_COPY_FR, "''Sand Copy'' - I am a copy"),
    ("fr", "taunt", "GL101"): real(
        "the English creature unmarks and defends; the French one « engagée adverse peut "
        "me bloquer » is never unmarked (Lexique: unmark : désengagé)",
        "une créature engagée adverse peut me bloquer si elle en est capable"),
    ("fr", "unique", "GL302"): real(
        "the English list gives Unique and the derived Legend the same reminder; the French "
        "list translates it for Unique and leaves it in English for Legend (see Legend)",
        "Une joueureuse ne peut pas contrôler plus d'un exemplaire de cette carte"),
    ("fr", "water-tempest", "GL101", "'resource card'"): real(
        "the Lexique says « resource card : carte ressource » (Déterré: « carte "
        "ressource »); Tempête says « ressource »", "pour chaque ressource ''Grandes maisons''"),
    ("fr", "water-tempest", "GL101", "'the defending player'"): real(
        "the Lexique says « the defending player : la joueureuse défenseuse »; Tempête says "
        "« la joueuse attaquée »", "contrôlée par la joueuse attaquée"),
    ("fr", "water-tempest", "GL201", "'Grandes maisons'"): real(
        "the Lexique names House of Nobles « Les Aristocrates »; Tempête says « Grandes "
        "maisons »", "ressource ''Grandes maisons''"),
    ("fr", "water-tempest", "GL201", "'joueuse'"): real(JOUEUSE,
                                                         "contrôlée par la joueuse attaquée"),
    # ---- Esperanto: Listo de kapabloj.
    ("eo", "battle-scream", "TR103"): false_alarm(
        "reading", "x is a creature kind here, not a number (the list's K, kapablo), and the "
        "Esperanto template joins it to the name as a stem: « K-Batalkrianto N », read "
        "x-Batalkrianto y (ekz. « Milican-Batalkrianto 1 »); the number rules take every "
        "lone x for the variable X but not an x joined by a hyphen, so the English has two "
        "and the Esperanto one.  A real card writes a word there (Militia, Milican-), no x"),
    ("eo", "charge", "GL101"): GAIN_ABILITY,
    ("eo", "deadly", "GL101"): real(
        "the English says 'in combat'; the Esperanto drops it, so Mortiga reads as if it "
        "worked outside combat too", "Estaĵojn, kiujn mi damaĝas, estas detrui"),
    ("eo", "defiance", "GL101"): real(
        "the Leksikono says « defense strength: defendoforto »; Defia writes « defendforto »",
        "estas aldonita al ĝia defendforto"),
    ("eo", "devoted", "GL201"): real(
        "the Leksikono says « devotion: sindonemo »; Sindona writes « sindoneco »",
        "Mia sindoneco al urbo kalkulas duoble"),
    ("eo", "homesick", "GL101"): real(
        "the rules say « Fidelecaj Markoj » (loyalty mark: fideleca marko; the Leksikono "
        "says « loyalty: fideleco »); Hejmsopira writes « lojalecmarkon »",
        "mi perdas unu lojalecmarkon"),
    ("eo", "necromancer", "TR101"): real(
        "the token is « 1/1 » where English says '+1/+1 Undead Skeleton token'",
        "kiu estas 1/1 Malmortulo Skeleto"),
    ("eo", "produce", "TR404"): false_alarm(
        "linter", "TR404 takes an ability's parameter values from the words after its name, "
        "but Produce has its parameters inside the template (« Produkti x <frakcio> rimedoj »: "
        "three words for two parameters), so it substitutes none and expects the list's "
        "reminder as written, with N where the card has x; on a real card (Produce 2 ...) "
        "the English reminder does not match the list's either, and TR404 checks no "
        "Produce reminder at all"),
    ("eo", "rabies", "GL101"): GAIN_ABILITY,
    ("eo", "taunt", "GL101"): real(
        "the Leksikono says « unmark: malmarki »; Mokanto writes « malmarkigi »",
        "vi povas malmarkigi estaĵon de kontraŭulo"),
    ("eo", "travel", "GL101"): real(
        "the Leksikono says « mark: marki » and Veterano « markita »; Vojaĝanto writes "
        "« markigita »", "Mi ne estas markigita por moviĝi"),
}


def judgment_key(finding: Finding) -> tuple[str, ...]:
    """The key of :data:`JUDGMENTS` that judges ``finding`` (it may have no judgment)."""
    base = (finding.lang, finding.card, finding.code)
    for key in JUDGMENTS:
        if len(key) == 4 and key[:3] == base and key[3] in finding.message:
            return key
    return base


# --------------------------------------------------------------------------------------
# Linting.


@dataclass(frozen=True)
class WikiFinding:
    """A finding on an ability, traced back to the abilities list it comes from."""

    finding: Finding
    #: The English name of the ability.
    ability: str
    #: ``glossaries/<lang>/abilities.yaml`` and the line of the ability's entry.
    yaml_path: str
    yaml_line: int
    #: The part of the entry the finding is on (``name``, ``template``, ``reminder``,
    #: or ``text``: template and reminder), and its line (the template's for ``text``).
    yaml_key: str
    yaml_key_line: int

    @property
    def key(self) -> tuple[str, ...]:
        return judgment_key(self.finding)

    @property
    def judgment(self) -> Judgment | None:
        return JUDGMENTS.get(self.key)


def _entry_key_lines(path: str) -> dict[str, dict[str, int]]:
    """Ability id -> line of each key of its entry, in an abilities YAML file."""
    problems: list[Problem] = []
    loaded = yamlfile.load(Path(path).read_text("utf-8"), path, 1, problems)
    found: dict[str, dict[str, int]] = {}
    if loaded is None:
        return found
    _, node = loaded
    entries = yamlfile.child(node, "abilities")
    if not isinstance(entries, yaml.SequenceNode):
        return found
    for entry in entries.value:
        if isinstance(entry, yaml.MappingNode):
            keys = {str(k.value): k.start_mark.line + 1 for k, _ in entry.value}
            identifier = next((str(v.value) for k, v in entry.value if k.value == "id"), "")
            found[identifier] = keys
    return found


def _field(file: CardFile, finding: Finding) -> str:
    """Which part of the ability a finding is on: ``name``, ``template``, ``reminder``,
    or ``text`` for a finding on the whole paragraph (template and reminder)."""
    if finding.key != "text":
        return "name"
    if finding.line <= file.body_line:
        return "text" if finding.column == 1 else "template"
    return "reminder"


def lint_abilities(languages: Sequence[str] = LANGUAGES) -> list[WikiFinding]:
    """Lint the abilities lists of ``languages`` against the English list and lexicons.

    Every rule runs but the markup ones.  The findings are sorted by language (in the
    order given), English ability name, rule and position.
    """
    library, origins, glossaries = _build(languages)
    options = Options(ignore=list(IGNORED_RULES), languages=list(languages))
    problems: list[Problem] = []
    resources = load_resources(languages, options, problems)
    _require(problems, "the linter's data files")
    key_lines: dict[str, dict[str, dict[str, int]]] = {}
    found = []
    for finding in lint(library, resources, options).findings:
        card = library.cards[(DECK, finding.card)]
        file = card.version(finding.lang)
        assert card.source is not None and file is not None
        yaml_path, yaml_line = origins[finding.path]
        real_path = glossaries[finding.lang].abilities[finding.card].path
        if real_path not in key_lines:
            key_lines[real_path] = _entry_key_lines(real_path)
        entry = key_lines[real_path].get(finding.card, {})
        field = _field(file, finding)
        line = (entry.get("template" if field == "text" else field) or entry.get("name")
                or yaml_line)
        found.append(WikiFinding(finding, str(card.source.fields["name"]), yaml_path,
                                 yaml_line, field, line))
    order = {lang: i for i, lang in enumerate(languages)}
    found.sort(key=lambda f: (order.get(f.finding.lang, len(order)), f.ability.casefold(),
                              f.finding.code, f.finding.line, f.finding.column))
    return found


# --------------------------------------------------------------------------------------
# The report.


def _cell(text: str) -> str:
    """Text for a Markdown table cell: no pipes, tags or emphasis by accident."""
    for char in "\\|*_`":
        text = text.replace(char, "\\" + char)
    return text.replace("<", "&lt;").replace("\n", " ")


def _verdict(found: WikiFinding) -> str:
    judgment = found.judgment
    if judgment is None:
        return "to review"
    if not judgment.real:
        return f"no (false alarm): {_cell(judgment.why)}"
    quote = judgment.quote.replace("|", "\\|") if judgment.quote else None
    return f"yes: {_cell(judgment.why)}" + (f"; seed: `{quote}`" if quote else "")


def _where(found: WikiFinding) -> str:
    name = found.yaml_path.removeprefix("glossaries/")
    part = "template and reminder" if found.yaml_key == "text" else found.yaml_key
    return f"[{name}:{found.yaml_key_line}](../{found.yaml_path}#L{found.yaml_key_line}) ({part})"


def _label(found: WikiFinding) -> str:
    """``French Plunder (GL101 'city')``: the quoted term tells a card's GL findings apart."""
    finding = found.finding
    term = re.search(r"'([^']+)'", finding.message) if finding.code.startswith("GL") else None
    what = f"{finding.code} '{term.group(1)}'" if term else finding.code
    return f"{LANGUAGE_TITLES.get(finding.lang, finding.lang)} {found.ability} ({what})"


def _rule_name(code: str) -> str:
    rule = REGISTRY.get(code)
    return f"{code} {rule.name}" if rule is not None else code


def report(findings: Sequence[WikiFinding], languages: Sequence[str] = LANGUAGES) -> str:
    """The Markdown report of ``findings`` (docs/lint-abilities.md)."""
    out = ["# The abilities lists, linted", "",
           "What the linter finds when the wiki's abilities lists are read as cards: the "
           "French *Liste des capacités* and the Esperanto *Listo de kapabloj* checked "
           "against the English *Abilities list* and the community's lexicons (the French "
           "Lexique, the Esperanto Leksikono), as the lint rules check a translated card "
           "([rules.md](rules.md)).", "",
           f"Generated by `{COMMAND}` (`translator/lint/abilities.py`); "
           "`tests/test_lint_abilities.py` checks that it is up to date.  Do not edit it: "
           "change the module's judgments, or the data, and regenerate.", "",
           "## How", "",
           "- Each ability of the English list (`glossaries/en/abilities.yaml`) is an "
           "English card: its name is the ability's name, its text the template in bold "
           "italics, a line break and the reminder in italics (`***Salvage x***\\` then "
           "`*You may pay x resources ...*`).",
           "- Its French and Esperanto versions are made the same way from "
           "`glossaries/fr/abilities.yaml` (Liste des capacités, seed "
           f"`{SEEDS['fr']}`) and `glossaries/eo/abilities.yaml` (Listo de kapabloj, seed "
           f"`{SEEDS['eo']}`), which hold the lists verbatim.  Each translation holds its "
           "English card's source fingerprint, so that the staleness rules stay quiet.",
           "- A translation's parameter letters are renamed to the English ones by position, in "
           "its template and reminder (whole words only): the Esperanto list writes "
           "`Savebla N` where English writes `Salvage x`, so the Esperanto card reads "
           "`***Savebla x***` and `*Vi povas pagi x rimedojn ...*`, as a real card would "
           "write the same number in every language.",
           "- An ability whose English entry has no reminder (Peaceful: the seeds hold no "
           "English text for it) is its template alone in every language.",
           "- Every lint rule runs but the markup rules (MK), which would judge the "
           "Markdown written around the lists' words rather than the wiki.",
           "- *Where* is the line of the ability's name, template or reminder in the YAML "
           "file (the part the finding is on).",
           "- *Wiki inconsistency?* is a reviewer's judgment (`JUDGMENTS` in the module): "
           "**yes**, a real inconsistency of the wiki, with the wiki's words as the seed "
           "document writes them (the test checks they are there); **no**, a false alarm (see "
           "[False alarms](#false-alarms)); *to review*, a finding nobody has judged yet.",
           ""]
    for lang in languages:
        here = [f for f in findings if f.finding.lang == lang]
        out += [f"## {LANGUAGE_TITLES.get(lang, lang)}: {PAGES.get(lang, lang)}", "",
                f"{len(here)} finding{'s' if len(here) != 1 else ''}.", ""]
        if here:
            out += ["| ability | rule | finding | where | wiki inconsistency? |",
                    "|---|---|---|---|---|"]
            out += [f"| {_cell(f.ability)} | {f.finding.code} | {_cell(f.finding.message)} | "
                    f"{_where(f)} | {_verdict(f)} |" for f in here]
            out.append("")
    out += _summary(findings, languages)
    out += _false_alarms(findings)
    return "\n".join(out).rstrip("\n") + "\n"


def _summary(findings: Sequence[WikiFinding], languages: Sequence[str]) -> list[str]:
    titles = [LANGUAGE_TITLES.get(lang, lang) for lang in languages]
    header = ["| | " + " | ".join(titles) + " | total |",
              "|---|" + "---:|" * (len(languages) + 1)]

    def row(label: str, chosen: list[WikiFinding]) -> str:
        counts = Counter(f.finding.lang for f in chosen)
        cells = " | ".join(str(counts[lang]) for lang in languages)
        return f"| {label} | {cells} | {len(chosen)} |"

    out = ["## Summary", "", "Findings per rule:", "", *header]
    for code in sorted({f.finding.code for f in findings}):
        out.append(row(_rule_name(code), [f for f in findings if f.finding.code == code]))
    out.append(row("**total**", list(findings)))
    real_ = [f for f in findings if f.judgment is not None and f.judgment.real]
    false = [f for f in findings if f.judgment is not None and not f.judgment.real]
    unjudged = [f for f in findings if f.judgment is None]
    entries = Counter(lang for lang, _ in {(f.finding.lang, f.finding.card) for f in real_})
    out += ["", "Judgments:", "", *header,
            row("real inconsistencies of the wiki", real_),
            row("false alarms", false),
            row("to review", unjudged), ""]
    per_language = ", ".join(f"{entries[lang]} {LANGUAGE_TITLES.get(lang, lang)}"
                             for lang in languages)
    out += [f"The real inconsistencies are in {sum(entries.values())} entries of the lists "
            f"({per_language}); several findings can tell the same one (an entry left in "
            "English gives one per rule that sees English).", ""]
    return out


def _false_alarms(findings: Sequence[WikiFinding]) -> list[str]:
    out = ["## False alarms", ""]
    alarms = [f for f in findings if f.judgment is not None and not f.judgment.real]
    if not alarms:
        return [*out, "None: every finding is a real inconsistency of the wiki.", ""]
    out += ["Findings that are not inconsistencies of the wiki, by cause and reason.", ""]
    for cause, title in CAUSES.items():
        by_reason: dict[str, list[WikiFinding]] = {}
        for found in alarms:
            judgment = found.judgment
            if judgment is not None and judgment.cause == cause:
                by_reason.setdefault(judgment.why, []).append(found)
        if not by_reason:
            continue
        count = sum(len(group) for group in by_reason.values())
        out += [f"### {title} ({count})", ""]
        for why, group in by_reason.items():
            out.append(f"- {', '.join(_cell(_label(f)) for f in group)}: {_cell(why)}.")
        out.append("")
    return out


def main() -> int:
    """Print the report: ``python -m translator.lint.abilities > docs/lint-abilities.md``."""
    text = report(lint_abilities())
    sys.stdout.buffer.write(text.encode("utf-8"))
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
