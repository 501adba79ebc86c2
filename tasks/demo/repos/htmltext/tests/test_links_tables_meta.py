import unittest

from htmltext.links import extract_links
from htmltext.meta import extract_meta
from htmltext.tables import extract_tables, table_to_csv

PAGE = """<!DOCTYPE html>
<html lang="de-AT"><head>
<title>  Lab &amp; Inventory </title>
<meta name="description" content="Stock list">
<meta property="og:title" content="OG title">
<meta name="keywords" content="chemistry, lab">
<link rel="canonical" href="https://lab.example.edu/inventory">
</head><body>
<h1>Inventory</h1>
<a href="/">Home</a> <a href="sub/page.html">Sub</a> <a href="../up.html">Up</a>
<a href="#top">Top</a> <a href="javascript:void(0)">JS</a>
<a href="https://other.example.com/?a=1&amp;b=2">Other</a>
<a href="/">Home again</a>
<a href="mailto:x@example.edu">Mail</a>
<img src="logo.png" alt="logo">
<h2>First table</h2>
<table><tr><td>no</td><td>header</td></tr></table>
<h2 hidden>Secret heading</h2>
<table id="chem"><caption>Chemicals</caption>
<thead><tr><th>Group</th><th>Name</th><th>Formula</th></tr></thead>
<tbody>
<tr><td rowspan="2">Salts</td><td>Salt, table</td><td>NaCl</td></tr>
<tr><td>Blue vitriol</td><td>CuSO<sub>4</sub>&middot;5H<sub>2</sub>O</td></tr>
<tr><td colspan="2">Water</td><td>H<sub>2</sub>O</td></tr>
<tr><td>Short row</td></tr>
</tbody></table>
</body></html>
"""


class LinkTests(unittest.TestCase):
    def test_absolute_with_base(self):
        urls = [u for u, _ in extract_links(PAGE, base="https://lab.example.edu/a/index.html")]
        self.assertEqual(urls, [
            "https://lab.example.edu/",
            "https://lab.example.edu/a/sub/page.html",
            "https://lab.example.edu/up.html",
            "https://other.example.com/?a=1&b=2",
            "mailto:x@example.edu",
        ])

    def test_without_base_and_duplicates(self):
        links = extract_links(PAGE, unique=False, fragments=True)
        urls = [u for u, _ in links]
        self.assertEqual(urls.count("/"), 2)
        self.assertIn("#top", urls)
        self.assertEqual(dict(links)["sub/page.html"], "Sub")

    def test_base_tag(self):
        html = '<base href="https://cdn.example.org/docs/"><a href="x.html">x</a>'
        self.assertEqual(extract_links(html), [("https://cdn.example.org/docs/x.html", "x")])

    def test_resources(self):
        urls = [u for u, _ in extract_links(PAGE, resources=True)]
        self.assertIn("logo.png", urls)


class TableTests(unittest.TestCase):
    def test_list_and_header(self):
        tables = extract_tables(PAGE)
        self.assertEqual(len(tables), 2)
        self.assertIsNone(tables[0].header)
        self.assertEqual(tables[1].header, ["Group", "Name", "Formula"])
        self.assertEqual(tables[1].caption, "Chemicals")
        self.assertEqual(tables[1].shape, (5, 3))

    def test_csv_with_spans_and_quoting(self):
        csv_text = table_to_csv(extract_tables(PAGE)[1])
        self.assertEqual(csv_text.splitlines(), [
            "Group,Name,Formula",
            'Salts,"Salt, table",NaCl',
            "Salts,Blue vitriol,CuSO4·5H2O",
            "Water,Water,H2O",
            "Short row,,",
        ])

    def test_no_header_option(self):
        csv_text = table_to_csv(extract_tables(PAGE)[1], header=False)
        self.assertTrue(csv_text.startswith("Salts,"))

    def test_nested_and_unclosed(self):
        html = ("<table><tr><td>a<td><table><tr><td>inner</table>b"
                "<tr><td>c<td>d</table>")
        tables = extract_tables(html)
        self.assertEqual(len(tables), 2)
        self.assertEqual(table_to_csv(tables[0]), "a,b\nc,d\n")
        self.assertEqual(table_to_csv(tables[1]), "inner\n")


class MetaTests(unittest.TestCase):
    def test_meta(self):
        m = extract_meta(PAGE)
        self.assertEqual(m["title"], "Lab & Inventory")
        self.assertEqual(m["description"], "Stock list")
        self.assertEqual(m["lang"], "de-AT")
        self.assertEqual(m["keywords"], ["chemistry", "lab"])
        self.assertEqual(m["canonical"], "https://lab.example.edu/inventory")
        self.assertEqual(m["headings"], [
            {"level": 1, "text": "Inventory"},
            {"level": 2, "text": "First table"},
        ])
        self.assertEqual(m["counts"]["tables"], 2)
        self.assertEqual(m["counts"]["images"], 1)

    def test_fallbacks(self):
        m = extract_meta('<meta property="og:title" content="OG"><p>x</p>')
        self.assertEqual(m["title"], "OG")
        self.assertIsNone(m["lang"])
        self.assertEqual(m["headings"], [])


if __name__ == "__main__":
    unittest.main()
