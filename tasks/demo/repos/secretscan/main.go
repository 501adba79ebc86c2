// Command secretscan finds hard-coded secrets in files — AWS keys, private
// key blocks, GitHub, Slack and Stripe tokens, passwords and secrets
// assigned in code or config, credentials in URLs and long random-looking
// strings — and prints them masked, writes redacted copies, or lists the
// Shannon entropy of the tokens of a file.
//
// Usage:
//
//	secretscan scan [flags] FILE|DIR...
//	secretscan redact [flags] FILE
//	secretscan entropy [flags] FILE...
//	secretscan rules
//
// Run "secretscan <command> --help" for the flags of each command.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

const (
	progName = "secretscan"
	version  = "1.0.0"
	tagline  = "find, mask and redact hard-coded secrets in files"
)

var commands = []*command{scanCmd, redactCmd, entropyCmd, rulesCmd}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// scanFlags are the detection flags shared by scan and redact.
type scanFlags struct {
	minEntropy float64
	disable    string
}

func (s *scanFlags) register(fs *flag.FlagSet) {
	fs.Float64Var(&s.minEntropy, "min-entropy", MinEntropy, "entropy threshold in `BITS` per character of the high-entropy-string rule")
	fs.StringVar(&s.disable, "disable", "", "comma-separated rule `IDS` to skip (see 'secretscan rules')")
}

func (s *scanFlags) options() (Options, error) {
	opt := Options{MinEntropy: s.minEntropy, Disabled: map[string]bool{}}
	if s.minEntropy <= 0 {
		return opt, usagef("--min-entropy must be positive")
	}
	for _, id := range strings.Split(s.disable, ",") {
		id = strings.TrimSpace(id)
		if id == "" {
			continue
		}
		if !knownRule(id) {
			return opt, usagef("unknown rule %q (see 'secretscan rules')", id)
		}
		opt.Disabled[id] = true
	}
	return opt, nil
}

func knownRule(id string) bool {
	for _, r := range Rules {
		if r.ID == id {
			return true
		}
	}
	return false
}

// readText reads a file, reporting binary files (a NUL byte in the first
// 8000 bytes) with ok == false.
func readText(path string) (text string, ok bool, err error) {
	data, err := os.ReadFile(path)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			return "", false, fmt.Errorf("%s: %v", path, pe.Err)
		}
		return "", false, err
	}
	if bytes.IndexByte(data[:min(len(data), 8000)], 0) >= 0 {
		return "", false, nil
	}
	return string(data), true, nil
}

// expandPaths lists the files to scan: files as given, directories walked
// in lexical order (skipping .git and node_modules).
func expandPaths(args []string) ([]string, error) {
	var files []string
	for _, a := range args {
		info, err := os.Stat(a)
		if err != nil {
			var pe *fs.PathError
			if errors.As(err, &pe) {
				return nil, fmt.Errorf("%s: %v", a, pe.Err)
			}
			return nil, err
		}
		if !info.IsDir() {
			files = append(files, a)
			continue
		}
		err = filepath.WalkDir(a, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules") {
				return filepath.SkipDir
			}
			if d.Type().IsRegular() {
				files = append(files, p)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return files, nil
}

func plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}

var scanCmd = &command{
	name:     "scan",
	synopsis: "FILE|DIR...",
	summary:  "find secrets in files and print them masked, with file and line",
	about: `
Scan files (and directories, recursively) for hard-coded secrets and print
one line per finding, "FILE:LINE: RULE: MASKED-VALUE", then "N findings".
Secret values are never printed in full: only their first characters are
shown. Rules (see 'secretscan rules'): AWS access key IDs and secret keys,
private key blocks, GitHub, Slack and Stripe tokens, Slack webhooks, Google
API keys, JWTs, passwords in URLs, password/secret/token assignments in code
and config files, and long high-entropy strings. Lines containing
"secretscan:allow" are ignored; binary files are skipped.`,
	args: `
FILE|DIR  files to scan, or directories to scan recursively (.git and node_modules are skipped)`,
	examples: `
secretscan scan .env config/settings.py
secretscan scan --json src/
secretscan scan --disable high-entropy-string --fail deploy/`,
	minArgs: 1, maxArgs: -1,
	setup: func(fs *flag.FlagSet) func([]string, io.Writer) error {
		var sf scanFlags
		var asJSON, fail bool
		sf.register(fs)
		fs.BoolVar(&asJSON, "json", false, "print a JSON object {count, findings: [{file, line, column, rule, match}]}")
		fs.BoolVar(&fail, "fail", false, "exit with status 3 when anything is found (for CI)")
		return func(args []string, w io.Writer) error {
			opt, err := sf.options()
			if err != nil {
				return err
			}
			files, err := expandPaths(args)
			if err != nil {
				return err
			}
			type jsonFinding struct {
				File   string `json:"file"`
				Line   int    `json:"line"`
				Column int    `json:"column"`
				Rule   string `json:"rule"`
				Match  string `json:"match"`
			}
			report := struct {
				Count    int           `json:"count"`
				Findings []jsonFinding `json:"findings"`
			}{Findings: []jsonFinding{}}
			for _, file := range files {
				text, ok, err := readText(file)
				if err != nil {
					return err
				}
				if !ok {
					continue
				}
				for _, f := range Scan(text, opt) {
					report.Findings = append(report.Findings, jsonFinding{file, f.Line, f.Column, f.Rule, f.Masked()})
				}
			}
			report.Count = len(report.Findings)
			if asJSON {
				enc := json.NewEncoder(w)
				enc.SetIndent("", "  ")
				enc.SetEscapeHTML(false)
				if err := enc.Encode(report); err != nil {
					return err
				}
			} else {
				for _, f := range report.Findings {
					fmt.Fprintf(w, "%s:%d: %s: %s\n", f.File, f.Line, f.Rule, f.Match)
				}
				fmt.Fprintln(w, plural(report.Count, "finding"))
			}
			if fail && report.Count > 0 {
				return exitStatus(3)
			}
			return nil
		}
	},
}

var redactCmd = &command{
	name:     "redact",
	synopsis: "FILE",
	summary:  "print or write a copy of a file with every secret replaced by [REDACTED]",
	about: `
Replace every secret that 'scan' would report in FILE by [REDACTED] and print
the result, or write it to the file given with -o (then only a one-line
summary "wrote OUT: N secrets redacted" is printed). Only the secret value is
replaced, so "password = hunter2!" becomes "password = [REDACTED]"; a private
key block is replaced whole, from its BEGIN to its END marker. Everything
else is copied unchanged.`,
	args: `
FILE  the file to redact`,
	examples: `
secretscan redact .env
secretscan redact deploy.sh -o deploy.redacted.sh
secretscan redact --replacement '***' config.yaml`,
	minArgs: 1, maxArgs: 1,
	setup: func(fs *flag.FlagSet) func([]string, io.Writer) error {
		var sf scanFlags
		var output, replacement string
		sf.register(fs)
		fs.StringVar(&output, "o", "", "write the redacted copy to `FILE` instead of standard output")
		fs.StringVar(&output, "output", "", "write the redacted copy to `FILE` instead of standard output")
		fs.StringVar(&replacement, "replacement", "[REDACTED]", "`TEXT` that replaces each secret")
		return func(args []string, w io.Writer) error {
			opt, err := sf.options()
			if err != nil {
				return err
			}
			text, ok, err := readText(args[0])
			if err != nil {
				return err
			}
			if !ok {
				return fmt.Errorf("%s: binary file", args[0])
			}
			findings := Scan(text, opt)
			clean := Redact(text, findings, replacement)
			if output == "" {
				_, err := io.WriteString(w, clean)
				return err
			}
			if err := os.WriteFile(output, []byte(clean), 0o644); err != nil {
				return err
			}
			fmt.Fprintf(w, "wrote %s: %s redacted\n", output, plural(len(findings), "secret"))
			return nil
		}
	},
}

var tokenRE = regexp.MustCompile(`[A-Za-z0-9+/_-]+={0,2}`)

var entropyCmd = &command{
	name:     "entropy",
	synopsis: "FILE...",
	summary:  "list the tokens of a file with their Shannon entropy",
	about: `
Split each line into tokens (runs of the base64 and hex alphabet:
letters, digits, + / _ - and trailing =) and print every token of at least
--min-length characters whose Shannon entropy is at least --min bits per
character, as "FILE:LINE: ENTROPY TOKEN", then "N tokens". Entropy is
-sum(p*log2 p) over the character frequencies of the token: English words
score about 2.5-3.5, random hex at most 4, random base64 5 or more. Tokens
are printed in full: this command is for analysis, use 'scan' to report
secrets safely.`,
	args: `
FILE  text files to analyse`,
	examples: `
secretscan entropy server.log
secretscan entropy --min 4.5 --sort app.log
secretscan entropy --min 3 --min-length 32 hashes.txt`,
	minArgs: 1, maxArgs: -1,
	setup: func(fs *flag.FlagSet) func([]string, io.Writer) error {
		var minH float64
		var minLen int
		var byEntropy bool
		fs.Float64Var(&minH, "min", 4.0, "least entropy in `BITS` per character")
		fs.IntVar(&minLen, "min-length", 16, "least token length in `CHARS`")
		fs.BoolVar(&byEntropy, "sort", false, "sort by entropy, highest first (default: file order)")
		return func(args []string, w io.Writer) error {
			if minLen < 1 {
				return usagef("--min-length must be at least 1")
			}
			type row struct {
				file  string
				line  int
				h     float64
				token string
			}
			var rows []row
			for _, file := range args {
				text, ok, err := readText(file)
				if err != nil {
					return err
				}
				if !ok {
					return fmt.Errorf("%s: binary file", file)
				}
				for i, line := range strings.Split(text, "\n") {
					for _, tok := range tokenRE.FindAllString(line, -1) {
						if len(tok) < minLen {
							continue
						}
						h := Entropy(tok)
						// Compare at the printed precision so that what is
						// shown as 4.000 passes --min 4.
						if math.Round(h*1000)/1000 >= minH {
							rows = append(rows, row{file, i + 1, h, tok})
						}
					}
				}
			}
			if byEntropy {
				sort.SliceStable(rows, func(i, j int) bool { return rows[i].h > rows[j].h })
			}
			for _, r := range rows {
				fmt.Fprintf(w, "%s:%d: %.3f %s\n", r.file, r.line, r.h, r.token)
			}
			fmt.Fprintln(w, plural(len(rows), "token"))
			return nil
		}
	},
}

var rulesCmd = &command{
	name:     "rules",
	synopsis: "",
	summary:  "list the detection rules",
	about: `
List the IDs and descriptions of the rules that 'scan' and 'redact' apply,
in priority order (when two findings overlap, the earlier rule wins). Use the
IDs with --disable.`,
	examples: `
secretscan rules`,
	minArgs: 0, maxArgs: 0,
	setup: func(fs *flag.FlagSet) func([]string, io.Writer) error {
		return func(args []string, w io.Writer) error {
			width := 0
			for _, r := range Rules {
				width = max(width, len(r.ID))
			}
			for _, r := range Rules {
				fmt.Fprintf(w, "%-*s  %s\n", width, r.ID, r.Description)
			}
			return nil
		}
	},
}
