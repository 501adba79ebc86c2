"""Trading strategies simulated on a daily close series.

Execution model (no look-ahead): a signal computed from the close of day t
is traded at that same close, so the new position earns the return from
day t to day t+1. The whole equity is invested (fractional units), long
only, and an optional proportional fee is charged on every buy and sell.
"""

from collections import namedtuple

from .metrics import max_drawdown

__all__ = ["Trade", "BacktestResult", "sma", "sma_crossover", "buy_and_hold"]

Trade = namedtuple("Trade", "entry_index exit_index entry_price exit_price return_pct open")

BacktestResult = namedtuple(
    "BacktestResult", "name positions equity trades final_equity total_return max_drawdown exposure"
)


def sma(values, n):
    """Simple moving average; ``None`` for the first ``n - 1`` entries."""
    if n < 1:
        raise ValueError("window must be >= 1")
    out, acc = [], 0.0
    for i, v in enumerate(values):
        acc += v
        if i >= n:
            acc -= values[i - n]
        out.append(acc / n if i >= n - 1 else None)
    return out


def _simulate(name, prices, positions, cash, fee):
    equity = [cash]
    prev = 0
    eq = cash
    if positions[0] != prev:
        eq *= 1.0 - fee
        equity[0] = eq
    prev = positions[0]
    for t in range(1, len(prices)):
        eq *= 1.0 + positions[t - 1] * (prices[t] / prices[t - 1] - 1.0)
        if positions[t] != prev:
            eq *= 1.0 - fee
        prev = positions[t]
        equity.append(eq)

    trades, entry = [], None
    for t, pos in enumerate(positions):
        if pos and entry is None:
            entry = t
        elif not pos and entry is not None:
            trades.append(Trade(entry, t, prices[entry], prices[t],
                                100.0 * (prices[t] / prices[entry] - 1.0), False))
            entry = None
    if entry is not None:
        last = len(prices) - 1
        trades.append(Trade(entry, last, prices[entry], prices[last],
                            100.0 * (prices[last] / prices[entry] - 1.0), True))
    held = sum(positions[:-1]) if len(positions) > 1 else 0
    return BacktestResult(
        name=name,
        positions=positions,
        equity=equity,
        trades=trades,
        final_equity=equity[-1],
        total_return=equity[-1] / cash - 1.0,
        max_drawdown=max_drawdown(equity)[0],
        exposure=held / max(1, len(prices) - 1),
    )


def sma_crossover(prices, fast, slow, cash=10000.0, fee=0.0):
    """Long when SMA(fast) > SMA(slow), flat otherwise.

    Before ``slow`` prices are available the strategy stays flat.
    ``fee`` is a fraction of equity charged per buy or sell (0.001 = 0.1 %).
    """
    if fast < 1 or slow < 1:
        raise ValueError("moving-average windows must be >= 1")
    if fast >= slow:
        raise ValueError("fast window (%d) must be shorter than slow window (%d)" % (fast, slow))
    if len(prices) < slow:
        raise ValueError("need at least %d prices for a %d-day average, got %d"
                         % (slow, slow, len(prices)))
    f, s = sma(prices, fast), sma(prices, slow)
    positions = [1 if (a is not None and b is not None and a > b) else 0 for a, b in zip(f, s)]
    return _simulate("SMA crossover (fast %d, slow %d)" % (fast, slow), prices, positions, cash, fee)


def buy_and_hold(prices, cash=10000.0, fee=0.0):
    """Buy at the first close and hold to the last one."""
    return _simulate("buy and hold", prices, [1] * len(prices), cash, fee)
