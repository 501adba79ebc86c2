package ibankit

import (
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		in, bank, reason string
		valid            bool
	}{
		{in: "GB82 WEST 1234 5698 7654 32", valid: true, bank: "WEST"},
		{in: "de89 3704 0044 0532 0130 00", valid: true, bank: "37040044"},
		{in: "NL91ABNA0417164300", valid: true, bank: "ABNA"},
		{in: "FR14 2004 1010 0505 0001 3M02 606", valid: true, bank: "20041"},
		{in: "GB82 WEST 1234 5698 7654 23", reason: "check digits do not match"},
		{in: "DE89 3704 0044 0532 0130", reason: "DE IBANs have 22 characters"},
		{in: "XX12 3456 7890", reason: "does not use IBANs"},
	} {
		r := Check(tc.in)
		if r.Valid != tc.valid || r.BankCode != tc.bank || !strings.Contains(r.Reason, tc.reason) {
			t.Errorf("Check(%q) = %+v, want valid %v, bank %q, reason %q", tc.in, r, tc.valid, tc.bank, tc.reason)
		}
	}
}

func TestCheckDigits(t *testing.T) {
	if d, err := CheckDigits("GB", "WEST12345698765432"); err != nil || d != "82" {
		t.Errorf("CheckDigits(GB, WEST…) = %q, %v, want 82", d, err)
	}
}

func TestFormat(t *testing.T) {
	got, err := Format("de89370400440532013000", "print")
	if err != nil || got != "DE89 3704 0044 0532 0130 00" {
		t.Errorf("Format(print) = %q, %v", got, err)
	}
	if _, err := Format("DE89", "fancy"); err == nil {
		t.Error("Format(fancy) succeeded, want an error")
	}
}

func TestFind(t *testing.T) {
	text := "Please pay to DE89 3704 0044 0532 0130 00 (Berlin) or NL91ABNA0417164300.\nOld account: GB82 WEST 1234 5698 7654 23 — closed."
	rs := Find(text)
	if len(rs) != 3 {
		t.Fatalf("Find() = %+v, want 3 IBANs", rs)
	}
	if !rs[0].Valid || rs[0].IBAN != "DE89370400440532013000" || !rs[1].Valid || rs[2].Valid {
		t.Errorf("Find() = %+v", rs)
	}
}
