import json
import os
import subprocess
import sys
import tempfile
import unittest

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(*args, cwd=None):
    env = dict(os.environ, PYTHONPATH=REPO)
    return subprocess.run(
        [sys.executable, "-m", "chemcalc", *args],
        cwd=cwd or REPO, env=env, capture_output=True, text=True, timeout=60,
    )


class CLITests(unittest.TestCase):
    def test_help_everywhere(self):
        for cmd in ([], ["mass"], ["composition"], ["empirical"], ["batch"], ["element"]):
            r = run(*cmd, "--help")
            self.assertEqual(r.returncode, 0, cmd)
            self.assertIn("usage:", r.stdout)

    def test_mass(self):
        r = run("mass", "C6H12O6")
        self.assertEqual(r.returncode, 0)
        self.assertEqual(r.stdout, "C6H12O6 180.156 g/mol\n")

    def test_mass_hydrate_and_json(self):
        r = run("mass", "CuSO4*5H2O", "--json")
        self.assertEqual(json.loads(r.stdout)["molar_mass"], 249.677)

    def test_mass_bad_formula(self):
        r = run("mass", "Xq2")
        self.assertEqual(r.returncode, 1)
        self.assertEqual(r.stdout, "")
        self.assertEqual(len(r.stderr.strip().splitlines()), 1)
        self.assertNotIn("Traceback", r.stderr)

    def test_mass_file(self):
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "f.txt")
            with open(p, "w") as fh:
                fh.write("H2O\n# comment\nNaCl\n")
            r = run("mass", "--file", p)
        self.assertEqual(r.stdout, "H2O 18.015 g/mol\nNaCl 58.440 g/mol\n")

    def test_composition_json(self):
        r = run("composition", "NH4NO3", "--json")
        data = json.loads(r.stdout)
        self.assertAlmostEqual(data["elements"]["N"]["percent"], 34.999, places=3)
        self.assertEqual(data["elements"]["H"]["count"], 4)

    def test_empirical(self):
        r = run("empirical", "C=40.0", "H=6.71", "O=53.29", "--molar-mass", "180")
        self.assertIn("empirical formula: CH2O", r.stdout)
        self.assertIn("molecular formula: C6H12O6", r.stdout)

    def test_batch(self):
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "c.csv")
            with open(p, "w", encoding="utf-8") as fh:
                fh.write('Name,Formula\nWater,H2O\n"Salt, table",NaCl\nBad,Zz\nBlue vitriol,CuSO4·5H2O\n')
            r = run("batch", p)
            self.assertEqual(r.returncode, 0)
            lines = r.stdout.splitlines()
            self.assertEqual(lines[0], "Name,Formula,molar_mass")
            self.assertEqual(lines[2], '"Salt, table",NaCl,58.440')
            self.assertEqual(lines[3], "Bad,Zz,")
            self.assertEqual(lines[4], "Blue vitriol,CuSO4·5H2O,249.677")
            self.assertIn("line 4", r.stderr)
            r = run("batch", "c.csv", "-o", "out.csv", cwd=d)
            self.assertIn("wrote out.csv: 4 rows, 3 with a molar mass", r.stdout)
            with open(os.path.join(d, "out.csv"), encoding="utf-8") as fh:
                self.assertIn("Water,H2O,18.015", fh.read())

    def test_batch_missing_column(self):
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "c.csv")
            with open(p, "w") as fh:
                fh.write("a,b\n1,2\n")
            r = run("batch", p)
        self.assertEqual(r.returncode, 1)
        self.assertIn("no 'formula' column", r.stderr)

    def test_missing_file(self):
        r = run("batch", "/nonexistent/x.csv")
        self.assertEqual(r.returncode, 1)
        self.assertNotIn("Traceback", r.stderr)

    def test_usage_error(self):
        r = run("mass", "--decimals", "x")
        self.assertEqual(r.returncode, 2)


if __name__ == "__main__":
    unittest.main()
