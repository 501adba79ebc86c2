package bundle

import (
	"fmt"
	"mime"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/agentnet/agentnet/internal/schemax"
	"github.com/agentnet/agentnet/internal/yamlx"
)

// MaxFileSize bounds an agent.yaml.
const MaxFileSize = 1 << 20

// Load reads and validates the bundle at dir, a bundle directory or the path
// of its agent.yaml. A returned error that holds problems with the file is a
// yamlx.Problems listing every one of them; other errors are I/O errors.
func Load(dir string) (*Bundle, error) {
	file := dir
	if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
		file = filepath.Join(dir, FileName)
	}
	f, err := os.Open(file)
	if err != nil {
		return nil, fmt.Errorf("read bundle: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("read bundle: %w", err)
	}
	if fi.Size() > MaxFileSize {
		return nil, fmt.Errorf("read bundle %s: %d bytes, more than the %d allowed", file, fi.Size(), MaxFileSize)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("read bundle: %w", err)
	}
	return Parse(file, data)
}

// Parse decodes and validates an agent.yaml read from file (used for
// positions and to resolve relative paths). On problems it returns the
// partly decoded bundle together with the yamlx.Problems.
func Parse(file string, data []byte) (*Bundle, error) {
	d := yamlx.NewDecoder(file)
	b := &Bundle{Path: file, Dir: filepath.Dir(file)}
	d.DecodeBytes(data, b)
	if len(d.Problems()) == 0 || b.Version != 0 {
		v := &validator{d: d, b: b}
		v.bundle()
	}
	if err := d.Err(); err != nil {
		return b, err
	}
	return b, nil
}

var (
	skillIDRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)
	schemeRE  = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*://`)
	scpRE     = regexp.MustCompile(`^[A-Za-z0-9._-]+@[A-Za-z0-9.-]+:`)
	// debianNameRE is Debian's grammar of a package name (Debian Policy
	// 5.6.1): it never starts with a dash, so no name becomes an option.
	debianNameRE = regexp.MustCompile(`^[a-z0-9][a-z0-9+.-]+$`)
)

// IsGitURL reports whether a repo source names a remote git repository
// rather than a local path.
func IsGitURL(source string) bool {
	return schemeRE.MatchString(source) || scpRE.MatchString(source)
}

type validator struct {
	d *yamlx.Decoder
	b *Bundle
}

func (v *validator) errf(p, format string, args ...any) { v.d.Errorf(p, format, args...) }

func (v *validator) bundle() {
	b := v.b
	if b.Version != 1 {
		if !v.d.Has("version") {
			v.errf("version", "missing (want version: 1)")
		} else {
			v.errf("version", "unsupported version %d (want 1)", b.Version)
		}
	}
	v.required("name", b.Name)
	v.required("description", b.Description)
	if r := b.Repo; r != nil {
		switch {
		case strings.TrimSpace(r.Source) == "":
			v.errf("repo.source", "missing")
		case IsGitURL(r.Source):
		case filepath.IsAbs(r.Source):
			v.errf("repo.source", "absolute path %q: write it relative to the bundle directory", r.Source)
		default:
			if fi, err := os.Stat(filepath.Join(b.Dir, r.Source)); err != nil {
				v.errf("repo.source", "local repo %q does not exist (relative to %s)", r.Source, b.Dir)
			} else if !fi.IsDir() {
				v.errf("repo.source", "local repo %q is not a directory", r.Source)
			}
		}
	}
	// Setup and check run before any task: the directories are known, a
	// work directory and a port are not.
	dirsOnly := func(name string) bool { return name == VarRepo || name == VarBundle }
	for i, c := range b.Setup {
		v.command(fmt.Sprintf("setup[%d]", i), c, dirsOnly)
	}
	for i, c := range b.Check {
		v.command(fmt.Sprintf("check[%d]", i), c, dirsOnly)
	}
	if v.d.Has("serve") {
		v.command("serve", b.Serve, IsBuiltin)
		if !slices.ContainsFunc(b.Serve, func(s string) bool { return slices.Contains(Placeholders(s), VarPort) }) {
			v.errf("serve", "the server must listen on {{port}}")
		}
	} else if len(b.Skills) == 0 {
		v.errf("skills", "at least one skill with run is required (or serve, for a bundle with its own server)")
	}
	v.systemPackages(b.SystemPackages)
	seen := map[string]string{}
	for i := range b.Skills {
		p := fmt.Sprintf("skills[%d]", i)
		sk := &b.Skills[i]
		if prev, dup := seen[sk.ID]; dup && sk.ID != "" {
			v.errf(p+".id", "duplicate skill id %q (first at %s)", sk.ID, prev)
		} else {
			seen[sk.ID] = p
		}
		v.skill(p, sk)
	}
}

// systemPackages checks the Debian package names: Debian's grammar, each
// once.
func (v *validator) systemPackages(pkgs []string) {
	seen := map[string]int{}
	for i, p := range pkgs {
		ep := fmt.Sprintf("system_packages[%d]", i)
		if first, dup := seen[p]; dup {
			v.errf(ep, "duplicate package %q (first at system_packages[%d])", p, first)
			continue
		}
		seen[p] = i
		if !IsDebianPackage(p) {
			v.errf(ep, "%q is not a Debian package name (lower-case letters, digits, '+', '-' and '.', at least two, starting with a letter or digit)", p)
		}
	}
}

// IsDebianPackage reports whether name follows Debian's grammar of package
// names.
func IsDebianPackage(name string) bool { return len(name) <= 128 && debianNameRE.MatchString(name) }

func (v *validator) required(p, s string) {
	if strings.TrimSpace(s) == "" {
		v.errf(p, "missing or empty")
	}
}

// command checks an argv template: not empty, only known placeholders, no
// absolute path and no ".." that would escape the bundle.
func (v *validator) command(p string, c Command, known func(string) bool) {
	if len(c) == 0 {
		v.errf(p, "empty command (want a program and its arguments)")
		return
	}
	if strings.TrimSpace(c[0]) == "" {
		v.errf(p+"[0]", "empty program name")
	}
	for i, el := range c {
		ep := fmt.Sprintf("%s[%d]", p, i)
		for _, name := range Placeholders(el) {
			if !known(name) {
				if IsBuiltin(name) {
					v.errf(ep, "{{%s}} is not available here", name)
				} else {
					v.errf(ep, "{{%s}} is not a declared parameter", name)
				}
			}
		}
		if msg := escapes(el); msg != "" {
			v.errf(ep, "%s", msg)
		}
	}
}

// escapes reports why a template element names a path outside the bundle:
// an absolute path or a ".." segment. Placeholders count as inside.
func escapes(el string) string {
	lit := placeholderRE.ReplaceAllString(el, "x")
	for _, part := range strings.FieldsFunc(lit, func(r rune) bool { return r == '=' || r == ':' || r == ',' }) {
		if strings.HasPrefix(part, "/") && !strings.HasPrefix(el, "{{") {
			return fmt.Sprintf("absolute path %q: use {{repo}}, {{bundle}} or {{workdir}}, or a path relative to the repo", el)
		}
		if slices.Contains(strings.Split(filepath.ToSlash(part), "/"), "..") {
			return fmt.Sprintf("%q climbs out with \"..\"", el)
		}
	}
	return ""
}

func (v *validator) skill(p string, sk *Skill) {
	switch {
	case sk.ID == "":
		v.errf(p+".id", "missing")
	case !skillIDRE.MatchString(sk.ID):
		v.errf(p+".id", "%q is not a valid id (letters, digits, '.', '_' and '-', starting with a letter or digit)", sk.ID)
	}
	v.required(p+".name", sk.Name)
	v.required(p+".description", sk.Description)
	for i, t := range sk.Tags {
		if strings.TrimSpace(t) == "" {
			v.errf(fmt.Sprintf("%s.tags[%d]", p, i), "empty tag")
		}
	}
	for i, e := range sk.Examples {
		if strings.TrimSpace(e) == "" {
			v.errf(fmt.Sprintf("%s.examples[%d]", p, i), "empty example")
		}
	}
	v.modes(p+".input_modes", sk.InputModes)
	v.modes(p+".output_modes", sk.OutputModes)
	props := v.params(p+".params", sk)
	switch {
	case v.d.Has("serve") && sk.Run != nil:
		v.errf(p+".run", "a bundle with serve runs its own server; its skills have no run")
	case !v.d.Has("serve"):
		if !v.d.Has(p + ".run") {
			v.errf(p+".run", "missing (the argv template that performs the skill)")
		} else {
			v.command(p+".run", sk.Run, func(name string) bool { return IsBuiltin(name) || props[name] })
			v.outputFiles(p, sk)
		}
	}
	if sk.Stdin != "" {
		names := Placeholders(sk.Stdin)
		switch {
		case v.d.Has("serve"):
			v.errf(p+".stdin", "a bundle with serve runs its own server; its skills have no stdin")
		case len(names) != 1 || placeholderRE.FindString(sk.Stdin) != sk.Stdin:
			v.errf(p+".stdin", "%q is not one placeholder (want \"{{param}}\")", sk.Stdin)
		case !props[names[0]]:
			v.errf(p+".stdin", "{{%s}} is not a declared parameter", names[0])
		}
	}
	for i, g := range sk.Outputs {
		gp := fmt.Sprintf("%s.outputs[%d]", p, i)
		switch {
		case g == "":
			v.errf(gp, "empty glob")
		case path.IsAbs(g) || filepath.IsAbs(g):
			v.errf(gp, "absolute glob %q: outputs are relative to the work directory", g)
		case slices.Contains(strings.Split(filepath.ToSlash(g), "/"), ".."):
			v.errf(gp, "glob %q climbs out of the work directory", g)
		default:
			if _, err := path.Match(g, ""); err != nil {
				v.errf(gp, "bad glob %q", g)
			}
		}
	}
}

func (v *validator) modes(p string, modes []string) {
	for i, m := range modes {
		if msg := CheckMediaType(m); msg != "" {
			v.errf(fmt.Sprintf("%s[%d]", p, i), "%s", msg)
		}
	}
}

// CheckMediaType returns why m is not a MIME type ("type/subtype"), or "".
func CheckMediaType(m string) string {
	mt, _, err := mime.ParseMediaType(m)
	if err != nil || !strings.Contains(mt, "/") || strings.HasPrefix(mt, "/") || strings.HasSuffix(mt, "/") {
		return fmt.Sprintf("%q is not a MIME type (want type/subtype, e.g. text/plain)", m)
	}
	return ""
}

// params checks and compiles a skill's params schema and returns the names
// of its declared properties.
func (v *validator) params(p string, sk *Skill) map[string]bool {
	props := map[string]bool{}
	if sk.Params == nil {
		sch, err := schemax.Compile(map[string]any{"type": "object"})
		if err == nil {
			sk.schema = sch
		}
		return props
	}
	if t, ok := sk.Params["type"]; ok && t != "object" {
		v.errf(p+".type", "params must be an object schema (type: object), got %v", t)
	}
	pm, ok := sk.Params["properties"].(map[string]any)
	if raw, has := sk.Params["properties"]; has && !ok {
		v.errf(p+".properties", "want a mapping of parameter names to schemas, got %T", raw)
	}
	for name, ps := range pm {
		props[name] = true
		if IsBuiltin(name) {
			v.errf(p+".properties."+name, "%q is a built-in template variable; choose another parameter name", name)
		}
		m, ok := ps.(map[string]any)
		if !ok {
			if _, isBool := ps.(bool); !isBool {
				v.errf(p+".properties."+name, "want a schema (a mapping), got %T", ps)
			}
		}
		v.role(p+".properties."+name, m)
	}
	if req, has := sk.Params["required"]; has {
		list, ok := req.([]any)
		if !ok {
			v.errf(p+".required", "want a list of parameter names")
		}
		for i, r := range list {
			name, _ := r.(string)
			if !props[name] {
				v.errf(fmt.Sprintf("%s.required[%d]", p, i), "required parameter %v is not in properties", r)
			}
		}
	}
	sch, err := schemax.Compile(sk.Params)
	if err != nil {
		v.errf(p, "not a valid JSON Schema: %v", err)
		return props
	}
	sk.schema = sch
	return props
}

// role checks a parameter's x-role and x-accepts keywords: a role of the
// closed set, media types, and media types only where a file is read or
// written.
func (v *validator) role(p string, m map[string]any) {
	role, hasRole := m[KeyRole]
	if hasRole {
		r, ok := role.(string)
		switch {
		case !ok || !slices.Contains(Roles, r):
			v.errf(p+"."+KeyRole, "%v is not a role (want one of %s)", role, strings.Join(Roles, ", "))
		case r == RoleInputFile && m["format"] != FormatPath:
			v.errf(p+"."+KeyRole, "an input-file parameter says format: path")
		}
	}
	acc, has := m[KeyAccepts]
	if !has {
		return
	}
	list, ok := acc.([]any)
	if !ok {
		v.errf(p+"."+KeyAccepts, "want a list of media types, got %T", acc)
		return
	}
	for i, x := range list {
		s, _ := x.(string)
		if msg := CheckMediaType(s); msg != "" {
			v.errf(fmt.Sprintf("%s.%s[%d]", p, KeyAccepts, i), "%s", msg)
		}
	}
	if r, _ := role.(string); slices.Contains(Roles, r) && r != RoleInputFile && r != RoleOutput {
		v.errf(p+"."+KeyAccepts, "only an input-file or output parameter accepts media types (this one is a %s)", r)
	}
}
