"""Allow ``python3 -m htmltext``."""

import sys

from .cli import main

sys.exit(main())
