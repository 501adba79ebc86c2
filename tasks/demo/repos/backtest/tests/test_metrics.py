import math
import unittest

from backtest.metrics import (
    annualised_return,
    annualised_volatility,
    max_drawdown,
    returns,
    sharpe_ratio,
    total_return,
)
from backtest.strategies import buy_and_hold, sma, sma_crossover


class MetricTests(unittest.TestCase):
    def test_returns_and_total(self):
        self.assertEqual(returns([100, 110, 99]), [0.10000000000000009, -0.09999999999999998])
        self.assertAlmostEqual(total_return([100, 110, 99]), -0.01)

    def test_max_drawdown(self):
        dd, peak, trough = max_drawdown([100, 120, 90, 130, 104, 140])
        self.assertAlmostEqual(dd, 0.25)
        self.assertEqual((peak, trough), (1, 2))
        self.assertEqual(max_drawdown([1, 2, 3]), (0.0, 0, 0))

    def test_volatility_and_sharpe(self):
        prices = [100, 101, 100, 102, 101]
        r = returns(prices)
        mean = sum(r) / len(r)
        sd = math.sqrt(sum((x - mean) ** 2 for x in r) / (len(r) - 1))
        self.assertAlmostEqual(annualised_volatility(prices), sd * math.sqrt(252))
        self.assertAlmostEqual(sharpe_ratio(prices), mean / sd * math.sqrt(252))
        self.assertAlmostEqual(sharpe_ratio(prices, risk_free=0.0252),
                               (mean - 0.0001) / sd * math.sqrt(252))
        self.assertEqual(sharpe_ratio([5, 5, 5]), 0.0)

    def test_annualised_return(self):
        prices = [100.0] + [0.0] * 252
        prices[-1] = 110.0
        self.assertAlmostEqual(annualised_return(prices), 0.10)


class StrategyTests(unittest.TestCase):
    def test_sma(self):
        self.assertEqual(sma([1, 2, 3, 4], 2), [None, 1.5, 2.5, 3.5])
        self.assertEqual(sma([1, 2, 3], 3), [None, None, 2.0])

    def test_buy_and_hold(self):
        res = buy_and_hold([100, 50, 150], cash=1000)
        self.assertEqual(res.equity, [1000, 500, 1500])
        self.assertAlmostEqual(res.max_drawdown, 0.5)
        self.assertEqual(len(res.trades), 1)
        self.assertTrue(res.trades[0].open)

    def test_crossover_positions_and_equity(self):
        prices = [10, 10, 10, 11, 12, 13, 12, 11, 10, 9, 9]
        res = sma_crossover(prices, 1, 3, cash=100)
        slow = sma(prices, 3)
        expected_pos = [1 if s is not None and p > s else 0 for p, s in zip(prices, slow)]
        self.assertEqual(res.positions, expected_pos)
        # equity only moves on days after an invested close
        eq = 100.0
        for t in range(1, len(prices)):
            eq *= 1 + expected_pos[t - 1] * (prices[t] / prices[t - 1] - 1)
            self.assertAlmostEqual(res.equity[t], eq)
        # one round trip: bought at 11 (day 3); on day 6 the close 12 falls
        # below the 3-day average 12.33, so it is sold at 12
        self.assertEqual(len(res.trades), 1)
        t = res.trades[0]
        self.assertEqual((t.entry_index, t.exit_index, t.entry_price, t.exit_price), (3, 6, 11, 12))
        self.assertAlmostEqual(res.final_equity, 100.0 * 12 / 11)

    def test_fees(self):
        prices = [10, 10, 10, 11, 12, 13, 12, 11, 10, 9, 9]
        res = sma_crossover(prices, 1, 3, cash=100, fee=0.01)
        self.assertAlmostEqual(res.final_equity, 100 * 0.99 * 0.99 * 12 / 11)

    def test_bad_windows(self):
        with self.assertRaises(ValueError):
            sma_crossover([1, 2, 3], 5, 3)
        with self.assertRaises(ValueError):
            sma_crossover([1, 2, 3], 2, 10)


if __name__ == "__main__":
    unittest.main()
