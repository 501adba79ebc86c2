package static

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/agentnet/agentnet/bundle"
	"github.com/agentnet/agentnet/internal/lazyregexp"
)

// Bytes and streams in a library's API. A parameter without a type that
// the function reads (.read()) is an input file, opened as text when it
// is UTF-8 and as bytes otherwise; one it writes (.write()) is an output
// file. A function whose inverse (un-X for X, de-X for en-X) returns
// bytes takes bytes: its first parameter is an input file read whole. A
// function that returns bytes gets an optional output file name to write
// them to.

// outFileDesc describes a parameter that names a file the call writes.
const outFileDesc = "A file name: the file is written in the task's work directory and returned."

// resultFileParam is the optional parameter naming the file that a
// function's bytes result is written to.
const resultFileParam = "output_file"

// returnsBytesRE finds a docstring that says its function returns bytes.
var returnsBytesRE = lazyregexp.New(`(?i)\breturns?\b[^.\n]{0,40}\bbytes\b|^\s*(?:bytes|bytearray)\b`)

// streamSchema gives an untyped parameter that the function uses as a
// stream its schema and conversion; ok is false for any other.
func streamSchema(p pyParam) (map[string]any, string, bool) {
	switch p.Use {
	case "read":
		return map[string]any{"type": "string", "format": "path"}, "stream", true
	case "write":
		return map[string]any{"type": "string", "format": bundle.FormatOutput, "description": outFileDesc}, "outstream", true
	}
	return nil, "", false
}

// fileLikeRE finds a docstring's word for an open file a function reads.
var fileLikeRE = lazyregexp.New(`(?i)\bfile-like\b|\bfile objects?\b|\bopen(ed)? files?\b`)

// readsAsStream reports whether a parameter's documentation says it takes
// a file-like object: its own description does, or a sentence of the
// summary that names it ("data can be a file-like object or a string").
// Such a parameter is read as a stream, as one the body calls .read() on.
func readsAsStream(name, desc string, doc *pyDoc) bool {
	if fileLikeRE.MatchString(desc) {
		return true
	}
	if doc == nil {
		return false
	}
	for _, s := range strings.SplitAfter(doc.Summary, ". ") {
		if fileLikeRE.MatchString(s) && slices.Contains(strings.FieldsFunc(s, notIdent), name) {
			return true
		}
	}
	return false
}

func notIdent(r rune) bool { return r != '_' && !unicode.IsLetter(r) && !unicode.IsDigit(r) }

// returnsBytes reports whether f returns bytes, by its type hint or its
// docstring.
func returnsBytes(f *pyFunc) bool {
	switch normAnnotation(f.Returns) {
	case "bytes", "bytearray":
		return true
	}
	return returnsBytesRE.MatchString(f.Parsed.Returns) || returnsBytesRE.MatchString(f.Parsed.Summary) || f.Parsed.Summary == "" && returnsBytesRE.MatchString(firstParagraph(f.Doc))
}

// inverses are the names of the functions f undoes: unpack for pack,
// encode for decode, compress for decompress.
func inverses(name string) []string {
	var out []string
	for _, pre := range []string{"un", "de"} {
		if rest, ok := strings.CutPrefix(name, pre); ok && rest != "" {
			out = append(out, rest)
			if pre == "de" {
				out = append(out, "en"+rest)
			}
		}
	}
	return out
}

// bytesFunctions are the names of a library's module functions that
// return bytes.
func bytesFunctions(fns map[string]*pyFunc) map[string]bool {
	out := map[string]bool{}
	for name, f := range fns {
		if returnsBytes(f) {
			out[name] = true
		}
	}
	return out
}

// applyBytes adjusts a function's capability for bytes: its first
// parameter, untyped, takes bytes (an input file) when an inverse of the
// function returns bytes; a bytes result may be written to a file the
// caller names.
func applyBytes(c *capability, f *pyFunc, bytesOut map[string]bool) {
	if len(c.call.Params) > 0 && c.call.Params[0].Conv == "auto" {
		for _, inv := range inverses(f.Name) {
			if bytesOut[inv] {
				p := &c.call.Params[0]
				p.Conv = "bytes"
				if s, ok := c.props[p.Name].(map[string]any); ok {
					s["type"], s["format"] = "string", "path"
				}
				break
			}
		}
	}
	if returnsBytes(f) && c.props[resultFileParam] == nil {
		c.call.ResultFile = resultFileParam
		c.props[resultFileParam] = map[string]any{"type": "string", "format": bundle.FormatOutput, "description": outFileDesc}
	}
}

// streamItems is the capability of an iterable class built from a stream
// (a reader of records written one after another): build it from the
// input file and return every item it yields. It is nil for other classes.
func streamItems(cl *pyClass, base wrapCall, ctorParams []wrapParam, ctorProps map[string]any, classDoc string, vis int) *capability {
	if !cl.Iterable {
		return nil
	}
	i := slices.IndexFunc(ctorParams, func(p wrapParam) bool { return p.Conv == "stream" })
	if i < 0 {
		return nil
	}
	in := ctorParams[i].Name
	c := &capability{stem: words(cl.Name), call: base}
	c.call.MemberKind = "describe"
	c.props, c.required = mergeProps(ctorProps, nil), []any{in}
	c.id = skillID(kebab(cl.Name))
	c.name = words(cl.Name)
	c.desc = strings.TrimSpace(classDoc + " " + sentence(fmt.Sprintf("Reads every item from the file given as %s and returns them in order", words(in))))
	c.score = vis + docScore(cl.Doc) + 2
	return c
}

// undoers are the names of the functions that undo f: unpack for pack,
// decode for encode.
func undoers(name string) []string {
	out := []string{"un" + name, "de" + name}
	if rest, ok := strings.CutPrefix(name, "en"); ok && rest != "" {
		out = append(out, "de"+rest)
	}
	return out
}

// dataDesc describes a parameter that takes a value as a JSON document.
const dataDesc = "The value: a JSON document (a file, or JSON text); a file that is no JSON is passed as its bytes."

// applyData gives a function that one of the library's functions undoes
// its data parameter: the first, when it has no type, takes a JSON
// document.
func applyData(c *capability, f *pyFunc, fns map[string]*pyFunc) {
	if len(c.call.Params) == 0 || c.call.Params[0].Conv != "auto" {
		return
	}
	for _, u := range undoers(f.Name) {
		if fns[u] != nil {
			p := &c.call.Params[0]
			p.Conv = "jsondata"
			c.props[p.Name] = map[string]any{"type": "string", "format": "path", "description": dataDesc}
			return
		}
	}
}
