package swarm

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strings"
	"time"

	agentimg "github.com/agentnet/agentnet/deploy/image"
)

// GatewayHealthPath is the swarm gateway's own health path; agent names
// never start with '-'.
const GatewayHealthPath = "/-/health"

// GatewayHandler routes /NAME/REST to http://agentnet-a-NAME:8080/REST, the
// agent service NAME on the swarm's overlay network, keeping the Host
// header the caller sent (the host checks it against its card's URL). A
// name is what sanitize makes of an agent's name; anything else is 404.
func GatewayHandler() http.Handler {
	transport := &http.Transport{
		DialContext:           (&net.Dialer{Timeout: 5 * time.Second}).DialContext,
		MaxIdleConnsPerHost:   16,
		IdleConnTimeout:       30 * time.Second,
		ResponseHeaderTimeout: 0, // tasks may run long; the host bounds them
	}
	proxy := &httputil.ReverseProxy{
		Transport:     transport,
		FlushInterval: -1, // streams (SSE) pass as they come
		Rewrite: func(pr *httputil.ProxyRequest) {
			name, rest := splitAgentPath(pr.In.URL.Path)
			pr.Out.URL = &url.URL{Scheme: "http", Host: servicePrefix + name + ":" + agentimg.Port, Path: rest, RawQuery: pr.In.URL.RawQuery}
			pr.Out.Host = pr.In.Host
			pr.SetXForwarded()
		},
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			http.Error(w, "agent unreachable: "+err.Error(), http.StatusBadGateway)
		},
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+GatewayHealthPath, func(w http.ResponseWriter, r *http.Request) { fmt.Fprintln(w, "ok") })
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		name, _ := splitAgentPath(r.URL.Path)
		if name == "" || agentimg.Sanitize(name) != name {
			http.NotFound(w, r)
			return
		}
		proxy.ServeHTTP(w, r)
	})
	return mux
}

// splitAgentPath splits "/NAME/REST" into NAME and "/REST".
func splitAgentPath(p string) (name, rest string) {
	p = strings.TrimPrefix(p, "/")
	name, rest, _ = strings.Cut(p, "/")
	return name, "/" + rest
}

// ServeGateway serves GatewayHandler at addr until ctx ends.
func ServeGateway(ctx context.Context, addr string) error {
	srv := &http.Server{Addr: addr, Handler: GatewayHandler(), ReadHeaderTimeout: 10 * time.Second, IdleTimeout: time.Minute}
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		srv.Shutdown(sctx)
	}()
	if err := srv.ListenAndServe(); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// getOK fetches url and fails unless it answers 200.
func getOK(ctx context.Context, url string) error {
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("HTTP %d", resp.StatusCode)
	}
	return nil
}
