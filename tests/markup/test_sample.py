"""The sample library is complete, consistent, and what the issue promises."""

from __future__ import annotations

import re

import pytest
from PIL import Image

from tests.conftest import ROOT
from translator import cards, markup
from translator.cards.model import changed_fields
from translator.markup.tree import DropCap, LineBreak, Symbol

SAMPLE = ROOT / "cards" / "sample"
LIBRARY, PROBLEMS = cards.load_library([str(SAMPLE)])
CARDS = sorted(LIBRARY.cards.values(), key=lambda c: c.slug)


def test_loads_without_problems() -> None:
    assert PROBLEMS == []


def test_size_types_and_factions() -> None:
    assert len(CARDS) >= 20
    types = {c.get("type") for c in CARDS}
    assert {"Creature", "City", "Event", "Magic", "Enchantment"} <= types
    assert set(cards.FACTIONS) <= {c.get("faction") for c in CARDS}
    assert sum(LIBRARY.decks["sample"].quantities.values()) == 40


def test_every_card_is_translated_and_up_to_date() -> None:
    for card in CARDS:
        assert set(card.translations) == {"fr", "eo"}, card.slug
        assert card.source is not None
        for version in card.translations.values():
            fingerprint = version.fields.get("source")
            assert isinstance(fingerprint, str), version.path
            assert changed_fields(fingerprint, card.source) == [], version.path


def _shape(card: cards.Card, lang: str) -> list[tuple]:
    """What must not change in translation: structure, symbols, drop caps, numbers."""
    document = markup.parse(card.get("text", lang)).document
    shape = []
    for paragraph in document.paragraphs:
        kinds = tuple(
            type(n).__name__
            for n in paragraph.children
            if isinstance(n, DropCap | Symbol | LineBreak)
        )
        symbols = tuple(n.code for n in paragraph.children if isinstance(n, Symbol))
        text = "".join(getattr(n, "text", "") for n in paragraph.children)
        numbers = tuple(sorted(re.findall(r"[+-]?\d+(?:/[+-]?\d+)?", text)))
        shape.append((kinds, symbols, numbers))
    return shape


@pytest.mark.parametrize("card", CARDS, ids=[c.slug for c in CARDS])
def test_translations_keep_structure_symbols_and_numbers(card: cards.Card) -> None:
    english = _shape(card, "en")
    for lang in ("fr", "eo"):
        assert _shape(card, lang) == english, lang


def test_every_symbol_family_and_dialect_feature_is_used() -> None:
    codes: set[str] = set()
    features = set()
    for card in CARDS:
        document = markup.parse(card.get("text")).document
        for paragraph in document.paragraphs:
            if not paragraph.children:
                features.add("empty paragraph")
            for node in paragraph.children:
                if isinstance(node, Symbol):
                    codes.add(node.code)
                    features.add(node.kind)
                elif isinstance(node, DropCap):
                    features.add("drop cap")
                elif isinstance(node, LineBreak):
                    features.add("line break")
        if markup.rule_and_flavor(document, "en")["flavorText"]:
            features.add("flavour")
    assert {
        "cypher",
        "mark",
        "column",
        "inline-mark",
        "drop cap",
        "line break",
        "empty paragraph",
        "flavour",
    } <= features


def test_card_texts_are_clean_and_canonical() -> None:
    for card in CARDS:
        for lang in card.languages():
            text = card.get("text", lang)
            assert markup.check_text(text) == [], (card.slug, lang)
            assert markup.format_text(text) == text, (card.slug, lang)


def test_french_follows_the_style_guide_basics() -> None:
    for card in CARDS:
        document = markup.parse(card.get("text", "fr")).document
        text = " ".join(getattr(n, "text", "") for p in document.paragraphs for n in p.children)
        assert not re.search(r"\b(vous|votre|vos)\b", text, re.IGNORECASE), card.slug
        assert "'" not in text, card.slug  # typographic apostrophe
        assert not re.search(r"« | »|\w[;:!?»]", text), card.slug  # no-break spaces


@pytest.mark.parametrize("card", CARDS, ids=[c.slug for c in CARDS])
def test_artwork_is_generated_at_print_resolution(card: cards.Card) -> None:
    path = SAMPLE / str(card.get("artwork"))
    with Image.open(path) as image:
        assert image.format == "JPEG" and image.mode == "RGB"
        assert image.size == (1200, 992)  # 230:190, about 470 dpi over the art box
        assert "icc_profile" not in image.info
