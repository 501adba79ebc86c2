import unittest

from htmltext.base import decode_html
from htmltext.text import html_to_text


class TextTests(unittest.TestCase):
    def test_drops_script_style_head_comments(self):
        html = ("<html><head><title>T</title><style>p{color:red}</style></head><body>"
                "<script>var leaked = 'x';</script><p>Visible<!-- hidden comment --></p>"
                "<noscript>enable js</noscript></body></html>")
        self.assertEqual(html_to_text(html), "Visible\n")

    def test_entities(self):
        html = "<p>Fish &amp; chips &mdash; caf&eacute; &#8364;5 &#x263A; &lt;b&gt;&nbsp;ok</p>"
        self.assertEqual(html_to_text(html), "Fish & chips — café €5 ☺ <b> ok\n")

    def test_blocks_separated_by_blank_line(self):
        html = "<h1>Title</h1><p>One\n   two</p><div>Three</div>"
        self.assertEqual(html_to_text(html), "Title\n\nOne two\n\nThree\n")

    def test_inline_tags_do_not_split_words(self):
        self.assertEqual(html_to_text("<p>H<sub>2</sub>O is <b>wet</b>.</p>"), "H2O is wet.\n")

    def test_nested_lists(self):
        html = ("<ul><li>a<li>b<ul><li>b1</li><li>b2</li></ul></li><li><p>c</p></li></ul>"
                "<ol><li>first</li><li>second</li></ol>")
        self.assertEqual(html_to_text(html), "- a\n- b\n  - b1\n  - b2\n- c\n\n1. first\n2. second\n")

    def test_hidden_elements(self):
        html = ('<p>shown</p><div hidden><p>no</p></div><span style="display: none">no</span>'
                '<p aria-hidden="true">no</p><p>end</p>')
        self.assertEqual(html_to_text(html), "shown\n\nend\n")

    def test_nested_same_tag_hidden(self):
        html = "<div hidden><div>x</div><div>y</div></div><p>after</p>"
        self.assertEqual(html_to_text(html), "after\n")

    def test_table_rows(self):
        html = "<table><tr><th>A</th><th>B</th></tr><tr><td>1</td><td>2</td></tr></table>"
        self.assertEqual(html_to_text(html), "A | B\n1 | 2\n")

    def test_pre_and_br(self):
        html = "<pre>  a\n    b</pre><p>x<br>y</p>"
        self.assertEqual(html_to_text(html), "  a\n    b\n\nx\ny\n")

    def test_unclosed_head(self):
        self.assertEqual(html_to_text("<head><title>x</title><body><p>body text"), "body text\n")

    def test_markdown(self):
        html = '<h2>Sub</h2><p>see <a href="/x">this</a></p>'
        self.assertEqual(html_to_text(html, markdown=True), "## Sub\n\nsee [this](/x)\n")

    def test_plain_text_passthrough(self):
        self.assertEqual(html_to_text("line one\nline two\n"), "line one\nline two\n")

    def test_empty(self):
        self.assertEqual(html_to_text(""), "")


class DecodeTests(unittest.TestCase):
    def test_meta_charset(self):
        data = '<meta charset="iso-8859-1"><p>caf\xe9</p>'.encode("latin-1")
        self.assertIn("café", decode_html(data))

    def test_utf8_default_and_bom(self):
        self.assertEqual(decode_html("café".encode("utf-8")), "café")
        self.assertEqual(decode_html(b"\xef\xbb\xbfhi"), "hi")

    def test_cp1252_fallback(self):
        self.assertEqual(decode_html(b"caf\xe9 \x93q\x94"), "café “q”")


if __name__ == "__main__":
    unittest.main()
