"""EO3 rules: the Leksikono inside compound words.

A deprecated root inside a compound word (EO301), which GL201 (whole words, in every
form) cannot see.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache

from ....diagnostics import Applicability, Severity
from ....glossary.matcher import normalize
from ....languages.eo import LANGUAGE as ESPERANTO
from ...context import Reporter, Subject
from ...model import Finding
from .shared import ESPERANTO_RULES, place_finding, places

#: The family of this module's rules (EO3).
FAMILY = ESPERANTO_RULES.part("EO3")


@cache
def _endings() -> frozenset[str]:
    """What may close a word after its last root: an ending (o, ojn, as), or -j, -n
    after one (a correlative's: ĉiuj)."""
    endings = ESPERANTO.endings
    return endings.declined | frozenset(endings.verb) | frozenset(endings.cases[1:])


#: Shorter deprecated roots are ordinary roots too: turn- of turno (turn) is the root of
#: turni (rotate), in turnopunkto, turnoplato; ul- of ulo is the suffix -ul-.
_MIN_ROOT = 5


@dataclass(frozen=True, slots=True)
class DeprecatedRoot:
    """The root of a deprecated one-word term, and of its replacement when the one
    can stand for the other in a compound (same ending: a noun for a noun)."""

    root: str
    term: str
    entry: str
    replacement: str
    new_root: str | None
    endings: frozenset[str]


def deprecated_roots(subject: Subject) -> tuple[list[DeprecatedRoot], list[str]]:
    """The deprecated roots of the language's glossary (longest first), and the roots of
    its current one-word terms (which a deprecated root may be part of: ludan- in
    ludanto)."""
    cache = subject.language.cache
    found = cache.get("EO deprecated roots")
    if found is not None:
        return found
    roots: list[DeprecatedRoot] = []
    current: set[str] = set()
    for entry in subject.language.glossary.entries.values():
        if entry.section == "footer":
            continue
        for term in entry.terms:
            text = normalize(term.text)
            if " " in text or "-" in text or text[-1:] not in ESPERANTO.vowels:
                continue
            if not term.deprecated:
                if len(text) >= 4:
                    current.add(text[:-1])
                continue
            replacement = term.replaced_by or (entry.preferred.text if entry.preferred else "")
            new = normalize(replacement)
            root = text[:-1]
            if len(root) < _MIN_ROOT or not new:
                continue
            same = new[-1:] == text[-1] and " " not in new and "-" not in new
            declined = ESPERANTO.endings.declined
            verb = text.endswith(ESPERANTO.endings.infinitive)
            endings = declined | frozenset(ESPERANTO.endings.verb) if verb else declined
            roots.append(
                DeprecatedRoot(
                    root,
                    term.text,
                    entry.en,
                    replacement,
                    new[:-1] if same else None,
                    frozenset(endings),
                )
            )
    roots.sort(key=lambda r: -len(r.root))
    found = cache["EO deprecated roots"] = (roots, sorted(current, key=len, reverse=True))
    return found


def compound_root(
    word: str, roots: list[DeprecatedRoot], current: list[str]
) -> tuple[DeprecatedRoot, int] | None:
    """The deprecated root ``word`` (normalized) holds as a part of a compound, and its
    position: before another root (resurs|karto, lojalec|markon, with or without the
    joining o), or as the last root after another root or a prefix (kun|urbano).  A
    suffix opens with a vowel (urban|aro is a derivation, not reported); a root inside a
    current term's root (ludan- in ludanto) is not one."""
    for deprecated in roots:
        root = deprecated.root
        position = word.find(root)
        while position >= 0:
            before, after = word[:position], word[position + len(root) :]
            if _is_compound(before, after, deprecated) and not any(
                len(c) > len(root) and _covers(word, c, position, len(root)) for c in current
            ):
                return deprecated, position
            position = word.find(root, position + 1)
    return None


def _is_compound(before: str, after: str, deprecated: DeprecatedRoot) -> bool:
    if before and not before.endswith("-") and len(before) < 2:
        return False
    if after.startswith("-"):
        return True
    endings = _endings()
    if after in endings:  # the last root, after a prefix or another root
        return bool(before) and after in deprecated.endings
    rest = after[1:] if after[:1] == "o" else after
    return (
        bool(rest) and rest[0].isalpha() and rest[0] not in ESPERANTO.vowels and rest not in endings
    )


def _covers(word: str, root: str, position: int, length: int) -> bool:
    """Does an occurrence of ``root`` in ``word`` hold characters
    ``[position, position + length)``?"""
    start = word.find(root)
    while start >= 0:
        if start <= position and start + len(root) >= position + length:
            return True
        start = word.find(root, start + 1)
    return False


@FAMILY.rule(
    code="EO301",
    name="deprecated-root",
    severity=Severity.WARNING,
    summary="A compound word built on a root the Leksikono deprecated (lojalec|markon, "
    "kun|urbano, resurs|karto).",
    rationale="GL201 finds deprecated terms in every inflected form, but not inside compounds, "
    "which Esperanto builds freely: Listo de kapabloj (Hejmsopira) still writes "
    "« lojalecmarkon » where the Leksikono says « loyalty: fideleco », and the "
    "Leksikono's own « convert (en resursokarton) » kept the old resurso.  A root is "
    "reported before another root (with or without the joining o) or as the last root "
    "after a prefix or root; a suffix opens with a vowel, so derivations (urbanaro, "
    "militistarestro) are not, nor roots shorter than five letters, which are ordinary "
    "roots too (turn- of turno is the root of turni, to rotate: turnopunkto; ul- is the "
    "suffix -ul-).  A root inside a current term's root (ludan- in ludanto) is not "
    "reported, nor a word GL201 reports.",
    bad="en: Discard two resource cards.\neo: Forĵetu du resurskartojn.",
    good="en: Discard two resource cards.\neo: Forĵetu du rimedkartojn.",
    fix="Replaces the deprecated root by the replacement's root when the two have the same "
    "ending (resurso -> rimedo: resursfonto -> rimedfonto); not when the replacement is "
    "another kind of word (ludiĝo -> enluda).",
    applicability=Applicability.SAFE,
)
def check_deprecated_root(subject: Subject, report: Reporter) -> Iterator[Finding]:
    roots, current = deprecated_roots(subject)
    if not roots:
        return
    deprecated_spans = {
        (index, match.start) for index, match in subject.matches if match.hit.status == "deprecated"
    }
    allowed = subject.resources.allowed(subject.lang)
    for place in places(subject):
        for word, start, end in place.tokens:
            if (
                len(word) < 6
                or (place.index, start) in deprecated_spans
                or word in subject.language.vocabulary
                or word in allowed
            ):
                continue
            if len(word) != end - start:
                continue  # folding changed the length: positions would not match
            found = compound_root(word, roots, current)
            if found is None:
                continue
            deprecated, position = found
            written = place.text[start:end]
            at = start + position
            old = place.text[at : at + len(deprecated.root)]
            message = (
                f"'{written}' is built on '{old}-' of the deprecated "
                f"'{deprecated.term}' ('{deprecated.entry}')"
            )
            if deprecated.new_root is None:
                yield place_finding(
                    subject,
                    report,
                    place,
                    at,
                    f"{message}: the Leksikono says '{deprecated.replacement}'",
                )
                continue
            new = deprecated.new_root
            if old[:1].isupper():
                new = new[:1].upper() + new[1:]
            fixed = written[:position] + new + written[position + len(old) :]
            yield place_finding(
                subject, report, place, at, f"{message}: write '{fixed}'", (at, at + len(old), new)
            )
