package image

import (
	"archive/tar"
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"debug/elf"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
)

// rootfsVersion changes whenever the layout of the assembled images does, so
// that images cached under an older key are not reused.
const rootfsVersion = "2"

// ImagePath is the PATH inside agent containers. Programs named by a bare
// name in a bundle get a link in /usr/local/bin when the host found them
// elsewhere.
const ImagePath = "/usr/local/bin:/usr/bin:/bin"

// AgentnetInImage is where the agentnet executable lives in the image.
const AgentnetInImage = "/usr/local/bin/agentnet"

// posixTools are copied along with any POSIX shell a bundle runs, since shell
// scripts lean on them; those missing on the host are left out.
var posixTools = []string{
	"awk", "basename", "cat", "chmod", "comm", "cp", "cut", "date", "dirname", "env", "expr", "false",
	"find", "fold", "grep", "head", "join", "ln", "ls", "mkdir", "mktemp", "mv", "nl", "od", "paste",
	"printf", "rm", "rmdir", "sed", "seq", "sleep", "sort", "tac", "tail", "tee", "test", "touch", "tr",
	"true", "uname", "uniq", "wc", "xargs",
}

var shells = map[string]bool{"sh": true, "dash": true, "bash": true, "ash": true, "ksh": true, "zsh": true, "busybox": true}

// pythonSkip lists the top-level entries of a Python standard library left
// out of images: tests, GUI and packaging tools, and third-party packages
// (which come one by one, as the bundle's code imports them).
var pythonSkip = map[string]bool{
	"test": true, "idlelib": true, "tkinter": true, "turtledemo": true, "ensurepip": true,
	"lib2to3": true, "pydoc_data": true, "site-packages": true, "dist-packages": true,
}

// Toolchain discovers, on the host, the files the programs of a bundle need
// to run in a container whose root file system holds nothing else: each
// program, the interpreter its shebang names, the shared libraries ldd lists
// for every ELF file, a Python's standard library and the third-party
// packages the bundle's code imports, a shell's usual tools.
// Files keep their host paths in the image, so that dynamic loaders,
// shebangs and interpreters' compiled-in prefixes find what they expect.
//
// A Toolchain is safe for concurrent use; it caches what it learned about
// each host file for the runtime's lifetime.
type Toolchain struct {
	path string // PATH used to look up bare program names (the agents' environment)
	env  []string

	mu     sync.Mutex
	ldd    map[string][]string // ELF file → the libraries it loads
	python map[string]*pythonInfo
}

type pythonInfo struct {
	executable string
	dirs       []string // standard library directories
	sites      []string // site-packages (dist-packages) directories, in sys.path order
}

func NewToolchain(env []string) *Toolchain {
	path := "/usr/local/bin:/usr/bin:/bin"
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			path = v
		}
	}
	return &Toolchain{path: path, env: env, ldd: map[string][]string{}, python: map[string]*pythonInfo{}}
}

// Rootfs is a file tree to be written as a tar archive: image paths mapped to
// host files, symbolic links and generated contents.
type Rootfs struct {
	Files map[string]string // image path → host file
	Links map[string]string // image path → link target
	Data  map[string][]byte // image path → contents
	Dirs  map[string]bool   // image paths of directories that must exist even when empty
	Shell bool              // a POSIX shell is in; its tools follow
	// pythons are the Python interpreters in the image (real executables);
	// the third-party packages the bundle imports follow from their site
	// directories (addPythonPackages).
	pythons map[string]*pythonInfo
}

// NewRootfs returns an empty file tree.
func NewRootfs() *Rootfs {
	return &Rootfs{Files: map[string]string{}, Links: map[string]string{}, Data: map[string][]byte{}, Dirs: map[string]bool{},
		pythons: map[string]*pythonInfo{}}
}

// addPath adds the host file p at its own path, with every symbolic link on
// the way to it (a merged /usr makes /lib64 a link, for one) and, for a
// directory, everything below it except what skip rejects.
func (r *Rootfs) addPath(p string, skip func(rel string) bool) error {
	return r.addPathDepth(filepath.Clean(p), skip, 0)
}

func (r *Rootfs) addPathDepth(p string, skip func(string) bool, depth int) error {
	if depth > 40 {
		return fmt.Errorf("add %s: too many levels of symbolic links", p)
	}
	parts := strings.Split(strings.TrimPrefix(p, "/"), "/")
	cur := "/"
	for i, part := range parts {
		cur = filepath.Join(cur, part)
		fi, err := os.Lstat(cur)
		if err != nil {
			return fmt.Errorf("add %s: %w", p, err)
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			target, err := os.Readlink(cur)
			if err != nil {
				return fmt.Errorf("add %s: %w", p, err)
			}
			r.Links[cur] = target
			if !filepath.IsAbs(target) {
				target = filepath.Join(filepath.Dir(cur), target)
			}
			return r.addPathDepth(filepath.Join(append([]string{target}, parts[i+1:]...)...), skip, depth+1)
		}
		if i < len(parts)-1 {
			continue
		}
		switch {
		case fi.IsDir():
			return r.addTree(cur, cur, skip)
		case fi.Mode().IsRegular():
			r.Files[cur] = cur
		}
	}
	return nil
}

// addLinkChain follows p while it is a symbolic link inside the directory
// within (which is copied on its own) and adds the first target outside it
// at its host path, with the links on the way: a venv's bin/python leads
// to the interpreter it was made from.
func (r *Rootfs) addLinkChain(p, within string) error {
	for range 40 {
		fi, err := os.Lstat(p)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			return nil
		}
		target, err := os.Readlink(p)
		if err != nil {
			return fmt.Errorf("add %s: %w", p, err)
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(p), target)
		}
		if !strings.HasPrefix(target, within+"/") {
			return r.addPath(target, nil)
		}
		p = target
	}
	return fmt.Errorf("add %s: too many levels of symbolic links", p)
}

// addTree adds the directory hostDir at image path imageDir.
func (r *Rootfs) addTree(hostDir, imageDir string, skip func(rel string) bool) error {
	r.Dirs[imageDir] = true
	return filepath.WalkDir(hostDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(hostDir, p)
		if rel == "." {
			return nil
		}
		if skip != nil && skip(rel) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		dst := filepath.Join(imageDir, rel)
		switch {
		case d.IsDir():
			r.Dirs[dst] = true
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			r.Links[dst] = target
		case d.Type().IsRegular():
			r.Files[dst] = p
		}
		return nil
	})
}

// AddAgentnet adds the agentnet executable self at AgentnetInImage, with the
// shared libraries it loads when it is not static.
func (tc *Toolchain) AddAgentnet(r *Rootfs, self string) error {
	real, err := filepath.EvalSymlinks(self)
	if err != nil {
		return fmt.Errorf("agentnet executable: %w", err)
	}
	r.Files[AgentnetInImage] = real
	return tc.AddLibs(r, real)
}

// AddCommand adds the program argv0 of a bundle command (already expanded):
// a bare name looked up on the agents' PATH, or a path.
func (tc *Toolchain) AddCommand(r *Rootfs, argv0, repoDir string) error {
	if !filepath.IsAbs(argv0) && strings.ContainsRune(argv0, '/') {
		// A relative path names a program in the repo.
		argv0 = filepath.Join(repoDir, argv0)
	}
	if filepath.IsAbs(argv0) {
		if repoDir != "" && strings.HasPrefix(argv0, repoDir+"/") {
			// The repo is copied with the bundle; what its program
			// needs is not.
			return tc.AddNeeds(r, argv0)
		}
		return tc.AddProgram(r, argv0)
	}
	host, err := tc.LookPath(argv0)
	if err != nil {
		return err
	}
	if isPython(argv0) || isPython(filepath.Base(host)) {
		info, err := tc.pythonInfo(host)
		if err != nil {
			return err
		}
		host = info.executable
	}
	if err := tc.AddProgram(r, host); err != nil {
		return err
	}
	if link := filepath.Join("/usr/local/bin", argv0); host != link && !onImagePath(host, argv0) {
		r.Links[link] = host
	}
	return nil
}

// AddProgram adds the host file p and what running it takes: its shared
// libraries, or the interpreter of its shebang line; a Python interpreter
// brings its standard library, a shell its tools.
func (tc *Toolchain) AddProgram(r *Rootfs, p string) error {
	if err := r.addPath(p, nil); err != nil {
		return err
	}
	return tc.AddNeeds(r, p)
}

// AddNeeds adds what running the program p takes, without p itself.
func (tc *Toolchain) AddNeeds(r *Rootfs, p string) error {
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return fmt.Errorf("program %s: %w", p, err)
	}
	base := filepath.Base(real)
	if isPython(base) {
		info, err := tc.pythonInfo(real)
		if err != nil {
			return err
		}
		r.pythons[info.executable] = info
		for _, d := range info.dirs {
			if err := r.addPath(d, skipPython); err != nil {
				return err
			}
		}
		if err := tc.AddLibs(r, dynloadFiles(info.dirs)...); err != nil {
			return err
		}
	}
	if shells[base] || shells[filepath.Base(p)] {
		r.Shell = true
	}
	head, err := readHead(real)
	if err != nil {
		return err
	}
	switch {
	case bytes.HasPrefix(head, []byte("\x7fELF")):
		return tc.AddLibs(r, real)
	case bytes.HasPrefix(head, []byte("#!")):
		line, _, _ := bytes.Cut(head[2:], []byte("\n"))
		f := strings.Fields(string(line))
		if len(f) == 0 {
			return nil
		}
		if err := tc.AddProgram(r, f[0]); err != nil {
			return err
		}
		// #!/usr/bin/env NAME [ARGS]: NAME is looked up on PATH.
		if filepath.Base(f[0]) == "env" {
			for _, a := range f[1:] {
				if !strings.HasPrefix(a, "-") {
					return tc.AddCommand(r, a, "")
				}
			}
		}
	}
	return nil
}

// AddShellTools adds the POSIX tools found on the host.
func (tc *Toolchain) AddShellTools(r *Rootfs) error {
	for _, name := range posixTools {
		if _, err := tc.LookPath(name); err != nil {
			continue
		}
		if err := tc.AddCommand(r, name, ""); err != nil {
			return err
		}
	}
	return nil
}

// AddLibs adds the shared libraries (and the dynamic loader) that the ELF
// files load, as ldd reports them; static files need nothing.
func (tc *Toolchain) AddLibs(r *Rootfs, files ...string) error {
	var todo []string
	tc.mu.Lock()
	for _, f := range files {
		if _, ok := tc.ldd[f]; !ok {
			todo = append(todo, f)
		}
	}
	tc.mu.Unlock()
	if len(todo) > 0 {
		found, err := ldd(todo)
		if err != nil {
			return err
		}
		tc.mu.Lock()
		for _, f := range todo {
			tc.ldd[f] = found[f]
		}
		tc.mu.Unlock()
	}
	for _, f := range files {
		tc.mu.Lock()
		libs := tc.ldd[f]
		tc.mu.Unlock()
		for _, lib := range libs {
			if err := r.addPath(lib, nil); err != nil {
				return err
			}
		}
	}
	return nil
}

// ldd lists the libraries each dynamic ELF file loads. Files that are not
// dynamic (static executables, scripts) load none.
func ldd(files []string) (map[string][]string, error) {
	out := map[string][]string{}
	var dynamic []string
	for _, f := range files {
		ef, err := elf.Open(f)
		if err != nil {
			continue
		}
		interp := false
		for _, p := range ef.Progs {
			if p.Type == elf.PT_INTERP || p.Type == elf.PT_DYNAMIC {
				interp = true
			}
		}
		ef.Close()
		if interp {
			dynamic = append(dynamic, f)
		}
	}
	if len(dynamic) == 0 {
		return out, nil
	}
	lddPath, err := exec.LookPath("ldd")
	if err != nil {
		return nil, fmt.Errorf("list the shared libraries of %s: ldd is not installed", dynamic[0])
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	// ldd prints "FILE:" before each file's libraries when given several;
	// it exits non-zero when one of them is not dynamic, which is fine.
	raw, _ := exec.CommandContext(ctx, lddPath, dynamic...).Output()
	cur := dynamic[0]
	sc := bufio.NewScanner(bytes.NewReader(raw))
	for sc.Scan() {
		line := sc.Text()
		if len(dynamic) > 1 && !strings.HasPrefix(line, "\t") && strings.HasSuffix(line, ":") {
			cur = strings.TrimSuffix(line, ":")
			continue
		}
		if strings.Contains(line, "not found") {
			return nil, fmt.Errorf("%s: a shared library is missing on this machine: %s", cur, strings.TrimSpace(line))
		}
		f := strings.Fields(line)
		var lib string
		switch {
		case len(f) >= 3 && f[1] == "=>" && strings.HasPrefix(f[2], "/"):
			lib = f[2]
		case len(f) >= 1 && strings.HasPrefix(f[0], "/"):
			lib = f[0]
		}
		if lib != "" {
			out[cur] = append(out[cur], lib)
		}
	}
	return out, nil
}

// pythonInfo asks the interpreter at p (which may be a launcher such as a
// pyenv shim) for its real executable, its standard library and its site
// directories. It runs without the site module, so that no .pth file of
// the host's runs.
func (tc *Toolchain) pythonInfo(p string) (*pythonInfo, error) {
	tc.mu.Lock()
	info := tc.python[p]
	tc.mu.Unlock()
	if info != nil {
		return info, nil
	}
	const script = `import json, site, sys, sysconfig
dirs, seen = [], set()
for d in [sysconfig.get_paths()["stdlib"], sysconfig.get_paths()["platstdlib"]] + sys.path:
    if d and d not in seen and "-packages" not in d:
        seen.add(d)
        dirs.append(d)
print(json.dumps({"exe": sys.executable, "stdlib": dirs, "sites": getattr(site, "getsitepackages", list)()}))
`
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, p, "-S", "-c", script)
	cmd.Env = tc.env
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("ask %s for its standard library: %w", p, err)
	}
	var answer struct {
		Exe    string   `json:"exe"`
		Stdlib []string `json:"stdlib"`
		Sites  []string `json:"sites"`
	}
	if err := json.Unmarshal(lastLine(out), &answer); err != nil || answer.Exe == "" {
		return nil, fmt.Errorf("ask %s for its standard library: no answer", p)
	}
	info = &pythonInfo{}
	if info.executable, err = filepath.EvalSymlinks(answer.Exe); err != nil {
		return nil, fmt.Errorf("python executable %s: %w", answer.Exe, err)
	}
	for _, d := range answer.Stdlib {
		if _, err := os.Stat(d); err == nil && filepath.IsAbs(d) {
			info.dirs = append(info.dirs, d)
		}
	}
	for _, d := range answer.Sites {
		if fi, err := os.Stat(d); err == nil && filepath.IsAbs(d) && fi.IsDir() {
			info.sites = append(info.sites, d)
		}
	}
	tc.mu.Lock()
	tc.python[p] = info
	tc.mu.Unlock()
	return info, nil
}

func lastLine(b []byte) []byte {
	b = bytes.TrimSpace(b)
	if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
		return b[i+1:]
	}
	return b
}

func skipPython(rel string) bool {
	first, _, _ := strings.Cut(rel, string(filepath.Separator))
	return pythonSkip[first] || strings.HasPrefix(first, "config-")
}

// dynloadFiles lists the extension modules (.so) of a Python standard
// library, which load shared libraries of their own (libssl, libz, ...).
func dynloadFiles(dirs []string) []string {
	var out []string
	for _, d := range dirs {
		matches, _ := filepath.Glob(filepath.Join(d, "*.so"))
		out = append(out, matches...)
		matches, _ = filepath.Glob(filepath.Join(d, "lib-dynload", "*.so"))
		out = append(out, matches...)
	}
	sort.Strings(out)
	return compact(out)
}

func compact(s []string) []string {
	var out []string
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}

func isPython(name string) bool {
	rest, ok := strings.CutPrefix(name, "python")
	return ok && strings.Trim(rest, "0123456789.") == ""
}

func onImagePath(host, name string) bool {
	for _, d := range filepath.SplitList(ImagePath) {
		if host == filepath.Join(d, name) {
			return true
		}
	}
	return false
}

func (tc *Toolchain) LookPath(name string) (string, error) {
	for _, dir := range filepath.SplitList(tc.path) {
		if dir == "" || !filepath.IsAbs(dir) {
			continue
		}
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", fmt.Errorf("program %q is not on this machine's PATH, so it cannot be copied into the image", name)
}

func readHead(p string) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, fmt.Errorf("program %s: %w", p, err)
	}
	defer f.Close()
	buf := make([]byte, 256)
	n, _ := io.ReadFull(f, buf)
	return buf[:n], nil
}

// entry is one tar entry, in the order written.
type entry struct {
	path string // image path, absolute
	kind byte   // tar.TypeDir, TypeSymlink, TypeReg
	host string // TypeReg from a host file
	data []byte // TypeReg with generated contents
	link string
}

// entries lists the tree sorted by path, with every parent directory.
func (r *Rootfs) entries() []entry {
	all := map[string]entry{}
	addDirs := func(p string) {
		for d := filepath.Dir(p); d != "/" && d != "."; d = filepath.Dir(d) {
			if _, ok := all[d]; !ok {
				all[d] = entry{path: d, kind: tar.TypeDir}
			}
		}
	}
	for d := range r.Dirs {
		all[d] = entry{path: d, kind: tar.TypeDir}
		addDirs(d)
	}
	for p, t := range r.Links {
		all[p] = entry{path: p, kind: tar.TypeSymlink, link: t}
		addDirs(p)
	}
	for p, h := range r.Files {
		all[p] = entry{path: p, kind: tar.TypeReg, host: h}
		addDirs(p)
	}
	for p, d := range r.Data {
		all[p] = entry{path: p, kind: tar.TypeReg, data: d}
		addDirs(p)
	}
	out := make([]entry, 0, len(all))
	for _, e := range all {
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].path < out[j].path })
	return out
}

// Key is a content key of the tree: it changes when any file's path, size,
// mode or modification time does.
func (r *Rootfs) Key(extra ...string) string {
	h := sha256.New()
	fmt.Fprintln(h, rootfsVersion)
	for _, s := range extra {
		fmt.Fprintln(h, s)
	}
	for _, e := range r.entries() {
		fmt.Fprintf(h, "%c %s %s", e.kind, e.path, e.link)
		if e.host != "" {
			if fi, err := os.Stat(e.host); err == nil {
				fmt.Fprintf(h, " %d %o %d", fi.Size(), fi.Mode(), fi.ModTime().UnixNano())
			}
		}
		if e.data != nil {
			h.Write(e.data)
		}
		fmt.Fprintln(h)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// WriteTar writes the tree as a tar archive, paths relative to prefix ("" for
// a root file system). Files are owned by root and readable by everyone
// (agents run as an unprivileged user); executables stay executable.
func (r *Rootfs) WriteTar(w io.Writer, prefix string) error {
	tw := tar.NewWriter(w)
	name := func(p string) string {
		return filepath.Join(prefix, strings.TrimPrefix(p, "/"))
	}
	for _, e := range r.entries() {
		hdr := &tar.Header{Name: name(e.path), Typeflag: e.kind, ModTime: time.Unix(0, 0), Format: tar.FormatPAX}
		switch e.kind {
		case tar.TypeDir:
			hdr.Name += "/"
			hdr.Mode = 0o755
			if e.path == "/tmp" {
				hdr.Mode = 0o1777
			}
			if err := tw.WriteHeader(hdr); err != nil {
				return err
			}
		case tar.TypeSymlink:
			hdr.Linkname = e.link
			hdr.Mode = 0o777
			if err := tw.WriteHeader(hdr); err != nil {
				return err
			}
		case tar.TypeReg:
			if e.data != nil {
				hdr.Mode, hdr.Size = 0o644, int64(len(e.data))
				if err := tw.WriteHeader(hdr); err != nil {
					return err
				}
				if _, err := tw.Write(e.data); err != nil {
					return err
				}
				continue
			}
			if err := writeHostFile(tw, hdr, e.host); err != nil {
				return err
			}
		}
	}
	return tw.Close()
}

func writeHostFile(tw *tar.Writer, hdr *tar.Header, host string) error {
	f, err := os.Open(host)
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	hdr.Size = fi.Size()
	hdr.Mode = 0o644
	if fi.Mode()&0o111 != 0 {
		hdr.Mode = 0o755
	}
	hdr.ModTime = fi.ModTime()
	if err := tw.WriteHeader(hdr); err != nil {
		return err
	}
	// A file that grows while it is copied is cut at the size announced;
	// one that shrinks fails the copy.
	if _, err := io.CopyN(tw, f, hdr.Size); err != nil {
		return fmt.Errorf("copy %s: %w", host, err)
	}
	return nil
}
