import csv
import json
import os
import subprocess
import sys
import tempfile
import unittest

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

PRICES = "date,close\n" + "".join(
    "2024-01-%02d,%s\n" % (i + 1, p)
    for i, p in enumerate([10, 10, 10, 11, 12, 13, 12, 11, 10, 9, 9])
)


def run(*args, cwd=None):
    env = dict(os.environ, PYTHONPATH=REPO)
    return subprocess.run([sys.executable, "-m", "backtest", *args], cwd=cwd or REPO,
                          env=env, capture_output=True, text=True, timeout=60)


class CLITests(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name
        with open(os.path.join(self.dir, "prices.csv"), "w") as fh:
            fh.write(PRICES)

    def tearDown(self):
        self.tmp.cleanup()

    def test_help(self):
        for cmd in ([], ["sma"], ["buyhold"], ["stats"]):
            r = run(*cmd, "--help")
            self.assertEqual(r.returncode, 0)
            self.assertIn("usage:", r.stdout)

    def test_sma_writes_equity(self):
        r = run("sma", "prices.csv", "--fast", "1", "--slow", "3", "--cash", "1000",
                "-o", "equity.csv", cwd=self.dir)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("trades: 1\n", r.stdout)
        self.assertIn("total return: 9.09 %", r.stdout)
        self.assertIn("final equity: 1090.91", r.stdout)
        # equity peaked at 1000*13/11 and was sold at 1000*12/11 -> 7.69 %
        self.assertIn("max drawdown: 7.69 %", r.stdout)
        self.assertIn("buy & hold return: -10.00 %", r.stdout)
        with open(os.path.join(self.dir, "equity.csv")) as fh:
            rows = list(csv.reader(fh))
        self.assertEqual(rows[0], ["date", "close", "position", "equity"])
        self.assertEqual(len(rows), 12)
        self.assertEqual(rows[4], ["2024-01-04", "11", "1", "1000.00"])
        self.assertEqual(rows[6], ["2024-01-06", "13", "1", "1181.82"])
        self.assertEqual(rows[7], ["2024-01-07", "12", "0", "1090.91"])
        self.assertEqual(rows[11], ["2024-01-11", "9", "0", "1090.91"])

    def test_sma_json(self):
        r = run("sma", "prices.csv", "--fast", "1", "--slow", "3", "--json", cwd=self.dir)
        data = json.loads(r.stdout)
        self.assertEqual(data["trades"], 1)
        self.assertEqual(data["trade_list"][0]["entry_date"], "2024-01-04")

    def test_buyhold(self):
        r = run("buyhold", "prices.csv", cwd=self.dir)
        self.assertIn("total return: -10.00 %", r.stdout)
        self.assertIn("final equity: 9000.00", r.stdout)
        self.assertIn("max drawdown: 30.77 %", r.stdout)

    def test_stats_json(self):
        r = run("stats", "prices.csv", "--json", cwd=self.dir)
        data = json.loads(r.stdout)
        self.assertAlmostEqual(data["total_return_pct"], -10.0)
        self.assertAlmostEqual(data["max_drawdown_pct"], 30.7692, places=3)
        self.assertEqual(data["drawdown_peak"], "2024-01-06")

    def test_errors(self):
        r = run("sma", "prices.csv", "--fast", "5", "--slow", "3", cwd=self.dir)
        self.assertEqual(r.returncode, 1)
        self.assertIn("must be shorter", r.stderr)
        r = run("stats", "missing.csv", cwd=self.dir)
        self.assertEqual(r.returncode, 1)
        self.assertNotIn("Traceback", r.stderr)
        r = run("sma", "prices.csv", cwd=self.dir)
        self.assertEqual(r.returncode, 2)


if __name__ == "__main__":
    unittest.main()
