"""How large anything read from a file may be, in one place.

Card libraries are shared: pull requests, Aminduna JSON, PO files from Weblate.  A file
of the wrong kind, a mistake or an attack must be refused before any work starts, with
a message that gives the limit, instead of running for minutes or filling the memory.
Every limit is far above what a real card, deck or library needs (docs/security.md
lists them with their reasons).
"""

from __future__ import annotations

#: Characters of one card text (the body of a card file, Aminduna's ``markdownText``, a
#: PO ``msgstr``).  A card text box holds a few hundred; the reference parser is
#: quadratic on some inputs.
MAX_TEXT_CHARS = 65_536

#: Characters of a one-line field (name, subtype, footer, ...).
MAX_LINE_CHARS = 1_000

#: Bytes of a card file or a ``deck.yaml``: the text limit in four-byte characters,
#: and room for the front matter.
MAX_CARD_FILE_BYTES = 1 << 20

#: Bytes of a configuration file (``translator.toml``, ``pyproject.toml``) or a
#: ``theme.yaml``.
MAX_CONFIG_BYTES = 1 << 20

#: Bytes of a glossary file (the shipped French lexicon is about 100 KB).
MAX_GLOSSARY_BYTES = 16 << 20

#: Bytes of an Aminduna JSON file, a PO or XLIFF file: the whole card base (about
#: 2,000 cards in three languages) is about 20 MB of JSON.
MAX_EXCHANGE_BYTES = 256 << 20

#: Cards in one import (``import arcmage``): ten times the whole card base.
MAX_IMPORT_CARDS = 60_000

#: Entries in one PO or XLIFF file (a card has three to five).
MAX_EXCHANGE_ENTRIES = 300_000

#: Copies of one card in a deck: a deck holds 40 to 60 cards.
MAX_QUANTITY = 100

#: Largest cost, attack or defense: printed in a small circle.
MAX_STAT = 999

#: Nesting of JSON and TOML (Aminduna's JSON is 4 deep, configuration 3).
MAX_DEPTH = 64

#: Bytes of an artwork image, a colour profile, a PDF given to ``preflight``.
MAX_IMAGE_BYTES = 256 << 20
MAX_PROFILE_BYTES = 32 << 20
MAX_PDF_BYTES = 2 << 30

#: Bytes read from a file named on the command line when no other limit applies.
MAX_FILE_BYTES = 64 << 20
