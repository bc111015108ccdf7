"""PO and XLIFF out and back (``translator export po|xliff``, ``translator import
po|xliff``): one entry per translatable unit, stale entries fuzzy with the old English,
imports that write exactly what changed, refuse what would break a card, and confirm
stale cards."""

from __future__ import annotations

import io
import json
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from translate.storage import po, xliff
from translate.storage.tbx import tbxfile

from tests.lintkit import SAMPLE, edit
from translator import cards
from translator.cards.model import changed_fields, source_fingerprint
from translator.cli import main
from translator.workflow.fields import units
from translator.workflow.states import card_state

XLIFF_NS = ("urn:oasis:names:tc:xliff:document:1.1", "urn:oasis:names:tc:xliff:document:1.2")
#: A refused entry as the import reports it on standard error.
REFUSED = re.compile(
    r"^translator: refused (?P<path>[^:]+):(?P<line>\d+): "
    r"(?P<key>[a-z0-9-]+:[a-z0-9]+): (?P<message>.*)$"
)
GIT_ENV = {
    "GIT_AUTHOR_NAME": "Test",
    "GIT_AUTHOR_EMAIL": "test@example.org",
    "GIT_COMMITTER_NAME": "Test",
    "GIT_COMMITTER_EMAIL": "test@example.org",
}


# --------------------------------------------------------------------------------------
# Helpers


@pytest.fixture
def deck(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the sample deck at ``tmp_path/sample``, the working directory being
    ``tmp_path`` (so that ``sample`` is the deck and ``--library sample`` the library)."""
    monkeypatch.chdir(tmp_path)
    return copy_deck(tmp_path)


def copy_deck(directory: Path) -> Path:
    """A copy of the sample deck in ``directory/sample`` (the artwork too: a link to
    a folder outside the deck is refused, docs/security.md)."""
    target = directory / "sample"
    shutil.copytree(SAMPLE, target)
    return target


def git(directory: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main", *args],
        cwd=directory,
        check=True,
        capture_output=True,
    )


@pytest.fixture
def git_deck(deck: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The copied deck, committed in a git repository of its own."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    for name, value in GIT_ENV.items():
        monkeypatch.setenv(name, value)
    git(deck.parent, "init", "-q")
    git(deck.parent, "add", ".")
    git(deck.parent, "commit", "-q", "-m", "sample")
    return deck


def run(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(args), out=out)
    return code, out.getvalue()


def export(kind: str, lang: str, output: str, *extra: str, deck: str = "sample") -> None:
    code, _ = run("export", kind, deck, "--lang", lang, "-o", output, *extra)
    assert code == 0


def po_units(path: str | Path) -> tuple[po.pofile, dict[str, po.pounit]]:
    """The store of a PO file and its units by context."""
    store = po.pofile.parsefile(str(path))
    return store, {u.getcontext(): u for u in store.units if not u.isheader()}


def snapshot(directory: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(directory.iterdir()) if p.is_file()}


def changed_files(before: dict[str, bytes], after: dict[str, bytes]) -> set[str]:
    return {name for name in before.keys() | after.keys() if before.get(name) != after.get(name)}


def load_card(deck_dir: Path, slug: str) -> cards.Card:
    library, problems = cards.load_library([str(deck_dir)])
    assert not problems, problems
    return library.cards[(deck_dir.name, slug)]


def expected_entries(deck_dir: Path, lang: str) -> dict[str, tuple[str, str]]:
    """``slug:unit`` -> (English unit, translated unit or '') for every card of the deck."""
    library, problems = cards.load_library([str(deck_dir)])
    assert not problems, problems
    found = {}
    for card in library.deck_cards(deck_dir.name):
        assert card.source is not None
        version = card.translations.get(lang)
        own = units(version) if version is not None else {}
        for unit, text in units(card.source).items():
            found[f"{card.slug}:{unit}"] = (text, own.get(unit, ""))
    return found


# --------------------------------------------------------------------------------------
# Export


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory with exports of an untouched copy of the sample (read-only):
    ``sample.fr.po`` (and its ``sample.fr.tbx``), ``sample.eo.po``, ``sample.eo.xlf``."""
    directory = tmp_path_factory.mktemp("exported")
    deck_dir = copy_deck(directory)
    export("po", "fr", str(directory / "sample.fr.po"), deck=str(deck_dir))
    export("po", "eo", str(directory / "sample.eo.po"), "--no-tbx", deck=str(deck_dir))
    export("xliff", "eo", str(directory / "sample.eo.xlf"), "--no-tbx", deck=str(deck_dir))
    return directory


@pytest.fixture
def exported(pristine: Path) -> Path:
    return pristine / "sample.fr.po"


def fresh(pristine: Path, name: str) -> str:
    """A copy of a pristine export in the working directory, to edit; its name."""
    shutil.copyfile(pristine / name, name)
    return name


def test_po_export_has_one_entry_per_unit_with_english_source_and_french_target(
    exported: Path,
) -> None:
    store, by_context = po_units(exported)
    contexts = [u.getcontext() for u in store.units if not u.isheader()]
    assert len(contexts) == len(set(contexts))  # the context is unique
    expected = expected_entries(exported.parent / "sample", "fr")
    assert {c: (str(u.source), str(u.target)) for c, u in by_context.items()} == expected
    # The sample has every kind of unit but a footer of its own; all are translated.
    kinds = {c.split(":")[1] for c in contexts}
    assert kinds == {"name", "name2", "subtype", "text", "flavour"}
    assert {c for c in contexts if c.endswith(":name2")} == {"courier:name2", "harbor-lord:name2"}
    assert len({c.split(":")[0] for c in contexts}) == 24
    assert all(str(u.target) for u in by_context.values())
    assert not any(u.isfuzzy() for u in by_context.values())
    # The deck's order: the first card of deck.yaml first, its name first.
    assert contexts[:2] == ["restless-bones:name", "restless-bones:subtype"]
    header = store.parseheader()
    assert header["Language"] == "fr"
    assert header["X-Translator-Deck"] == "sample"


def test_po_export_notes_name_the_card_and_the_glossary_words(exported: Path) -> None:
    _, by_context = po_units(exported)
    text = by_context["flame-lash:text"]
    assert "***city***" in str(text.source)
    notes = text.getnotes("developer").splitlines()
    assert notes[0] == "card: Flame Lash (Magic, Red Banner)"
    assert "glossary: city → cité (not: ville)" in notes  # the deprecated one to avoid
    assert "glossary: creature → créature" in notes
    # The location is the English card's line of the rule text (its body's first line).
    english = (exported.parent / "sample" / "flame-lash.en.md").read_text("utf-8")
    line = english.splitlines().index(str(text.source).splitlines()[0]) + 1
    assert text.getlocations() == [f"{exported.parent / 'sample' / 'flame-lash.en.md'}:{line}"]
    name = by_context["courier:subtype"].getnotes("developer").splitlines()
    assert name[0] == "card: Courier of the Iron Sky (Creature, The Empire, Soldier Bird)"


@pytest.mark.skipif(
    shutil.which("msgfmt") is None,
    reason="GNU gettext's msgfmt is not installed (apt-get install gettext)",
)
def test_po_export_passes_msgfmt_check(exported: Path) -> None:
    done = subprocess.run(
        ["msgfmt", "--check", "-o", "/dev/null", str(exported)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr


def test_po_export_is_read_by_babel(exported: Path) -> None:
    _, by_context = po_units(exported)
    with exported.open("rb") as stream:
        catalog = read_po(stream)
    messages = [m for m in catalog if m.id]
    assert len(messages) == len(by_context)
    assert {m.context for m in messages} == set(by_context)
    assert str(catalog.locale) == "fr"
    courier = next(m for m in messages if m.context == "courier:name")
    assert (courier.id, courier.string) == ("Courier", "Messager")


def test_tbx_is_written_next_to_the_po(exported: Path) -> None:
    tbx = exported.with_suffix(".tbx")
    assert tbx.name == "sample.fr.tbx"
    store = tbxfile.parsefile(str(tbx))
    assert len(store.units) > 100
    city = next(u for u in store.units if [t.text for t in u.get_source_terms()] == ["city"])
    assert "cité" in [t.text for t in city.get_target_terms("fr")]


def test_no_tbx_writes_only_the_po(pristine: Path, tmp_path: Path) -> None:
    export("po", "fr", str(tmp_path / "out.po"), "--no-tbx", deck=str(pristine / "sample"))
    assert [p.name for p in tmp_path.iterdir()] == ["out.po"]
    assert (tmp_path / "out.po").read_bytes().startswith(b'msgid ""')


def test_changed_english_makes_that_entry_fuzzy_with_the_previous_msgid(git_deck: Path) -> None:
    old_text = units(load_card(git_deck, "courier").source)["text"]
    edit(git_deck / "courier.en.md", "draws one card", "draws two cards")
    git(git_deck.parent, "commit", "-q", "-a", "-m", "courier draws two")
    for lang in ("fr", "eo"):
        export("po", lang, f"sample.{lang}.po", "--no-tbx")
        _, by_context = po_units(f"sample.{lang}.po")
        assert [c for c, u in by_context.items() if u.isfuzzy()] == ["courier:text"]
        stale = by_context["courier:text"]
        assert "draws two cards" in str(stale.source)
        assert stale.prev_source == old_text
        assert "stale: the English changed since this was translated" in stale.getnotes()
        # The translation is still given (Poedit shows it against the new English).
        assert str(stale.target) == units(load_card(git_deck, "courier").translations[lang])["text"]
        raw = Path(f"sample.{lang}.po").read_text("utf-8")
        assert raw.count("#, fuzzy") == 1
        assert '#| msgid ""\n#| "***Flying***' in raw
        assert '#| ":m: Target ***player*** draws one card."' in raw


# --------------------------------------------------------------------------------------
# Import


def test_round_trip_changes_exactly_the_edited_cards_and_is_idempotent(
    pristine: Path, deck: Path
) -> None:
    fresh(pristine, "sample.fr.po")
    store, by_context = po_units("sample.fr.po")
    old_flavour = str(by_context["restless-bones:flavour"].target)
    new_flavour = old_flavour.replace("n’est qu’une", "n’est rien qu’une")
    assert new_flavour != old_flavour
    by_context["restless-bones:flavour"].target = new_flavour
    by_context["mossgate:name"].target = "Porte moussue"
    Path("sample.fr.po").write_bytes(bytes(store))
    before = snapshot(deck)

    code, output = run("import", "po", "sample.fr.po", "--library", "sample")
    assert code == 0, output
    after = snapshot(deck)
    assert changed_files(before, after) == {"restless-bones.fr.md", "mossgate.fr.md"}
    # Only the edited line changed in each file.
    assert after["mossgate.fr.md"] == before["mossgate.fr.md"].replace(
        b"name: Porte des mousses", b"name: Porte moussue"
    )
    assert after["restless-bones.fr.md"] == before["restless-bones.fr.md"].replace(
        old_flavour.encode(), new_flavour.encode()
    )
    assert units(load_card(deck, "restless-bones").translations["fr"])["flavour"] == new_flavour
    assert "2 cards updated, 0 entries refused" in output

    code, output = run("import", "po", "sample.fr.po", "--library", "sample")
    assert code == 0, output
    assert snapshot(deck) == after
    assert output.startswith("0 cards updated, 0 entries refused")


def test_entries_breaking_the_card_are_refused_and_the_others_imported(
    pristine: Path, deck: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fresh(pristine, "sample.fr.po")
    store, by_context = po_units("sample.fr.po")
    by_context["courier:text"].target = str(by_context["courier:text"].target) + "\n\n# Heading"
    by_context["harbor-lord:name"].target = "Seigneur\ndu port"
    by_context["mossgate:name"].target = "Porte moussue"
    Path("sample.fr.po").write_bytes(bytes(store))
    before = snapshot(deck)
    capsys.readouterr()

    code, output = run("import", "po", "sample.fr.po", "--library", "sample")
    assert code == 1
    assert changed_files(before, snapshot(deck)) == {"mossgate.fr.md"}
    assert "1 card updated, 2 entries refused" in output
    lines = Path("sample.fr.po").read_text("utf-8").splitlines()
    refused = [
        REFUSED.match(line)
        for line in capsys.readouterr().err.splitlines()
        if line.startswith("translator: refused ")
    ]
    assert len(refused) == 2 and all(refused), refused
    by_key = {}
    for match in refused:
        assert match is not None
        assert match["path"] == "sample.fr.po"
        # The line is the entry's msgctxt: a PO editor goes there.
        assert lines[int(match["line"]) - 1] == f'msgctxt "{match["key"]}"'
        by_key[match["key"]] = match["message"]
    assert set(by_key) == {"courier:text", "harbor-lord:name"}
    assert "MK201" in by_key["courier:text"]
    assert "breaks the card markup" in by_key["courier:text"]
    assert "one line" in by_key["harbor-lord:name"]


def test_entry_whose_english_changed_since_the_export_is_refused(
    pristine: Path, deck: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fresh(pristine, "sample.fr.po")
    edit(deck / "courier.en.md", "draws one card", "draws two cards")
    store, by_context = po_units("sample.fr.po")
    by_context["courier:text"].target = str(by_context["courier:text"].target).replace(
        "pioche une carte", "pioche deux cartes"
    )
    Path("sample.fr.po").write_bytes(bytes(store))
    before = snapshot(deck)
    capsys.readouterr()

    code, output = run("import", "po", "sample.fr.po", "--library", "sample", "--format", "json")
    assert code == 1
    assert snapshot(deck) == before
    report = json.loads(output)
    assert [r["entry"] for r in report["refused"]] == ["courier:text"]
    message = report["refused"][0]["message"]
    assert "changed since this file was exported" in message
    assert "export the file again" in message
    assert report["updated"] == []
    assert report["summary"]["refused"] == 1


def test_fuzzy_target_is_left_out_unless_imported_as_a_draft(pristine: Path, deck: Path) -> None:
    fresh(pristine, "sample.fr.po")
    store, by_context = po_units("sample.fr.po")
    by_context["mossgate:name"].target = "Porte moussue"
    by_context["mossgate:name"].markfuzzy(True)
    Path("sample.fr.po").write_bytes(bytes(store))
    before = snapshot(deck)

    code, output = run("import", "po", "sample.fr.po", "--library", "sample")
    assert code == 0, output
    assert snapshot(deck) == before
    assert "0 cards updated" in output
    assert "1 fuzzy left out (--fuzzy imports them as drafts)" in output
    assert card_state(load_card(deck, "mossgate"), "fr").state == "translated"

    code, output = run("import", "po", "sample.fr.po", "--library", "sample", "--fuzzy")
    assert code == 0, output
    assert "wrote sample/mossgate.fr.md: name" in output
    assert changed_files(before, snapshot(deck)) == {"mossgate.fr.md"}
    version = load_card(deck, "mossgate").translations["fr"]
    assert version.fields["name"] == "Porte moussue"
    assert version.fields["wip"] is True
    assert card_state(load_card(deck, "mossgate"), "fr").state == "draft"


def _fingerprint_of(text: str) -> str:
    found = re.search(r'^source: "(.*)"$', text, re.MULTILINE)
    assert found is not None
    return found[1]


def test_unfuzzied_stale_entry_confirms_the_card(git_deck: Path) -> None:
    edit(
        git_deck / "mossgate.en.md",
        "Your ***Gaian*** creatures in this ***city*** get",
        "Each of your ***Gaian*** creatures in this ***city*** gets",
    )
    git(git_deck.parent, "commit", "-q", "-a", "-m", "mossgate wording")
    card = load_card(git_deck, "mossgate")
    assert card_state(card, "fr").state == "stale"
    old_text = (git_deck / "mossgate.fr.md").read_text("utf-8")

    export("po", "fr", "sample.fr.po", "--no-tbx")
    store, by_context = po_units("sample.fr.po")
    assert [c for c, u in by_context.items() if u.isfuzzy()] == ["mossgate:text"]
    # Its flavour is the same as before: not fuzzy, so confirmed along with the text.
    assert not by_context["mossgate:flavour"].isfuzzy()
    by_context["mossgate:text"].markfuzzy(False)
    Path("sample.fr.po").write_bytes(bytes(store))

    code, output = run("import", "po", "sample.fr.po", "--library", "sample")
    assert "wrote sample/mossgate.fr.md: fingerprint (confirmed: " in output
    assert "1 card updated, 0 entries refused" in output
    assert code == 0, output
    card = load_card(git_deck, "mossgate")
    assert card_state(card, "fr").state == "translated"
    fingerprint = card.translations["fr"].fields["source"]
    assert changed_fields(fingerprint, card.source) == []
    # Only the fingerprint changed, in its text group only: the others, still right,
    # stay as they were written (four digits a group, before groups had eight).
    new_text = (git_deck / "mossgate.fr.md").read_text("utf-8")
    assert [line for line in new_text.splitlines() if line not in old_text.splitlines()] == [
        f'source: "{fingerprint}"'
    ]
    then, now = (_fingerprint_of(text).split("-") for text in (old_text, new_text))
    assert [a == b for a, b in zip(then, now, strict=True)] == [True, True, True, False, True]
    assert now[3] == source_fingerprint(card.source).split("-")[3]


def test_card_without_translation_exports_empty_targets_and_import_creates_it(deck: Path) -> None:
    original = units(load_card(deck, "courier").translations["fr"])
    (deck / "courier.fr.md").unlink()
    export("po", "fr", "sample.fr.po", "--no-tbx")
    store, by_context = po_units("sample.fr.po")
    courier = {c: u for c, u in by_context.items() if c.startswith("courier:")}
    assert sorted(courier) == ["courier:name", "courier:name2", "courier:subtype", "courier:text"]
    assert all(str(u.target) == "" and not u.isfuzzy() for u in courier.values())
    assert all(str(u.target) for c, u in by_context.items() if c not in courier)
    for context, unit in courier.items():
        unit.target = original[context.split(":")[1]]
    Path("sample.fr.po").write_bytes(bytes(store))
    before = snapshot(deck)

    code, output = run("import", "po", "sample.fr.po", "--library", "sample")
    assert "wrote sample/courier.fr.md (new file): name, name2, subtype, text" in output
    assert code == 0, output
    assert changed_files(before, snapshot(deck)) == {"courier.fr.md"}
    card = load_card(deck, "courier")
    version = card.translations["fr"]
    assert units(version) == original
    assert version.fields["source"] == source_fingerprint(card.source)
    assert not version.fields.get("wip")
    assert card_state(card, "fr").state == "translated"


def test_xliff_export_has_the_po_entries_and_imports_an_edit(
    pristine: Path, deck: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fresh(pristine, "sample.eo.po")
    fresh(pristine, "sample.eo.xlf")
    root = ET.parse("sample.eo.xlf").getroot()
    namespace = root.tag[1:].split("}")[0]
    assert namespace in XLIFF_NS
    trans_units = root.findall(f".//{{{namespace}}}trans-unit")
    po_store, by_context = po_units("sample.eo.po")
    assert [u.get("id") for u in trans_units] == [
        u.getcontext() for u in po_store.units if not u.isheader()
    ]
    assert root.find(f"{{{namespace}}}file").get("target-language") == "eo"
    store = xliff.xlifffile.parsefile("sample.eo.xlf")
    by_id = {u.xmlelement.get("id"): u for u in store.units}
    assert {k: (str(u.source), str(u.target)) for k, u in by_id.items()} == {
        k: (str(u.source), str(u.target)) for k, u in by_context.items()
    }
    assert not any(u.isfuzzy() for u in by_id.values())

    # An edit and a name on two lines: the one imported, the other refused.
    by_id["mossgate:name"].target = "Muska pordego"
    by_id["harbor-lord:name"].target = "Havena\nestro"
    Path("sample.eo.xlf").write_bytes(bytes(store))
    before = snapshot(deck)
    capsys.readouterr()
    code, output = run("import", "xliff", "sample.eo.xlf", "--library", "sample")
    assert code == 1, output
    assert "wrote sample/mossgate.eo.md: name" in output
    assert "1 card updated, 1 entry refused" in output
    after = snapshot(deck)
    assert changed_files(before, after) == {"mossgate.eo.md"}
    assert after["mossgate.eo.md"] == before["mossgate.eo.md"].replace(
        b"name: Muskopordo", b"name: Muska pordego"
    )
    err = capsys.readouterr().err
    refused = [
        REFUSED.match(line) for line in err.splitlines() if line.startswith("translator: refused ")
    ]
    assert len(refused) == 1
    match = refused[0]
    assert match is not None, err
    assert (match["path"], match["key"]) == ("sample.eo.xlf", "harbor-lord:name")
    # The line is the trans-unit's.
    lines = Path("sample.eo.xlf").read_text("utf-8").splitlines()
    assert 'id="harbor-lord:name"' in lines[int(match["line"]) - 1]


def test_dry_run_prints_a_diff_and_writes_nothing(pristine: Path, deck: Path) -> None:
    fresh(pristine, "sample.fr.po")
    store, by_context = po_units("sample.fr.po")
    by_context["mossgate:name"].target = "Porte moussue"
    Path("sample.fr.po").write_bytes(bytes(store))
    before = snapshot(deck)
    code, output = run("import", "po", "sample.fr.po", "--library", "sample", "--dry-run")
    assert code == 0, output
    assert snapshot(deck) == before
    assert "would write sample/mossgate.fr.md: name" in output
    assert "--- a/sample/mossgate.fr.md\n+++ b/sample/mossgate.fr.md\n" in output
    assert "\n-name: Porte des mousses\n+name: Porte moussue\n" in output

    # The same import without --dry-run writes it; in JSON.
    code, output = run("import", "po", "sample.fr.po", "--library", "sample", "--format", "json")
    assert code == 0
    assert changed_files(before, snapshot(deck)) == {"mossgate.fr.md"}
    report = json.loads(output)
    assert {"updated", "refused", "summary"} <= set(report)
    assert report["dry_run"] is False
    assert [(u["card"], u["path"], u["units"], u["created"]) for u in report["updated"]] == [
        ("mossgate", "sample/mossgate.fr.md", ["name"], False)
    ]
    assert report["refused"] == []
    assert report["summary"] == {
        "updated": 1,
        "refused": 0,
        "unchanged": len(by_context) - 1,
        "fuzzy_skipped": 0,
        "untranslated": 0,
    }


@pytest.mark.parametrize(
    ("kind", "name", "content", "says"),
    [
        ("po", "garbage.po", bytes(range(256)) * 8, "not valid UTF-8"),
        ("po", "text.po", b"hello world\nthis is no PO file\n", "not a valid PO file"),
        ("xliff", "broken.xlf", b"<xliff", "not a valid XLIFF file"),
        ("po", "sample.txt", b'msgid ""\nmsgstr ""\n', "not a PO (.po) or XLIFF"),
    ],
)
def test_unreadable_or_misnamed_file_is_an_input_error(
    pristine: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    kind: str,
    name: str,
    content: bytes,
    says: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    Path(name).write_bytes(content)
    deck = pristine / "sample"
    before = snapshot(deck)
    capsys.readouterr()
    code, output = run("import", kind, name, "--library", str(deck))
    assert code == 2
    err = capsys.readouterr().err
    assert err.startswith(f"translator: {name}")
    assert says in err
    assert "Traceback" not in err
    assert output == ""
    assert snapshot(deck) == before


# --------------------------------------------------------------------------------------
# Found by these tests once, fixed since


def test_importing_an_untouched_export_keeps_a_stale_card_stale(deck: Path) -> None:
    edit(deck / "courier.en.md", "name2: of the Iron Sky\n", "")
    assert card_state(load_card(deck, "courier"), "fr").state == "stale"
    export("po", "fr", "sample.fr.po", "--no-tbx")
    before = snapshot(deck)
    code, output = run("import", "po", "sample.fr.po", "--library", "sample")
    assert code == 0, output
    assert changed_files(before, snapshot(deck)) == set()  # nothing edited, nothing written
    assert card_state(load_card(deck, "courier"), "fr").state == "stale"


def test_a_new_translation_without_its_name_leaves_the_library_loadable(deck: Path) -> None:
    original = units(load_card(deck, "courier").translations["fr"])
    (deck / "courier.fr.md").unlink()
    export("po", "fr", "sample.fr.po", "--no-tbx")
    store, by_context = po_units("sample.fr.po")
    by_context["courier:text"].target = original["text"]  # the name left to do
    Path("sample.fr.po").write_bytes(bytes(store))
    run("import", "po", "sample.fr.po", "--library", "sample")
    # Whether the import refuses the entry or writes a draft with a name, the library
    # still loads and the next export works.
    _, problems = cards.load_library([str(deck)])
    assert problems == []
    code, _ = run("export", "po", "sample", "--lang", "fr", "-o", "again.po", "--no-tbx")
    assert code == 0


# --------------------------------------------------------------------------------------
# Drafts: the flavour in its own entry only


@pytest.fixture
def drafted(deck: Path) -> Path:
    """The copied deck with its French translations replaced by ``translator translate``
    drafts, exported as ``sample.fr.po``."""
    for path in deck.glob("*.fr.md"):
        path.unlink()
    code, output = run("translate", "sample", "--lang", "fr")
    assert code == 0, output
    export("po", "fr", "sample.fr.po", "--no-tbx")
    return deck


def paragraphs(text: str) -> list[str]:
    return [p.strip() for p in re.split(r"\n\s*\n", text) if p.strip()]


def test_a_drafts_flavour_is_only_in_its_flavour_entry(drafted: Path) -> None:
    _, by_context = po_units("sample.fr.po")
    english = expected_entries(drafted, "fr")
    flavours = [c for c in by_context if c.endswith(":flavour")]
    assert len(flavours) >= 8  # the sample's cards with a flavour
    for context, unit in by_context.items():
        if not context.endswith(":text"):
            continue
        # The text's target has the English text's paragraphs, never its flavour's.
        assert len(paragraphs(str(unit.target))) == len(paragraphs(str(unit.source))), context
        flavour = english.get(context.replace(":text", ":flavour"), ("", ""))[0]
        assert not flavour or flavour not in str(unit.target), context
    # A draft's flavour is still the English: an empty target to translate.
    assert all(str(by_context[c].target) == "" for c in flavours)
    pofilter = Path(sys.executable).with_name("pofilter")
    if not pofilter.is_file():
        pytest.skip("translate-toolkit's pofilter is not installed")
    done = subprocess.run(
        [str(pofilter), "--test=newlines", "sample.fr.po", "failures.po"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    failures = Path("failures.po")
    assert not failures.exists() or "msgctxt" not in failures.read_text("utf-8")


def test_a_draft_edited_in_place_prints_each_paragraph_once(drafted: Path) -> None:
    store, by_context = po_units("sample.fr.po")
    text, flavour = by_context["restless-bones:text"], by_context["restless-bones:flavour"]
    text.target = str(text.target).replace(
        "*When I die, put an Undead with casting cost 4 or less from your hand into "
        "your army marked.*",
        "*Quand je meurs, mets un Mort-vivant de coût 4 ou moins depuis ta main dans "
        "ton armée (engagé).*",
    )
    text.markfuzzy(False)
    flavour.target = "*« La mort n’est qu’une promotion. »*"
    Path("sample.fr.po").write_bytes(bytes(store))

    _, output = run("import", "po", "sample.fr.po", "--library", "sample")
    assert "wrote sample/restless-bones.fr.md: text, flavour" in output
    body = load_card(drafted, "restless-bones").translations["fr"].body
    assert paragraphs(body) == [
        "***Évolution Mort-vivant 4***\\\n*Quand je meurs, mets un Mort-vivant de coût 4 ou "
        "moins depuis ta main dans ton armée (engagé).*",
        "*« La mort n’est qu’une promotion. »*",
    ]
    assert "promotion" not in paragraphs(body)[0]
    # Exported again, the entries are what was imported.
    export("po", "fr", "again.po", "--no-tbx")
    _, again = po_units("again.po")
    assert str(again["restless-bones:flavour"].target) == "*« La mort n’est qu’une promotion. »*"
    assert paragraphs(str(again["restless-bones:text"].target)) == paragraphs(body)[:1]


def test_a_text_entry_repeating_the_flavour_is_refused(
    drafted: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """What an export made before the fix gave: the draft's flavour in the :text target
    too, edited in place, with the :flavour entry filled as well."""
    store, by_context = po_units("sample.fr.po")
    french = "*« La mort n’est qu’une promotion. »*"
    text, flavour = by_context["restless-bones:text"], by_context["restless-bones:flavour"]
    text.target = f"{text.target}\n\n{french}"
    text.markfuzzy(False)
    flavour.target = french
    # Another card: its :text target still ends with the English flavour, the :flavour
    # entry left empty (the draft's flavour is that English).
    other = by_context["sandhorn-archer:text"]
    other.target = f"{other.target}\n\n{by_context['sandhorn-archer:flavour'].source}"
    other.markfuzzy(False)
    Path("sample.fr.po").write_bytes(bytes(store))
    before = snapshot(drafted)
    capsys.readouterr()

    code, output = run("import", "po", "sample.fr.po", "--library", "sample")
    assert code == 1, output
    lines = Path("sample.fr.po").read_text("utf-8").splitlines()
    flavour_line = lines.index('msgctxt "restless-bones:flavour"') + 1
    refused = {}
    for line in capsys.readouterr().err.splitlines():
        match = REFUSED.match(line)
        if match is not None:
            assert lines[int(match["line"]) - 1] == f'msgctxt "{match["key"]}"'
            refused[match["key"]] = match["message"]
    assert set(refused) == {"restless-bones:text", "sandhorn-archer:text"}
    message = refused["restless-bones:text"]
    assert f"the :flavour entry on line {flavour_line}" in message
    assert "print it twice" in message and "keep it in the :flavour entry only" in message
    assert "the card's flavour text" in refused["sandhorn-archer:text"]
    # The flavour was imported, once; the refused text left as it was.
    assert changed_files(before, snapshot(drafted)) == {"restless-bones.fr.md"}
    body = load_card(drafted, "restless-bones").translations["fr"].body
    assert body.count("promotion") == 1 and french in body


def test_notes_give_every_rendering_of_a_word(pristine: Path) -> None:
    _, by_context = po_units(pristine / "sample.fr.po")
    notes = by_context["grave-lantern:text"].getnotes("developer").splitlines()
    # Preferred ones in the glossary's order (the context chooses), none dropped.
    assert "glossary: gets → perd / gagne / reçoit" in notes


# --------------------------------------------------------------------------------------
# The header's plural forms


@pytest.mark.parametrize(
    ("name", "plural_forms"),
    [
        ("sample.fr.po", "nplurals=2; plural=(n > 1);"),
        ("sample.eo.po", "nplurals=2; plural=(n != 1);"),
    ],
)
def test_plural_forms_are_gettexts_and_pass_msgfmt(
    pristine: Path, name: str, plural_forms: str
) -> None:
    store, _ = po_units(pristine / name)
    assert store.parseheader()["Plural-Forms"] == plural_forms
    assert f'"Plural-Forms: {plural_forms}\\n"' in (pristine / name).read_text("utf-8")
    if shutil.which("msgfmt") is None:
        pytest.skip("GNU gettext's msgfmt is not installed (apt-get install gettext)")
    done = subprocess.run(
        ["msgfmt", "--check", "-o", "/dev/null", str(pristine / name)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr


def test_plural_forms_come_from_the_language_data() -> None:
    from translator import languages
    from translator.languages.data import DataFile
    from translator.textio import InputError

    assert languages.get("fr").plural_forms == "nplurals=2; plural=(n > 1);"
    assert languages.get("fr_CA").plural_forms == "nplurals=2; plural=(n > 1);"
    broken = languages.Language("xx")
    broken.__dict__["data"] = DataFile(
        Path("glossaries/xx/language.yaml"), {"plural-forms": "two"}, None
    )
    with pytest.raises(InputError) as error:
        _ = broken.plural_forms
    assert "glossaries/xx/language.yaml" in str(error.value)
    assert "not a gettext Plural-Forms value" in str(error.value)


# --------------------------------------------------------------------------------------
# Small things


def test_import_lists_the_cards_whose_review_it_removed(
    pristine: Path, deck: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, output = run("review", "courier", "mossgate", "--lang", "fr", "--library", "sample")
    assert code == 0, output
    assert "reviewed:" in (deck / "mossgate.fr.md").read_text("utf-8")
    fresh(pristine, "sample.fr.po")
    store, by_context = po_units("sample.fr.po")
    by_context["mossgate:name"].target = "Porte moussue"
    by_context["harbor-lord:name"].target = "Seigneur portuaire"  # never reviewed
    Path("sample.fr.po").write_bytes(bytes(store))

    code, output = run("import", "po", "sample.fr.po", "--library", "sample", "--dry-run")
    assert code == 0, output
    assert "would remove the review mark of 1 card whose text changed" in output
    code, output = run("import", "po", "sample.fr.po", "--library", "sample", "--format", "json")
    assert code == 0, output
    report = json.loads(output)
    assert report["review_removed"] == ["mossgate"]
    assert {u["card"]: u["review_removed"] for u in report["updated"]} == {
        "mossgate": True,
        "harbor-lord": False,
    }
    assert "reviewed:" not in (deck / "mossgate.fr.md").read_text("utf-8")
    assert "reviewed:" in (deck / "courier.fr.md").read_text("utf-8")


def test_translate_dry_run_says_what_would_be_created(deck: Path) -> None:
    (deck / "courier.fr.md").unlink()
    (deck / "mossgate.fr.md").unlink()
    code, output = run("translate", "sample", "--lang", "fr", "--dry-run")
    assert code == 0, output
    assert "2 drafts would be created in fr;" in output
    assert "would create in" not in output
