package static

import (
	"strings"
	"unicode"

	"github.com/agentnet/agentnet/internal/lazyregexp"
)

var bannerSentenceRE = lazyregexp.New(`(?i)(?:\bversion\s+v?|\bv)\d+(?:\.\d+)+\b|\bcopyright\b|©|\(c\)\s*\d{4}|\b(?:compiled|built|linked) (?:with|against) \S+ v?\d+\.\d+|^(?:\S+\s+){0,6}v?\d+\.\d+\.\d+\S*\.?$`)

// A help's paragraph about its operands ("INPUT defaults to standard
// input, and OUTPUT defaults to standard output. If OUTPUT exists, it will
// be overwritten.") says how to call the program, not what it does: it is
// no description of a skill. withoutOperandProse drops the sentences whose
// subject is an operand's placeholder (an upper-case word such as INPUT or
// PATH, or a quoted token such as "-"), and a banner's: a sentence with
// a version number, a copyright or the libraries it was built with ("Tool,
// version 4.0.1, by A. Author.", "Compiled with zlib 1.2.13.", a short
// "Manual page for tool 4.0.1."),
// which names the program and its authors, not its work.
func withoutOperandProse(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if s == "" {
		return ""
	}
	var kept []string
	for _, sent := range splitSentences(s) {
		if operandSentence(sent) || bannerSentenceRE.MatchString(sent) {
			continue
		}
		kept = append(kept, sent)
	}
	return strings.Join(kept, " ")
}

// operandSentence reports whether a sentence's subject is a placeholder
// or a quoted token: its first word, or the word after a conditional "If"
// or "When" ("If OUTPUT exists, …"). A placeholder later in a sentence is
// its object ("Scan FILE for errors"), which a description keeps.
func operandSentence(sent string) bool {
	words := strings.Fields(sent)
	if len(words) == 0 {
		return false
	}
	if strings.ContainsAny(words[0][:1], "\"'`") {
		return true
	}
	subject := words[0]
	if (subject == "If" || subject == "When") && len(words) > 1 {
		subject = words[1]
	}
	return operandWord(strings.Trim(subject, ",.;:()"))
}

// operandWord is an operand's placeholder: an upper-case word of five
// letters or more (INPUT, OUTPUT), or FILE, PATH or DIR. Shorter
// upper-case words are mostly formats (JSON, CSV, HTML), which a
// description names.
func operandWord(w string) bool {
	if len(w) < 3 {
		return false
	}
	for _, r := range w {
		if !unicode.IsUpper(r) && r != '_' {
			return false
		}
	}
	return len(w) >= 5 || w == "FILE" || w == "PATH" || w == "DIR"
}

// splitSentences splits prose at sentence ends.
func splitSentences(s string) []string {
	var out []string
	for s != "" {
		first := firstSentences(s, 1, len(s)+1)
		if first == "" || first == s {
			out = append(out, s)
			break
		}
		out = append(out, first)
		s = strings.TrimSpace(strings.TrimPrefix(s, first))
	}
	return out
}
