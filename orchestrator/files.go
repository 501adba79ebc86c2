package orchestrator

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"

	"github.com/a2aproject/a2a-go/v2/a2a"

	"github.com/agentnet/agentnet/internal/fetchpolicy"
)

// Files by reference. An agent may answer with a file part holding a URL
// on its own origin instead of the bytes (agentnet hosts do for files
// above 256 KiB). The runner passes the URL on to the next step's agent,
// which fetches the file itself if the URL's origin is on its fetch list:
// the bytes go from agent to agent, never through the runner, its proxies
// or its memory. A URL on any other origin is refused (ProtocolError): the
// runner passes on only what it can vouch for, and with WithVouchKey it
// vouches for each URL it passes on, so that hosts sharing the key fetch
// it without a fetch list. A chain's final files by
// reference are fetched into File.Data when they fit WithOutputFetchMax,
// so that results and judges see their bytes.

// WithVouchKey vouches for each file URL the runner passes on with key,
// which the hosts it deployed share (host.WithVouchKey): they fetch a
// vouched URL without its origin being on their fetch list.
func WithVouchKey(key []byte) Option { return func(r *Runner) { r.vouchKey = key } }

// vouch adds the runner's vouch to the message's file parts by URL.
func (r *Runner) vouch(m *a2a.Message) {
	if len(r.vouchKey) == 0 {
		return
	}
	for _, p := range m.Parts {
		if u, ok := p.Content.(a2a.URL); ok {
			if p.Metadata == nil {
				p.Metadata = map[string]any{}
			}
			p.Metadata[fetchpolicy.VouchMetadataKey] = fetchpolicy.Vouch(r.vouchKey, string(u))
		}
	}
}

// DefaultOutputFetchMax is the size up to which a chain's final files by
// reference are fetched into File.Data.
const DefaultOutputFetchMax = 64 << 20

// WithOutputFetchMax sets the size up to which a chain's final files by
// reference are fetched into File.Data (default DefaultOutputFetchMax; 0
// fetches none, leaving File.URL and File.Size).
func WithOutputFetchMax(n int64) Option { return func(r *Runner) { r.outputFetchMax = n } }

// fetchOutputs fetches the files of out passed by reference that fit the
// runner's limit.
func (s *session) fetchOutputs(ctx context.Context, out *Output) error {
	for i := range out.Files {
		f := &out.Files[i]
		if f.URL == "" || f.Data != nil || s.r.outputFetchMax <= 0 || f.Size > s.r.outputFetchMax {
			continue
		}
		data, err := s.fetchFile(ctx, f.URL, s.r.outputFetchMax)
		if err != nil {
			return fmt.Errorf("fetch the output file %q: %w", f.Name, err)
		}
		f.Data, f.Size = data, int64(len(data))
	}
	return nil
}

// fetchFile GETs a file at most limit bytes long; redirects stay on the
// URL's origin, which collect checked is the answering agent's.
func (s *session) fetchFile(ctx context.Context, url string, limit int64) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	c := &http.Client{Transport: s.r.toAgents, CheckRedirect: fetchpolicy.SameOrigin(fetchpolicy.MaxRedirects)}
	resp, err := c.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s answered HTTP %d", url, resp.StatusCode)
	}
	if resp.ContentLength > limit {
		return nil, fmt.Errorf("%s holds %d bytes, more than %d", url, resp.ContentLength, limit)
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s holds more than %d bytes", url, limit)
	}
	return data, nil
}

// maxSavedFile bounds a file SaveFile fetches by reference.
const maxSavedFile = 4 << 30

// SaveFile writes a file of a chain's output to dest: its Data, or for a
// file by reference whose bytes were not fetched, the bytes streamed from
// its URL (while the agent keeps the task) straight to disk.
func (r *Runner) SaveFile(ctx context.Context, f File, dest string) error {
	if f.URL == "" || f.Data != nil {
		return os.WriteFile(dest, f.Data, 0o644)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, f.URL, nil)
	if err != nil {
		return err
	}
	c := &http.Client{Transport: r.toAgents, CheckRedirect: fetchpolicy.SameOrigin(fetchpolicy.MaxRedirects)}
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s answered HTTP %d", f.URL, resp.StatusCode)
	}
	out, err := os.OpenFile(dest, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	n, err := io.Copy(out, io.LimitReader(resp.Body, maxSavedFile+1))
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err == nil && n > maxSavedFile {
		err = fmt.Errorf("%s holds more than %d bytes", f.URL, int64(maxSavedFile))
	}
	if err != nil {
		os.Remove(dest)
	}
	return err
}
