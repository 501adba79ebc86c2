package sniff

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"io"
	"strings"
)

// maxRows is how many records of a would-be table are read to decide.
const maxRows = 50

// Text returns the file extension and media type for text: ".html" for an
// HTML document, ".json" for a JSON object or array, ".csv" (or ".tsv")
// for a table of at least two rows whose rows have the same number of
// fields — two or more, or one when some field is quoted, as a CSV writer
// quotes — and ".txt" otherwise.
func Text(text string) (ext, mediaType string) {
	t := strings.TrimSpace(text)
	switch {
	case strings.HasPrefix(t, "<") && strings.Contains(strings.ToLower(t[:min(len(t), 512)]), "<html"):
		return ".html", "text/html"
	case (strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[")) && json.Valid([]byte(t)):
		return ".json", "application/json"
	case table(t, '\t', 2):
		return ".tsv", "text/tab-separated-values"
	case table(t, ',', 1) || table(t, ';', 2):
		return ".csv", "text/csv"
	}
	return ".txt", "text/plain"
}

// table reports whether t reads as rows of at least least fields each,
// all as long.
func table(t string, sep rune, least int) bool {
	if !strings.Contains(t, "\n") {
		return false
	}
	r := csv.NewReader(strings.NewReader(t))
	r.Comma, r.FieldsPerRecord = sep, 0 // every record as long as the first
	rows, fields := 0, 0
	for rows < maxRows {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return false
		}
		rows, fields = rows+1, len(rec)
	}
	if rows < 2 || fields < least {
		return false
	}
	if fields >= 2 {
		return true
	}
	// One column: a plain list of lines, unless a CSV writer quoted a field.
	return quoted(t)
}

// quoted reports whether some line of t starts with a quoted field.
func quoted(t string) bool {
	for _, ln := range strings.Split(t, "\n") {
		if ln = strings.TrimSpace(ln); len(ln) > 1 && ln[0] == '"' && bytes.Count([]byte(ln), []byte{'"'})%2 == 0 {
			return true
		}
	}
	return false
}
