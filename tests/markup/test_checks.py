"""Every markup rule: text that triggers it, a near miss that must not, and its fix."""

from __future__ import annotations

import pytest

from translator import markup
from translator.diagnostics import REGISTRY, apply_fixes
from translator.markup.checks import TARGET

RULES = REGISTRY.rules(TARGET)

# code -> (texts that must trigger it, near misses that must not)
CASES: dict[str, tuple[list[str], list[str]]] = {
    "MK001": (
        ["See u/www.arcmage.org.", ">\n* a", "^" * 150 + "x"],
        ["See www.arcmage.org.", "> a\n> b", "^" * 20 + "x", "a <b"],
    ),
    "MK002": (
        ["Draw\x00.", "Draw.\x0c", "Draw.\rNext", "Dr\ufeffaw"],
        ["Draw.\r\nNext.", "Draw.\tNext.", "Vite\u202f!"],
    ),
    "MK101": (
        ["At 10:30 and 11:45, draw.", "Ratio 1:2:3.", "a :b c: d"],
        ["Cost: 3. Power: 2.", "At 10:30, draw.", "Note: see : this"],
    ),
    "MK102": (
        [":G1: draw", "a :Br: b", "Pay :mm: now", "Pay :g10: now"],
        [":G:ain a card", ":M:ark it", "Pay :g1: now", "a :br: b"],
    ),
    "MK103": ([":w:hen", ":Wh:en", ":é:tat", ":Mi:ne"], [":W:hen", ":É:tat", ":Ĉ:iu", ":mi: x"]),
    "MK104": (
        ["Deal 1. :m: Draw.", "Draw :W:hen", "a :mc: b"],
        [":m: Draw.", ":W:hen", "Pay :g1: and :mis: now", "a :G1: b"],
    ),
    "MK105": ([":T: he end", ":C:  herche"], [":T:he end", "Pay :g1: now", "a :G1: b"]),
    "MK106": (
        ["Draw. :pa: Discard.", "**Draw** :pa:"],
        [":pa: Draw.", "\\\n\nDraw.", "Draw.\n\n\\\n\nDiscard."],
    ),
    "MK107": (
        ["Pay :g1: :g2:.", "__b__ _i_", ":m: :g1:"],
        [
            "Pay :g1:@@:g2:.",
            "**b** *i*",
            "Pay :g1: now",
            "a\\\n :g1:",
            "[a](http://x.org) [b](http://x.org)",
        ],
    ),
    "MK108": (["Draw.\\\n\nNext.", "Draw.\\"], ["Draw.\\\nNext.", "\\\n\nDraw."]),
    "MK201": (
        [
            "# Title\nDraw.",
            "- a\n- b",
            "> quote",
            "\tcode",
            "```\ncode",
            "a | b\n--|--",
            "Draw.\n\n---",
            "[id]: http://x.org",
            "1. first",
        ],
        ["Draw #1.", "* item", "-item", "1) first", "a | b\nDraw.", "Draw - now"],
    ),
    # The reference reads only every other character of an underline: "- b" is one.
    "MK202": (
        ["Draw.\n---", "Title\n===", "a\nb\n---", "Choose:\n- b"],
        ["Draw.\n\n---", "Draw. ---", "a\n- bc", "a\n-- b"],
    ),
    "MK203": (
        [
            "See www.arcmage.org.",
            "Mail me@x.org.",
            "[rules](http://x.org)",
            "u/x",
            "http://x.org",
            "![a](b.png)",
            "<http://x.org>",
        ],
        ["See arcmage.org.", "Mail me at x.org.", "[rules] here", "bear/trap", "http://localhost"],
    ),
    "MK204": (
        ["[Elder] [dragon] cards", "[t][ref]"],
        ["[Elder] dragon", "[t][ref]\n\n[ref]: http://x.org"],
    ),
    "MK205": (
        ["~~gone~~ x", "X^2 y", "`code`", "a <!-- c --> b", "<sub>x</sub>", '<a name="x">t</a>'],
        ["~gone~ x", "X ^ 2", "a ` b", "a < b > c", "<sub> x</sub>"],
    ),
    "MK301": (
        ["**Deal 2 damage", "Deal 2 damage*", "_word"],
        ["2 * 3 = 6", "x_y", "**Deal** 2", "(*)"],
    ),
    "MK302": (["a_b_c", "token_1_ here", "x__b__y"], ["_i_ word", "*a*b", "snake_case"]),
    "MK303": (["*a **b** c*", "*Gain **2** life.*"], ["*a* **b** *c*", "**a *b* c**"]),
    "MK401": (["Name@@of", "a @@ b"], [":g1:@@:g2:", "me@x"]),
    "MK402": (["Deal 2\\*X", "\\:W:hen", "a\\\\b"], ["Draw.\\\nNext.", "a\\b", "\\\n\nx"]),
    "MK403": (["&laquo;Vite&raquo;", "a&nbsp;b", "**&amp;**"], ["&foo; x", "a & b", "&#8239;"]),
    "MK404": (
        ["Vite&#8239;!", "a&#x202F;b", "a&NoBreak;b"],
        ["Vite&nbsp;!", "a & b;", "&foo; x", "&#160;"],
    ),
    "MK405": (
        ["Deal <b>2</b>.", "a <br> b", '<span class="x">t</span>'],
        ["a < b > c", "x <3", "1 <2"],
    ),
    "MK501": (
        ["Draw.  \nNext.", "Draw.   \nNext."],
        ["Draw. \nNext.", "Draw.  \n\nNext.", "Draw.\\\nNext."],
    ),
}


def codes(text: str) -> list[str]:
    return [d.code for d in markup.check_text(text)]


def test_every_rule_is_tested_here() -> None:
    assert sorted(CASES) == [rule.code for rule in RULES]


@pytest.mark.parametrize("rule", RULES, ids=[r.code for r in RULES])
def test_rule_documentation(rule) -> None:
    assert rule.summary.endswith(".")
    assert len(rule.rationale) > 80
    assert rule.bad != rule.good
    explained = rule.explain()
    for part in (rule.code, "## Why", "## Bad", "## Good", "## Fix"):
        assert part in explained


@pytest.mark.parametrize("rule", RULES, ids=[r.code for r in RULES])
def test_documented_examples(rule) -> None:
    """The bad example of a rule's documentation triggers it; the good one does not."""
    assert rule.code in codes(rule.bad)
    assert rule.code not in codes(rule.good)


@pytest.mark.parametrize(("code", "text"), [(c, t) for c, (bad, _) in CASES.items() for t in bad])
def test_triggers(code: str, text: str) -> None:
    assert code in codes(text)


@pytest.mark.parametrize(("code", "text"), [(c, t) for c, (_, good) in CASES.items() for t in good])
def test_near_misses(code: str, text: str) -> None:
    assert code not in codes(text)


FIXABLE = [r for r in RULES if r.fix]


@pytest.mark.parametrize("rule", FIXABLE, ids=[r.code for r in FIXABLE])
def test_fixes_remove_the_finding_and_are_idempotent(rule) -> None:
    for text in CASES[rule.code][0] + [rule.bad]:
        found = [d for d in markup.check_text(text) if d.code == rule.code]
        if not any(d.fix for d in found):
            continue
        fixed, applied = apply_fixes(text, found)
        assert applied >= 1
        again = [d for d in markup.check_text(fixed) if d.code == rule.code and d.fix]
        assert again == [], (text, fixed)
        assert apply_fixes(fixed, again) == (fixed, 0)


def test_fixes_only_change_what_they_report() -> None:
    text = "Pay :G1: now.\n\nAt 10:30 and 11:45 :T: x"
    found = [d for d in markup.check_text(text) if d.code == "MK102"]
    fixed, _ = apply_fixes(text, found)
    assert fixed == "Pay :g1: now.\n\nAt 10:30 and 11:45 :T: x"


def test_specific_fixes() -> None:
    def fix(text: str, code: str) -> str:
        return apply_fixes(text, [d for d in markup.check_text(text) if d.code == code])[0]

    assert fix(":wh:en", "MK103") == ":W:hen"
    assert fix(":w:hen", "MK103") == ":W:hen"
    assert fix(":T:  he end", "MK105") == ":T:he end"
    assert fix("Vite&#8239;!", "MK404") == "Vite\u202f!"
    assert fix("&laquo;x", "MK403") == "«x"
    assert fix("Draw.  \nNext.", "MK501") == "Draw.\\\nNext."
    assert fix("Draw.\\\n\nNext.", "MK108") == "Draw.\n\nNext."
    assert fix("a\rb", "MK002") == "a\nb"
    assert fix("Pay :BR: x", "MK102") == "Pay :br: x"


def test_positions_point_at_the_source() -> None:
    text = "First line.\r\n\r\nSecond :G1: here and 10:30 then 11:45."
    found = {d.code: d for d in markup.check_text(text, start_line=8)}
    assert (found["MK102"].line, found["MK102"].column) == (10, 8)
    assert (found["MK102"].end_line, found["MK102"].end_column) == (10, 12)
    assert (found["MK101"].line, found["MK101"].column) == (10, 24)


def test_messages_say_what_is_printed() -> None:
    [colon] = [d for d in markup.check_text("At 10:30 and 11:45.") if d.code == "MK101"]
    assert '"30 and 11"' in colon.message
    [erase] = [d for d in markup.check_text("Draw a card. :pa: x") if d.code == "MK106"]
    assert "Draw a card." in erase.message
    [fence] = [d for d in markup.check_text("```\nDraw.") if d.code == "MK201"]
    assert "never closed" in fence.message
    [guess] = [d for d in markup.check_text("Pay :mm: x") if d.code == "MK102"]
    assert "did you mean ':m:'" in guess.message


def test_clean_card_text_has_no_findings() -> None:
    text = (
        ":W:hen I come into play, deal **2 damage** to target ***creature***.\\\n"
        'Draw a card.\n\n:m: Pay :g2: to gain :gt:.\n\n*"The wind knows my name."*'
    )
    assert markup.check_text(text) == []
