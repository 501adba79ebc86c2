import unittest

from backtest.data import DataError, parse_prices


class DataTests(unittest.TestCase):
    def test_simple(self):
        s = parse_prices("date,close\n2024-01-02,10\n2024-01-03,11.5\n")
        self.assertEqual(s.dates, ["2024-01-02", "2024-01-03"])
        self.assertEqual(s.prices, [10.0, 11.5])
        self.assertEqual(s.column, "close")

    def test_case_insensitive_and_price_column(self):
        s = parse_prices("Date;Ticker;Price\n2024-01-02;X;5\n2024-01-03;X;6\n")
        self.assertEqual(s.prices, [5.0, 6.0])
        self.assertEqual(s.column, "Price")

    def test_broker_export(self):
        text = (
            'Date,Open,High,Low,Close*,Adj Close**,Volume\n'
            '"Mar 05, 2024","1,704.47","1,727.66","1,690.29","1,718.23","1,700.00","2,128,848"\n'
            '"Mar 04, 2024","1,000.00","1,000.00","1,000.00","1,712.18","1,690.00","1,405,766"\n'
            '"Mar 04, 2024","0.50 Dividend","","","","",""\n'
            '"*Close price adjusted for splits.","","","","","",""\n'
        )
        s = parse_prices(text)
        self.assertEqual(s.dates, ["2024-03-04", "2024-03-05"])
        self.assertEqual(s.prices, [1712.18, 1718.23])
        self.assertEqual(s.skipped, 2)
        adj = parse_prices(text, column="adj close")
        self.assertEqual(adj.prices, [1690.0, 1700.0])

    def test_choose_column(self):
        s = parse_prices("date,close,position,equity\n2024-01-02,10,0,100\n2024-01-03,11,1,100\n",
                         column="equity")
        self.assertEqual(s.prices, [100.0, 100.0])

    def test_errors(self):
        with self.assertRaises(DataError):
            parse_prices("")
        with self.assertRaises(DataError):
            parse_prices("date,close\n2024-01-02,10\n")
        with self.assertRaises(DataError):
            parse_prices("date,close\n2024-01-02,10\n2024-01-03,11\n", column="volume")
        with self.assertRaises(DataError):
            parse_prices("date,close\n2024-01-02,10\n2024-01-03,-1\n")


if __name__ == "__main__":
    unittest.main()
