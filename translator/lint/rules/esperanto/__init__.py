"""EO rules: the Esperanto house style (*Rekomendoj por traduki en esperanton*).

Spelling (EO1): the x-system (``cx`` for ĉ, EO101) and the h-system (``ch`` for ĉ,
``au`` for aŭ, EO102) of keyboards without the supersigned letters, and letters that
are not in the Esperanto alphabet (EO103).  Typography (EO2): no space before
punctuation (EO201), « » for quotation marks (EO202), the same spacing inside both
guillemets of a pair (EO203).  The Leksikono (EO3): a deprecated root inside a
compound word (EO301), which GL201 (whole words, in every form) cannot see.

The wiki's Esperanto pages (seed 001) hold no typography section; the house style is
what they write: guillemets without spaces inside (« «la ludanto» », « «ne povas
flugi» » in Arcmage Reguloj) and no space before punctuation (« aligu nin! »).  The
sample cards write their flavour text with no-break spaces inside, after the French
habit (« *«\u00a0Ĝi brulas ...\u00a0»* »): both spacings are accepted, a pair and a
card keeping to one, unless the ``esperanto-quotes`` setting asks for one.

Every rule reads the printed text (:attr:`Subject.plain`) and the name, second name,
subtype (and a card's own footer) fields; fixes of the text go through
:meth:`Subject.text_edit`, which gives up (no fix) where the printed characters are
not written as such in the file.

One module per part: :mod:`.spelling` (EO1), :mod:`.typography` (EO2), :mod:`.compounds`
(EO3); the grammar (EO4) is :mod:`..esperanto_grammar`; :mod:`.shared` holds what they
share.  The spelling helpers the SP and GL rules use are importable from here.
"""

from __future__ import annotations

from . import compounds, shared, spelling, typography
from .shared import ESPERANTO_RULES, looks_esperanto, sentence_start
from .spelling import HSpelling, foreign_letters, h_system, x_system

__all__ = [
    "ESPERANTO_RULES",
    "HSpelling",
    "compounds",
    "foreign_letters",
    "h_system",
    "looks_esperanto",
    "sentence_start",
    "shared",
    "spelling",
    "typography",
    "x_system",
]
