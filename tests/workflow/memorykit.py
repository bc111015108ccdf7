"""A small two-deck library for the translation memory's command tests
(``suggest``, ``import tmx``): the first deck translated into French (reviewed, a
stale card), the second in English, repeating a sentence exactly and another with a
word changed."""

from __future__ import annotations

from pathlib import Path

from tests.lintkit import stamp_reviews
from translator import cards
from translator.cards.model import source_fingerprint

CREATURE = """\
type: Creature
faction: The Empire
cost: 2
loyalty: 1
attack: 1
defense: 2
status: Draft
"""

#: The first deck: what the memory learns from (English and French).
FIRST = {
    "courier.en.md": f"""\
---
name: Courier
{CREATURE}subtype: Soldier Bird
---
***Flying***\\
*Only creatures with flying can defend against me.*

:m: Target ***player*** draws one card. Courier deals 1 damage to target creature.
""",
    "courier.fr.md": """\
---
name: Messager
subtype: Oiseau, soldat
status: Draft
source: {fingerprint}
reviewed: "2026-01-02"
---
***Vol***\\
*Seules les créatures dotées du vol peuvent me bloquer.*

:m: La *joueureuse ciblée* pioche une carte. Messager inflige 1 blessure à la créature ciblée.
""",
    # Translated when its text said "At the start of your turn": stale since.
    "omen.en.md": """\
---
name: Omen
type: Enchantment
faction: None
cost: 2
loyalty: 0
status: Draft
---
At the start of your turn, draw one card.
""",
    "omen.fr.md": """\
---
name: Présage
status: Draft
source: {fingerprint}
---
Au début de ton tour, pioche une carte.
""",
}

#: The second deck: English only, repeating the first deck's sentences, one of them
#: with a word changed, and the stale card's new English.
SECOND = {
    "herald.en.md": f"""\
---
name: Herald
{CREATURE}subtype: Soldier Bird
---
***Flying***\\
*Only creatures with flying can defend against me.*

:m: Target ***player*** draws one card. Herald deals 2 damage to target creature.
""",
    "watcher.en.md": """\
---
name: Watcher
type: Enchantment
faction: None
cost: 2
loyalty: 0
status: Draft
---
At the end of your turn, draw one card.
""",
}


def make_library(directory: Path) -> Path:
    """``directory/cards`` with the decks ``first`` (courier reviewed, omen stale) and
    ``second`` (English only)."""
    root = directory / "cards"
    for deck, files in (("first", FIRST), ("second", SECOND)):
        folder = root / deck
        folder.mkdir(parents=True)
        slugs = sorted({name.split(".")[0] for name in files})
        (folder / "deck.yaml").write_text(
            f"name: {deck.title()}\ncards:\n" + "".join(f"  {s}: 1\n" for s in slugs), "utf-8"
        )
        for name, text in files.items():
            if name.endswith(".en.md"):
                (folder / name).write_text(text, "utf-8")
    library, problems = cards.load_library([str(root / "first")])
    assert not problems, problems
    for name, text in FIRST.items():
        if name.endswith(".fr.md"):
            slug = name.split(".")[0]
            source = library.cards[("first", slug)].source
            assert source is not None
            (root / "first" / name).write_text(
                text.replace("{fingerprint}", source_fingerprint(source)), "utf-8"
            )
    stamp_reviews(root / "first")  # reviewed as translator review does
    omen = root / "first" / "omen.en.md"
    omen.write_text(omen.read_text("utf-8").replace("the start", "the end"), "utf-8")
    library, problems = cards.load_library([str(root)])
    assert not problems, problems
    return root
