"""``python -m studbook``: the same as the ``studbook`` command."""

import sys

from studbook.cli import main

sys.exit(main())
