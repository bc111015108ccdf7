"""FR rules: the French style guide (*Recommandations pour la traduction française*).

Form of address (FR101), the gender of *la joueureuse* (FR102), digits and letters
(FR103), typography (FR2: no-break spaces, « », apostrophes, ellipsis, spaces),
capitals and emphasis (FR3: names, subtypes, bold names, ability definitions), the
hyphen of an imperative with a pronoun (FR401) and the pre-print checklist (FR402).
The guide's deprecated words (*joueur*, *compteur*, *défendre contre*, *dévotion
d'une cité*, the enumeration *enchantements, magie, évènements*) are glossary
entries, found by GL201 in every form.

One module per part: :mod:`.address` (FR1), :mod:`.typography` (FR2), :mod:`.capitals`
(FR3), :mod:`.checklist` (FR4); :mod:`.shared` holds what they share.

Rules read the printed text (:attr:`Subject.plain`); fixes go through
:meth:`Subject.text_edit`, which gives up (no fix) where the printed characters are
not written as such in the file.
"""

from __future__ import annotations

from . import address, capitals, checklist, shared, typography
from .shared import FRENCH_RULES

__all__ = ["FRENCH_RULES", "address", "capitals", "checklist", "shared", "typography"]
