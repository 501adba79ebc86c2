package cards

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
)

// maxCanonicalDepth bounds the nesting of arrays and objects Canonicalize
// accepts, so a hostile document cannot exhaust the stack.
const maxCanonicalDepth = 64

// Canonicalize returns the RFC 8785 (JCS) canonical form of one JSON value:
// object members sorted by their names' UTF-16 code units, no insignificant
// space, strings with the minimal escapes of ECMAScript's JSON.stringify and
// numbers in its shortest round-trip form (so 1E30 is 1e+30 and 4.50 is
// 4.5). JCS requires I-JSON: a duplicate member name, a number beyond
// float64 or trailing data is an error, never silently resolved.
func Canonicalize(data []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var buf bytes.Buffer
	if err := canonValue(dec, &buf, 0); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("jcs: more than one JSON value")
	}
	return buf.Bytes(), nil
}

func canonValue(dec *json.Decoder, buf *bytes.Buffer, depth int) error {
	tok, err := dec.Token()
	if err != nil {
		return fmt.Errorf("jcs: %w", err)
	}
	return canonToken(dec, buf, tok, depth)
}

func canonToken(dec *json.Decoder, buf *bytes.Buffer, tok json.Token, depth int) error {
	switch t := tok.(type) {
	case json.Delim:
		if depth >= maxCanonicalDepth {
			return fmt.Errorf("jcs: nested deeper than %d", maxCanonicalDepth)
		}
		if t == '[' {
			return canonArray(dec, buf, depth+1)
		}
		return canonObject(dec, buf, depth+1)
	case string:
		writeJCSString(buf, t)
	case json.Number:
		s, err := jcsNumber(t)
		if err != nil {
			return err
		}
		buf.WriteString(s)
	case bool:
		buf.WriteString(strconv.FormatBool(t))
	case nil:
		buf.WriteString("null")
	default:
		return fmt.Errorf("jcs: unexpected token %v", tok)
	}
	return nil
}

func canonArray(dec *json.Decoder, buf *bytes.Buffer, depth int) error {
	buf.WriteByte('[')
	for i := 0; dec.More(); i++ {
		if i > 0 {
			buf.WriteByte(',')
		}
		if err := canonValue(dec, buf, depth); err != nil {
			return err
		}
	}
	if _, err := dec.Token(); err != nil { // ']'
		return fmt.Errorf("jcs: %w", err)
	}
	buf.WriteByte(']')
	return nil
}

type jcsMember struct {
	key   []uint16
	name  string
	value []byte
}

func canonObject(dec *json.Decoder, buf *bytes.Buffer, depth int) error {
	var members []jcsMember
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return fmt.Errorf("jcs: %w", err)
		}
		name, _ := tok.(string)
		if seen[name] {
			return fmt.Errorf("jcs: duplicate member %q", name)
		}
		seen[name] = true
		var v bytes.Buffer
		if err := canonValue(dec, &v, depth); err != nil {
			return err
		}
		members = append(members, jcsMember{key: utf16.Encode([]rune(name)), name: name, value: v.Bytes()})
	}
	if _, err := dec.Token(); err != nil { // '}'
		return fmt.Errorf("jcs: %w", err)
	}
	slices.SortFunc(members, func(a, b jcsMember) int { return slices.Compare(a.key, b.key) })
	buf.WriteByte('{')
	for i, m := range members {
		if i > 0 {
			buf.WriteByte(',')
		}
		writeJCSString(buf, m.name)
		buf.WriteByte(':')
		buf.Write(m.value)
	}
	buf.WriteByte('}')
	return nil
}

// writeJCSString writes s quoted as ECMAScript's JSON.stringify does: only
// the quote, the backslash and control characters are escaped, the five
// with a short form by it, the rest as \u00xx in lower case.
func writeJCSString(buf *bytes.Buffer, s string) {
	const hex = "0123456789abcdef"
	buf.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			buf.WriteString(`\"`)
		case '\\':
			buf.WriteString(`\\`)
		case '\b':
			buf.WriteString(`\b`)
		case '\f':
			buf.WriteString(`\f`)
		case '\n':
			buf.WriteString(`\n`)
		case '\r':
			buf.WriteString(`\r`)
		case '\t':
			buf.WriteString(`\t`)
		default:
			if r < 0x20 {
				buf.WriteString(`\u00`)
				buf.WriteByte(hex[r>>4])
				buf.WriteByte(hex[r&0xf])
			} else {
				buf.WriteRune(r)
			}
		}
	}
	buf.WriteByte('"')
}

// jcsNumber formats a JSON number as ECMAScript's Number.prototype.toString
// does (RFC 8785 section 3.2.2.3): the shortest digits that round-trip,
// plain notation from 1e-6 up to 1e21, exponent notation outside it.
func jcsNumber(n json.Number) (string, error) {
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return "", fmt.Errorf("jcs: number %s is not an IEEE 754 double", n)
	}
	if f == 0 {
		return "0", nil // -0 as well
	}
	sign := ""
	if f < 0 {
		sign, f = "-", -f
	}
	format := byte('e')
	if f >= 1e-6 && f < 1e21 {
		format = 'f'
	}
	s := strconv.FormatFloat(f, format, -1, 64)
	if i := strings.IndexByte(s, 'e'); i > 0 && i+2 < len(s) && s[i+2] == '0' {
		s = s[:i+2] + s[i+3:] // Go writes e+09 and e-07 where ECMAScript writes e+9, e-7
	}
	return sign + s, nil
}
