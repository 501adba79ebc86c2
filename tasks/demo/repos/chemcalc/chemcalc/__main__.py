"""Allow ``python3 -m chemcalc``."""

import sys

from .cli import main

sys.exit(main())
