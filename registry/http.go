package registry

import (
	"bytes"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
)

// This file is the registry's one HTTP boundary (and its only gin code):
// errors become statuses here, with a safe message for the caller and the
// full error in the log.

// DefaultMaxBody caps request bodies; a registration body is a URL.
const DefaultMaxBody = 64 << 10

// HandlerOption configures NewHandler.
type HandlerOption func(*handlerConfig)

type handlerConfig struct {
	token   string
	maxBody int64
	log     *slog.Logger
}

// WithToken requires "Authorization: Bearer token" on writes (registering
// and deleting). Empty, the default, leaves writes open. Reads are public.
func WithToken(token string) HandlerOption { return func(c *handlerConfig) { c.token = token } }

// WithMaxBody caps request bodies at n bytes (default DefaultMaxBody).
func WithMaxBody(n int64) HandlerOption { return func(c *handlerConfig) { c.maxBody = n } }

// WithHandlerLogger sets the logger requests and failures go to (default:
// the Service's).
func WithHandlerLogger(l *slog.Logger) HandlerOption { return func(c *handlerConfig) { c.log = l } }

// NewHandler serves svc over HTTP: the JSON API under /v1 (docs/registry.md),
// /healthz, its OpenAPI document at /openapi.json and the web page at /.
// The handler is safe for concurrent use.
func NewHandler(svc *Service, opts ...HandlerOption) http.Handler {
	cfg := handlerConfig{maxBody: DefaultMaxBody, log: svc.log}
	for _, o := range opts {
		o(&cfg)
	}
	// gin's debug mode prints to os.Stdout; the registry logs through slog.
	if gin.Mode() != gin.ReleaseMode {
		gin.SetMode(gin.ReleaseMode)
	}
	h := &api{svc: svc, cfg: cfg}
	r := gin.New()
	r.ContextWithFallback = true
	r.HandleMethodNotAllowed = true
	r.Use(h.recover, h.logRequests)

	v1 := r.Group("/v1")
	v1.POST("/agents", h.auth, h.limitBody, h.register)
	v1.GET("/agents", h.list)
	v1.GET("/agents/:id", h.get)
	v1.DELETE("/agents/:id", h.auth, h.remove)
	v1.GET("/search", h.search)
	r.GET("/healthz", h.healthz)
	r.GET(OpenAPIPath, func(c *gin.Context) { serveOpenAPI(c.Writer) })
	r.GET("/", h.webIndex)
	r.GET("/agents/:id", h.webAgent)
	r.NoRoute(func(c *gin.Context) { h.fail(c, http.StatusNotFound, "no such endpoint: "+c.Request.URL.Path) })
	r.NoMethod(func(c *gin.Context) {
		h.fail(c, http.StatusMethodNotAllowed, c.Request.Method+" is not allowed on "+c.Request.URL.Path)
	})
	return r
}

type api struct {
	svc *Service
	cfg handlerConfig
}

// errorBody is every error response: a message and, for invalid input,
// every problem.
type errorBody struct {
	Error    string   `json:"error"`
	Problems []string `json:"problems,omitempty"`
}

func (h *api) fail(c *gin.Context, status int, msg string, problems ...string) {
	c.AbortWithStatusJSON(status, errorBody{Error: msg, Problems: problems})
}

// failErr maps err to a status: invalid input 422 (registration) or 400
// (queries), unknown ids 404, anything else 500 with the detail only in the
// log.
func (h *api) failErr(c *gin.Context, err error, invalidStatus int) {
	var ie *InvalidError
	switch {
	case errors.As(err, &ie):
		if len(ie.Public) > 0 && !h.holder(c) {
			h.fail(c, invalidStatus, ie.Subject+": "+strings.Join(ie.Public, "; "), ie.Public...)
			return
		}
		h.fail(c, invalidStatus, ie.Error(), ie.Problems...)
	case errors.Is(err, ErrNotFound):
		h.fail(c, http.StatusNotFound, fmt.Sprintf("no agent with id %q", c.Param("id")))
	case c.Request.Context().Err() != nil:
		// The caller went away; nobody reads this answer.
		c.AbortWithStatus(499)
	default:
		h.cfg.log.Error("request failed", "method", c.Request.Method, "path", c.Request.URL.Path, "err", err)
		h.fail(c, http.StatusInternalServerError, "internal error; the registry log has the details")
	}
}

func (h *api) recover(c *gin.Context) {
	defer func() {
		if r := recover(); r != nil {
			h.cfg.log.Error("panic in request", "method", c.Request.Method, "path", c.Request.URL.Path, "panic", r)
			h.fail(c, http.StatusInternalServerError, "internal error; the registry log has the details")
		}
	}()
	c.Next()
}

func (h *api) logRequests(c *gin.Context) {
	start := time.Now()
	c.Next()
	h.cfg.log.Debug("request", "method", c.Request.Method, "path", c.Request.URL.Path,
		"status", c.Writer.Status(), "dur", time.Since(start))
}

// auth checks the bearer token on writes when one is configured.
func (h *api) auth(c *gin.Context) {
	if h.cfg.token == "" {
		return
	}
	c.Header("WWW-Authenticate", `Bearer realm="agentnet-registry"`)
	got, ok := strings.CutPrefix(c.GetHeader("Authorization"), "Bearer ")
	switch {
	case c.GetHeader("Authorization") == "":
		h.fail(c, http.StatusUnauthorized, "this registry needs a bearer token for writes: send Authorization: Bearer $AGENTNET_REGISTRY_TOKEN")
	case !ok:
		h.fail(c, http.StatusUnauthorized, "the Authorization header must be \"Bearer TOKEN\"")
	case subtle.ConstantTimeCompare([]byte(strings.TrimSpace(got)), []byte(h.cfg.token)) != 1:
		h.fail(c, http.StatusUnauthorized, "the bearer token is wrong or no longer valid")
	}
}

// holder reports whether the request carries the registry's token (one is
// configured and the bearer matches): only holders see why a fetch failed.
func (h *api) holder(c *gin.Context) bool {
	got, ok := strings.CutPrefix(c.GetHeader("Authorization"), "Bearer ")
	return h.cfg.token != "" && ok && subtle.ConstantTimeCompare([]byte(strings.TrimSpace(got)), []byte(h.cfg.token)) == 1
}

// redact cuts the detail off hits' health errors for a caller who is not a
// holder.
func (h *api) redact(c *gin.Context, hits []Hit) {
	if h.holder(c) {
		return
	}
	for i := range hits {
		hits[i].Health.Error = PublicDetail(hits[i].Health.Error)
	}
}

// limitBody caps the request body.
func (h *api) limitBody(c *gin.Context) {
	if c.Request.ContentLength > h.cfg.maxBody {
		h.fail(c, http.StatusRequestEntityTooLarge, fmt.Sprintf("request body is %d bytes, more than the %d-byte limit", c.Request.ContentLength, h.cfg.maxBody))
		return
	}
	c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, h.cfg.maxBody)
}

// registerRequest is the body of POST /v1/agents.
type registerRequest struct {
	URL string `json:"url"`
}

func (h *api) register(c *gin.Context) {
	var req registerRequest
	dec := json.NewDecoder(c.Request.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			h.fail(c, http.StatusRequestEntityTooLarge, fmt.Sprintf("request body is more than the %d-byte limit", mbe.Limit))
			return
		}
		h.fail(c, http.StatusBadRequest, `the body must be a JSON object {"url": "..."}: `+err.Error())
		return
	}
	// One object and nothing after it: a body that means something else
	// to another parser is not this one's to guess.
	if _, err := dec.Token(); err != io.EOF {
		h.fail(c, http.StatusBadRequest, `the body must be a JSON object {"url": "..."} and nothing after it`)
		return
	}
	rec, created, err := h.svc.Register(c.Request.Context(), req.URL)
	if err != nil {
		h.failErr(c, err, http.StatusUnprocessableEntity)
		return
	}
	status := http.StatusOK
	if created {
		status = http.StatusCreated
		c.Header("Location", "/v1/agents/"+rec.ID)
	}
	c.JSON(status, rec)
}

// listBody is the answer of GET /v1/agents.
type listBody struct {
	Agents     []Hit  `json:"agents"`
	NextCursor string `json:"next_cursor,omitempty"`
}

// searchBody is the answer of GET /v1/search.
type searchBody struct {
	Query      string `json:"query"`
	Results    []Hit  `json:"results"`
	NextCursor string `json:"next_cursor,omitempty"`
}

// query reads q, tag, status, limit and cursor. status is a comma-separated
// list (or repeated); "all" means every status.
func (h *api) query(c *gin.Context) (Query, error) {
	q := Query{Text: c.Query("q"), Tag: c.Query("tag"), Cursor: c.Query("cursor")}
	var probs []string
	if l := c.Query("limit"); l != "" {
		n, err := strconv.Atoi(l)
		if err != nil || n < 1 || n > MaxLimit {
			probs = append(probs, fmt.Sprintf("limit %q must be a whole number from 1 to %d", l, MaxLimit))
		}
		q.Limit = n
	}
	for _, v := range c.QueryArray("status") {
		for _, s := range strings.Split(v, ",") {
			s = strings.TrimSpace(s)
			if s == "" {
				continue
			}
			if s == "all" {
				q.Statuses = append(q.Statuses, Statuses...)
				continue
			}
			st, err := ParseStatus(s)
			if err != nil {
				probs = append(probs, fmt.Sprintf("status %q: want up, changed, down or all", s))
				continue
			}
			q.Statuses = append(q.Statuses, st)
		}
	}
	if len(probs) > 0 {
		return Query{}, invalid("query", probs...)
	}
	return q, nil
}

func (h *api) list(c *gin.Context) {
	q, err := h.query(c)
	if err == nil {
		var page Page
		if page, err = h.svc.List(c.Request.Context(), q); err == nil {
			h.redact(c, page.Hits)
			c.JSON(http.StatusOK, listBody{Agents: page.Hits, NextCursor: page.NextCursor})
			return
		}
	}
	h.failErr(c, err, http.StatusBadRequest)
}

func (h *api) search(c *gin.Context) {
	q, err := h.query(c)
	if err == nil {
		var page Page
		if page, err = h.svc.Search(c.Request.Context(), q); err == nil {
			h.redact(c, page.Hits)
			c.JSON(http.StatusOK, searchBody{Query: q.Text, Results: page.Hits, NextCursor: page.NextCursor})
			return
		}
	}
	h.failErr(c, err, http.StatusBadRequest)
}

func (h *api) get(c *gin.Context) {
	rec, err := h.svc.Get(c.Request.Context(), c.Param("id"))
	if err != nil {
		h.failErr(c, err, http.StatusBadRequest)
		return
	}
	if !h.holder(c) {
		rec.Health.Error = PublicDetail(rec.Health.Error)
	}
	c.JSON(http.StatusOK, rec)
}

func (h *api) remove(c *gin.Context) {
	if err := h.svc.Delete(c.Request.Context(), c.Param("id")); err != nil {
		h.failErr(c, err, http.StatusBadRequest)
		return
	}
	c.Status(http.StatusNoContent)
}

func (h *api) healthz(c *gin.Context) {
	if _, err := h.svc.store.Count(c.Request.Context()); err != nil {
		h.cfg.log.Error("health check: store unavailable", "err", err)
		h.fail(c, http.StatusServiceUnavailable, "store unavailable")
		return
	}
	c.JSON(http.StatusOK, gin.H{"status": "ok"})
}

// html writes a rendered page with the web page's headers.
func (h *api) html(c *gin.Context, status int, body []byte) {
	c.Header("Content-Security-Policy", webCSP)
	c.Header("X-Content-Type-Options", "nosniff")
	c.Data(status, "text/html; charset=utf-8", body)
}

func (h *api) webIndex(c *gin.Context) {
	var buf bytes.Buffer
	if err := renderIndex(c.Request.Context(), h.svc, c.Request.URL.Query(), &buf); err != nil {
		h.cfg.log.Error("render agents page", "err", err)
		h.html(c, http.StatusInternalServerError, []byte("<!doctype html><html><body><p>internal error; the registry log has the details</p></body></html>"))
		return
	}
	h.html(c, http.StatusOK, buf.Bytes())
}

func (h *api) webAgent(c *gin.Context) {
	var buf bytes.Buffer
	err := renderAgent(c.Request.Context(), h.svc, c.Param("id"), &buf)
	switch {
	case errors.Is(err, ErrNotFound):
		h.html(c, http.StatusNotFound, []byte("<!doctype html><html><body><p>No such agent. <a href=\"/\">All agents</a></p></body></html>"))
	case err != nil:
		h.cfg.log.Error("render agent page", "agent", c.Param("id"), "err", err)
		h.html(c, http.StatusInternalServerError, []byte("<!doctype html><html><body><p>internal error; the registry log has the details</p></body></html>"))
	default:
		h.html(c, http.StatusOK, buf.Bytes())
	}
}
