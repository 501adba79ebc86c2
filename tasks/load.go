package tasks

import (
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"

	"go.yaml.in/yaml/v4"

	"github.com/agentnet/agentnet/internal/yamlx"
)

// MaxFileSize bounds a suite or case-list file.
const MaxFileSize = 8 << 20

// Load reads and validates the suite at file. A returned error that holds
// problems with the file is a yamlx.Problems listing every one of them; other
// errors are I/O errors.
func Load(file string) (*Suite, error) {
	data, err := readBounded(file)
	if err != nil {
		return nil, err
	}
	return Parse(file, data)
}

// Parse decodes and validates a suite read from file (used for positions and
// to resolve relative paths).
func Parse(file string, data []byte) (*Suite, error) {
	d := yamlx.NewDecoder(file)
	s := &Suite{Path: file, Dir: filepath.Dir(file)}
	d.DecodeBytes(data, s)
	if len(d.Problems()) == 0 || s.Version != 0 {
		v := &validator{d: d, s: s}
		v.suite()
	}
	if err := d.Err(); err != nil {
		return s, err
	}
	return s, nil
}

func readBounded(file string) ([]byte, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, fmt.Errorf("read suite: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("read suite: %w", err)
	}
	if fi.IsDir() {
		return nil, fmt.Errorf("read suite %s: is a directory", file)
	}
	if fi.Size() > MaxFileSize {
		return nil, fmt.Errorf("read suite %s: %d bytes, more than the %d allowed", file, fi.Size(), MaxFileSize)
	}
	return os.ReadFile(file)
}

func reflectValue(p any) reflect.Value { return reflect.ValueOf(p).Elem() }

var (
	idRE     = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)
	caseIDRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)
	schemeRE = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*://`)
)

type validator struct {
	d     *yamlx.Decoder
	s     *Suite
	repos map[string]bool
}

func (v *validator) errf(path, format string, args ...any) { v.d.Errorf(path, format, args...) }

func (v *validator) suite() {
	if v.s.Version != 1 {
		if !v.d.Has("version") {
			v.errf("version", "missing (want version: 1)")
		} else {
			v.errf("version", "unsupported version %d (want 1)", v.s.Version)
		}
	}
	if strings.TrimSpace(v.s.Name) == "" {
		v.errf("name", "missing or empty")
	}
	if len(v.s.Repos) == 0 {
		v.errf("repos", "at least one repo is required")
	}
	v.repos = map[string]bool{}
	for i := range v.s.Repos {
		v.repo(fmt.Sprintf("repos[%d]", i), &v.s.Repos[i])
	}
	ids := map[string]string{}
	for i := range v.s.Cases {
		p := fmt.Sprintf("tasks[%d]", i)
		c := &v.s.Cases[i]
		if prev, dup := ids[c.ID]; dup && c.ID != "" {
			v.errf(p+".id", "duplicate task id %q (first at %s)", c.ID, prev)
		} else {
			ids[c.ID] = p
		}
		v.caseEntry(p, c)
	}
}

// SourceOf is where repo r's code is: its git URL, or its local path made
// absolute against the suite's folder.
func (s *Suite) SourceOf(r Repo) string {
	if IsGitURL(r.Source) || filepath.IsAbs(r.Source) {
		return r.Source
	}
	return filepath.Join(s.Dir, r.Source)
}

// IsGitURL reports whether source names a remote git repository rather
// than a local path.
func IsGitURL(source string) bool {
	return schemeRE.MatchString(source) || looksLikeRemote(source)
}

// looksLikeRemote spots git URLs written without a scheme:
// "git@host:owner/repo.git" and "github.com/owner/repo".
func looksLikeRemote(source string) bool {
	if strings.HasPrefix(source, ".") || strings.HasPrefix(source, "/") {
		return false
	}
	if at, colon := strings.Index(source, "@"), strings.Index(source, ":"); at > 0 && colon > at {
		return true
	}
	first, _, _ := strings.Cut(source, "/")
	return strings.Contains(first, ".") && strings.Count(source, "/") >= 2 && !strings.HasSuffix(first, ".d")
}

func (v *validator) repo(p string, r *Repo) {
	switch {
	case r.ID == "":
		v.errf(p+".id", "missing")
	case !idRE.MatchString(r.ID):
		v.errf(p+".id", "%q is not a valid id (lower-case letters, digits and dashes, starting with a letter or digit)", r.ID)
	case v.repos[r.ID]:
		v.errf(p+".id", "duplicate repo id %q", r.ID)
	}
	v.repos[r.ID] = true
	switch {
	case strings.TrimSpace(r.Source) == "":
		v.errf(p+".source", "missing")
	case schemeRE.MatchString(r.Source):
		scheme, _, _ := strings.Cut(r.Source, "://")
		if !slices.Contains([]string{"https", "http", "ssh", "git", "file"}, strings.ToLower(scheme)) {
			v.errf(p+".source", "unsupported URL scheme %q (want https, http, ssh, git or file)", scheme)
		}
	case looksLikeRemote(r.Source):
		v.errf(p+".source", "git URL %q has no scheme (write https://... or ssh://...)", r.Source)
	default:
		if fi, err := os.Stat(v.resolve(r.Source)); err != nil {
			v.errf(p+".source", "local repo %q does not exist (relative to %s)", r.Source, v.s.Dir)
		} else if !fi.IsDir() {
			v.errf(p+".source", "local repo %q is not a directory", r.Source)
		}
	}
	if len(r.Skills) == 0 {
		v.errf(p+".skills", "at least one ground-truth skill is required")
	}
	seen := map[string]bool{}
	for j, sk := range r.Skills {
		sp := fmt.Sprintf("%s.skills[%d]", p, j)
		switch {
		case sk.ID == "":
			v.errf(sp+".id", "missing")
		case !idRE.MatchString(sk.ID):
			v.errf(sp+".id", "%q is not a valid id", sk.ID)
		case seen[sk.ID]:
			v.errf(sp+".id", "duplicate skill id %q in repo %q", sk.ID, r.ID)
		}
		seen[sk.ID] = true
		if strings.TrimSpace(sk.Description) == "" {
			v.errf(sp+".description", "missing or empty")
		}
	}
}

func (v *validator) resolve(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(v.s.Dir, p)
}

func (v *validator) knownRepo(p, id string) {
	if id == "" {
		v.errf(p, "missing")
	} else if !v.repos[id] {
		v.errf(p, "unknown repo %q (not in repos)", id)
	}
}

func (v *validator) caseEntry(p string, c *Case) {
	switch {
	case c.ID == "":
		v.errf(p+".id", "missing")
	case !caseIDRE.MatchString(c.ID):
		v.errf(p+".id", "%q is not a valid id", c.ID)
	}
	seen := map[Indicator]bool{}
	for i, ind := range c.Indicators {
		ip := fmt.Sprintf("%s.indicators[%d]", p, i)
		if !slices.Contains(Indicators, ind) {
			v.errf(ip, "unknown indicator %q (want one of %s)", ind, joinIndicators())
		} else if seen[ind] {
			v.errf(ip, "indicator %q listed twice", ind)
		}
		seen[ind] = true
	}
	notFor := func(field string, set bool) {
		if set {
			v.errf(p+"."+field, "not allowed in a %s task", c.Type)
		}
	}
	switch c.Type {
	case Single:
		v.knownRepo(p+".repo", c.Repo)
		v.required(p+".instruction", c.Instruction)
		v.input(p+".input", c.Input)
		v.judged(p, c.Expect, c.Rubric)
		notFor("steps", len(c.Steps) > 0)
		v.noCommissionFields(p, c, notFor)
	case Chain:
		notFor("repo", c.Repo != "")
		if len(c.Steps) < 2 {
			v.errf(p+".steps", "a chain needs at least 2 steps, got %d", len(c.Steps))
		}
		for i, st := range c.Steps {
			sp := fmt.Sprintf("%s.steps[%d]", p, i)
			v.knownRepo(sp+".repo", st.Repo)
			v.required(sp+".instruction", st.Instruction)
		}
		v.input(p+".input", c.Input)
		v.judged(p, c.Expect, c.Rubric)
		v.noCommissionFields(p, c, notFor)
	case Commission:
		notFor("repo", c.Repo != "")
		notFor("steps", len(c.Steps) > 0)
		notFor("expect", len(c.Expect) > 0)
		v.commission(p, c)
	case "":
		v.errf(p+".type", "missing (want single, chain or commission)")
	default:
		v.errf(p+".type", "unknown type %q (want single, chain or commission)", c.Type)
	}
}

func (v *validator) noCommissionFields(p string, c *Case, notFor func(string, bool)) {
	notFor("stage", c.Stage != "")
	notFor("requirement", c.Requirement != "")
	notFor("workspace", c.Workspace != "")
	notFor("cases", c.Cases != nil)
	notFor("tests", c.Tests != nil)
	notFor("gates", c.Gates != nil)
	notFor("baseline", c.Baseline != nil)
	notFor("reference", c.Reference != "")
	notFor("controls", len(c.Controls) > 0)
}

func (v *validator) commission(p string, c *Case) {
	switch c.Stage {
	case Creation:
		if c.Workspace != "" {
			v.errf(p+".workspace", "a creation commission starts from an empty workspace")
		}
		if c.Baseline != nil {
			v.errf(p+".baseline", "only an optimization commission has a baseline")
		}
	case Editing, Optimization:
		if c.Workspace == "" {
			v.errf(p+".workspace", "an %s commission needs the starting bundle or repo", c.Stage)
		} else {
			v.dir(p+".workspace", c.Workspace)
		}
		if c.Stage == Editing && c.Baseline != nil {
			v.errf(p+".baseline", "only an optimization commission has a baseline")
		}
	case "":
		v.errf(p+".stage", "missing (want creation, editing or optimization)")
	default:
		v.errf(p+".stage", "unknown stage %q (want creation, editing or optimization)", c.Stage)
	}
	v.required(p+".requirement", c.Requirement)
	if c.Baseline != nil && (*c.Baseline < 0 || *c.Baseline > 100) {
		v.errf(p+".baseline", "%g is outside 0–100", *c.Baseline)
	}
	if c.Cases == nil {
		v.errf(p+".cases", "missing (a commission needs held-out cases)")
	} else {
		ids := map[string]bool{}
		v.caseList(p+".cases.dev", &c.Cases.Dev, ids)
		v.caseList(p+".cases.heldout", &c.Cases.Heldout, ids)
		if len(c.Cases.Heldout.Cases) == 0 && !v.d.Has(p+".cases.heldout") {
			v.errf(p+".cases.heldout", "missing (a commission is judged on held-out cases)")
		}
	}
	if t := c.Tests; t != nil {
		if t.Dir == "" {
			v.errf(p+".tests.dir", "missing")
		} else {
			v.dir(p+".tests.dir", t.Dir)
		}
		if len(t.Command) == 0 {
			v.errf(p+".tests.command", "missing")
		}
	}
	if c.Reference != "" {
		v.dir(p+".reference", c.Reference)
	}
	for i, ctl := range c.Controls {
		v.dir(fmt.Sprintf("%s.controls[%d]", p, i), ctl)
	}
}

func (v *validator) caseList(p string, l *CaseList, ids map[string]bool) {
	if l.File != "" {
		file := v.resolve(l.File)
		data, err := readBounded(file)
		if err != nil {
			v.errf(p, "cannot read case file %q: %v", l.File, unwrapPathError(err))
			return
		}
		sub := yamlx.NewDecoder(file)
		var doc struct {
			Cases []EvalCase `json:"cases"`
		}
		// A case file is either a bare list or {cases: [...]}.
		var probe yaml.Node
		_ = yaml.Unmarshal(data, &probe) // syntax errors are reported by DecodeBytes
		if len(probe.Content) > 0 && probe.Content[0].Kind == yaml.SequenceNode {
			sub.DecodeBytes(data, &doc.Cases)
		} else {
			sub.DecodeBytes(data, &doc)
		}
		// Paths in a case file are relative to it; rewrite them relative to
		// the suite so that every consumer resolves them the same way.
		subSuite := *v.s
		subSuite.Dir = filepath.Dir(file)
		sv := &validator{d: sub, s: &subSuite, repos: v.repos}
		l.Cases = doc.Cases
		sv.evalCases("", l.Cases, ids)
		for i := range l.Cases {
			if in := l.Cases[i].Input; in != nil {
				for j, f := range in.Files {
					if rel, err := filepath.Rel(v.s.Dir, filepath.Join(subSuite.Dir, f)); err == nil && !filepath.IsAbs(f) {
						in.Files[j] = rel
					}
				}
			}
		}
		v.d.Add(sub.Problems()...)
		if len(l.Cases) == 0 && len(sub.Problems()) == 0 {
			v.errf(p, "case file %q holds no cases", l.File)
		}
		return
	}
	v.evalCases(p, l.Cases, ids)
}

func (v *validator) evalCases(p string, cases []EvalCase, ids map[string]bool) {
	for i, ec := range cases {
		cp := fmt.Sprintf("%s[%d]", p, i)
		if p == "" {
			cp = fmt.Sprintf("cases[%d]", i)
		}
		switch {
		case ec.ID == "":
			v.errf(cp+".id", "missing")
		case !caseIDRE.MatchString(ec.ID):
			v.errf(cp+".id", "%q is not a valid id", ec.ID)
		case ids[ec.ID]:
			v.errf(cp+".id", "duplicate case id %q", ec.ID)
		}
		ids[ec.ID] = true
		v.required(cp+".instruction", ec.Instruction)
		v.input(cp+".input", ec.Input)
		v.judged(cp, ec.Expect, ec.Rubric)
	}
}

func (v *validator) required(p, s string) {
	if strings.TrimSpace(s) == "" {
		v.errf(p, "missing or empty")
	}
}

func (v *validator) dir(p, rel string) {
	if fi, err := os.Stat(v.resolve(rel)); err != nil {
		v.errf(p, "%q does not exist (relative to %s)", rel, v.s.Dir)
	} else if !fi.IsDir() {
		v.errf(p, "%q is not a directory", rel)
	}
}

func (v *validator) input(p string, in *Input) {
	if in == nil {
		return
	}
	for i, f := range in.Files {
		fp := fmt.Sprintf("%s.files[%d]", p, i)
		fi, err := os.Stat(v.resolve(f))
		switch {
		case f == "":
			v.errf(fp, "empty path")
		case err != nil:
			v.errf(fp, "input file %q does not exist (relative to %s)", f, v.s.Dir)
		case fi.IsDir():
			v.errf(fp, "input file %q is a directory", f)
		}
	}
}

func (v *validator) judged(p string, checks []Check, rubric Rubric) {
	if len(checks) == 0 && len(rubric) == 0 {
		v.errf(p, "neither a check (expect) nor a rubric: nothing could judge it")
	}
	for i, r := range rubric {
		if strings.TrimSpace(r.Criterion) == "" {
			v.errf(fmt.Sprintf("%s.rubric[%d].criterion", p, i), "missing or empty")
		}
	}
	for i, c := range checks {
		cp := fmt.Sprintf("%s.expect[%d]", p, i)
		switch c.count() {
		case 0:
			v.errf(cp, "empty check (want one of contains, matches, not_contains, number, file, json)")
			continue
		case 1:
		default:
			v.errf(cp, "one check per entry, got %d kinds", c.count())
			continue
		}
		switch {
		case c.Matches != nil:
			if _, err := regexp.Compile(*c.Matches); err != nil {
				v.errf(cp+".matches", "bad regular expression: %v", unwrapRegexp(err))
			}
		case c.Contains != nil && *c.Contains == "":
			v.errf(cp+".contains", "empty string always matches")
		case c.NotContains != nil && *c.NotContains == "":
			v.errf(cp+".not_contains", "empty string never holds")
		case c.Number != nil:
			if c.Number.Tolerance < 0 {
				v.errf(cp+".number.tolerance", "must not be negative")
			}
		case c.File != nil:
			if c.File.Name == "" {
				v.errf(cp+".file.name", "missing")
			} else if _, err := path.Match(c.File.Name, ""); err != nil {
				v.errf(cp+".file.name", "bad glob %q", c.File.Name)
			}
		case c.JSON != nil:
			if err := checkJSONPath(c.JSON.Path); err != nil {
				v.errf(cp+".json.path", "%v", err)
			}
		}
	}
}

func joinIndicators() string {
	s := make([]string, len(Indicators))
	for i, ind := range Indicators {
		s[i] = string(ind)
	}
	return strings.Join(s, ", ")
}

func unwrapPathError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func unwrapRegexp(err error) string {
	return strings.TrimPrefix(err.Error(), "error parsing regexp: ")
}
