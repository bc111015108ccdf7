"""``translator suggest``: what the translation memory offers one card, text by text, in
reading order; exact matches, fuzzy ones with their score, origin and word diff; never
the card's own translation, never a stale one."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.lintkit import run


def texts_of(output: str) -> dict[str, dict]:
    data = json.loads(output)
    return {f"{t['unit']}:{t['paragraph'] or ''}:{t['sentence'] or ''}": t for t in data["texts"]}


# --------------------------------------------------------------------------------------


def test_suggest_in_reading_order_with_exact_and_fuzzy_matches(library: Path) -> None:
    code, out = run("suggest", "herald", "--lang", "fr", "cards")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == (
        "second/herald (fr, missing): 6 texts; 3 with an exact match, "
        "2 with suggestions (≥ 75%), 1 without"
    )
    labels = [line for line in lines if line and not line.startswith(" ")][1:]
    assert labels == [
        "name",
        "subtype",
        "paragraph 1",
        "paragraph 2",
        "paragraph 2, sentence 1",
        "paragraph 2, sentence 2",
    ]
    text = "\n".join(lines)
    # The subtype, the ability paragraph and the repeated sentence: exact.
    assert (
        "subtype\n    Soldier Bird\n  exact: first/courier, reviewed\n      Oiseau, soldat" in text
    )
    assert "  exact: first/courier, reviewed\n      ***Vol***\\\n      *Seules" in text
    assert (
        "paragraph 2, sentence 1\n    :m: Target ***player*** draws one card.\n"
        "  exact: first/courier, reviewed\n      :m: La *joueureuse ciblée* pioche une carte."
    ) in text
    # One word changed: a fuzzy suggestion, the card's name put in, the words that
    # differ shown as status --diff shows them.
    sentence = text.split("paragraph 2, sentence 2\n")[1]
    assert sentence.splitlines()[1].startswith("  9") and sentence.splitlines()[1].endswith(
        "%: first/courier, reviewed"
    )
    assert "      Herald inflige 1 blessure à la créature ciblée." in sentence
    assert "      English: [-Courier-]{+Herald+} deals [-1-]{+2+} damage" in sentence
    assert "name\n    Herald\n  nothing in the memory" in text


def test_suggest_json(library: Path) -> None:
    code, out = run("suggest", "second/herald", "cards", "--lang", "fr", "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert (data["card"], data["lang"], data["state"]) == ("second/herald", "fr", "missing")
    assert data["summary"] == {"texts": 6, "exact": 3, "fuzzy": 2, "none": 1}
    texts = texts_of(out)
    exact = texts["text:2:1"]["exact"]
    assert exact["score"] == 100.0
    assert exact["target"] == ":m: La *joueureuse ciblée* pioche une carte."
    assert (exact["from"], exact["state"]) == ("first/courier", "reviewed")
    assert texts["text:2:1"]["fuzzy"] == []
    fuzzy = texts["text:2:2"]["fuzzy"]
    assert len(fuzzy) == 1 and 75 <= fuzzy[0]["score"] < 100
    assert fuzzy[0]["memory_english"] == "Courier deals 1 damage to target creature."
    assert fuzzy[0]["english"] == "Herald deals 2 damage to target creature."
    assert ["-", "1"] in fuzzy[0]["diff"] and ["+", "2"] in fuzzy[0]["diff"]
    # The paragraph as a whole: no exact match, courier's paragraph as a suggestion.
    assert texts["text:2:"]["exact"] is None
    assert texts["text:2:"]["fuzzy"][0]["from"] == "first/courier"
    assert texts["name::"] == {
        "unit": "name",
        "kind": "name",
        "paragraph": None,
        "sentence": None,
        "english": "Herald",
        "exact": None,
        "fuzzy": [],
    }


def test_min_and_limit(library: Path) -> None:
    _, out = run("suggest", "herald", "--lang", "fr", "--min", "99", "--format", "json")
    assert texts_of(out)["text:2:2"]["fuzzy"] == []
    _, out = run("suggest", "herald", "--lang", "fr", "--min", "50", "--format", "json")
    assert texts_of(out)["text:2:2"]["fuzzy"][0]["from"] == "first/courier"
    assert run("suggest", "herald", "--lang", "fr", "--limit", "0")[0] == 2
    assert run("suggest", "herald", "--lang", "fr", "--min", "0")[0] == 2
    assert run("suggest", "herald", "--lang", "fr", "--min", "101")[0] == 2


def test_a_stale_translation_is_not_suggested(library: Path) -> None:
    """omen's French was made for "At the start of your turn": the English now says
    what watcher says, and neither the old French nor a fuzzy match of it is offered."""
    code, out = run("suggest", "watcher", "--lang", "fr", "--format", "json")
    assert code == 1
    data = json.loads(out)
    assert data["summary"]["exact"] == data["summary"]["fuzzy"] == 0
    assert all(t["fuzzy"] == [] for t in data["texts"])
    _, text = run("suggest", "watcher", "--lang", "fr", "--min", "40")
    assert "Au début" not in text and "first/omen" not in text


def test_the_cards_own_translation_is_not_a_suggestion(library: Path) -> None:
    code, out = run("suggest", "first/courier", "--lang", "fr", "--format", "json")
    assert code == 1  # only courier itself translates these texts
    data = json.loads(out)
    for text in data["texts"]:
        for match in ([text["exact"]] if text["exact"] else []) + text["fuzzy"]:
            assert match["from"] != "first/courier", text
    assert data["summary"]["exact"] == 0
    code, text = run("suggest", "courier", "--lang", "fr")
    assert code == 1
    # The memory holds courier's own texts too, never offered for courier itself.
    assert text.endswith(
        "nothing in the fr memory (8 English texts) is like this card's English "
        "(a lower --min finds more)\n"
    )


def test_exit_codes_and_errors(library: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run("suggest", "nobody", "--lang", "fr")[0] == 2
    assert "no card 'nobody'" in capsys.readouterr().err
    assert run("suggest", "herald", "--lang", "en")[0] == 2
    assert "translations are into" in capsys.readouterr().err
    assert run("suggest", "herald")[0] == 2  # --lang is required
