package host

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"

	"github.com/agentnet/agentnet/internal/fetchpolicy"
)

// Files by reference. A file a skill writes that is larger than
// WithInlineFileMax is not sent in the task's answer: it is kept on disk,
// under the work root, and the answer's file part carries its URL instead
// (A2A FilePart with uri). The URL holds a random 256-bit token, the only
// way to it; it is served from disk (Range requests too) as long as its
// task is kept (WithTaskTTL, WithMaxTasks) and removed with it.
//
// A message's file part with a URL is fetched into the task's work
// directory when the URL is on the host's fetch list (WithFetchFrom) or an
// orchestrator holding the host's key (WithVouchKey) vouched for it
// (package fetchpolicy) — an open fetch of any URL a caller names would
// let anyone make the host reach wherever it can. The fetch applies the registry's policy (package
// fetchpolicy): redirects stay on the URL's origin, and under
// WithFetchDenyPrivate no loopback, private or link-local address is
// reached, checked again at connect time. Its bytes count against
// WithMaxFileBytes and go to disk as they arrive.

// FilesPath is the path under which a host serves its file artifacts:
// FilesPath + token + "/" + name.
const FilesPath = "/files/"

// DefaultInlineFileMax is the size above which a file artifact is sent by
// reference rather than inline.
const DefaultInlineFileMax = 256 << 10

// DefaultMaxServedBytes bounds the bytes of the files one task leaves to be
// fetched by reference.
const DefaultMaxServedBytes = 4 << 30

// SizeKey is the metadata key of a file part sent by reference that gives
// the file's size in bytes.
const SizeKey = "agentnet.size"

// WithInlineFileMax sets the size above which a file artifact is sent by
// reference (default DefaultInlineFileMax; negative: always inline, up to
// the per-task limit of DefaultMaxFileMB).
func WithInlineFileMax(n int64) Option { return func(c *config) { c.inlineMax = n } }

// WithFetchFrom lets messages bring files by URL from these origins
// ("http://127.0.0.1:9001") or URL prefixes ("https://files.example/a/");
// by default no URL is fetched and a message with one is refused.
func WithFetchFrom(prefixes ...string) Option {
	return func(c *config) { c.fetchFrom = append(c.fetchFrom, prefixes...) }
}

// WithVouchKey lets messages bring files by URLs that an orchestrator
// holding key vouched for (fetchpolicy.Vouch), wherever they are; serve
// reads the key from AGENTNET_FILE_KEY, which agentnet's deployments set.
func WithVouchKey(key []byte) Option { return func(c *config) { c.vouchKey = key } }

// WithFetchDenyPrivate refuses file fetches from loopback, private,
// link-local and cloud metadata addresses, as the registry's
// --deny-private does, even for URLs on the fetch list.
func WithFetchDenyPrivate(deny bool) Option { return func(c *config) { c.fetchDenyPrivate = deny } }

// servedFile is one file artifact kept to be fetched by reference.
type servedFile struct {
	task      string
	path      string
	name      string // the file's name in the URL
	mediaType string
	size      int64
}

// fileStore keeps the files of tasks that are served by reference. It is
// safe for concurrent use.
type fileStore struct {
	dir string

	mu     sync.Mutex
	tokens map[string]*servedFile
	tasks  map[string][]string // task id → its tokens
}

func newFileStore(dir string) *fileStore {
	return &fileStore{dir: dir, tokens: map[string]*servedFile{}, tasks: map[string][]string{}}
}

// add keeps the file at src (moved when move, else linked or copied) for
// task, and returns its token.
func (s *fileStore) add(task, src, name, mediaType string, size int64, move bool) (string, error) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	token := hex.EncodeToString(b[:])
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return "", err
	}
	dest := filepath.Join(s.dir, token)
	if err := place(src, dest, move); err != nil {
		return "", err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tokens[token] = &servedFile{task: task, path: dest, name: path.Base(name), mediaType: mediaType, size: size}
	s.tasks[task] = append(s.tasks[task], token)
	return token, nil
}

// place puts the file at src at dest without reading it into memory: a
// rename or a hard link, else a streamed copy.
func place(src, dest string, move bool) error {
	if move && os.Rename(src, dest) == nil {
		return nil
	}
	if os.Link(src, dest) == nil {
		return nil
	}
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dest, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		os.Remove(dest)
		return err
	}
	return out.Close()
}

// drop removes the files of task.
func (s *fileStore) drop(task string) {
	s.mu.Lock()
	tokens := s.tasks[task]
	delete(s.tasks, task)
	var paths []string
	for _, t := range tokens {
		if f := s.tokens[t]; f != nil {
			paths = append(paths, f.path)
		}
		delete(s.tokens, t)
	}
	s.mu.Unlock()
	for _, p := range paths {
		os.Remove(p)
	}
}

// clear removes every file.
func (s *fileStore) clear() {
	s.mu.Lock()
	tasks := make([]string, 0, len(s.tasks))
	for t := range s.tasks {
		tasks = append(tasks, t)
	}
	s.mu.Unlock()
	for _, t := range tasks {
		s.drop(t)
	}
}

func (s *fileStore) lookup(token string) *servedFile {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.tokens[token]
}

// count returns the number of files kept.
func (s *fileStore) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.tokens)
}

// serveFile answers GET FilesPath{token}/{name}: the file streamed from
// disk, or 404 for a token that is unknown, forgotten with its task, or
// given with another name.
func (h *Host) serveFile(w http.ResponseWriter, r *http.Request) {
	f := h.files.lookup(r.PathValue("token"))
	if f == nil || r.PathValue("name") != f.name {
		http.NotFound(w, r)
		return
	}
	file, err := os.Open(f.path)
	if err != nil {
		http.NotFound(w, r) // removed with its task a moment ago
		return
	}
	defer file.Close()
	w.Header().Set("Content-Type", f.mediaType)
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Content-Disposition", "attachment")
	http.ServeContent(w, r, "", time.Time{}, file)
}

// fileURL is the URL at which the file of token is served.
func (h *Host) fileURL(token, name string) string {
	u, err := url.Parse(h.url)
	if err != nil {
		return ""
	}
	u.Path, u.RawPath, u.RawQuery, u.Fragment = FilesPath+token+"/"+path.Base(name), "", "", ""
	return u.String()
}

// serveOutputs keeps the run's files above the inline size to be fetched by
// reference, before the work directory goes; the others are read to be
// sent inline.
func (h *Host) serveOutputs(req *request, files []outFile) ([]outFile, error) {
	var served, inline int64
	kept := files[:0]
	for i := range files {
		f := &files[i]
		if f.data != nil || f.path == "" {
			kept = append(kept, *f)
			continue
		}
		if req.inline || h.cfg.inlineMax < 0 || f.size <= h.cfg.inlineMax {
			// Files sent inline are held to DefaultMaxFileMB together.
			if inline += f.size; inline > DefaultMaxFileMB<<20 {
				continue
			}
			data, err := os.ReadFile(f.path)
			if err != nil {
				return nil, fmt.Errorf("read output %s: %w", f.name, err)
			}
			f.data = data
			kept = append(kept, *f)
			continue
		}
		if served += f.size; served > DefaultMaxServedBytes {
			return nil, failf("the skill wrote more than %d bytes of files", int64(DefaultMaxServedBytes))
		}
		token, err := h.files.add(req.taskID, f.path, f.name, f.mediaType, f.size, !h.cfg.keepWork)
		if err != nil {
			return nil, fmt.Errorf("keep output %s: %w", f.name, err)
		}
		f.url = h.fileURL(token, f.name)
		kept = append(kept, *f)
	}
	return kept, nil
}

// fileFetcher fetches the files messages bring by URL.
type fileFetcher struct {
	allow       []string
	key         []byte // the vouching key, or nil
	denyPrivate bool
	client      *http.Client
	resolver    *net.Resolver
}

func newFileFetcher(allow []string, key []byte, denyPrivate bool) *fileFetcher {
	f := &fileFetcher{key: key, denyPrivate: denyPrivate, resolver: net.DefaultResolver}
	for _, a := range allow {
		if a = strings.TrimSpace(a); a != "" {
			f.allow = append(f.allow, normalizePrefix(a))
		}
	}
	t := fetchpolicy.Transport(denyPrivate)
	t.ResponseHeaderTimeout = 30 * time.Second
	f.client = &http.Client{Transport: t, CheckRedirect: fetchpolicy.SameOrigin(fetchpolicy.MaxRedirects)}
	return f
}

// normalizePrefix lower-cases a URL prefix's scheme and host; an origin
// gets its slash, so that http://a:1 never matches http://a:10.
func normalizePrefix(p string) string {
	u, err := url.Parse(p)
	if err != nil || u.Host == "" {
		return p
	}
	u.Scheme, u.Host = strings.ToLower(u.Scheme), strings.ToLower(u.Host)
	if u.Path == "" {
		u.Path = "/"
	}
	return u.String()
}

// valid returns why raw is no URL to fetch, or "".
func valid(raw string) string {
	u, err := url.Parse(raw)
	switch {
	case err != nil:
		return "the URL does not parse"
	case u.Scheme != "http" && u.Scheme != "https", u.Host == "":
		return "only http and https URLs are fetched"
	case u.User != nil:
		return "the URL carries credentials"
	}
	return ""
}

// check returns why raw may not be fetched, or "": it must be on the fetch
// list, or vouched for under the host's key.
func (f *fileFetcher) check(raw, vouch string) string {
	if why := valid(raw); why != "" {
		return why
	}
	if fetchpolicy.Vouched(f.key, raw, vouch) {
		return ""
	}
	norm := normalizePrefix(raw)
	for _, a := range f.allow {
		if strings.HasPrefix(norm, a) && (strings.HasSuffix(a, "/") || len(norm) == len(a) || strings.ContainsRune("/?#", rune(norm[len(a)]))) {
			return ""
		}
	}
	return "the URL is not on this agent's fetch list (--fetch-from)"
}

// errTooLarge is a fetched file over its limit.
var errTooLarge = errors.New("too large")

// get fetches raw into a new file at dest, at most limit bytes, and returns
// its size and content sum. The bytes go to disk as they arrive, hashed on
// the way.
func (f *fileFetcher) get(ctx context.Context, raw, dest string, limit int64) (n int64, sum contentSum, err error) {
	if why := valid(raw); why != "" { // the fetch list was checked as the message came (messageLimits)
		return 0, sum, errors.New(why)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, raw, nil)
	if err != nil {
		return 0, sum, err
	}
	if f.denyPrivate {
		if err := fetchpolicy.CheckHost(ctx, f.resolver, req.URL.Hostname()); err != nil {
			return 0, sum, err
		}
	}
	resp, err := f.client.Do(req)
	if err != nil {
		return 0, sum, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return 0, sum, fmt.Errorf("answered HTTP %d", resp.StatusCode)
	}
	if resp.ContentLength > limit {
		return 0, sum, fmt.Errorf("%d bytes: %w", resp.ContentLength, errTooLarge)
	}
	out, err := os.OpenFile(dest, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return 0, sum, err
	}
	h := newContentHash()
	n, err = io.Copy(io.MultiWriter(out, h), io.LimitReader(resp.Body, limit+1))
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err == nil && n > limit {
		err = fmt.Errorf("more than %d bytes: %w", limit, errTooLarge)
	}
	if err != nil {
		os.Remove(dest)
		return 0, sum, err
	}
	return n, contentSum(h.Sum64()), nil
}

// filePart is the A2A part of an output file: its URL when it is served
// by reference, else its bytes.
func filePart(f outFile) *a2a.Part {
	if f.url != "" {
		return &a2a.Part{Content: a2a.URL(f.url), Filename: f.name, MediaType: f.mediaType, Metadata: map[string]any{SizeKey: f.size}}
	}
	return &a2a.Part{Content: a2a.Raw(f.data), Filename: f.name, MediaType: f.mediaType}
}

// fetchInto returns the function saveFiles fetches a request's files by URL
// with: each into its file in the work directory, all of them together
// held to WithMaxFileBytes less the bytes the message brought inline.
func (h *Host) fetchInto(ctx context.Context, req *request) func(raw, dest string) (contentSum, error) {
	budget := h.cfg.maxFileBytes
	for _, f := range req.files {
		budget -= int64(len(f.data))
		if f.spooled != "" {
			if info, err := os.Stat(f.spooled); err == nil {
				budget -= info.Size()
			}
		}
	}
	return func(raw, dest string) (contentSum, error) {
		n, sum, err := h.fetcher.get(ctx, raw, dest, max(budget, 0))
		if err != nil {
			if errors.Is(err, errTooLarge) {
				return sum, failf("file %s: the message's files hold more than %d bytes; this agent takes at most %d (--max-file-bytes)", raw, h.cfg.maxFileBytes, h.cfg.maxFileBytes)
			}
			return sum, failf("file %s could not be fetched: %v", raw, err)
		}
		budget -= n
		h.log.Info("file fetched", "task", req.taskID, "url", raw, "bytes", n)
		return sum, nil
	}
}
