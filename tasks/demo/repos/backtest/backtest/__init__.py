"""backtest: moving-average crossover and buy-and-hold backtests, price statistics.

    >>> from backtest import sma_crossover, max_drawdown
    >>> max_drawdown([100, 120, 90, 130])[0]
    0.25
"""

__version__ = "1.0.0"

from .data import DataError, load_prices, parse_prices  # noqa: E402
from .metrics import (  # noqa: E402
    annualised_return,
    annualised_volatility,
    max_drawdown,
    returns,
    sharpe_ratio,
    total_return,
)
from .strategies import buy_and_hold, sma, sma_crossover  # noqa: E402

__all__ = [
    "DataError", "load_prices", "parse_prices", "annualised_return",
    "annualised_volatility", "max_drawdown", "returns", "sharpe_ratio",
    "total_return", "buy_and_hold", "sma", "sma_crossover",
]
