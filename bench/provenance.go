package bench

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/agentnet/agentnet/eval"
	"github.com/agentnet/agentnet/tasks"
)

// Build identifies the agentnet that makes a run; the command line fills
// it from the binary's build information.
type Build struct {
	Version  string // "v1.2.3", or a development version
	Commit   string // VCS revision; empty when unknown
	Modified bool   // built from a tree with uncommitted changes
}

// provenance describes this run as it starts: which agentnet, where, when,
// with which models, on which suite files.
func (o *Options) provenance(started time.Time) (eval.Provenance, error) {
	digest, err := SuiteDigest(o.Suite)
	if err != nil {
		return eval.Provenance{}, err
	}
	host, err := os.Hostname()
	if err != nil {
		host = "unknown"
	}
	p := eval.Provenance{
		Agentnet: o.Build.Version, Commit: o.Build.Commit, Modified: o.Build.Modified,
		Host: host, Started: started.UTC().Truncate(time.Second), SuiteDigest: digest,
	}
	if p.Agentnet == "" {
		p.Agentnet = "unknown"
	}
	if o.LLM != nil {
		router, _, _ := strings.Cut(o.Router, "=")
		for role, choice := range map[string]string{"generator": o.Generator, "router": router, "judge": o.Judge} {
			if choice == "llm" {
				if p.Models == nil {
					p.Models = map[string]string{}
				}
				p.Models[role] = o.LLM.Model
			}
		}
	}
	return p, nil
}

// SuiteDigest returns "sha256:HEX" over the suite's files: the suite file
// and every local file and directory it names (repo sources, input files,
// case files, workspaces, hidden tests, references and controls), each file
// by its path relative to the suite's directory and its content. Version
// control directories (.git) are left out; a symbolic link counts by its
// target's name. Git URLs count only as the suite file's text.
func SuiteDigest(s *tasks.Suite) (string, error) {
	files := map[string]bool{}
	for _, p := range suitePaths(s) {
		if err := collectFiles(p, files); err != nil {
			return "", fmt.Errorf("suite digest: %w", err)
		}
	}
	h := sha256.New()
	for _, f := range slices.Sorted(maps.Keys(files)) {
		sum, err := fileSum(f)
		if err != nil {
			return "", fmt.Errorf("suite digest: %w", err)
		}
		rel, err := filepath.Rel(s.Dir, f)
		if err != nil {
			rel = f
		}
		fmt.Fprintf(h, "%s\x00%s\n", filepath.ToSlash(rel), sum)
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), nil
}

// suitePaths lists the local paths s names, resolved against its directory.
func suitePaths(s *tasks.Suite) []string {
	paths := []string{s.Path}
	add := func(p string) {
		if p == "" || tasks.IsGitURL(p) {
			return
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(s.Dir, p)
		}
		paths = append(paths, p)
	}
	addInput := func(in *tasks.Input) {
		if in != nil {
			for _, f := range in.Files {
				add(f)
			}
		}
	}
	for _, r := range s.Repos {
		add(r.Source)
	}
	for _, c := range s.Cases {
		addInput(c.Input)
		add(c.Workspace)
		add(c.Reference)
		for _, ctl := range c.Controls {
			add(ctl)
		}
		if c.Tests != nil {
			add(c.Tests.Dir)
		}
		if c.Cases != nil {
			for _, l := range []tasks.CaseList{c.Cases.Dev, c.Cases.Heldout} {
				add(l.File)
				for _, ec := range l.Cases {
					addInput(ec.Input)
				}
			}
		}
	}
	return paths
}

// collectFiles adds the files at or under root to files.
func collectFiles(root string, files map[string]bool) error {
	return filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == ".git" && path != root {
				return filepath.SkipDir
			}
			return nil
		}
		files[path] = true
		return nil
	})
}

// fileSum is the hex sha256 of a regular file's content, or of a symbolic
// link's target name.
func fileSum(path string) (string, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return "", err
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		target, err := os.Readlink(path)
		if err != nil {
			return "", err
		}
		sum := sha256.Sum256([]byte("link:" + target))
		return hex.EncodeToString(sum[:]), nil
	}
	if !fi.Mode().IsRegular() {
		return "", nil
	}
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
