package generation

import (
	"bytes"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"path"
	"strconv"
	"strings"

	"github.com/agentnet/agentnet/internal/lazyregexp"
)

// sampleKind is one kind of small input file the gate can make: the file
// name extensions and the words of a parameter's description that ask for
// it, and the bytes of a small valid file of that kind.
type sampleKind struct {
	ext       string   // the extension the sample file gets
	exts      []string // every extension of the kind
	words     []string // words of a description that name the kind
	mediaType string
	data      func() []byte
}

// sampleKinds are the kinds in the order a description's words are tried:
// the more specific first (a "JSON file" of CSV rows is JSON).
var sampleKinds = []sampleKind{
	{ext: ".png", exts: []string{".png"}, words: []string{"png", "image", "picture", "photo"}, mediaType: "image/png", data: samplePNG},
	{ext: ".jpg", exts: []string{".jpg", ".jpeg"}, words: []string{"jpeg", "jpg"}, mediaType: "image/jpeg", data: sampleJPEG},
	{ext: ".gif", exts: []string{".gif"}, words: []string{"gif"}, mediaType: "image/gif", data: sampleGIF},
	{ext: ".pdf", exts: []string{".pdf"}, words: []string{"pdf"}, mediaType: "application/pdf", data: samplePDF},
	{ext: ".json", exts: []string{".json", ".geojson"}, words: []string{"json"}, mediaType: "application/json", data: text("{\"name\": \"example\", \"values\": [1, 2, 3]}\n")},
	{ext: ".jsonl", exts: []string{".jsonl", ".ndjson"}, words: []string{"jsonl", "ndjson"}, mediaType: "application/jsonl", data: text("{\"name\": \"a\", \"value\": 1}\n{\"name\": \"b\", \"value\": 2}\n")},
	{ext: ".csv", exts: []string{".csv"}, words: []string{"csv"}, mediaType: "text/csv", data: text("name,value\na,1\nb,2\n")},
	{ext: ".tsv", exts: []string{".tsv"}, words: []string{"tsv", "tab-separated"}, mediaType: "text/tab-separated-values", data: text("name\tvalue\na\t1\nb\t2\n")},
	{ext: ".yaml", exts: []string{".yaml", ".yml"}, words: []string{"yaml", "yml"}, mediaType: "application/yaml", data: text("name: example\nvalues: [1, 2, 3]\n")},
	{ext: ".toml", exts: []string{".toml"}, words: []string{"toml"}, mediaType: "application/toml", data: text("name = \"example\"\nvalues = [1, 2, 3]\n")},
	{ext: ".xml", exts: []string{".xml"}, words: []string{"xml"}, mediaType: "application/xml", data: text("<?xml version=\"1.0\"?>\n<items><item name=\"a\">1</item></items>\n")},
	{ext: ".html", exts: []string{".html", ".htm"}, words: []string{"html", "web page"}, mediaType: "text/html", data: text("<!DOCTYPE html>\n<html><head><title>Example</title></head><body><h1>Example</h1><p>A <a href=\"https://example.com/\">link</a>.</p></body></html>\n")},
	{ext: ".md", exts: []string{".md", ".markdown"}, words: []string{"markdown"}, mediaType: "text/markdown", data: text("# Example\n\nSome *text* with a [link](https://example.com/).\n")},
	{ext: ".sql", exts: []string{".sql"}, words: []string{"sql"}, mediaType: "application/sql", data: text("SELECT 1;\n")},
	{ext: ".txt", exts: []string{".txt", ".text", ".log"}, words: []string{"text"}, mediaType: "text/plain", data: text("The quick brown fox jumps over the lazy dog.\n")},
}

func text(s string) func() []byte { return func() []byte { return []byte(s) } }

// plainKind is the fallback: a line of plain text.
var plainKind = sampleKinds[len(sampleKinds)-1]

// kindByExt returns the kind of a file name's extension.
func kindByExt(name string) (sampleKind, bool) {
	ext := strings.ToLower(path.Ext(name))
	for _, k := range sampleKinds {
		for _, e := range k.exts {
			if e == ext {
				return k, true
			}
		}
	}
	return sampleKind{}, false
}

var wordRE = lazyregexp.New(`[A-Za-z][A-Za-z0-9-]*`)

// kindByWords returns the kind the words of a parameter's name and
// description ask for, or the plain-text kind.
func kindByWords(s string) sampleKind {
	seen := map[string]bool{}
	words := wordRE.FindAllString(strings.ToLower(s), -1)
	for _, w := range words {
		seen[w] = true
	}
	lower := " " + strings.Join(words, " ") + " "
	for _, k := range sampleKinds {
		for _, w := range k.words {
			if seen[w] || (strings.Contains(w, " ") && strings.Contains(lower, " "+w+" ")) {
				return k
			}
		}
	}
	// A file name in the description ("e.g. data.csv") says it too.
	for _, f := range strings.Fields(s) {
		if k, ok := kindByExt(strings.Trim(f, "`'\",;:()")); ok {
			return k
		}
	}
	return plainKind
}

// kindByMediaType returns the kind of a media type, if the gate can make
// one.
func kindByMediaType(mt string) (sampleKind, bool) {
	mt, _, _ = strings.Cut(mt, ";")
	mt = strings.TrimSpace(strings.ToLower(mt))
	for _, k := range sampleKinds {
		if k.mediaType == mt {
			return k, true
		}
	}
	return sampleKind{}, false
}

func sampleImage() image.Image {
	img := image.NewRGBA(image.Rect(0, 0, 8, 8))
	for y := range 8 {
		for x := range 8 {
			img.Set(x, y, color.RGBA{R: uint8(32 * x), G: uint8(32 * y), B: 128, A: 255})
		}
	}
	return img
}

func samplePNG() []byte {
	var b bytes.Buffer
	png.Encode(&b, sampleImage())
	return b.Bytes()
}

func sampleJPEG() []byte {
	var b bytes.Buffer
	jpeg.Encode(&b, sampleImage(), nil)
	return b.Bytes()
}

func sampleGIF() []byte {
	var b bytes.Buffer
	gif.Encode(&b, sampleImage(), nil)
	return b.Bytes()
}

// samplePDF is a one-page PDF that says "Hello", with a correct
// cross-reference table.
func samplePDF() []byte {
	objs := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
		"", // the content stream, below
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
	}
	stream := "BT /F1 18 Tf 20 50 Td (Hello) Tj ET"
	objs[3] = "<< /Length " + strconv.Itoa(len(stream)) + " >>\nstream\n" + stream + "\nendstream"
	var b bytes.Buffer
	b.WriteString("%PDF-1.4\n")
	offsets := make([]int, len(objs))
	for i, o := range objs {
		offsets[i] = b.Len()
		b.WriteString(strconv.Itoa(i+1) + " 0 obj\n" + o + "\nendobj\n")
	}
	xref := b.Len()
	b.WriteString("xref\n0 " + strconv.Itoa(len(objs)+1) + "\n0000000000 65535 f \n")
	for _, off := range offsets {
		s := strconv.Itoa(off)
		b.WriteString(strings.Repeat("0", 10-len(s)) + s + " 00000 n \n")
	}
	b.WriteString("trailer\n<< /Size " + strconv.Itoa(len(objs)+1) + " /Root 1 0 R >>\nstartxref\n" + strconv.Itoa(xref) + "\n%%EOF\n")
	return b.Bytes()
}
