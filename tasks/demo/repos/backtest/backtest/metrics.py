"""Performance metrics of price and equity series.

Conventions: simple daily returns, 252 trading days per year, sample
standard deviation (n - 1), drawdowns measured from the running maximum and
reported as positive percentages.
"""

import math

__all__ = [
    "TRADING_DAYS",
    "returns",
    "total_return",
    "annualised_return",
    "annualised_volatility",
    "sharpe_ratio",
    "max_drawdown",
    "summary",
]

TRADING_DAYS = 252


def returns(values):
    """Simple period returns ``v[t] / v[t-1] - 1``."""
    return [b / a - 1.0 for a, b in zip(values, values[1:])]


def total_return(values):
    """Total return as a fraction (0.1 = +10 %)."""
    return values[-1] / values[0] - 1.0


def annualised_return(values, periods=TRADING_DAYS):
    """Compound annual growth rate assuming ``periods`` observations per year."""
    n = len(values) - 1
    if n <= 0:
        return 0.0
    return (values[-1] / values[0]) ** (periods / n) - 1.0


def _mean(xs):
    return sum(xs) / len(xs)


def _stdev(xs):
    if len(xs) < 2:
        return 0.0
    m = _mean(xs)
    return math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1))


def annualised_volatility(values, periods=TRADING_DAYS):
    """Annualised volatility (fraction): stdev of daily returns x sqrt(periods)."""
    return _stdev(returns(values)) * math.sqrt(periods)


def sharpe_ratio(values, risk_free=0.0, periods=TRADING_DAYS):
    """Annualised Sharpe ratio of the daily returns.

    ``risk_free`` is an annual rate (0.02 = 2 %), converted to a per-period
    rate by dividing by ``periods``. Returns 0.0 for a flat series.
    """
    r = returns(values)
    sd = _stdev(r)
    if sd == 0:
        return 0.0
    return (_mean(r) - risk_free / periods) / sd * math.sqrt(periods)


def max_drawdown(values):
    """Largest peak-to-trough decline.

    Returns ``(fraction, peak_index, trough_index)``; fraction 0.25 means the
    series fell 25 % below its previous high. ``(0.0, 0, 0)`` if it never fell.
    """
    peak_i, best = 0, (0.0, 0, 0)
    for i, v in enumerate(values):
        if v > values[peak_i]:
            peak_i = i
        dd = 1.0 - v / values[peak_i]
        if dd > best[0]:
            best = (dd, peak_i, i)
    return best


def summary(values, risk_free=0.0):
    """Dict with total_return, annualised_return, volatility, sharpe, max_drawdown (fractions)."""
    dd, peak, trough = max_drawdown(values)
    return {
        "total_return": total_return(values),
        "annualised_return": annualised_return(values),
        "volatility": annualised_volatility(values),
        "sharpe": sharpe_ratio(values, risk_free),
        "max_drawdown": dd,
        "drawdown_peak": peak,
        "drawdown_trough": trough,
    }
