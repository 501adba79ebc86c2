package host

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"unicode/utf8"

	"github.com/agentnet/agentnet/bundle"
	"github.com/agentnet/agentnet/internal/bm25"
	"github.com/agentnet/agentnet/internal/lazyregexp"
	"github.com/agentnet/agentnet/internal/sniff"
	"github.com/agentnet/agentnet/internal/vocab"
)

// request is one skill call, whatever transport it came by.
type request struct {
	taskID string
	skill  string // an explicit skill id, or ""
	text   string // the message's text parts, joined
	// instruction is the first text part: the words about the work, which
	// the rules read values from (never from the content: a "json" in
	// the code to sort is no format asked for).
	instruction string
	// content is the text parts after the first (the instruction), joined:
	// text given to work on rather than words about the work.
	content string
	data    map[string]any // the message's data parts, merged
	files   []inFile       // the message's file parts
	// args are arguments given directly (MCP tool calls); they skip the
	// binding of text and data.
	args map[string]any
	// inline asks for every output file's bytes in the answer (MCP, which
	// has no task to keep files by reference for).
	inline bool
}

// words returns the instruction: the first text part, or for a request
// built without one, its text less its content.
func (r *request) words() string {
	switch {
	case r.instruction != "":
		return r.instruction
	case r.content != "":
		return strings.TrimSpace(strings.TrimSuffix(r.text, r.content))
	}
	return r.text
}

type inFile struct {
	name      string
	mediaType string
	data      []byte
	spooled   string // the file holding the bytes instead of data, or ""
	url       string // where to fetch the bytes instead (checked against the fetch list), or ""
}

// dropSpooled removes the spooled files of a request that will not run.
func (r *request) dropSpooled() {
	for _, f := range r.files {
		if f.spooled != "" {
			os.Remove(f.spooled)
		}
	}
}

// outcome is the answer to a request.
type outcome struct {
	skill  *bundle.Skill
	by     string // how the skill was chosen
	stdout string
	files  []outFile
	run    *runResult
	note   string     // said with the answer (an exit status that carried it)
	binder string     // the binder that filled the arguments
	trace  []Evidence // which argument each of its steps set, from what
}

type outFile struct {
	name      string // relative to the work directory, slash-separated
	mediaType string
	data      []byte // the bytes, when sent inline
	path      string // the file in the work directory, until it is read or kept
	size      int64
	url       string // where it is served by reference, or ""
}

// failure is a task that failed for a reason the caller should read,
// with how the skill's arguments were bound when it got that far.
type failure struct {
	msg     string
	binding map[string]any // as bindingMetadata, or nil
}

func (f *failure) Error() string { return f.msg }

func failf(format string, args ...any) error { return &failure{msg: fmt.Sprintf(format, args...)} }

// errKilled reports that the task was canceled (or the host closed) while
// its skill ran.
var errKilled = &failure{msg: "canceled"}

// invoke performs one request: choose, bind, validate, run, collect. Errors
// are *failure for the caller's eyes; anything else is an internal error.
func (h *Host) invoke(ctx context.Context, req *request, progress func(string)) (_ *outcome, err error) {
	work, err := h.workDir(req.taskID)
	if err != nil {
		req.dropSpooled()
		return nil, fmt.Errorf("work directory: %w", err)
	}
	if !h.cfg.keepWork {
		defer h.work.drop(work)
	}
	saved, sums, err := saveFiles(work, req.files, h.fetchInto(ctx, req))
	if err != nil {
		req.dropSpooled()
		return nil, err
	}

	ch, err := h.choose(ctx, req, saved)
	if err != nil {
		return nil, err
	}
	binder := h.binder(ch)
	if binder.Name() == "rules" {
		ch = bindFirst(ch, h.b.Skills, work, req, saved)
	}
	sk := ch.skill
	h.log.Info("skill chosen", "task", req.taskID, "skill", sk.ID, "by", ch.by)
	bound, err := binder.Bind(ctx, callOf(sk, work, req, saved, ch.args))
	if err != nil {
		return nil, err
	}
	defer func() {
		// A run that failed says how it was called: which skill, and
		// each argument with where it came from.
		var f *failure
		if errors.As(err, &f) && f.binding == nil {
			f.binding = bindingMetadata(&outcome{skill: sk, binder: binder.Name(), trace: bound.Trace})
		}
	}()
	args := bound.Args
	for _, e := range bound.Trace {
		h.log.Info("bound", "task", req.taskID, "binder", binder.Name(), "step", e.Step, "param", e.Param, "value", e.Value, "from", e.From)
	}
	if issues := sk.Check(args); issues != nil {
		var lines []string
		for _, is := range issues {
			lines = append(lines, is.String())
		}
		return nil, failf("skill %q: invalid arguments: %s", sk.ID, strings.Join(lines, "; "))
	}
	argv, err := buildArgv(sk, bundle.Vars{Repo: h.b.RepoDir(), Bundle: h.b.AbsDir(), Workdir: work, Port: freePortOrZero(sk)}, args)
	if err != nil {
		return nil, err
	}
	stdin, err := stdinOf(sk, args)
	if err != nil {
		return nil, err
	}
	if c, ok := stdin.(io.Closer); ok {
		defer c.Close()
	}
	// Every file in the work directory before the run — the attached
	// files and those made of the message's text — is an input.
	before := snapshot(work, sums)
	release, err := h.acquire(ctx, progress)
	if err != nil {
		return nil, err
	}
	defer release()
	if progress != nil {
		progress(fmt.Sprintf("running skill %s", sk.ID))
	}
	h.log.Info("run", "task", req.taskID, "skill", sk.ID, "argv", argv)
	res, err := runProcess(ctx, runSpec{argv: argv, dir: work, env: h.skillEnv(), timeout: sk.RunTimeout(), maxOutput: h.cfg.maxOutput, stdin: stdin},
		func(kill func()) {
			if !h.track(req.taskID, kill) {
				kill() // canceled before it started, or the host is closing
			}
		})
	h.untrack(req.taskID)
	if err != nil {
		return nil, failf("skill %q could not start: %v", sk.ID, err)
	}
	// The caller knows its files by their names, never by the task's work
	// directory: paths a tool echoes ("/tmp/…/task/notes.txt:1: …") are
	// given back relative to it.
	relative := func(b []byte) string { return strings.ReplaceAll(string(b), work+string(filepath.Separator), "") }
	out := &outcome{skill: sk, by: ch.by, run: res, stdout: relative(res.stdout), binder: binder.Name(), trace: bound.Trace}
	switch {
	case res.killed:
		return nil, errKilled
	case res.timedOut:
		return nil, failf("skill %q timed out after %s and was killed%s", sk.ID, sk.RunTimeout(), tail([]byte(relative(res.stderr))))
	case res.exitCode == 1 && strings.TrimSpace(out.stdout) != "" && strings.TrimSpace(string(res.stderr)) == "" &&
		!errorReportRE.MatchString(headOf(out.stdout, 512)):
		// Linters, checkers and diff tools answer with status 1 when they
		// found something: a report on standard output and no complaint
		// on standard error is that answer, not a failure.
		out.note = fmt.Sprintf("skill %s exited with status 1, reporting what it found", sk.ID)
	case res.exitCode != 0:
		// Nothing is lost: what the tool printed before failing goes with
		// its error.
		msg := tail([]byte(relative(res.stderr)))
		if o := strings.TrimSpace(out.stdout); o != "" {
			msg += "\n[standard output]\n" + headOf(o, 4096)
		}
		return nil, failf("skill %q exited with status %d%s", sk.ID, res.exitCode, msg)
	}
	if res.truncated {
		out.stdout += fmt.Sprintf("\n[output truncated at %d bytes]", h.cfg.maxOutput)
	}
	out.files, err = collect(work, sk.Outputs, before)
	if err == nil {
		out.files, err = h.serveOutputs(req, out.files)
	}
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(out.stdout) == "" && len(out.files) == 0 {
		if lost := leftOver(sk, req, saved, args, work); lost != "" {
			return nil, failf("skill %q printed nothing and wrote no file; it took none of %s (its parameters: %s)", sk.ID, lost, paramNames(sk))
		}
		if out.note == "" {
			// An empty answer can be the answer (a clean lint); say so,
			// with what the tool said on standard error (a usage it
			// printed, "unknown mode") rather than lose it.
			out.note = fmt.Sprintf("skill %s finished with exit status 0 and printed nothing", sk.ID)
			if e := strings.TrimSpace(relative(res.stderr)); e != "" {
				out.note += " on standard output; on standard error:\n" + headOf(e, 4096)
			}
		}
	}
	named := namedOutput(req.words(), saved)
	// A tool that writes a binary file to standard output (a decrypter,
	// a converter) answers with that file: as text its bytes would reach
	// the caller mangled.
	if binary(res.stdout) {
		if res.truncated {
			return nil, failf("skill %q wrote more than %d bytes of binary output to standard output", sk.ID, h.cfg.maxOutput)
		}
		f := stdoutFile(res.stdout, named, saved)
		out.files = append(out.files, f)
		out.stdout = ""
		out.note = fmt.Sprintf("skill %s wrote %s (%s, %d bytes) to standard output; it is returned as the file %s", sk.ID, article(f.mediaType), f.mediaType, f.size, f.name)
		return out, nil
	}
	// Asked to save the result under a name the skill did not write (it
	// writes to standard output): the output is returned as that file too.
	if name := named; name != "" && strings.TrimSpace(out.stdout) != "" && !res.truncated &&
		!slices.ContainsFunc(out.files, func(f outFile) bool { return path.Base(f.name) == name }) {
		data := []byte(out.stdout)
		out.files = append(out.files, outFile{name: name, mediaType: mediaTypeOf(name, data), data: data, size: int64(len(data))})
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
// directories, only portable characters. A dot file (".env") keeps its
// name; "." and ".." do not.
func safeName(name, fallback string) string {
	name = strings.ReplaceAll(name, "\\", "/")
	name = path.Base(name)
	name = unsafeRE.ReplaceAllString(name, "_")
	if strings.Trim(name, ".") == "" {
		name = ""
	}
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
// saveFiles writes a request's files into the work directory and returns
// their names, and the sums of those it hashed as it wrote them.
func saveFiles(work string, files []inFile, fetch func(url, dest string) (contentSum, error)) ([]string, map[string]contentSum, error) {
	var names []string
	sums := map[string]contentSum{}
	taken := map[string]bool{}
	for i, f := range files {
		fallback := fmt.Sprintf("input-%d%s", i+1, extFor(f.mediaType))
		name := safeName(f.name, fallback)
		base, ext := strings.TrimSuffix(name, path.Ext(name)), path.Ext(name)
		for n := 2; taken[name]; n++ {
			name = fmt.Sprintf("%s-%d%s", base, n, ext)
		}
		taken[name] = true
		dest := filepath.Join(work, name)
		if f.url != "" {
			sum, err := fetch(f.url, dest)
			if err != nil {
				return nil, nil, err
			}
			names, sums[name] = append(names, name), sum
			continue
		}
		if err := saveFile(dest, f); err != nil {
			return nil, nil, fmt.Errorf("save input file %q: %w", name, err)
		}
		if f.spooled == "" {
			sums[name] = sumOf(f.data)
		}
		names = append(names, name)
	}
	return names, sums, nil
}

// saveFile writes one attached file: its spooled bytes are moved, not
// copied through memory.
func saveFile(dest string, f inFile) error {
	if f.spooled == "" {
		return os.WriteFile(dest, f.data, 0o644)
	}
	if err := os.Rename(f.spooled, dest); err != nil {
		os.Remove(f.spooled)
		return err
	}
	return os.Chmod(dest, 0o644)
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

func requiredOf(ps []bundle.Param) []bundle.Param {
	var out []bundle.Param
	for _, p := range ps {
		if p.Required {
			out = append(out, p)
		}
	}
	return out
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
// not inputs, or were inputs it changed (a formatter or editor working in
// place), and match the skill's outputs globs when it declares any.
func collect(work string, globs []string, before inputs) ([]outFile, error) {
	var out []outFile
	walkWork(work, func(rel, p string, d fs.DirEntry) error {
		if !d.Type().IsRegular() {
			return nil
		}
		_, input := before[rel]
		if !input && !matches(globs, rel) {
			return nil
		}
		if len(out) >= DefaultMaxFiles {
			return fs.SkipAll
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		if input && before.unchanged(rel, p, info) {
			return nil
		}
		out = append(out, outFile{name: rel, mediaType: mediaTypeOfFile(rel, p), path: p, size: info.Size()})
		return nil
	})
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

// mediaTypeOfFile is mediaTypeOf for the file at p, from its first bytes.
func mediaTypeOfFile(name, p string) string {
	var head []byte
	if f, err := os.Open(p); err == nil {
		buf := make([]byte, 512)
		n, _ := io.ReadFull(f, buf)
		head = buf[:n]
		f.Close()
	}
	return mediaTypeOf(name, head)
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

// stdinOf opens what the skill reads on standard input: the file of its
// stdin parameter when that is a path, else the parameter's text; nil when
// it reads nothing or the parameter has no value.
func stdinOf(sk *bundle.Skill, args map[string]any) (io.Reader, error) {
	name := sk.StdinParam()
	v, ok := args[name]
	if name == "" || !ok || v == nil {
		return nil, nil
	}
	if list, ok := v.([]any); ok {
		if len(list) != 1 {
			return nil, failf("skill %q: parameter %s: standard input takes one value, got %d", sk.ID, name, len(list))
		}
		v = list[0]
	}
	var isPath bool
	for _, p := range sk.ParamList() {
		if p.Name == name {
			isPath = p.IsPath()
		}
	}
	s, ok := v.(string)
	switch {
	case isPath && ok:
		// The file itself, not its bytes: the run reads it from disk (and
		// closes it).
		f, err := os.Open(s)
		if err != nil {
			return nil, failf("skill %q: parameter %s: %v", sk.ID, name, err)
		}
		return f, nil
	case ok:
		return strings.NewReader(s), nil
	default:
		data, err := json.Marshal(v)
		if err != nil {
			return nil, failf("skill %q: parameter %s: %v", sk.ID, name, err)
		}
		return bytes.NewReader(data), nil
	}
}

// leftOver names what the message brought that no argument took: attached
// files, text given to work on. "" when everything found a parameter.
func leftOver(sk *bundle.Skill, req *request, saved []string, args map[string]any, work string) string {
	if req.args != nil {
		return "" // arguments given directly
	}
	taken := map[string]bool{}
	for _, v := range args {
		vals := []any{v}
		if list, ok := v.([]any); ok {
			vals = list
		}
		for _, x := range vals {
			if s, ok := x.(string); ok {
				taken[s] = true
			}
		}
	}
	var lost []string
	for _, f := range saved {
		if !taken[filepath.Join(work, f)] && !taken[f] {
			lost = append(lost, strconv.Quote(f))
		}
	}
	if c := strings.TrimSpace(req.content); c != "" && !taken[req.content] && !taken[c] {
		wrote := false // the content became a file of its own (see bind)
		for s := range taken {
			if strings.HasPrefix(s, work+string(filepath.Separator)) && !slices.Contains(saved, filepath.Base(s)) {
				wrote = true
			}
		}
		if !wrote {
			lost = append(lost, "the text given to work on")
		}
	}
	return strings.Join(lost, " and ")
}

// paramNames lists a skill's parameter names for an error message.
func paramNames(sk *bundle.Skill) string {
	var names []string
	for _, p := range sk.ParamList() {
		names = append(names, p.Name)
	}
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// headOf cuts s to at most n bytes, on a rune boundary, marking the cut.
func headOf(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "\n[…]"
}

// inlineContent is the text an instruction carries after a colon that
// ends its opening words ("Transliterate to ASCII: Привет, мир!"), or
// after its first line when that ends with one, or "".
func inlineContent(text string) string {
	head, rest, ok := strings.Cut(text, ":")
	if !ok || strings.TrimSpace(rest) == "" || strings.Contains(head, "\n") {
		return ""
	}
	if n := len(strings.Fields(head)); n < 2 || n > 12 {
		return ""
	}
	// "at 10:30", "http://…": a colon inside a token is no separator.
	if !strings.HasPrefix(rest, " ") && !strings.HasPrefix(rest, "\n") && !strings.HasPrefix(rest, "\t") {
		return ""
	}
	return strings.TrimSpace(rest)
}

// textParam reports whether p holds the text to work on, by its name or by
// its description ("transliterate TEXT instead of FILE").
func textParam(p bundle.Param) bool {
	return hasAny(vocab.Words(p.Name), textWords()) || textInsteadRE.MatchString(p.Description)
}

var textInsteadRE = lazyregexp.New(`(?i)\b(text|string)s? (instead of|rather than) (a |the )?(file|stdin|standard input)|\bthe (input )?text to\b`)

func textParams(ps []bundle.Param) []bundle.Param {
	var out []bundle.Param
	for _, p := range ps {
		if textParam(p) {
			out = append(out, p)
		}
	}
	return out
}

// inputPath names the path parameter that stands for the skill's input
// when no file came: its standard input, else its one positional file
// operand, else its one parameter for an input file; "" when none or
// several.
func inputPath(sk *bundle.Skill, params []bundle.Param, args map[string]any) string {
	var pos, named []string
	for _, p := range params {
		if _, ok := args[p.Name]; ok || !p.IsPath() || writes(p) || p.Role == bundle.RoleSetting {
			continue
		}
		if p.Name == sk.StdinParam() {
			return p.Name
		}
		if positional(sk, p.Name) {
			pos = append(pos, p.Name)
		} else if hasAny(vocab.Words(p.Name), fileWords()) || inputRE.MatchString(p.Description) {
			named = append(named, p.Name)
		}
	}
	switch {
	case len(pos) == 1:
		return pos[0]
	case len(pos) == 0 && len(named) == 1:
		return named[0]
	}
	return ""
}

var negations = map[string]bool{"no": true, "not": true, "without": true, "don't": true, "dont": true, "never": true, "nor": true, "don’t": true}

// bindFormats fills free-valued format parameters from the format names
// the text says: an output format (--format, --to, --out, -f FORMATTER)
// takes the one named after "to", "as" or "into", or the only one named;
// an input format (--in, --from, --input-format) the one named after
// "from" or "this", or that of the attached file. A parameter with a fixed
// set of values is left to its enum.
func bindFormats(sk *bundle.Skill, params []bundle.Param, args map[string]any, text string, saved []string) {
	toks := tokens(text, "")
	var named, after, from []string
	for i, t := range toks {
		if !formatNames()[t.low] || slices.Contains(named, t.low) {
			continue
		}
		named = append(named, t.low)
		if i > 0 {
			switch toks[i-1].low {
			case "to", "as", "into", "in":
				after = append(after, t.low)
			case "from", "this", "these", "the":
				from = append(from, t.low)
			}
		}
	}
	var fileFormat string
	for _, f := range saved {
		if ext := strings.TrimPrefix(strings.ToLower(path.Ext(f)), "."); formatNames()[ext] {
			fileFormat = ext
		}
	}
	for _, p := range params {
		if _, ok := args[p.Name]; ok || p.Type != "string" && p.Type != "" || p.IsPath() {
			continue
		}
		if _, ok := propertyOf(sk, p.Name)["enum"]; ok {
			continue
		}
		words := vocab.Words(p.Name)
		if hasAny(words, map[string]bool{"date": true, "time": true, "datetime": true, "timestamp": true, "number": true, "log": true}) {
			continue
		}
		in := hasAny(words, map[string]bool{"in": true, "input": true, "from": true, "source": true, "src": true})
		out := hasAny(words, map[string]bool{"to": true, "out": true, "output": true, "target": true, "dest": true})
		isFormat := hasAny(words, map[string]bool{"format": true, "formatter": true, "fmt": true}) || formatParamRE.MatchString(p.Description)
		// A bare "--in"/"--to" names a format only beside the other
		// ("--in json --out yaml") or when its description says so.
		bare := len(words) == 1 && (words[0] == "in" || words[0] == "from" || words[0] == "to" || words[0] == "out")
		switch {
		case in && !out && (isFormat || bare):
			switch {
			case len(from) == 1:
				args[p.Name] = from[0]
			case fileFormat != "":
				args[p.Name] = fileFormat
			}
		case out && (isFormat || bare) || isFormat && !in:
			switch {
			case len(after) == 1:
				args[p.Name] = after[0]
			case len(named) == 1 && named[0] != fileFormat:
				args[p.Name] = named[0]
			}
		}
	}
}

// formatParamRE finds a description that says its parameter names a
// format ("The format of the output data.", "Specify the formatter to
// use.", "output format"); not one that only mentions a formatter
// ("Formatter-specific argument", "for a formatter given with -f").
var formatParamRE = lazyregexp.New(`(?i)^\s*(?:(?:specify|give|set|choose|select|use)\s+)?(?:the\s+|an?\s+)?(?:(?:output|input|data|file|document|result)\s+)?(?:format|formatter)(?:\s|[.,:;]|$)|\bformat (?:of|for) the (?:output|input|result|data)\b|\b(?:output|input) format\b`)

// bindAssigned fills a value parameter from the text's assignment to the
// key already bound: "Set DEBUG to false", "DEBUG=false", "DEBUG: false".
func bindAssigned(ps []bundle.Param, args map[string]any, text string) {
	var key string
	for _, p := range ps {
		if k, ok := args[p.Name].(string); ok && hasAny(vocab.Words(p.Name), map[string]bool{"key": true, "name": true, "var": true, "variable": true, "field": true}) {
			key = k
		}
	}
	if key == "" {
		return
	}
	for _, p := range ps {
		if _, ok := args[p.Name]; ok || !hasAny(vocab.Words(p.Name), map[string]bool{"value": true, "val": true}) {
			continue
		}
		re, err := regexp.Compile(`(?:^|[\s"'])` + regexp.QuoteMeta(key) + `(?:\s*[=:]\s*|\s+(?:to|as|=)\s+)("[^"]*"|'[^']*'|[^\s,;]+)`)
		if err != nil {
			return
		}
		if m := re.FindStringSubmatch(text); m != nil {
			v := strings.Trim(m[1], `"'`)
			if q := m[1]; q[0] != '"' && q[0] != '\'' {
				v = strings.TrimRight(v, ".!?")
			}
			args[p.Name] = v
		}
	}
}

// bindNamedValues fills an optional string setting the text names beside
// its value: "to the recipient age1ql3z…" for --recipient, "the monokai
// style" for --style (after "the", and not "the new style"). Words that say only that a parameter takes a file
// or text, and the settings that change how a tool talks, are no names;
// a value must look like one (not "the", not a file the message brought).
func bindNamedValues(sk *bundle.Skill, params []bundle.Param, args map[string]any, text, target string) {
	toks := tokens(text, "")
	for _, p := range params {
		if _, ok := args[p.Name]; ok || p.Name == target || p.IsPath() || p.Required {
			continue
		}
		if p.Type != "string" && !(p.Type == "array" && stringList(sk, p)) {
			continue
		}
		if _, ok := propertyOf(sk, p.Name)["enum"]; ok {
			continue
		}
		if columnLike(p) {
			continue // a table's column: see pick and headerMention
		}
		words := vocab.Words(p.Name)
		if len(words) == 0 {
			continue
		}
		name := words[len(words)-1]
		if len(name) < 3 || fileWords()[name] || textWords()[name] || outWords()[name] || metaSwitches()[name] || formatNames()[name] {
			continue
		}
		re := kindOf(sk, p)
		var found []string
		for i, t := range toks {
			if bm25.Stem(t.low) != bm25.Stem(name) || participle(t.low, name) {
				continue
			}
			// The value after the name ("recipient X"), or between an
			// article and the name ("the X style").
			next := i + 1
			if next < len(toks) && settingWords[toks[next].low] {
				next++ // "safe mode escape"
			}
			if next < len(toks) && valueLike(toks[next]) && (re == nil || re.MatchString(toks[next].s)) {
				found = append(found, toks[next].s)
			} else if i >= 2 && toks[i-2].low == "the" && valueLike(toks[i-1]) && !adjectives[toks[i-1].low] && (re == nil || re.MatchString(toks[i-1].s)) {
				found = append(found, toks[i-1].s)
			}
		}
		if len(found) != 1 {
			continue
		}
		if p.Type == "array" {
			args[p.Name] = []any{found[0]}
		} else {
			args[p.Name] = found[0]
		}
	}
}

// participle reports whether word is a verb form of name ("attached",
// "sorting" beside attach, sort): it describes the next word ("the
// attached report"), it does not name the setting whose value follows.
func participle(word, name string) bool {
	for _, suf := range []string{"ed", "ing"} {
		if strings.HasSuffix(word, suf) && !strings.HasSuffix(name, suf) {
			return true
		}
	}
	return false
}

// errorReportRE finds a program's complaint at the start of its output:
// "csvquote program not found. exiting", "Error: ...", "usage: ...".
var errorReportRE = lazyregexp.New(`(?i)^\s*(?:\S+:\s*)?(?:error\b|fatal\b|usage:|traceback\b|panic:)|\b(?:not found|no such file|cannot|can't|could not|couldn't|failed to|permission denied|invalid option|unrecognized|exiting|aborting|abort)\b`)

// adjectives say which one, not what it is called: "the new column",
// "the second style".
var adjectives = map[string]bool{"new": true, "old": true, "first": true, "last": true, "second": true, "third": true, "same": true,
	"other": true, "given": true, "whole": true, "main": true, "current": true, "default": true, "following": true, "next": true,
	"previous": true, "right": true, "left": true, "full": true, "entire": true, "original": true, "final": true, "top": true,
	"bottom": true, "best": true, "different": true, "single": true, "each": true, "every": true, "only": true, "correct": true,
	"proper": true, "usual": true, "existing": true, "above": true, "below": true, "attached": true, "resulting": true}

var articles = map[string]bool{"the": true, "a": true, "an": true, "this": true, "that": true, "my": true, "our": true, "your": true}

// valueLike reports whether a token can be a setting's value: not a word
// that only joins others ("to", "with", "and"), not a sentence's verb.
func valueLike(t token) bool {
	if len(t.s) == 0 || functionWords[t.low] || articles[t.low] || settingWords[t.low] {
		return false
	}
	return true
}

var functionWords = map[string]bool{"to": true, "of": true, "for": true, "with": true, "and": true, "or": true, "in": true, "on": true,
	"at": true, "by": true, "from": true, "into": true, "as": true, "is": true, "are": true, "be": true, "it": true, "its": true,
	"using": true, "use": true, "please": true, "then": true, "but": true, "not": true, "no": true, "if": true, "so": true,
	"file": true, "files": true, "text": true, "which": true, "what": true, "when": true, "where": true, "how": true}

// settingWords name a setting rather than give its value: "safe mode
// escape" sets --safe to escape, not to "mode".
var settingWords = map[string]bool{"mode": true, "option": true, "options": true, "setting": true, "settings": true,
	"flag": true, "value": true, "level": true, "style": true, "format": true, "type": true, "kind": true, "name": true}
