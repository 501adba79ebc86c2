package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func call(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(args, &out, &errOut)
	return out.String(), errOut.String(), code
}

// chdir changes into dir for the rest of the test.
func chdir(t *testing.T, dir string) {
	t.Helper()
	old, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.Chdir(old) })
}

// fixture writes a config file with three secrets into a temp dir and
// changes into it.
func fixture(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	chdir(t, dir)
	text := "# settings\nAWS_ACCESS_KEY_ID=" + fakeAWSID + "\nDEBUG=false\npassword: hunter2!\n" +
		"GITHUB_TOKEN=" + fakeGitHub + "\n"
	if err := os.WriteFile("app.env", []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("image.bin", []byte("PNG\x00\x01AKIA"+"4HZQ7WLT2VMXKD6P"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestScanCommand(t *testing.T) {
	fixture(t)
	out, _, code := call(t, "scan", "app.env")
	want := "app.env:2: aws-access-key-id: AKIA****************\n" +
		"app.env:4: password-assignment: hu******\n" +
		"app.env:5: github-token: ghp_****************\n" +
		"3 findings\n"
	if code != 0 || out != want {
		t.Errorf("got %d\n%s\nwant\n%s", code, out, want)
	}
	if strings.Contains(out, fakeAWSID) || strings.Contains(out, "hunter2!") {
		t.Error("scan printed a secret")
	}
	// Directories are walked; binary files are skipped. A disabled rule
	// leaves its secret to the generic rules.
	out, _, _ = call(t, "scan", ".", "--disable", "password-assignment,github-token")
	if out != "app.env:2: aws-access-key-id: AKIA****************\napp.env:5: secret-assignment: ghp_****************\n2 findings\n" {
		t.Errorf("dir scan: %q", out)
	}
	out, _, _ = call(t, "scan", ".", "--disable", "password-assignment,github-token,secret-assignment,high-entropy-string")
	if out != "app.env:2: aws-access-key-id: AKIA****************\n1 finding\n" {
		t.Errorf("dir scan: %q", out)
	}
	if _, _, code := call(t, "scan", "--fail", "app.env"); code != 3 {
		t.Errorf("--fail: exit %d, want 3", code)
	}
}

func TestScanJSON(t *testing.T) {
	fixture(t)
	out, _, code := call(t, "scan", "--json", "app.env")
	var report struct {
		Count    int
		Findings []struct {
			File   string
			Line   int
			Column int
			Rule   string
			Match  string
		}
	}
	if err := json.Unmarshal([]byte(out), &report); err != nil || code != 0 {
		t.Fatalf("%v (exit %d): %s", err, code, out)
	}
	if report.Count != 3 || report.Findings[1].Rule != "password-assignment" || report.Findings[1].Column != 11 {
		t.Errorf("report: %+v", report)
	}
}

func TestRedactCommand(t *testing.T) {
	fixture(t)
	out, _, code := call(t, "redact", "app.env", "-o", "clean.env")
	if code != 0 || out != "wrote clean.env: 3 secrets redacted\n" {
		t.Fatalf("got %d %q", code, out)
	}
	data, err := os.ReadFile(filepath.Join(".", "clean.env"))
	if err != nil {
		t.Fatal(err)
	}
	want := "# settings\nAWS_ACCESS_KEY_ID=[REDACTED]\nDEBUG=false\npassword: [REDACTED]\nGITHUB_TOKEN=[REDACTED]\n"
	if string(data) != want {
		t.Errorf("clean.env = %q", data)
	}
	out, _, _ = call(t, "redact", "--replacement", "XXX", "app.env")
	if !strings.Contains(out, "password: XXX\n") {
		t.Errorf("stdout redaction: %q", out)
	}
	if out, _, _ = call(t, "scan", "clean.env"); out != "0 findings\n" {
		t.Errorf("rescan: %q", out)
	}
}

func TestEntropyCommand(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "log.txt")
	text := "id=0123456789abcdef ok\nsession=" + fakeRandom + "\nword=aaaaaaaaaaaaaaaaaaaa\n"
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, code := call(t, "entropy", file)
	want := file + ":1: 4.000 0123456789abcdef\n" + file + ":2: 5.000 " + fakeRandom + "\n2 tokens\n"
	if code != 0 || out != want {
		t.Errorf("got %q, want %q", out, want)
	}
	out, _, _ = call(t, "entropy", "--min", "0", "--sort", file)
	if !strings.HasPrefix(out, file+":2: 5.000") || !strings.Contains(out, "0.000 aaaaaaaaaaaaaaaaaaaa") {
		t.Errorf("sorted: %q", out)
	}
}

func TestCLIErrorsAndHelp(t *testing.T) {
	fixture(t)
	cases := []struct {
		args []string
		code int
	}{
		{[]string{}, 2},
		{[]string{"scan"}, 2},
		{[]string{"scan", "missing.txt"}, 1},
		{[]string{"scan", "--disable", "nope", "app.env"}, 2},
		{[]string{"redact", "image.bin"}, 1},
		{[]string{"rules", "extra"}, 2},
		{[]string{"nope"}, 2},
	}
	for _, c := range cases {
		_, errOut, code := call(t, c.args...)
		if code != c.code || strings.Count(errOut, "\n") > 1 && c.code != 2 {
			t.Errorf("%v: exit %d (want %d), stderr %q", c.args, code, c.code, errOut)
		}
	}
	out, _, _ := call(t, "rules")
	for _, r := range Rules {
		if !strings.Contains(out, r.ID) {
			t.Errorf("rules output lacks %s", r.ID)
		}
	}
	for _, c := range commands {
		out, _, code := call(t, c.name, "-h")
		if code != 0 || !strings.HasPrefix(out, "Usage: secretscan "+c.name) {
			t.Errorf("%s -h: %d %q", c.name, code, out)
		}
	}
}
