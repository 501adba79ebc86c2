import json
import os
import subprocess
import sys
import tempfile
import unittest

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

HTML = """<html lang="en"><head><title>Shop</title>
<script>document.write("tracking")</script></head><body>
<h1>Prices</h1><p>Tea &amp; coffee</p>
<a href="/a">A</a> <a href="b.html">B</a>
<table><tr><th>Item</th><th>Price</th></tr><tr><td>Tea</td><td>2</td></tr></table>
<table><tr><th>X</th></tr><tr><td>1</td></tr></table>
</body></html>"""


def run(*args, cwd=None, stdin=None):
    env = dict(os.environ, PYTHONPATH=REPO)
    return subprocess.run([sys.executable, "-m", "htmltext", *args], cwd=cwd or REPO,
                          env=env, capture_output=True, text=True, timeout=60, input=stdin)


class CLITests(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name
        with open(os.path.join(self.dir, "page.html"), "w", encoding="utf-8") as fh:
            fh.write(HTML)

    def tearDown(self):
        self.tmp.cleanup()

    def test_help(self):
        for cmd in ([], ["text"], ["links"], ["tables"], ["meta"]):
            r = run(*cmd, "--help")
            self.assertEqual(r.returncode, 0)
            self.assertIn("usage:", r.stdout)

    def test_text(self):
        r = run("text", "page.html", cwd=self.dir)
        self.assertEqual(r.returncode, 0)
        self.assertTrue(r.stdout.startswith("Prices\n\nTea & coffee\n\nA B\n\nItem | Price\nTea | 2\n"))
        self.assertNotIn("tracking", r.stdout)

    def test_text_stdin_and_output(self):
        r = run("text", "-", "-o", "out.txt", cwd=self.dir, stdin="<p>hi</p>")
        self.assertIn("wrote out.txt", r.stdout)
        with open(os.path.join(self.dir, "out.txt")) as fh:
            self.assertEqual(fh.read(), "hi\n")

    def test_links(self):
        r = run("links", "page.html", "--base", "https://shop.example/x/", cwd=self.dir)
        self.assertEqual(r.stdout, "https://shop.example/a\nhttps://shop.example/x/b.html\n")

    def test_tables(self):
        r = run("tables", "page.html", "--index", "2", cwd=self.dir)
        self.assertEqual(r.stdout, "X\n1\n")
        r = run("tables", "page.html", "-o", "t.csv", cwd=self.dir)
        self.assertIn("wrote t.csv", r.stdout)
        with open(os.path.join(self.dir, "t.csv")) as fh:
            self.assertEqual(fh.read(), "Item,Price\nTea,2\n")
        r = run("tables", "page.html", "--list", cwd=self.dir)
        self.assertEqual(len(r.stdout.splitlines()), 2)

    def test_table_out_of_range(self):
        r = run("tables", "page.html", "--index", "5", cwd=self.dir)
        self.assertEqual(r.returncode, 1)
        self.assertIn("has 2 table(s)", r.stderr)

    def test_meta(self):
        r = run("meta", "page.html", cwd=self.dir)
        data = json.loads(r.stdout)
        self.assertEqual(data["title"], "Shop")
        self.assertEqual(data["lang"], "en")
        self.assertEqual(data["headings"][0]["text"], "Prices")

    def test_missing_file(self):
        r = run("text", "nope.html", cwd=self.dir)
        self.assertEqual(r.returncode, 1)
        self.assertNotIn("Traceback", r.stderr)
        self.assertEqual(len(r.stderr.strip().splitlines()), 1)

    def test_usage_error(self):
        r = run("tables", "page.html", "--index", "x", cwd=self.dir)
        self.assertEqual(r.returncode, 2)


if __name__ == "__main__":
    unittest.main()
