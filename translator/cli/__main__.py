"""``python -m translator.cli``: the command line, as the ``translator`` command runs it."""

import sys

from . import main

sys.exit(main())
