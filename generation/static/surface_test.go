package static

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// TestPluginsLeftOut generates a repository with a program and two plugins
// that program runs: the plugins are no skills, and the notes say why.
// A repository of plugins alone keeps them.
func TestPluginsLeftOut(t *testing.T) {
	t.Parallel()
	help := func(text string) string {
		return "x:#!/bin/sh\n# " + text + "\ncase \"$1\" in --help) echo 'Usage: '\"$(basename \"$0\")\"' [FILE]'; echo; echo '" + text + "'; exit 0;; esac\ncat \"$1\"\n"
	}
	dir := writeRepo(t, map[string]string{
		"vault":            help("Encrypt a file for a recipient."),
		"vault-plugin-hsm": help("vault-plugin-hsm is a vault plugin that keeps keys in a hardware module."),
		"vault-plugin-pw":  help("A plugin for vault that derives keys from passwords."),
		"vault-keys":       help("Generate a key pair that vault encrypts to."),
	})
	res, err := Generate(t.Context(), dir, Options{Name: "vault", ProbeTimeout: 5 * time.Second})
	if err != nil {
		t.Fatalf("Generate: %v", err)
	}
	var ids []string
	for _, sk := range res.Bundle.Skills {
		ids = append(ids, sk.ID)
	}
	slices.Sort(ids)
	if want := []string{"vault", "vault-keys"}; !slices.Equal(ids, want) {
		t.Errorf("skills = %v, want %v (notes %q)", ids, want, res.Notes)
	}
	notes := strings.Join(res.Notes, "\n")
	for _, p := range []string{"vault-plugin-hsm", "vault-plugin-pw"} {
		if !strings.Contains(notes, p+" (") || !strings.Contains(notes, "left out: a plugin that vault runs") {
			t.Errorf("notes = %q, want one saying %s is a plugin vault runs", res.Notes, p)
		}
	}

	only := writeRepo(t, map[string]string{
		"editor-plugin-spell": help("editor-plugin-spell is an editor plugin that checks spelling."),
	})
	res, err = Generate(t.Context(), only, Options{Name: "spell", ProbeTimeout: 5 * time.Second})
	if err != nil {
		t.Fatalf("Generate(plugins only): %v", err)
	}
	if len(res.Bundle.Skills) != 1 {
		t.Errorf("plugins only: %d skills, want 1 (nothing else runs it)", len(res.Bundle.Skills))
	}
}

// TestGoMaintenanceProgramsNoted records the main packages of maintenance
// directories that are left out beside the repository's commands.
func TestGoMaintenanceProgramsNoted(t *testing.T) {
	t.Parallel()
	dir := writeRepo(t, map[string]string{
		"go.mod":                  "module example.com/acme\n\ngo 1.21\n",
		"cmd/acme/main.go":        "package main\n\nfunc main() {}\n",
		"scripts/release/main.go": "package main\n\nfunc main() {}\n",
	})
	r := mustScan(t, dir)
	tools := goTools(r)
	if len(tools) != 1 || tools[0].Name != "acme" {
		t.Errorf("tools = %v, want acme alone", tools)
	}
	if len(r.leftOut) != 1 || !strings.Contains(r.leftOut[0], "scripts/release") || !strings.Contains(r.leftOut[0], "maintenance directory") {
		t.Errorf("left out = %q, want the release program with its reason", r.leftOut)
	}
}

// TestHelpAsOperandLeftOut leaves out a program whose answer to --help is
// its own output about a "--help" it took for an operand, beside one with
// a usage; alone, it stays.
func TestHelpAsOperandLeftOut(t *testing.T) {
	tool := func(name, help string) *Tool {
		c := parseHelp(help)
		c.Help = help
		return &Tool{Name: name, Source: name, Root: c}
	}
	scan := tool("tagscan", "Scanning --help\nReport for --help: no audio files found.\n")
	edit := tool("tagedit", "Usage: tagedit [-t TITLE] FILE\n\nOptions:\n  -t TITLE  Set the title.\n")
	kept, notes := publicSurface([]*Tool{edit, scan})
	if len(kept) != 1 || kept[0] != edit {
		t.Errorf("kept %d tools, want tagedit alone", len(kept))
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "tagscan (tagscan): left out: it took --help for an operand") {
		t.Errorf("notes = %q", notes)
	}
	if kept, _ := publicSurface([]*Tool{scan}); len(kept) != 1 {
		t.Errorf("alone, the program was left out")
	}
}
