package registry

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// openAPIChecker validates real responses against the document the
// registry serves.
type openAPIChecker struct {
	t        *testing.T
	doc      map[string]any
	compiler *jsonschema.Compiler
}

func newOpenAPIChecker(t *testing.T, raw []byte) *openAPIChecker {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatalf("GET /openapi.json is not JSON: %v", err)
	}
	if doc["openapi"] != "3.1.0" {
		t.Errorf("openapi = %v, want 3.1.0", doc["openapi"])
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("openapi.json", inst); err != nil {
		t.Fatal(err)
	}
	return &openAPIChecker{t: t, doc: doc, compiler: c}
}

// template returns the document's path template that matches path.
func (o *openAPIChecker) template(path string) string {
	for tmpl := range o.doc["paths"].(map[string]any) {
		re := "^" + regexp.MustCompile(`\\\{[^}]+\\\}`).ReplaceAllString(regexp.QuoteMeta(tmpl), `[^/]+`) + "$"
		if regexp.MustCompile(re).MatchString(path) {
			return tmpl
		}
	}
	return ""
}

// do sends a request and checks that the document lists its answer's
// status for that path and method, and that the body matches the schema
// given there.
func (o *openAPIChecker) do(method, url, token, body string, want int) []byte {
	t := o.t
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != want {
		t.Errorf("%s %s = %d, want %d: %s", method, url, resp.StatusCode, want, data)
	}
	tmpl := o.template(req.URL.Path)
	item, _ := o.doc["paths"].(map[string]any)[tmpl].(map[string]any)
	op, _ := item[strings.ToLower(method)].(map[string]any)
	status := strconv.Itoa(resp.StatusCode)
	if op == nil {
		// A method or path the document does not list: 405 or 404 with an
		// Error, as its description says.
		if status != "405" && status != "404" {
			t.Errorf("%s %s: the document has no operation for it (path %q), and the answer is %s", method, req.URL.Path, tmpl, status)
		}
		o.validate(method+" "+req.URL.Path+" "+status, "#/components/schemas/Error", data)
		return data
	}
	r, ok := op["responses"].(map[string]any)[status].(map[string]any)
	if !ok {
		t.Errorf("%s %s answered %s, which the document does not list", method, tmpl, status)
		return data
	}
	content, _ := r["content"].(map[string]any)
	mediaType, _, _ := strings.Cut(resp.Header.Get("Content-Type"), ";")
	if len(content) == 0 {
		if len(data) > 0 {
			t.Errorf("%s %s %s: the document lists no body, the answer has %q", method, tmpl, status, data)
		}
		return data
	}
	if _, ok := content[mediaType]; !ok {
		t.Errorf("%s %s %s: content type %q, the document lists %v", method, tmpl, status, mediaType, content)
		return data
	}
	if mediaType != "application/json" {
		return data
	}
	ptr := "#/paths/" + escapePointer(tmpl) + "/" + strings.ToLower(method) + "/responses/" + status + "/content/application~1json/schema"
	o.validate(method+" "+tmpl+" "+status, ptr, data)
	return data
}

// validate checks data against the schema at ptr in the document.
func (o *openAPIChecker) validate(what, ptr string, data []byte) {
	t := o.t
	t.Helper()
	sch, err := o.compiler.Compile("openapi.json" + ptr)
	if err != nil {
		t.Fatalf("compile the schema at %s: %v", ptr, err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Errorf("%s: body is not JSON: %v", what, err)
		return
	}
	if err := sch.Validate(inst); err != nil {
		t.Errorf("%s: body does not match the document's schema: %v\n%s", what, err, data)
	}
}

func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// TestOpenAPIMatchesResponses sends real requests to a real registry (a
// SQLite store, real card fetches from agents on httptest) and validates
// every answer against the OpenAPI document the registry itself serves.
func TestOpenAPIMatchesResponses(t *testing.T) {
	t.Parallel()
	reg := newTestRegistry(t)
	agents := newFakeAgents(t)
	agents.set(t, "reverser", reverserCard())
	base := reg.srv.URL

	raw, err := http.Get(base + OpenAPIPath)
	if err != nil {
		t.Fatal(err)
	}
	docBytes, _ := io.ReadAll(raw.Body)
	raw.Body.Close()
	o := newOpenAPIChecker(t, docBytes)
	o.do("GET", base+OpenAPIPath, "", "", 200)

	reg1 := o.do("POST", base+"/v1/agents", testToken, fmt.Sprintf(`{"url": %q}`, agents.url("reverser")), 201)
	var rec Record
	if err := json.Unmarshal(reg1, &rec); err != nil || rec.ID == "" {
		t.Fatalf("registration answer %s: %v", reg1, err)
	}
	o.do("POST", base+"/v1/agents", testToken, fmt.Sprintf(`{"url": %q}`, agents.url("reverser")), 200)
	o.do("POST", base+"/v1/agents", "", fmt.Sprintf(`{"url": %q}`, agents.url("reverser")), 401)
	o.do("POST", base+"/v1/agents", testToken, `{"link": 1}`, 400)
	o.do("POST", base+"/v1/agents", testToken, fmt.Sprintf(`{"url": %q}`, agents.url("html")), 422)
	o.do("POST", base+"/v1/agents", testToken, `{"url": "`+strings.Repeat("a", DefaultMaxBody)+`"}`, 413)

	o.do("GET", base+"/v1/agents", "", "", 200)
	o.do("GET", base+"/v1/agents?tag=text&status=all&limit=5", "", "", 200)
	o.do("GET", base+"/v1/agents?limit=0", "", "", 400)
	o.do("GET", base+"/v1/agents/"+rec.ID, "", "", 200)
	o.do("GET", base+"/v1/agents/nobody", "", "", 404)
	o.do("GET", base+"/v1/search?q=reverse+a+word", "", "", 200)
	o.do("GET", base+"/v1/search?q=x&status=sideways", "", "", 400)
	o.do("GET", base+"/healthz", "", "", 200)
	o.do("PUT", base+"/healthz", "", "", 405)
	o.do("GET", base+"/v2/nothing", "", "", 404)
	o.do("GET", base+"/", "", "", 200)
	o.do("GET", base+"/agents/"+rec.ID, "", "", 200)
	o.do("GET", base+"/agents/nobody", "", "", 404)
	o.do("DELETE", base+"/v1/agents/"+rec.ID, "", "", 401)
	o.do("DELETE", base+"/v1/agents/"+rec.ID, testToken, "", 204)
	o.do("DELETE", base+"/v1/agents/"+rec.ID, testToken, "", 404)

	// Every route the handler serves is in the document.
	engine := NewHandler(reg.svc).(*gin.Engine)
	for _, rt := range engine.Routes() {
		tmpl := regexp.MustCompile(`:([a-z]+)`).ReplaceAllString(rt.Path, "{$1}")
		paths := o.doc["paths"].(map[string]any)
		item, _ := paths[tmpl].(map[string]any)
		if op, _ := item[strings.ToLower(rt.Method)].(map[string]any); op == nil {
			t.Errorf("route %s %s is not in the OpenAPI document", rt.Method, rt.Path)
		}
	}
}

// TestOpenAPIDocument checks the document's own shape: every $ref resolves
// and every operation has an id and responses.
func TestOpenAPIDocument(t *testing.T) {
	t.Parallel()
	doc := OpenAPI()
	schemas := doc["components"].(map[string]any)["schemas"].(map[string]any)
	b, _ := json.Marshal(doc)
	for _, m := range regexp.MustCompile(`"\$ref":"#/components/schemas/([^"]+)"`).FindAllStringSubmatch(string(b), -1) {
		if _, ok := schemas[m[1]]; !ok {
			t.Errorf("$ref to missing schema %s", m[1])
		}
	}
	ids := map[string]bool{}
	for path, item := range doc["paths"].(map[string]any) {
		for method, op := range item.(map[string]any) {
			op := op.(map[string]any)
			id, _ := op["operationId"].(string)
			if id == "" || ids[id] {
				t.Errorf("%s %s: operationId %q missing or repeated", method, path, id)
			}
			ids[id] = true
			if len(op["responses"].(map[string]any)) == 0 {
				t.Errorf("%s %s: no responses", method, path)
			}
		}
	}
}
