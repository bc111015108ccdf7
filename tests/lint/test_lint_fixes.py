"""Properties of ``translator lint --fix``: idempotent, nothing else changed byte for
byte (front matter layout and comments kept), the source language never touched."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from translator import lint
from translator.cards.files import parse_card_text
from translator.cards.model import Library, source_fingerprint
from translator.lint.fixes import fix_library

OPTIONS = lint.Options()
RESOURCES = lint.load_resources(["fr"], OPTIONS, [])
ENGLISH = "---\nname: Card\ntype: Event\nfaction: Gaian\n---\nDraw two cards!\n"

WORDS = [
    "Pioche",
    "deux",
    "cartes",
    "l'armée",
    "l’armée",
    "compteurs",
    "marqueurs",
    "et",
    "la",
    "joueureuse",
    "ciblée",
    "Inflige",
    "3",
    "dégâts",
    "puis",
    "Sacrifie",
    "moi",
]
PUNCTUATION = ["", " !", "!", "\u00a0!", " ?", " ;", ":", " :", "...", " .", ",", " ,"]
SPACES = [" ", "  ", "\u00a0"]


@st.composite
def french_text(draw: st.DrawFn) -> str:
    parts = []
    for _ in range(draw(st.integers(1, 12))):
        parts.append(draw(st.sampled_from(WORDS)))
        parts.append(draw(st.sampled_from(PUNCTUATION)))
        parts.append(draw(st.sampled_from(SPACES)))
    text = "".join(parts).strip()
    if draw(st.booleans()):
        text = f'*"{text}"*'
    return text or "Pioche."


def library_of(french: str, front: str) -> tuple[Library, dict[str, str]]:
    library = Library()
    source = parse_card_text("deck/card.en.md", "deck", ENGLISH, [])
    assert source is not None
    library.add(source)
    content = (
        f"---\n# a comment the fix must keep\nname: Carte   # and this one\n"
        f'{front}source: "{source_fingerprint(source)}"\n---\n{french}\n'
    )
    translation = parse_card_text("deck/card.fr.md", "deck", content, [])
    assert translation is not None
    library.add(translation)
    return library, {"deck/card.en.md": ENGLISH, "deck/card.fr.md": content}


def run_fixes(library: Library, contents: dict[str, str]):
    findings = lint.lint(library, RESOURCES, OPTIONS).findings
    return fix_library(
        library,
        lambda lib: lint.lint(lib, RESOURCES, OPTIONS).findings,
        findings,
        contents.__getitem__,
    )


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(french_text(), st.sampled_from(["", "subtype: Soldat Ondin\n", "subtype: 'Soldat Ondin'\n"]))
@pytest.mark.slow
def test_fix_is_idempotent_and_changes_only_what_it_fixes(french: str, front: str) -> None:
    library, contents = library_of(french, front)
    result = run_fixes(library, contents)
    assert "deck/card.en.md" not in result.changed  # the source language, never
    new = result.contents.get("deck/card.fr.md", contents["deck/card.fr.md"])
    old = contents["deck/card.fr.md"]
    # The front matter keeps its layout and comments: only a fixed value changes.
    old_lines, new_lines = old.split("---\n")[1].splitlines(), new.split("---\n")[1].splitlines()
    assert len(old_lines) == len(new_lines)
    for before, after in zip(old_lines, new_lines, strict=True):
        assert before == after or before.startswith("subtype:")
    assert "# a comment the fix must keep" in new and "# and this one" in new
    # Fixed once, nothing left to fix: a second run changes nothing.
    again_library, again_contents = library_of(new.split("---\n", 2)[2].rstrip("\n"), front)
    again_contents["deck/card.fr.md"] = new
    again_file = parse_card_text("deck/card.fr.md", "deck", new, [])
    assert again_file is not None
    again_library.add(again_file)
    again = run_fixes(again_library, again_contents)
    assert again.changed == []
    # And what is left is reported without a fix.
    remaining = lint.lint(again_library, RESOURCES, OPTIONS).findings
    assert all(f.edit is None for f in remaining if f.path == "deck/card.fr.md"), remaining


def test_fixes_keep_the_words() -> None:
    library, contents = library_of("Pioche  deux cartes !Et l'armée ...", "")
    result = run_fixes(library, contents)
    body = result.contents["deck/card.fr.md"].split("---\n", 2)[2]
    assert body == "Pioche deux cartes\u00a0!Et l’armée…\n"
