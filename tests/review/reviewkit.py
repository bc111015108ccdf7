"""The review sheet the review tests read: a copy of the sample with defects a
reviewer must see, and its French sheet (made once per test session: renders take a
few seconds)."""

from __future__ import annotations

from pathlib import Path

from tests.lintkit import copy_sample, edit, run

SCRIPT_NAME = "Porte <script>alert(1)</script> des mousses"


def broken_sample(tmp_path: Path) -> Path:
    """A copy of the sample with what a reviewer must catch."""
    deck = copy_sample(tmp_path)
    edit(deck / "veil-stalker.fr.md", "marqueurs -1/-1", "marqueurs 1/-1")  # TR101
    edit(deck / "courier.fr.md", "pioche une carte", "pioche 3 cartes")  # TR103, TR104
    edit(deck / "mossgate.fr.md", "name: Porte des mousses", f'name: "{SCRIPT_NAME}"')
    edit(deck / "saltmere.fr.md", "status: Draft", "status: Draft\nwip: true")
    edit(deck / "harbor-lord.fr.md", "»*", "»* " + "Et le port paie encore. " * 60)
    edit(deck / "sudden-bloom.en.md", "gets +2/+2", "gets +3/+3")  # stale in French
    edit(deck / "sudden-bloom.fr.md", "+2/+2", "+3/+3")
    code, output = run(
        "review", "thornback-hydra", "--lang", "fr", "--library", str(deck), "--by", "Ana"
    )
    assert code == 0, output
    return deck


def make_review_sheet(root: Path) -> tuple[Path, Path, str]:
    """(deck, out, JSON report) of the French sheet, renders included."""
    deck = broken_sample(root)
    out = root / "review"
    code, output = run(
        "review-sheet", str(deck), "--lang", "fr", "--out", str(out), "--format", "json"
    )
    assert code == 0, output
    return deck, out, output
