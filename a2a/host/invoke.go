package host

import (
	"context"
	"fmt"
	"io/fs"
	"mime"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/agentnet/agentnet/bundle"
	"github.com/agentnet/agentnet/internal/lazyregexp"
	"github.com/agentnet/agentnet/internal/sniff"
)

// request is one skill call, whatever transport it came by.
type request struct {
	taskID string
	skill  string // an explicit skill id, or ""
	text   string // the message's text parts, joined
	// content is the text parts after the first (the instruction), joined:
	// text given to work on rather than words about the work.
	content string
	data    map[string]any // the message's data parts, merged
	files   []inFile       // the message's file parts
	// args are arguments given directly (MCP tool calls); they skip the
	// binding of text and data.
	args map[string]any
}

type inFile struct {
	name      string
	mediaType string
	data      []byte
}

// outcome is the answer to a request.
type outcome struct {
	skill  *bundle.Skill
	by     string // how the skill was chosen
	stdout string
	files  []outFile
	run    *runResult
}

type outFile struct {
	name      string // relative to the work directory, slash-separated
	mediaType string
	data      []byte
}

// failure is a task that failed for a reason the caller should read.
type failure struct{ msg string }

func (f *failure) Error() string { return f.msg }

func failf(format string, args ...any) error { return &failure{msg: fmt.Sprintf(format, args...)} }

// errKilled reports that the task was canceled (or the host closed) while
// its skill ran.
var errKilled = &failure{msg: "canceled"}

// invoke performs one request: choose, bind, validate, run, collect. Errors
// are *failure for the caller's eyes; anything else is an internal error.
func (h *Host) invoke(ctx context.Context, req *request, progress func(string)) (*outcome, error) {
	work := filepath.Join(h.workRoot, safeName(req.taskID, "task"))
	if err := os.MkdirAll(work, 0o755); err != nil {
		return nil, fmt.Errorf("work directory: %w", err)
	}
	if !h.cfg.keepWork {
		defer os.RemoveAll(work)
	}
	saved, err := saveFiles(work, req.files)
	if err != nil {
		return nil, err
	}

	ch, err := h.choose(ctx, req, saved)
	if err != nil {
		return nil, err
	}
	sk := ch.skill
	h.log.Info("skill chosen", "task", req.taskID, "skill", sk.ID, "by", ch.by)
	given := ch.args
	if req.args != nil {
		given = req.args
	}
	args, err := bind(sk, work, req, saved, given)
	if err != nil {
		return nil, err
	}
	if issues := sk.Check(args); issues != nil {
		var lines []string
		for _, is := range issues {
			lines = append(lines, is.String())
		}
		return nil, failf("skill %q: invalid arguments: %s", sk.ID, strings.Join(lines, "; "))
	}
	argv, err := sk.Argv(bundle.Vars{Repo: h.b.RepoDir(), Bundle: h.b.AbsDir(), Workdir: work, Port: freePortOrZero(sk)}, args)
	if err != nil {
		return nil, failf("skill %q: %v", sk.ID, err)
	}
	before := map[string]bool{}
	for _, f := range saved {
		before[f] = true
	}
	if progress != nil {
		progress(fmt.Sprintf("running skill %s", sk.ID))
	}
	h.log.Debug("run", "task", req.taskID, "skill", sk.ID, "argv", argv)
	res, err := runProcess(ctx, runSpec{argv: argv, dir: work, env: h.skillEnv(), timeout: sk.RunTimeout(), maxOutput: h.cfg.maxOutput},
		func(kill func()) {
			if !h.track(req.taskID, kill) {
				kill() // canceled before it started, or the host is closing
			}
		})
	h.untrack(req.taskID)
	if err != nil {
		return nil, failf("skill %q could not start: %v", sk.ID, err)
	}
	switch {
	case res.killed:
		return nil, errKilled
	case res.timedOut:
		return nil, failf("skill %q timed out after %s and was killed%s", sk.ID, sk.RunTimeout(), tail(res.stderr))
	case res.exitCode != 0:
		return nil, failf("skill %q exited with status %d%s", sk.ID, res.exitCode, tail(res.stderr))
	}
	// The caller knows its files by their names, never by the task's work
	// directory: paths a tool echoes ("/tmp/…/task/notes.txt:1: …") are
	// given back relative to it.
	out := &outcome{skill: sk, by: ch.by, run: res, stdout: strings.ReplaceAll(string(res.stdout), work+string(filepath.Separator), "")}
	if res.truncated {
		out.stdout += fmt.Sprintf("\n[output truncated at %d bytes]", h.cfg.maxOutput)
	}
	out.files, err = collect(work, sk.Outputs, before)
	if err != nil {
		return nil, err
	}
	// Asked to save the result under a name the skill did not write (it
	// writes to standard output): the output is returned as that file too.
	if name := namedOutput(req.text, saved); name != "" && strings.TrimSpace(out.stdout) != "" && !res.truncated &&
		!slices.ContainsFunc(out.files, func(f outFile) bool { return path.Base(f.name) == name }) {
		data := []byte(out.stdout)
		out.files = append(out.files, outFile{name: name, mediaType: mediaTypeOf(name, data), data: data})
	}
	return out, nil
}

func tail(stderr []byte) string {
	s := strings.TrimSpace(strings.ToValidUTF8(string(stderr), "?"))
	if s == "" {
		return ""
	}
	return ": " + s
}

// skillEnv is the environment of skill processes.
func (h *Host) skillEnv() []string {
	if h.cfg.env == nil {
		return []string{"PATH=/usr/local/bin:/usr/bin:/bin"}
	}
	return h.cfg.env
}

// freePortOrZero finds a free port when the run template asks for one.
func freePortOrZero(sk *bundle.Skill) int {
	for _, el := range sk.Run {
		if slices.Contains(bundle.Placeholders(el), bundle.VarPort) {
			if p, err := FreePort(); err == nil {
				return p
			}
		}
	}
	return 0
}

var unsafeRE = lazyregexp.New(`[^A-Za-z0-9._+-]+`)

// safeName reduces a client-supplied file name to a safe base name: no
// directories, no leading dots, only portable characters.
func safeName(name, fallback string) string {
	name = strings.ReplaceAll(name, "\\", "/")
	name = path.Base(name)
	name = unsafeRE.ReplaceAllString(name, "_")
	name = strings.TrimLeft(name, ".")
	if len(name) > 128 {
		ext := path.Ext(name)
		if len(ext) > 16 {
			ext = ""
		}
		name = name[:128-len(ext)] + ext
	}
	if name == "" || name == "_" {
		return fallback
	}
	return name
}

// saveFiles writes the message's files into the work directory under safe,
// distinct names and returns those names.
func saveFiles(work string, files []inFile) ([]string, error) {
	var names []string
	taken := map[string]bool{}
	for i, f := range files {
		fallback := fmt.Sprintf("input-%d%s", i+1, extFor(f.mediaType))
		name := safeName(f.name, fallback)
		base, ext := strings.TrimSuffix(name, path.Ext(name)), path.Ext(name)
		for n := 2; taken[name]; n++ {
			name = fmt.Sprintf("%s-%d%s", base, n, ext)
		}
		taken[name] = true
		if err := os.WriteFile(filepath.Join(work, name), f.data, 0o644); err != nil {
			return nil, fmt.Errorf("save input file %q: %w", name, err)
		}
		names = append(names, name)
	}
	return names, nil
}

func extFor(mediaType string) string {
	mt, _, _ := mime.ParseMediaType(mediaType)
	switch mt {
	case "", "application/octet-stream":
		return ""
	case "text/plain":
		return ".txt"
	}
	if exts, _ := mime.ExtensionsByType(mt); len(exts) > 0 {
		return exts[0]
	}
	return ""
}

// bind fills the skill's arguments: given arguments (MCP, LLM), data-part
// fields by name, file parts for path parameters, the text for the single
// string parameter (or, for a required path parameter without a file, as a
// file of its own), and the schema's defaults. Path arguments must name
// files inside the work directory; they are passed as absolute paths.
func bind(sk *bundle.Skill, work string, req *request, saved []string, given map[string]any) (map[string]any, error) {
	params := sk.ParamList()
	declared := map[string]bundle.Param{}
	for _, p := range params {
		declared[p.Name] = p
	}
	args := map[string]any{}
	for k, v := range given {
		if _, ok := declared[k]; ok || len(declared) == 0 {
			args[k] = v
		}
	}
	for k, v := range req.data {
		if _, ok := declared[k]; ok {
			args[k] = v
		}
	}
	// Path arguments given by name refer to the attached files.
	for _, p := range params {
		v, ok := args[p.Name]
		if !ok || !p.IsPath() {
			continue
		}
		switch t := v.(type) {
		case string:
			abs, err := inside(work, t)
			if err != nil {
				return nil, failf("skill %q: parameter %s: %v", sk.ID, p.Name, err)
			}
			args[p.Name] = abs
		case []any:
			for i, item := range t {
				s, _ := item.(string)
				abs, err := inside(work, s)
				if err != nil {
					return nil, failf("skill %q: parameter %s[%d]: %v", sk.ID, p.Name, i, err)
				}
				t[i] = abs
			}
		}
	}
	// Files go to the parameters that take them (see bindFiles).
	used := map[string]bool{}
	for _, v := range args {
		if s, ok := v.(string); ok {
			used[filepath.Base(s)] = true
		}
	}
	var free []string
	for _, f := range saved {
		if !used[f] {
			free = append(free, f)
		}
	}
	bindFiles(sk, params, args, free, req.text, work)
	// A file name the instruction gives the result goes to the one
	// parameter for a file the skill writes.
	if name := namedOutput(req.text, saved); name != "" {
		var outs []bundle.Param
		for _, p := range params {
			if _, ok := args[p.Name]; !ok && writes(p) && (p.IsPath() || p.Type == "string" || p.Type == "") {
				outs = append(outs, p)
			}
		}
		if len(outs) == 1 {
			args[outs[0].Name] = filepath.Join(work, name)
		}
	}
	// Text: a message's first text part is its instruction; further text
	// parts are content. Content goes to the single unbound string
	// parameter. Without content, values are picked out of the
	// instruction (numbers, a quoted phrase, a column of an attached
	// table, a token of the kind a parameter holds) and the instruction
	// itself goes only to the one required string parameter left; failing
	// both, the text becomes the file of a required path parameter.
	text := strings.TrimSpace(req.text)
	if text != "" && req.args == nil {
		unbound := func(p bundle.Param) bool { _, ok := args[p.Name]; return !ok }
		bindNumbers(params, args, text)
		var strs []bundle.Param
		for _, p := range params {
			if unbound(p) && !p.IsPath() && (p.Type == "string" || p.Type == "") {
				strs = append(strs, p)
			}
		}
		// Content is passed as it came: its spaces may be the point.
		payload, explicit := req.content, true
		if strings.TrimSpace(payload) == "" {
			payload, explicit = text, false
		}
		target := ""
		switch reqd := requiredOf(strs); {
		case explicit && len(strs) == 1:
			target = strs[0].Name
		case len(reqd) == 1:
			target = reqd[0].Name
		case len(reqd) == 0 && len(strs) == 1 && positional(sk, strs[0].Name):
			// An optional positional argument is still the skill's input;
			// an optional flag (--base, --delimiter) is not.
			target = strs[0].Name
		case !explicit && len(reqd) > 1:
			// Several required strings: fill those the instruction names.
			for k, v := range pickAll(sk, reqd, text, work, saved) {
				args[k] = v
			}
		case len(reqd) == 0:
			// Beside optional flags (--separator), the one positional
			// string or list of strings (slugify [input_string ...]) is
			// the input.
			var pos []string
			for _, p := range params {
				if unbound(p) && (slices.Contains(strs, p) || stringList(sk, p)) && positional(sk, p.Name) {
					pos = append(pos, p.Name)
				}
			}
			if len(pos) == 1 {
				target = pos[0]
			}
		}
		// A switch named for an output format (--json) is set when the
		// text asks for that format ("reply with the JSON report").
		for _, p := range params {
			if !unbound(p) || p.Type != "boolean" || !formatWords[strings.ToLower(p.Name)] {
				continue
			}
			if slices.ContainsFunc(tokens(text, ""), func(t token) bool { return t.low == strings.ToLower(p.Name) }) {
				args[p.Name] = true
			}
		}
		// An optional setting with a fixed set of values takes the one
		// value the text names ("by a minor level" for --increment {major,
		// minor, patch}); none or several leave its default.
		for _, p := range params {
			if !unbound(p) || p.Required || p.Type != "string" && p.Type != "" {
				continue
			}
			if _, ok := propertyOf(sk, p.Name)["enum"]; !ok {
				continue
			}
			if vs := kindTokens(sk, p, text); len(vs) == 1 && len(vs[0]) > 1 {
				args[p.Name] = vs[0]
			}
		}
		// A required list of things of a kind (versions, URLs) takes every
		// one the text names, in order.
		for _, p := range params {
			if !unbound(p) || !p.Required || !stringList(sk, p) || kindOf(sk, p) == nil && choicesOf(sk, p) == nil {
				continue
			}
			if vs := kindTokens(sk, p, text); len(vs) > 0 {
				list := make([]any, len(vs))
				for i, v := range vs {
					list[i] = v
				}
				args[p.Name] = list
				if p.Name == target {
					target = ""
				}
			}
		}
		if target != "" {
			v := payload
			if !explicit {
				if picked := pick(sk, declared[target], text, work, saved); picked != "" {
					v = picked
				}
			}
			if declared[target].Type == "array" {
				args[target] = []any{v}
			} else {
				args[target] = v
			}
		} else if len(requiredOf(strs)) == 0 {
			for _, p := range params {
				if !unbound(p) || !p.IsPath() || !p.Required || writes(p) {
					continue
				}
				name := safeName(p.Name+textExt(payload), "input.txt")
				if err := os.WriteFile(filepath.Join(work, name), []byte(payload), 0o644); err != nil {
					return nil, fmt.Errorf("save text input: %w", err)
				}
				if p.Type == "array" {
					args[p.Name] = []any{filepath.Join(work, name)}
				} else {
					args[p.Name] = filepath.Join(work, name)
				}
				break
			}
		}
	}
	args = sk.WithDefaults(args)
	coerce(params, args)
	return args, nil
}

func requiredOf(ps []bundle.Param) []bundle.Param {
	var out []bundle.Param
	for _, p := range ps {
		if p.Required {
			out = append(out, p)
		}
	}
	return out
}

// inside resolves a file argument against the work directory and refuses
// one that would leave it.
func inside(work, p string) (string, error) {
	if p == "" {
		return "", fmt.Errorf("empty path")
	}
	if filepath.IsAbs(p) {
		if rel, err := filepath.Rel(work, p); err == nil && rel != ".." && !strings.HasPrefix(rel, "../") {
			return filepath.Clean(p), nil
		}
		return "", fmt.Errorf("%q is outside the task's work directory; attach the file instead", p)
	}
	clean := filepath.Clean(p)
	if clean == ".." || strings.HasPrefix(clean, "../") {
		return "", fmt.Errorf("%q climbs out of the task's work directory", p)
	}
	return filepath.Join(work, clean), nil
}

// textExt is the extension a file made of text gets (see sniff.Text).
func textExt(text string) string {
	ext, _ := sniff.Text(text)
	return ext
}

// coerce converts string values of numeric and boolean parameters, as text
// and form-like data parts carry them.
func coerce(params []bundle.Param, args map[string]any) {
	for _, p := range params {
		s, ok := args[p.Name].(string)
		if !ok {
			continue
		}
		s = strings.TrimSpace(s)
		switch p.Type {
		case "integer":
			if n, err := strconv.ParseInt(s, 10, 64); err == nil {
				args[p.Name] = n
			}
		case "number":
			if f, err := strconv.ParseFloat(s, 64); err == nil {
				args[p.Name] = f
			}
		case "boolean":
			if b, err := strconv.ParseBool(s); err == nil {
				args[p.Name] = b
			}
		}
	}
}

// collect returns the files the run left in the work directory that were
// not inputs (and match the skill's outputs globs, when it declares any).
func collect(work string, globs []string, inputs map[string]bool) ([]outFile, error) {
	var out []outFile
	total := 0
	err := filepath.WalkDir(work, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !d.Type().IsRegular() {
			return nil
		}
		rel, _ := filepath.Rel(work, p)
		rel = filepath.ToSlash(rel)
		if inputs[rel] || !matches(globs, rel) {
			return nil
		}
		if len(out) >= DefaultMaxFiles {
			return fs.SkipAll
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		if total+len(data) > DefaultMaxFileMB<<20 {
			return nil
		}
		total += len(data)
		out = append(out, outFile{name: rel, mediaType: mediaTypeOf(rel, data), data: data})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("collect outputs: %w", err)
	}
	return out, nil
}

func matches(globs []string, rel string) bool {
	if len(globs) == 0 {
		return true
	}
	for _, g := range globs {
		if ok, _ := path.Match(g, rel); ok {
			return true
		}
		if ok, _ := path.Match(g, path.Base(rel)); ok && !strings.Contains(g, "/") {
			return true
		}
	}
	return false
}

func mediaTypeOf(name string, data []byte) string {
	if mt := mime.TypeByExtension(path.Ext(name)); mt != "" {
		return mt
	}
	mt := http.DetectContentType(data)
	if strings.HasPrefix(mt, "text/plain") && utf8.Valid(data) {
		return "text/plain"
	}
	return mt
}
