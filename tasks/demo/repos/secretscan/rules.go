package main

import (
	"regexp"
	"strings"
	"unicode"
)

// Rule is one kind of secret the scanner looks for.
type Rule struct {
	ID          string
	Description string
	// find returns the byte ranges [start, end) of the secret values it
	// finds in one line of text.
	find func(line string) [][2]int
}

// privateKeyRule is reported for PEM/OpenSSH/PGP private key blocks, which
// span several lines and are handled by the scanner itself.
const privateKeyRule = "private-key"

var (
	keyBeginRE = regexp.MustCompile(`-----BEGIN[ A-Z0-9_-]*PRIVATE KEY(?: BLOCK)?-----`)
	keyEndRE   = regexp.MustCompile(`-----END[ A-Z0-9_-]*PRIVATE KEY(?: BLOCK)?-----`)
)

// Rules lists the detectors in priority order: where two findings overlap,
// the earlier rule wins (an AWS key assigned to a variable is reported as
// an AWS key, not as a generic secret assignment).
var Rules = []Rule{
	{ID: privateKeyRule, Description: "PEM, OpenSSH or PGP private key block (-----BEGIN ... PRIVATE KEY-----)"},
	regexRule("aws-access-key-id", "AWS access key ID (AKIA..., ASIA..., 20 characters)",
		`\b((?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|APKA)[A-Z2-7]{16})\b`, 1, nil),
	regexRule("aws-secret-access-key", "AWS secret access key (40 characters assigned to an aws...secret name)",
		`(?i)aws[a-z0-9_.-]{0,20}(?:secret|sk)[a-z0-9_.-]{0,20}["']?\s*(?::=|=>|=|:)\s*["']?([A-Za-z0-9/+]{40})(?:[^A-Za-z0-9/+=]|$)`, 1, nil),
	regexRule("github-token", "GitHub token (ghp_, gho_, ghu_, ghs_, ghr_ or github_pat_)",
		`\b((?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36}|github_pat_[A-Za-z0-9_]{82})\b`, 1, nil),
	regexRule("slack-token", "Slack API token (xoxb-, xoxp-, xoxa-, xoxr-, xoxs-)",
		`\b(xox[abprs]-[0-9A-Za-z]{6,}(?:-[0-9A-Za-z]+){1,4})\b`, 1, nil),
	regexRule("slack-webhook", "Slack incoming webhook URL",
		`https://hooks\.slack\.com/services/(T[A-Z0-9]{6,12}/B[A-Z0-9]{6,12}/[A-Za-z0-9]{16,32})\b`, 1, nil),
	regexRule("stripe-key", "Stripe secret or restricted API key (sk_live_, rk_live_, sk_test_)",
		`\b((?:sk|rk)_(?:live|test)_[0-9A-Za-z]{16,99})\b`, 1, nil),
	regexRule("google-api-key", "Google API key (AIza..., 39 characters)",
		`\b(AIza[0-9A-Za-z_-]{35})(?:[^0-9A-Za-z_-]|$)`, 1, nil),
	regexRule("jwt", "JSON Web Token (eyJ...eyJ...signature)",
		`\b(eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,})`, 1, nil),
	regexRule("url-credentials", "password embedded in a URL (scheme://user:password@host)",
		`\b[A-Za-z][A-Za-z0-9+.-]*://[^\s:/@"'<>]+:([^\s:/@"'<>]+)@`, 1, func(v string) bool { return !isPlaceholder(v) }),
	assignmentRule("password-assignment", "password assigned in code or config (password = ..., DB_PASSWORD=..., \"pwd\": ...)",
		`password|passwd|passphrase|pwd`, 4, false),
	assignmentRule("secret-assignment", "secret, token or API key assigned in code or config (api_key = ..., client_secret: ...)",
		`secret|token|api[_.-]?key|apikey|access[_.-]?key|auth[_.-]?key|private[_.-]?key|credentials?`, 8, true),
	{ID: "high-entropy-string", Description: "long random-looking string (base64/hex alphabet, high Shannon entropy)"},
}

// MinEntropy is the default entropy threshold, in bits per character, of
// the high-entropy-string rule; it applies to tokens of 20 or more
// characters that mix letters and digits.
const MinEntropy = 4.3

var entropyTokenRE = regexp.MustCompile(`[A-Za-z0-9+/_-]{20,}={0,2}`)

// highEntropyRule builds the high-entropy-string detector for a threshold.
func highEntropyRule(minEntropy float64) func(string) [][2]int {
	return func(line string) [][2]int {
		var out [][2]int
		for _, m := range entropyTokenRE.FindAllStringIndex(line, -1) {
			tok := line[m[0]:m[1]]
			if hasLetterAndDigit(tok) && !looksLikePath(tok) && Entropy(tok) >= minEntropy {
				out = append(out, [2]int{m[0], m[1]})
			}
		}
		return out
	}
}

func regexRule(id, desc, pattern string, group int, keep func(string) bool) Rule {
	re := regexp.MustCompile(pattern)
	return Rule{ID: id, Description: desc, find: func(line string) [][2]int {
		var out [][2]int
		for _, m := range re.FindAllStringSubmatchIndex(line, -1) {
			s, e := m[2*group], m[2*group+1]
			if s < 0 || (keep != nil && !keep(line[s:e])) {
				continue
			}
			out = append(out, [2]int{s, e})
		}
		return out
	}}
}

// assignmentRule finds values assigned to names containing one of the
// keywords: KEY = value, KEY: value, KEY := value, "KEY": "value",
// --key=value. Values that are placeholders, environment lookups, code
// expressions or plain numbers are skipped, as are values shorter than
// minLen; with needDigit, a value must also contain a digit.
func assignmentRule(id, desc, keywords string, minLen int, needDigit bool) Rule {
	re := regexp.MustCompile(`(?i)(?:^|[^a-z0-9_.-])["']?([a-z0-9_.-]*(?:` + keywords + `)[a-z0-9_.-]*)["']?\s*(:=|=>|=|:)\s*`)
	return Rule{ID: id, Description: desc, find: func(line string) [][2]int {
		var out [][2]int
		for _, m := range re.FindAllStringSubmatchIndex(line, -1) {
			if m[1] < len(line) && line[m[1]] == '=' { // a comparison, ==
				continue
			}
			if op := line[m[4]:m[5]]; op == ":" && strings.HasPrefix(line[m[5]:], "//") {
				continue // a URL such as password_reset_url: https://...
			}
			key := line[m[2]:m[3]]
			s, e, quoted := assignedValue(line, m[1])
			if s < 0 {
				continue
			}
			v := line[s:e]
			if len([]rune(v)) < minLen || isPlaceholder(v) || strings.EqualFold(v, key) || isNumber(v) ||
				(!quoted && looksLikeCode(v)) || (needDigit && !strings.ContainsAny(v, "0123456789")) ||
				strings.Contains(v, "://") {
				continue
			}
			out = append(out, [2]int{s, e})
		}
		return out
	}}
}

// assignedValue returns the range of the value starting at i: the text
// between matching quotes, or a run of characters up to white space or one
// of , ; ) ] }.
func assignedValue(line string, i int) (start, end int, quoted bool) {
	if i >= len(line) {
		return -1, -1, false
	}
	if q := line[i]; q == '"' || q == '\'' || q == '`' {
		for j := i + 1; j < len(line); j++ {
			if line[j] == '\\' {
				j++
				continue
			}
			if line[j] == q {
				if j == i+1 {
					return -1, -1, true
				}
				return i + 1, j, true
			}
		}
		return -1, -1, true // unterminated: not a literal we understand
	}
	j := i
	for j < len(line) && !strings.ContainsRune(" \t\r,;)]}\"'", rune(line[j])) {
		j++
	}
	if j == i {
		return -1, -1, false
	}
	return i, j, false
}

var placeholders = map[string]bool{
	"password": true, "passwd": true, "secret": true, "changeme": true, "change-me": true, "example": true,
	"placeholder": true, "none": true, "null": true, "nil": true, "undefined": true, "true": true,
	"false": true, "string": true, "str": true, "required": true, "optional": true, "redacted": true,
	"todo": true, "tbd": true, "dummy": true, "test": true, "empty": true, "hidden": true, "masked": true,
}

// isPlaceholder reports whether v is obviously not a real secret: a
// template or variable reference (${X}, {{x}}, $X, %(x)s, <x>), a mask
// (****, xxxx), a redaction marker or a well-known dummy word.
func isPlaceholder(v string) bool {
	l := strings.ToLower(strings.TrimSpace(v))
	if l == "" || placeholders[l] || strings.Contains(l, "redacted") || strings.HasPrefix(l, "your") {
		return true
	}
	for _, p := range []string{"${", "{{", "$", "%(", "<", "#{"} {
		if strings.HasPrefix(l, p) {
			return true
		}
	}
	same := true
	for _, r := range l {
		if r != rune(l[0]) {
			same = false
			break
		}
	}
	return same || strings.Trim(l, "*x.-_ ") == ""
}

var dottedRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+$`)

// looksLikeCode reports whether an unquoted value is an expression rather
// than a literal: a call, an index, or an attribute such as os.environ.
func looksLikeCode(v string) bool {
	return strings.ContainsAny(v, "([{") || dottedRE.MatchString(v)
}

func isNumber(v string) bool {
	return strings.Trim(v, "0123456789.-+") == ""
}

func hasLetterAndDigit(s string) bool {
	var letter, digit bool
	for _, r := range s {
		letter = letter || unicode.IsLetter(r)
		digit = digit || unicode.IsDigit(r)
	}
	return letter && digit
}

// looksLikePath reports whether a token is a file path or URL path made of
// ordinary words, such as /usr/lib/python3/site-packages.
func looksLikePath(tok string) bool {
	if strings.Count(tok, "/") < 2 {
		return false
	}
	for _, part := range strings.Split(tok, "/") {
		if len(part) > 16 {
			return false
		}
	}
	return true
}
