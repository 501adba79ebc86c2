package host

import (
	"bytes"
	"mime"
	"net/http"
	"path"
	"strings"
	"unicode/utf8"
)

// binary reports whether a skill's standard output is bytes rather than
// text: a NUL byte, or bytes that are not UTF-8, in its first 8 KiB (as
// git and diff tell a binary file).
func binary(stdout []byte) bool {
	head := stdout[:min(len(stdout), 8192)]
	if len(head) == 0 {
		return false
	}
	if bytes.IndexByte(head, 0) >= 0 {
		return true
	}
	// A rune the cut at 8 KiB split is not a sign of binary.
	for i := 0; i < utf8.UTFMax-1 && len(head) > 0 && !utf8.FullRune(head[max(0, len(head)-utf8.UTFMax):]); i++ {
		head = head[:len(head)-1]
	}
	return !utf8.Valid(head)
}

// stdoutFile is a binary standard output as a file of the task: named
// as the instruction asked (named), else after the attached file it was
// made from when that one's name holds the output's extension
// ("notes.pdf.age" decrypted is "notes.pdf"), else "output" with the
// extension of its sniffed media type.
func stdoutFile(data []byte, named string, inputs []string) outFile {
	mt := http.DetectContentType(data)
	mt, _, _ = mime.ParseMediaType(mt)
	name := named
	if name == "" {
		name = madeFrom(mt, inputs)
	}
	if name == "" {
		name = "output" + extensionOf(mt)
	}
	if named != "" {
		mt = mediaTypeOf(name, data)
	}
	return outFile{name: name, mediaType: mt, data: data, size: int64(len(data))}
}

// madeFrom returns the name an input file has without its last extension
// when what is left ends in an extension of media type mt, or "".
func madeFrom(mt string, inputs []string) string {
	exts, _ := mime.ExtensionsByType(mt)
	for _, in := range inputs {
		stem := strings.TrimSuffix(in, path.Ext(in))
		if e := strings.ToLower(path.Ext(stem)); e != "" && containsFold(exts, e) {
			return safeName(stem, "")
		}
	}
	return ""
}

// extensionOf is the usual extension of media type mt, ".bin" when it
// has none.
func extensionOf(mt string) string {
	if mt == "application/octet-stream" {
		return ".bin"
	}
	if exts, _ := mime.ExtensionsByType(mt); len(exts) > 0 {
		return exts[0]
	}
	return ".bin"
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

// article is "a" or "an" before a media type's description.
func article(mt string) string {
	if k := fileKind(mt); strings.ContainsRune("aeiouAEIOU", rune(k[0])) {
		return "an " + fileKind(mt)
	}
	return "a " + fileKind(mt)
}

// fileKind names what a file of media type mt is: "PDF file", "image".
func fileKind(mt string) string {
	major, sub, _ := strings.Cut(mt, "/")
	switch {
	case major == "image", major == "audio", major == "video":
		return major
	case sub == "octet-stream":
		return "binary file"
	}
	return strings.ToUpper(strings.TrimPrefix(sub, "x-")) + " file"
}
