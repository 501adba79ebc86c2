// Package ibankit checks, finds and formats International Bank Account
// Numbers (IBAN, ISO 13616) with the ISO 7064 mod-97-10 check digits and
// the lengths of the SWIFT IBAN registry.
package ibankit

import (
	"fmt"
	"regexp"
	"strings"
)

// Result is what Check finds out about one IBAN.
type Result struct {
	IBAN     string `json:"iban"`                // electronic form: no spaces, upper case
	Valid    bool   `json:"valid"`               // every rule holds
	Country  string `json:"country,omitempty"`   // ISO 3166 code
	BankCode string `json:"bank_code,omitempty"` // from the BBAN, where the layout is known
	Reason   string `json:"reason,omitempty"`    // the first rule broken
}

// Normalize returns the electronic form of an IBAN: spaces and dashes
// removed, letters upper-cased.
func Normalize(s string) string {
	return strings.ToUpper(strings.NewReplacer(" ", "", "-", "", "\u00a0", "", "\t", "").Replace(strings.TrimSpace(s)))
}

// Check validates an IBAN: its country code and registered length, its
// characters and its mod-97 check digits, and reports the bank code.
func Check(iban string) Result {
	s := Normalize(iban)
	r := Result{IBAN: s}
	switch {
	case len(s) < 5:
		r.Reason = "too short to be an IBAN"
		return r
	case !isUpper(s[0]) || !isUpper(s[1]):
		r.Reason = "does not start with a two-letter country code"
		return r
	}
	r.Country = s[:2]
	want, ok := lengths[r.Country]
	switch {
	case !ok:
		r.Reason = fmt.Sprintf("country %s does not use IBANs", r.Country)
		return r
	case len(s) != want:
		r.Reason = fmt.Sprintf("%s IBANs have %d characters, this one has %d", r.Country, want, len(s))
		return r
	case !isDigit(s[2]) || !isDigit(s[3]):
		r.Reason = "the check digits (characters 3 and 4) are not digits"
		return r
	}
	for i := 4; i < len(s); i++ {
		if !isDigit(s[i]) && !isUpper(s[i]) {
			r.Reason = fmt.Sprintf("character %d (%q) is neither a letter nor a digit", i+1, s[i])
			return r
		}
	}
	if mod97(s[4:]+s[:4]) != 1 {
		r.Reason = "the check digits do not match (mod 97 ≠ 1): a typo or swapped characters"
		return r
	}
	r.Valid = true
	if bc, ok := bankCodes[r.Country]; ok && 4+bc[0]+bc[1] <= len(s) {
		r.BankCode = s[4+bc[0] : 4+bc[0]+bc[1]]
	}
	return r
}

// mod97 computes the remainder of the number whose digits are s with
// letters replaced by 10..35, piece by piece.
func mod97(s string) int {
	rem := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if isUpper(c) {
			v := int(c-'A') + 10
			rem = (rem*100 + v) % 97
		} else {
			rem = (rem*10 + int(c-'0')) % 97
		}
	}
	return rem
}

// CheckDigits computes the two check digits of an IBAN from its country
// code and BBAN, as a bank does when it issues one: "GB", "WEST12345698765432" → "82".
func CheckDigits(country, bban string) (string, error) {
	c, b := Normalize(country), Normalize(bban)
	if len(c) != 2 || !isUpper(c[0]) || !isUpper(c[1]) {
		return "", fmt.Errorf("country %q is not a two-letter code", country)
	}
	return fmt.Sprintf("%02d", 98-mod97(b+c+"00")), nil
}

// Format writes an IBAN in the print form, groups of four characters
// separated by spaces ("print"), or in the electronic form ("electronic").
func Format(iban, style string) (string, error) {
	s := Normalize(iban)
	switch style {
	case "electronic", "":
		return s, nil
	case "print", "paper":
		var b strings.Builder
		for i := 0; i < len(s); i += 4 {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(s[i:min(i+4, len(s))])
		}
		return b.String(), nil
	}
	return "", fmt.Errorf("unknown style %q (want print or electronic)", style)
}

// candidateRE finds IBAN-like runs in text: a country code, two digits and
// 11–30 letters and digits, optionally in groups separated by spaces.
var candidateRE = regexp.MustCompile(`\b[A-Z]{2}[0-9]{2}(?:[ ]?[A-Z0-9]{1,4}){3,8}\b`)

// Find lists the IBANs written in a free text (an invoice, an e-mail),
// in order, each normalised and checked; invalid ones are reported with
// the reason.
func Find(text string) []Result {
	var out []Result
	seen := map[string]bool{}
	for _, m := range candidateRE.FindAllString(text, -1) {
		r := Check(m)
		if r.Reason != "" && strings.Contains(r.Reason, "characters, this one has") {
			// A match that ran into the next word: trim it to the
			// country's length when that gives a valid IBAN.
			if want, ok := lengths[r.Country]; ok && len(r.IBAN) > want {
				if t := Check(r.IBAN[:want]); t.Valid {
					r = t
				}
			}
		}
		if seen[r.IBAN] {
			continue
		}
		seen[r.IBAN] = true
		out = append(out, r)
	}
	return out
}

func isUpper(c byte) bool { return c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }
