"""Fuzzing every reader through the command line: valid files of a small copy of the
sample, mutated (characters deleted, inserted, replaced from a pool rich in YAML, JSON,
PO and XML syntax and control characters; values replaced by scalars of other types,
nested, keys duplicated, files truncated), then read by ``translator.cli.main``
in-process.  Whatever the input: no exception escapes, the exit code is 0, 1 or 2, and
an exit code 2 comes with a message (on stderr; the report of ``cards check`` and
``glossary check`` is their output)
whose first line names a file, the fuzzed file being named.  Derandomized: the same
examples on every run."""

from __future__ import annotations

import contextlib
import copy
import io
import json
import os
import re
import shutil
import traceback
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from tests.conftest import ROOT
from tests.lintkit import SAMPLE
from translator.cli import main

SLUGS = ("courier", "mossgate", "soul-drain")  # a creature, a city, a magic
SECRET = "TOP-SECRET-FUZZ"


def fuzz_settings(examples: int) -> settings:
    """Derandomized (the same examples on every run, no example database); no shrinking:
    a failing example is reported as found, so that a failure costs no more time than a
    pass (shrinking a file through the command line takes minutes)."""
    return settings(
        max_examples=examples,
        deadline=None,
        derandomize=True,
        database=None,
        phases=(Phase.explicit, Phase.generate),
        suppress_health_check=[
            HealthCheck.function_scoped_fixture,
            HealthCheck.too_slow,
            HealthCheck.filter_too_much,
        ],
    )


# --------------------------------------------------------------------------------------
# Running the command line


class Escaped(AssertionError):
    pass


def cli(*args: str) -> tuple[int, str, str]:
    """``main(args)`` in-process: exit code, standard output, standard error."""
    out, err, stdout = io.StringIO(), io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(stdout):
            code = main(list(args), out)
    except KeyboardInterrupt:
        raise
    except SystemExit as error:  # argparse's usage errors
        code = error.code if isinstance(error.code, int) else 2
    except BaseException as error:  # the test's very subject
        tb = "".join(traceback.format_exception(error))
        raise Escaped(
            f"{type(error).__name__} escaped main({list(args)}): {str(error)[:300]}\n{tb[-3000:]}"
        ) from None
    return code, out.getvalue() + stdout.getvalue(), err.getvalue()


CHECKS = {("cards", "check"), ("glossary", "check")}
FILE_NAME = re.compile(r"[\w./-]*\.(md|yaml|yml|json|po|xlf|xliff|toml)\b|/dev/")
NOTICE = re.compile(r"^translator: no \w+ Hunspell dictionary")


def check(args: tuple[str, ...], fuzzed: Path, *also: Path) -> int:
    """Run the command; assert what holds for any input.  ``also``: other input files a
    message may name instead (a JSON translation and its English source)."""
    code, out, err = cli(*args)
    shown = (
        f"translator {' '.join(args)} -> exit {code}\n--- stdout ---\n{out[-1500:]}\n"
        f"--- stderr ---\n{err[-2500:]}"
    )
    if os.environ.get("FUZZ_TRACE"):  # to see what the examples do: FUZZ_TRACE=1 pytest -s
        print(
            f"exit {code}: {' '.join(args)[:60]} <- {fuzzed.name}: "
            f"{(err or out).strip().splitlines()[:1]}"
        )
    assert code in (0, 1, 2), shown
    assert "Traceback" not in err, shown
    if code == 2:
        # the report of a check command is its output
        diagnostics = out + err if args[:2] in CHECKS else err
        lines = [
            line for line in diagnostics.splitlines() if line.strip() and not NOTICE.match(line)
        ]
        assert lines, f"exit code 2 and no message\n{shown}"
        assert FILE_NAME.search(lines[0]), f"the first line names no file\n{shown}"
        names = {fuzzed.name, *(p.name for p in also)}
        assert any(name in diagnostics for name in names), (
            f"exit code 2, and no message names {sorted(names)}\n{shown}"
        )
    return code


# --------------------------------------------------------------------------------------
# The world: a small library and its exports, reset after each example


class World:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.snapshot: dict[Path, bytes] = {}
        self.dirs: set[Path] = set()

    def freeze(self) -> None:
        self.snapshot = {p: p.read_bytes() for p in self.root.rglob("*") if p.is_file()}
        self.dirs = {p for p in self.root.rglob("*") if p.is_dir()}

    def reset(self) -> None:
        """Every file as it was frozen; files and directories made since removed."""
        for path in sorted(self.root.rglob("*"), reverse=True):
            if path.is_symlink() or path.is_file():
                if path not in self.snapshot:
                    path.unlink()
            elif path.is_dir() and path not in self.dirs:
                shutil.rmtree(path)
        for path, data in self.snapshot.items():
            if not path.exists() or path.read_bytes() != data:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(data)

    def text(self, relative: str) -> str:
        return self.snapshot[self.root / relative].decode("utf-8")


VALID_GLOSSARY = """language: fr
source: "fuzz test"
entries:
  - id: saltmere-town
    en: Saltmere town
    section: other
    pos: noun
    terms:
      - term: ville de Salmère
        status: preferred
        gender: f
      - term: bourg de Salmère
        status: deprecated
        replaced_by: ville de Salmère
        date: 2021-03-04
        evidence: "a test"
abilities:
  - id: tide-call
    en: Tide Call
    name: Appel des marées
    params: [x]
    template: Appel des marées x
    reminder: "Pioche x cartes."
"""

VALID_TOML = """[lint]
select = ["MK", "TR", "GL"]
ignore = ["TR502"]
fail-on = "error"
allow-english = ["Saltmere"]
glossary = ["cards"]
french-spaces = "either"
apostrophe = "’"
spelling = false
"""


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("fuzz")
    deck = root / "cards" / "mini"
    (deck / "art").mkdir(parents=True)
    for slug in SLUGS:
        for lang in ("en", "fr", "eo"):
            shutil.copy(SAMPLE / f"{slug}.{lang}.md", deck)
        shutil.copy(SAMPLE / "art" / f"{slug}.jpg", deck / "art")
    (deck / "deck.yaml").write_text(
        "# a small deck\nname: Mini\ncreator: fuzz\ncards:\n  courier: 2\n  mossgate: 1\n"
        "  soul-drain: 2\n",
        encoding="utf-8",
    )
    (root / "cards" / "glossary" / "fr").mkdir(parents=True)
    (root / "cards" / "glossary" / "fr" / "extra.yaml").write_text(VALID_GLOSSARY, "utf-8")
    for directory in ("json", "po", "xliff", "theme", "imp/new"):
        (root / directory).mkdir(parents=True)
    shutil.copy(ROOT / "templates" / "default" / "theme.yaml", root / "theme")
    for directory in (root, root / "xliff"):  # what an external entity would read
        (directory / "secret.txt").write_text(SECRET, encoding="utf-8")
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(root)
        patch.setenv("NO_COLOR", "1")
        for lang in ("en", "fr"):
            code, _, err = cli(
                "export", "arcmage", "cards/mini", "--lang", lang, "-o", f"json/deck.{lang}.json"
            )
            assert code == 0, err
        document = json.loads((root / "json" / "deck.en.json").read_text("utf-8"))
        for entry in document["deckCards"]:
            entry["card"].get("translator", {}).pop("artwork", None)
        (root / "json" / "deck.en.json").write_text(json.dumps(document, indent=2), "utf-8")
        for output in ("json/deck.en.txt", "json/deck.fr.txt"):
            (root / output).unlink(missing_ok=True)
        code, _, err = cli(
            "export", "po", "cards/mini", "--lang", "fr", "-o", "po/mini.fr.po", "--no-tbx"
        )
        assert code == 0, err
        code, _, err = cli(
            "export", "xliff", "cards/mini", "--lang", "eo", "-o", "xliff/mini.eo.xlf", "--no-tbx"
        )
        assert code == 0, err
        world = World(root)
        world.freeze()
        yield world


@pytest.fixture
def fresh(world: World) -> World:
    world.reset()
    yield world
    world.reset()


# --------------------------------------------------------------------------------------
# Mutations

#: Snippets of syntax and trouble: YAML, JSON, PO, XML, TOML, card markup, control and
#: invisible characters, numbers of every kind.
POOL = [
    ":",
    ": ",
    "-",
    "- ",
    "[",
    "]",
    "{",
    "}",
    ",",
    "&a ",
    "*a",
    "*a ",
    "!!",
    "!!str ",
    "!!python/object/apply:os.system ['true'] ",
    "!!binary ",
    "|",
    "|-\n",
    ">",
    "'",
    '"',
    "#",
    "%YAML 1.1\n",
    "%TAG ! tag:x,2000:\n",
    "---\n",
    "---",
    "...\n",
    "? ",
    "<<: ",
    "\\",
    "\\n",
    "\\u0000",
    "\\ud800",
    "\\x1b",
    "\\e",
    "\n",
    "\r\n",
    "\r",
    "\t",
    " ",
    "\x00",
    "\x1b",
    "\x1b[31m",
    "\x07",
    "\x08",
    "\x7f",
    "\x85",
    "\ufeff",
    "\u202e",
    "\u2028",
    "\u2029",
    "\u200b",
    "\u00a0",
    "\ufffd",
    "é",
    "«",
    "»",
    "’",
    "msgid ",
    "msgstr ",
    "msgctxt ",
    "msgid_plural ",
    "msgstr[0] ",
    "#, fuzzy\n",
    "#| msgid ",
    "#~ ",
    '""\n',
    '"\n"',
    "<",
    ">",
    "&",
    "&amp;",
    "&#0;",
    "&#x1b;",
    "<![CDATA[",
    "]]>",
    "<!--",
    "-->",
    "<target>",
    "</target>",
    "<source/>",
    "<!DOCTYPE x [<!ENTITY e 'e'>]>",
    "&e;",
    "=",
    " = ",
    "[lint]\n",
    "[[lint]]\n",
    "[tool.translator.lint]\n",
    "'''",
    '"""',
    "NaN",
    "Infinity",
    "-Infinity",
    "nan",
    "inf",
    "1e999",
    "-0",
    "0x1F",
    "0o17",
    "1_000",
    "null",
    "true",
    "false",
    "~",
    "yes",
    "9" * 5000,
    "2026-13-45",
    "2026-11-30",
    "X",
    "-1",
    "+1/+1",
    "***",
    "**",
    "*",
    ":m:",
    ":g1:",
    ":G1:",
    ":",
    "\\\n",
    "# ",
    "[x](http://example.org)",
    "<script>",
    "../",
    "/etc/passwd",
    "%s",
    "{0}",
    "${x}",
]
RAW_BYTES = [b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xef\xbb\xbf", b"\xc0\x80", b"\xf4\x90\x80\x80"]

snippets = st.one_of(st.sampled_from(POOL), st.text(max_size=12))
LINE_OPS = ("duplicate-line", "delete-line", "swap-lines", "insert-line")


@st.composite
def text_mutations(draw: st.DrawFn, base: str) -> bytes:
    """``base`` with 1-4 random edits, as bytes (sometimes not UTF-8)."""
    text = base
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(
            st.sampled_from(
                ("insert", "insert", "delete", "replace", "replace", "truncate", *LINE_OPS)
            )
        )
        pos = draw(st.integers(0, len(text)))
        if kind == "insert":
            text = text[:pos] + draw(snippets) + text[pos:]
        elif kind == "delete":
            text = text[:pos] + text[pos + draw(st.integers(1, 30)) :]
        elif kind == "replace":
            text = text[:pos] + draw(snippets) + text[pos + draw(st.integers(1, 6)) :]
        elif kind == "truncate":
            text = text[:pos]
        else:
            lines = text.split("\n")
            i = draw(st.integers(0, len(lines) - 1))
            if kind == "duplicate-line":
                lines.insert(i, lines[i])
            elif kind == "delete-line":
                del lines[i]
            elif kind == "swap-lines":
                j = draw(st.integers(0, len(lines) - 1))
                lines[i], lines[j] = lines[j], lines[i]
            else:
                lines.insert(
                    i, draw(snippets) + draw(st.sampled_from(["", ": ", " = "])) + draw(snippets)
                )
            text = "\n".join(lines)
    data = text.encode("utf-8", "surrogatepass")
    if draw(st.integers(0, 9)) == 0:
        pos = draw(st.integers(0, len(data)))
        data = data[:pos] + draw(st.sampled_from(RAW_BYTES)) + data[pos:]
    return data


scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**6), 10**6),
    st.integers(2**63, 10**40),
    st.floats(),
    st.text(max_size=20),
    st.sampled_from(
        [
            "X",
            "",
            "Gaian",
            "Creature",
            "City",
            "Magic",
            "Draft",
            "Final",
            "None",
            "-1",
            "1.5",
            "4",
            "fr",
            "en",
            "TR101",
            "courier",
            "Courier",
        ]
    ),
    st.dates(),
)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=5,
)
#: Raw YAML put in place of a value (what safe_dump would never write).
RAW_YAML = [
    "9" * 5000,
    ".nan",
    "-.inf",
    "0x1F",
    "0o17",
    "1_000",
    "2026-13-45",
    "*nope",
    "&x 1",
    "!!binary AAAA",
    "!!python/object/apply:os.system ['true']",
    "!!set {a, b}",
    "[" * 200 + "]" * 200,
    "{a: [b, {c: d}]}",
    "'unterminated",
    '"\\e[31m"',
    '"\\0"',
    '"\\u202E"',
    "|\n  block\n  text",
    "~",
    "yes",
    "NO",
    "1e400",
    "-0",
    "'  '",
    '""',
    "? complex\n: key",
    "[*a, &a 1]",
    "<<: {a: 1}",
    "- - -",
    "\t1",
]
RAW_JSON = [
    "NaN",
    "Infinity",
    "-Infinity",
    "1e999",
    "9" * 5000,
    "-0",
    "[" * 300 + "]" * 300,
    '"\\u0000"',
    '"\\ud800"',
    '"\\u001b[31m"',
    "01",
    "0x10",
    "'single'",
    "true",
    "null",
    "{}",
    "[]",
    '""',
    '"' + "a" * 70000 + '"',
    '{"a": 1, "a": 2}',
    "1.0",
    "-1",
    "2.5e-3",
    '"²"',
    '"٣"',
    '"\\u202e"',
]


def node_paths(data: object, path: tuple = ()) -> list[tuple]:
    """Every path to a value in nested dicts and lists (the root excluded)."""
    found = []
    if isinstance(data, dict):
        items = list(data.items())
    elif isinstance(data, list):
        items = list(enumerate(data))
    else:
        return found
    for key, value in items:
        found.append((*path, key))
        found.extend(node_paths(value, (*path, key)))
    return found


def get(data: object, path: tuple) -> object:
    for key in path:
        data = data[key]  # type: ignore[index]
    return data


SENTINEL = "__FUZZ_RAW__"


@st.composite
def structure_mutations(draw: st.DrawFn, data: object, dump, raws: list[str]) -> tuple:
    """``data`` (parsed YAML or JSON) with one value changed: replaced by a value of
    another type, nested, deleted, a key added, or a raw text put in its place.
    Returns (the new data, the raw text to put for SENTINEL, or None)."""
    data = copy.deepcopy(data)
    paths = node_paths(data)
    if not paths:
        return data, None
    path = draw(st.sampled_from(paths))
    parent, key = get(data, path[:-1]), path[-1]
    kind = draw(st.sampled_from(("replace", "replace", "nest", "delete", "add", "raw", "raw")))
    raw = None
    if kind == "replace":
        parent[key] = draw(values)
    elif kind == "nest":
        value = parent[key]
        for _ in range(draw(st.integers(1, 30))):
            value = draw(st.sampled_from([[value], {"a": value}]))
        parent[key] = value
    elif kind == "delete":
        del parent[key]
    elif kind == "add" and isinstance(parent, dict):
        parent[
            draw(
                st.sampled_from(
                    [
                        *map(str, parent),
                        "lint-ignore",
                        "wip",
                        "source",
                        "guid",
                        "x",
                        "info",
                        "name2",
                    ]
                )
            )
        ] = draw(values)
    elif kind == "add":
        parent.append(draw(values))
    else:
        parent[key] = SENTINEL
        raw = draw(st.sampled_from(raws))
    return data, raw


def render_yaml(data: object, raw: str | None) -> str:
    try:
        text = yaml.safe_dump(data, allow_unicode=True, sort_keys=False)
    except (ValueError, yaml.YAMLError):  # an int too long for str() in Python 3.11
        text = "x: 1\n"
    return text if raw is None else text.replace(SENTINEL, raw, 1)


def render_json(data: object, raw: str | None) -> str:
    try:
        text = json.dumps(data, indent=2, ensure_ascii=False, default=str)
    except ValueError:
        text = "{}"
    return text if raw is None else text.replace(f'"{SENTINEL}"', raw, 1)


@st.composite
def yaml_file_mutations(draw: st.DrawFn, base: str) -> bytes:
    """A YAML file changed structurally (then maybe edited as text too), or as text."""
    if draw(st.booleans()):
        return draw(text_mutations(base))
    data, raw = draw(structure_mutations(yaml.safe_load(base), render_yaml, RAW_YAML))
    text = render_yaml(data, raw)
    if draw(st.booleans()):
        return draw(text_mutations(text))
    return text.encode("utf-8", "surrogatepass")


@st.composite
def card_file_mutations(draw: st.DrawFn, base: str) -> bytes:
    """A card file: its front matter changed structurally, its body or the whole file
    edited as text."""
    _, front, body = base.split("---\n", 2)
    kind = draw(st.sampled_from(("text", "front", "body")))
    if kind == "text":
        return draw(text_mutations(base))
    if kind == "body":
        return b"---\n" + front.encode() + b"---\n" + draw(text_mutations(body))
    data, raw = draw(structure_mutations(yaml.safe_load(front), render_yaml, RAW_YAML))
    text = "---\n" + render_yaml(data, raw) + "---\n" + body
    if draw(st.integers(0, 3)) == 0:
        return draw(text_mutations(text))
    return text.encode("utf-8", "surrogatepass")


@st.composite
def json_file_mutations(draw: st.DrawFn, base: str) -> bytes:
    if draw(st.integers(0, 2)) == 0:
        return draw(text_mutations(base))
    data, raw = draw(structure_mutations(json.loads(base), render_json, RAW_JSON))
    text = render_json(data, raw)
    if draw(st.integers(0, 3)) == 0:
        return draw(text_mutations(text))
    return text.encode("utf-8", "surrogatepass")


def po_quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


PO_HEADER_VALUES = [
    "fr",
    "FR",
    "fr_CA",
    "eo",
    "en",
    "",
    "xx",
    "../fr",
    "mini",
    "sample",
    "../../etc",
    "nope",
    "charset=latin-1",
    "charset=utf-16",
    "nplurals=x;",
]


@st.composite
def po_mutations(draw: st.DrawFn, base: str) -> bytes:
    """A PO file: an entry's msgstr, msgctxt or flags changed, an entry duplicated or
    deleted, a header field changed; or edited as text."""
    kind = draw(
        st.sampled_from(
            ("text", "msgstr", "msgstr", "msgctxt", "fuzzy", "duplicate", "delete", "header")
        )
    )
    if kind == "text":
        return draw(text_mutations(base))
    header, *entries = base.rstrip("\n").split("\n\n")
    if kind == "header":
        field = draw(
            st.sampled_from(["Language", "X-Translator-Deck", "Content-Type", "Plural-Forms"])
        )
        value = draw(st.one_of(st.sampled_from(PO_HEADER_VALUES), st.text(max_size=10)))
        value = value.replace("\\", "").replace('"', "").replace("\n", "")
        header = re.sub(rf'"{field}: [^"]*\\n"', f'"{field}: {value}\\\\n"', header)
    else:
        i = draw(st.integers(0, len(entries) - 1))
        entry = entries[i]
        if kind == "msgstr":
            new = draw(st.one_of(st.text(max_size=40), st.sampled_from(POOL), st.just("a" * 70000)))
            entry = re.sub(
                r'msgstr ("(?:[^"\\]|\\.)*"\n?)+',
                lambda m: "msgstr " + po_quote(new) + "\n",
                entry + "\n",
            ).rstrip("\n")
        elif kind == "msgctxt":
            new = draw(
                st.one_of(
                    st.text(max_size=20),
                    st.sampled_from(
                        [
                            "courier:name",
                            "courier:bogus",
                            "nope:name",
                            ":",
                            "",
                            "../x:name",
                            "courier:name2",
                            "mossgate:flavour",
                            "soul-drain:info",
                        ]
                    ),
                )
            )
            entry = re.sub(r'msgctxt "[^"]*"', lambda m: "msgctxt " + po_quote(new), entry)
        elif kind == "fuzzy":
            entry = "#, fuzzy\n" + entry
        elif kind == "duplicate":
            entries.insert(i, entry)
        if kind == "delete":
            del entries[i]
        else:
            entries[i] = entry
    return ("\n\n".join([header, *entries]) + "\n").encode("utf-8", "surrogatepass")


def xml_escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


@st.composite
def xliff_mutations(draw: st.DrawFn, base: str) -> bytes:
    kind = draw(
        st.sampled_from(("text", "target", "target", "id", "attribute", "entity", "duplicate"))
    )
    if kind == "text":
        return draw(text_mutations(base))
    text = base
    if kind == "target":
        new = draw(st.one_of(st.text(max_size=40), st.sampled_from(POOL)))
        if draw(st.booleans()):
            new = xml_escape(new)
        targets = list(re.finditer(r"(<target[^>]*>)(.*?)(</target>)", text, re.S))
        m = draw(st.sampled_from(targets))
        text = text[: m.start(2)] + new + text[m.end(2) :]
    elif kind == "id":
        new = draw(
            st.one_of(
                st.text(max_size=15),
                st.sampled_from(["courier:name", "courier:bogus", "nope:text", "", "../x:name"]),
            )
        )
        ids = list(re.finditer(r'id="([^"]*)"', text))
        m = draw(st.sampled_from(ids))
        text = text[: m.start(1)] + xml_escape(new).replace('"', "&quot;") + text[m.end(1) :]
    elif kind == "attribute":
        attribute = draw(
            st.sampled_from(["target-language", "source-language", "approved", "original", "state"])
        )
        value = draw(
            st.sampled_from(
                ["fr", "EO", "", "x", "no", "yes", "../..", "sample", "needs-translation"]
            )
        )
        text = re.sub(rf'{attribute}="[^"]*"', f'{attribute}="{value}"', text, count=1)
    elif kind == "entity":
        entity = draw(
            st.sampled_from(
                [
                    '<!DOCTYPE xliff [<!ENTITY e "x">]>',
                    '<!DOCTYPE xliff [<!ENTITY e SYSTEM "secret.txt">]>',
                    '<!DOCTYPE xliff [<!ENTITY a "aaaaaaaaaa">'
                    '<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">'
                    '<!ENTITY e "&b;&b;&b;&b;&b;&b;&b;&b;">]>',
                ]
            )
        )
        head, _, rest = text.partition("\n")
        text = f"{head}\n{entity}\n" + rest.replace(
            '<target state="translated">', '<target state="translated">&e;', 1
        )
    else:
        units = list(re.finditer(r"<trans-unit.*?</trans-unit>", text, re.S))
        m = draw(st.sampled_from(units))
        text = text[: m.end()] + text[m.start() :]
    return text.encode("utf-8", "surrogatepass")


RAW_TOML = [
    "5",
    '"x"',
    '[1, "a"]',
    "{a = 1}",
    "true",
    "1979-05-27T07:32:00Z",
    "inf",
    "nan",
    "9" * 5000,
    "[" * 300 + "]" * 300,
    "'''multi\nline'''",
    '"\\u0000"',
    '"\\e"',
    '["does-not-exist"]',
    '["/"]',
    '["../../.."]',
    '"narrow"',
    '"’"',
    "'",
    "[[]]",
    '"error"',
    '"info"',
    '["TR101", 5]',
    '["ZZ999"]',
    "-0",
    "0x10",
    "1e999",
]


@st.composite
def toml_mutations(draw: st.DrawFn, base: str) -> bytes:
    if draw(st.booleans()):
        return draw(text_mutations(base))
    lines = base.rstrip("\n").split("\n")
    i = draw(st.integers(1, len(lines) - 1))
    key = lines[i].split(" = ")[0]
    kind = draw(st.sampled_from(("value", "value", "key", "duplicate", "table")))
    if kind == "value":
        lines[i] = f"{key} = {draw(st.sampled_from(RAW_TOML))}"
    elif kind == "key":
        name = draw(st.sampled_from(["selekt", "lint", "x", "", '"a b"', "glossary"]))
        lines[i] = f"{name} = " + lines[i].split(" = ", 1)[1]
    elif kind == "duplicate":
        lines.insert(i, lines[i])
    else:
        lines.insert(i, draw(st.sampled_from(["[lint.x]", "[[lint]]", "[lint]", "[other]"])))
    return ("\n".join(lines) + "\n").encode("utf-8")


# --------------------------------------------------------------------------------------
# The readers


def write(path: Path, data: bytes) -> None:
    path.write_bytes(data)


CARD_FILES = [f"cards/mini/{slug}.{lang}.md" for slug in SLUGS for lang in ("en", "fr")]
CARD_COMMANDS = [
    ("cards", "check", "cards"),
    ("cards", "list", "cards"),
    ("cards", "show", "courier"),
    ("status", "cards"),
    ("lint", "{file}"),
    ("lint", "cards/mini/courier.fr.md", "--select", "TR,GL,LN"),
]


@pytest.mark.slow
def test_baselines(fresh: World) -> None:
    """Every command below, on the unchanged files, is no input error."""
    for command in [
        *CARD_COMMANDS,
        *DECK_COMMANDS,
        *GLOSSARY_COMMANDS,
        *PO_COMMANDS,
        *XLIFF_COMMANDS,
        JSON_IMPORT,
        JSON_LINT,
        TOML_COMMAND,
    ]:
        args = tuple(a.replace("{file}", "cards/mini/courier.fr.md") for a in command)
        code, out, err = cli(*args)
        assert code in (0, 1), (args, code, out[-800:], err[-800:])
        fresh.reset()


@fuzz_settings(150)
@given(data=st.data())
@pytest.mark.slow
def test_fuzz_card_files(fresh: World, data: st.DataObject) -> None:
    relative = data.draw(st.sampled_from(CARD_FILES), label="file")
    path = fresh.root / relative
    write(path, data.draw(card_file_mutations(fresh.text(relative)), label="content"))
    command = data.draw(st.sampled_from(CARD_COMMANDS), label="command")
    try:
        check(tuple(a.replace("{file}", relative) for a in command), path)
    finally:
        fresh.reset()


DECK_COMMANDS = [
    ("cards", "check", "cards"),
    ("cards", "list", "cards"),
    ("status", "cards"),
    ("lint", "cards/mini/courier.fr.md"),
    ("export", "arcmage", "cards/mini", "--lang", "fr", "-o", "out.json"),
]


@fuzz_settings(80)
@given(data=st.data())
@pytest.mark.slow
def test_fuzz_deck_yaml(fresh: World, data: st.DataObject) -> None:
    path = fresh.root / "cards/mini/deck.yaml"
    write(path, data.draw(yaml_file_mutations(fresh.text("cards/mini/deck.yaml")), label="content"))
    try:
        check(data.draw(st.sampled_from(DECK_COMMANDS), label="command"), path)
    finally:
        fresh.reset()


GLOSSARY_COMMANDS = [
    ("glossary", "check", "--library", "cards"),
    ("lint", "cards"),
    ("glossary", "lookup", "Saltmere town", "--lang", "fr", "--library", "cards"),
]


@fuzz_settings(80)
@given(data=st.data())
@pytest.mark.slow
def test_fuzz_glossary(fresh: World, data: st.DataObject) -> None:
    relative = "cards/glossary/fr/extra.yaml"
    path = fresh.root / relative
    write(path, data.draw(yaml_file_mutations(fresh.text(relative)), label="content"))
    try:
        check(data.draw(st.sampled_from(GLOSSARY_COMMANDS), label="command"), path)
    finally:
        fresh.reset()


JSON_IMPORT = ("import", "arcmage", "json/deck.en.json", "json/deck.fr.json", "--into", "imp/new")
JSON_LINT = ("lint", "json/deck.fr.json", "--source", "json/deck.en.json")


@fuzz_settings(100)
@given(data=st.data())
@pytest.mark.slow
def test_fuzz_aminduna_import(fresh: World, data: st.DataObject) -> None:
    lang = data.draw(st.sampled_from(["en", "fr"]), label="file")
    path = fresh.root / f"json/deck.{lang}.json"
    write(
        path, data.draw(json_file_mutations(fresh.text(f"json/deck.{lang}.json")), label="content")
    )
    try:
        code = check(JSON_IMPORT, path, *(fresh.root / "json").glob("deck.*.json"))
        if code == 2:
            assert not any((fresh.root / "imp" / "new").iterdir()), "a failed import wrote files"
    finally:
        fresh.reset()


@fuzz_settings(60)
@given(data=st.data())
@pytest.mark.slow
def test_fuzz_aminduna_lint(fresh: World, data: st.DataObject) -> None:
    lang = data.draw(st.sampled_from(["en", "fr"]), label="file")
    path = fresh.root / f"json/deck.{lang}.json"
    write(
        path, data.draw(json_file_mutations(fresh.text(f"json/deck.{lang}.json")), label="content")
    )
    try:
        check(JSON_LINT, path, *(fresh.root / "json").glob("deck.*.json"))
    finally:
        fresh.reset()


PO_COMMANDS = [
    ("import", "po", "po/mini.fr.po", "--library", "cards"),
    ("import", "po", "po/mini.fr.po", "--library", "cards", "--fuzzy", "--dry-run"),
]


@fuzz_settings(80)
@given(data=st.data())
@pytest.mark.slow
def test_fuzz_po(fresh: World, data: st.DataObject) -> None:
    path = fresh.root / "po/mini.fr.po"
    write(path, data.draw(po_mutations(fresh.text("po/mini.fr.po")), label="content"))
    try:
        check(data.draw(st.sampled_from(PO_COMMANDS), label="command"), path)
    finally:
        fresh.reset()


XLIFF_COMMANDS = [("import", "xliff", "xliff/mini.eo.xlf", "--library", "cards")]


@fuzz_settings(60)
@given(data=st.data())
@pytest.mark.slow
def test_fuzz_xliff(fresh: World, data: st.DataObject) -> None:
    path = fresh.root / "xliff/mini.eo.xlf"
    write(path, data.draw(xliff_mutations(fresh.text("xliff/mini.eo.xlf")), label="content"))
    try:
        check(XLIFF_COMMANDS[0], path)
        for card in (fresh.root / "cards" / "mini").glob("*.md"):
            assert SECRET not in card.read_text(encoding="utf-8", errors="replace"), (
                f"an external entity was read into {card.name}"
            )
    finally:
        fresh.reset()


TOML_COMMAND = ("lint", "cards/mini/courier.fr.md")


@fuzz_settings(80)
@given(data=st.data())
@pytest.mark.slow
def test_fuzz_translator_toml(fresh: World, data: st.DataObject) -> None:
    path = fresh.root / "translator.toml"
    write(path, data.draw(toml_mutations(VALID_TOML), label="content"))
    try:
        check(TOML_COMMAND, path)
    finally:
        path.unlink(missing_ok=True)
        fresh.reset()


def test_translator_toml_baseline(fresh: World) -> None:
    (fresh.root / "translator.toml").write_text(VALID_TOML, encoding="utf-8")
    try:
        code, _, err = cli(*TOML_COMMAND)
        assert code in (0, 1), err
    finally:
        (fresh.root / "translator.toml").unlink()


THEME_BUILD = (
    "build",
    "cards/mini",
    "--lang",
    "en",
    "--card",
    "mossgate",
    "--out",
    "out",
    "--no-preflight",
    "--jobs",
    "1",
    "--theme",
    "theme",
)


def test_theme_baseline(fresh: World) -> None:
    code, out, err = cli(*THEME_BUILD)
    assert code in (0, 1), (out, err)


@fuzz_settings(6)
@given(data=st.data())
@pytest.mark.slow  # seconds, even alone: out of the quick loop
def test_fuzz_theme_yaml(fresh: World, data: st.DataObject) -> None:
    """Builds are slow (about a second): a handful of examples."""
    path = fresh.root / "theme/theme.yaml"
    write(path, data.draw(yaml_file_mutations(fresh.text("theme/theme.yaml")), label="content"))
    try:
        check(THEME_BUILD, path)
    finally:
        fresh.reset()


def test_no_fifo_or_stray_file_in_the_repository() -> None:
    """The fuzzing wrote nothing into the checkout."""
    assert not list((ROOT / "cards").glob("**/*.fuzz*"))
    assert not [p for p in (ROOT / "cards").rglob("*") if p.is_fifo()]
    assert not os.path.exists(ROOT / "translator.toml")


# --------------------------------------------------------------------------------------
# What a run keeps for the next one (issue 35): a kept glossary, however damaged, is
# made afresh, so a lint says exactly what it says without it.

CACHE_LINT = ("lint", "cards/mini/courier.fr.md", "--format", "json")


@pytest.fixture
def kept_glossary(fresh: World, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A cache folder of the test's own, holding the French glossary as a lint keeps
    it, and what that lint said."""
    monkeypatch.setenv("TRANSLATOR_CACHE", str(tmp_path / "cache"))
    said = cli(*CACHE_LINT)
    kept = tmp_path / "cache" / "glossary-fr.json"
    assert kept.is_file(), said
    return kept, kept.read_bytes(), said


@fuzz_settings(40)
@given(data=st.data())
@pytest.mark.slow
def test_fuzz_kept_glossary(kept_glossary: tuple[Path, bytes, tuple], data: st.DataObject) -> None:
    """The payload mutated (as JSON and as text).  Its first line kept (a damaged file):
    the lint's result is the same as with the cache intact.  Its first line made to
    match it (what only the folder's owner can write): whatever it holds is read as
    data of the glossary's shape or not at all, never a traceback."""
    path, original, said = kept_glossary
    head, _, payload = original.partition(b"\n")
    mutated = data.draw(json_file_mutations(payload.decode("utf-8")), label="payload")
    forged = data.draw(st.booleans(), label="digest made to match")
    if forged:
        import hashlib

        digest = hashlib.blake2b(mutated, digest_size=16).hexdigest().encode()
        head = head.split(b" ")[0] + b" " + digest
    path.write_bytes(head + b"\n" + mutated)
    code, out, err = cli(*CACHE_LINT)
    if forged and mutated != payload:
        assert code in (0, 1) and "Traceback" not in err, (code, err[-2000:])
    else:
        assert (code, out, err) == said


# --------------------------------------------------------------------------------------
# Pull records (issue 35): committed files a pull request can change.  Mutated, a push
# (a dry run: nothing is sent) stops with one line naming the record, or goes on.

PUSH_DRY_RUN = ("push", "cards/mini", "--lang", "fr", "--dry-run")
RECORD_SERVER = "https://aminduna.arcmage.org/"


def _records(fresh: World) -> list[str]:
    """Records of the English and French courier as a pull writes them (the cards as
    the export shapes them, with guids), written into the deck; their paths."""
    from translator.sync.records import Record, write_record

    cards = {}
    for lang in ("en", "fr"):
        document = json.loads(fresh.text(f"json/deck.{lang}.json"))
        cards[lang] = next(
            e["card"] for e in document["deckCards"] if "Courier" in json.dumps(e["card"])
        )
    guids = {
        "en": "0c5f7b2e-6d1a-4f3b-9a8e-1b2c3d4e5f60",
        "fr": "1d6a8c3f-7e2b-4a4c-8b9f-2c3d4e5f6a71",
    }
    written = []
    for lang, exported in cards.items():
        card_file = fresh.root / f"cards/mini/courier.{lang}.md"
        text = card_file.read_text("utf-8")
        card_file.write_text(text.replace("---\n", f"---\nguid: {guids[lang]}\n", 1), "utf-8")
        card = {**exported, "guid": guids[lang], "lastModifiedTime": "2026-11-30T10:00:00"}
        if lang == "fr":
            card["masterCard"] = {"guid": guids["en"]}
        card.pop("translator", None)
        path = write_record(
            fresh.root / f"cards/mini/courier.{lang}.md", Record(RECORD_SERVER, card)
        )
        written.append(str(path.relative_to(fresh.root)))
    return written


def _rehashed(content: bytes) -> bytes:
    """A mutated record with the hash of its (mutated) card, when it has one."""
    from translator.sync.records import server_hash

    try:
        record = json.loads(content)
        record["hash"] = server_hash(record["card"])
        return json.dumps(record, ensure_ascii=False, indent=2).encode("utf-8", "surrogatepass")
    except Exception:  # not a record any more: as it is
        return content


def test_pull_records_baseline(fresh: World, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TRANSLATOR_SERVER", raising=False)
    monkeypatch.delenv("TRANSLATOR_TOKEN", raising=False)
    try:
        _records(fresh)
        code, out, err = cli(*PUSH_DRY_RUN)
        assert code in (0, 1), (out, err)
    finally:
        shutil.rmtree(fresh.root / "cards/mini/.aminduna", ignore_errors=True)
        fresh.reset()


@fuzz_settings(60)
@given(data=st.data())
@pytest.mark.slow
def test_fuzz_pull_records(
    fresh: World, monkeypatch: pytest.MonkeyPatch, data: st.DataObject
) -> None:
    monkeypatch.delenv("TRANSLATOR_SERVER", raising=False)
    monkeypatch.delenv("TRANSLATOR_TOKEN", raising=False)
    try:
        relative = data.draw(st.sampled_from(_records(fresh)), label="file")
        path = fresh.root / relative
        content = data.draw(json_file_mutations(path.read_text("utf-8")), label="content")
        if data.draw(st.booleans(), label="hash made to match"):
            content = _rehashed(content)  # as anyone who edits a record can
        write(path, content)
        check(PUSH_DRY_RUN, path)
    finally:
        shutil.rmtree(fresh.root / "cards/mini/.aminduna", ignore_errors=True)
        fresh.reset()
