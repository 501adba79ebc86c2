"""Allow ``python3 -m backtest``."""

import sys

from .cli import main

sys.exit(main())
