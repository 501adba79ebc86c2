package registry

import (
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"sync"

	"github.com/invopop/jsonschema"
)

// OpenAPIPath is where the registry serves its OpenAPI document.
const OpenAPIPath = "/openapi.json"

// openAPISchemas are the types of the API's bodies, by the name the
// document gives them in components.schemas.
var openAPISchemas = map[reflect.Type]string{
	reflect.TypeFor[registerRequest](): "RegisterRequest",
	reflect.TypeFor[Record]():          "Record",
	reflect.TypeFor[listBody]():        "AgentList",
	reflect.TypeFor[searchBody]():      "SearchResults",
	reflect.TypeFor[errorBody]():       "Error",
	reflect.TypeFor[Health]():          "Health",
	reflect.TypeFor[Hit]():             "Hit",
	reflect.TypeFor[Revision]():        "Revision",
	reflect.TypeFor[Status]():          "Status",
}

// JSONSchema lists the statuses an agent can be in.
func (Status) JSONSchema() *jsonschema.Schema {
	s := &jsonschema.Schema{Type: "string", Description: "The agent's health as the prober last saw it."}
	for _, st := range Statuses {
		s.Enum = append(s.Enum, string(st))
	}
	return s
}

// OpenAPI returns the OpenAPI 3.1 document of the registry's HTTP API
// (what NewHandler serves). The paths are written here; the body schemas
// are generated from the Go types the handler encodes, so they cannot drift
// from what it sends. The caller may modify the result.
func OpenAPI() map[string]any {
	var doc map[string]any
	if err := json.Unmarshal(openAPIJSON(), &doc); err != nil {
		panic(err) // built from static types
	}
	return doc
}

var openAPIJSON = sync.OnceValue(func() []byte {
	b, err := json.MarshalIndent(buildOpenAPI(), "", "  ")
	if err != nil {
		panic(err) // built from static types
	}
	return append(b, '\n')
})

func buildOpenAPI() map[string]any {
	return map[string]any{
		"openapi":           "3.1.0",
		"jsonSchemaDialect": "https://json-schema.org/draft/2020-12/schema",
		"info": map[string]any{
			"title":   "agentnet registry",
			"version": "1",
			"description": "The agent-card registry: register A2A agents by URL (their cards are fetched, validated and stored), " +
				"list, search and remove them. Reads are public; writes need a bearer token when the registry has one " +
				"(AGENTNET_REGISTRY_TOKEN). Every error is a JSON object with an error message and, for invalid input, every problem " +
				"(the Error schema); a path answers a method it does not list with 405 and an unknown path with 404, both with an Error.",
		},
		"paths": openAPIPaths(),
		"components": map[string]any{
			"schemas": componentSchemas(),
			"securitySchemes": map[string]any{
				"bearer": map[string]any{"type": "http", "scheme": "bearer",
					"description": "Needed for writes when the registry was started with a token."},
			},
		},
	}
}

func ref(name string) map[string]any { return map[string]any{"$ref": "#/components/schemas/" + name} }

// jsonResponse is a response whose body is the named schema.
func jsonResponse(desc, schema string) map[string]any {
	return map[string]any{"description": desc, "content": map[string]any{"application/json": map[string]any{"schema": ref(schema)}}}
}

func errorResponse(desc string) map[string]any { return jsonResponse(desc, "Error") }

func htmlResponse(desc string) map[string]any {
	return map[string]any{"description": desc, "content": map[string]any{"text/html": map[string]any{"schema": map[string]any{"type": "string"}}}}
}

func param(name, in, desc string, schema map[string]any, required bool) map[string]any {
	return map[string]any{"name": name, "in": in, "description": desc, "required": required, "schema": schema}
}

// queryParams are the parameters of GET /v1/agents and GET /v1/search.
func queryParams(qDesc string) []any {
	statuses := []any{"all"}
	for _, s := range Statuses {
		statuses = append(statuses, string(s))
	}
	return []any{
		param("q", "query", qDesc, map[string]any{"type": "string"}, false),
		param("tag", "query", "Keep agents with a skill carrying this tag (case-insensitive).", map[string]any{"type": "string"}, false),
		param("status", "query", "Keep agents in these statuses: comma-separated or repeated; all for every status.",
			map[string]any{"type": "string"}, false),
		param("limit", "query", "Page size.", map[string]any{"type": "integer", "minimum": 1, "maximum": MaxLimit, "default": DefaultLimit}, false),
		param("cursor", "query", "The next_cursor of the previous page.", map[string]any{"type": "string"}, false),
	}
}

// common adds the responses any operation may give.
func common(ops map[string]any) map[string]any {
	ops["500"] = errorResponse("An internal error; the registry log has the details.")
	return ops
}

func openAPIPaths() map[string]any {
	idParam := param("id", "path", "The agent's id.", map[string]any{"type": "string"}, true)
	write := []any{map[string]any{"bearer": []any{}}}
	return map[string]any{
		"/v1/agents": map[string]any{
			"post": map[string]any{
				"operationId": "registerAgent",
				"summary":     "Register an agent by URL",
				"description": "Fetches the card from the agent's well-known path, validates it strictly and stores it. " +
					"Registering a known agent again updates its record.",
				"security":    write,
				"requestBody": map[string]any{"required": true, "content": map[string]any{"application/json": map[string]any{"schema": ref("RegisterRequest")}}},
				"responses": common(map[string]any{
					"201": jsonResponse("Registered a new agent; Location names its record.", "Record"),
					"200": jsonResponse("Updated an agent already registered.", "Record"),
					"400": errorResponse("The body is not a JSON object {\"url\": \"...\"}."),
					"401": errorResponse("A token is needed, and it is missing or wrong."),
					"413": errorResponse("The body is too large."),
					"422": errorResponse("The card could not be fetched or is invalid; problems lists every problem."),
				}),
			},
			"get": map[string]any{
				"operationId": "listAgents",
				"summary":     "List agents, by name",
				"parameters":  queryParams("Full-text filter."),
				"responses": common(map[string]any{
					"200": jsonResponse("One page of agents.", "AgentList"),
					"400": errorResponse("A query parameter is invalid."),
				}),
			},
		},
		"/v1/agents/{id}": map[string]any{
			"get": map[string]any{
				"operationId": "getAgent",
				"summary":     "One agent's record, with its recent registrations",
				"parameters":  []any{idParam},
				"responses": common(map[string]any{
					"200": jsonResponse("The record.", "Record"),
					"404": errorResponse("No agent has this id."),
				}),
			},
			"delete": map[string]any{
				"operationId": "deleteAgent",
				"summary":     "Remove an agent",
				"parameters":  []any{idParam},
				"security":    write,
				"responses": common(map[string]any{
					"204": map[string]any{"description": "Removed."},
					"401": errorResponse("A token is needed, and it is missing or wrong."),
					"404": errorResponse("No agent has this id."),
				}),
			},
		},
		"/v1/search": map[string]any{
			"get": map[string]any{
				"operationId": "searchAgents",
				"summary":     "Rank agents by relevance to a text",
				"description": "Ranks over names, descriptions, skill names and descriptions, tags and examples; higher scores are better.",
				"parameters":  queryParams("The text to search for."),
				"responses": common(map[string]any{
					"200": jsonResponse("One page of ranked matches.", "SearchResults"),
					"400": errorResponse("A query parameter is invalid."),
				}),
			},
		},
		"/healthz": map[string]any{
			"get": map[string]any{
				"operationId": "health",
				"summary":     "Liveness: the registry and its store answer",
				"responses": common(map[string]any{
					"200": map[string]any{"description": "Alive.", "content": map[string]any{"application/json": map[string]any{"schema": map[string]any{
						"type": "object", "required": []any{"status"}, "additionalProperties": false,
						"properties": map[string]any{"status": map[string]any{"const": "ok"}},
					}}}},
					"503": errorResponse("The store does not answer."),
				}),
			},
		},
		OpenAPIPath: map[string]any{
			"get": map[string]any{
				"operationId": "openAPI",
				"summary":     "This document",
				"responses": common(map[string]any{
					"200": map[string]any{"description": "The OpenAPI 3.1 document.", "content": map[string]any{"application/json": map[string]any{"schema": map[string]any{"type": "object", "required": []any{"openapi", "paths"}}}}},
				}),
			},
		},
		"/": map[string]any{
			"get": map[string]any{
				"operationId": "webIndex",
				"summary":     "The web page: agents, health, search",
				"parameters":  queryParams("Full-text filter."),
				"responses":   common(map[string]any{"200": htmlResponse("The page.")}),
			},
		},
		"/agents/{id}": map[string]any{
			"get": map[string]any{
				"operationId": "webAgent",
				"summary":     "The web page of one agent: its card and history",
				"parameters":  []any{idParam},
				"responses": common(map[string]any{
					"200": htmlResponse("The page."),
					"404": htmlResponse("No agent has this id."),
				}),
			},
		},
	}
}

// componentSchemas reflects the body types into schemas that refer to each
// other under #/components/schemas.
func componentSchemas() map[string]any {
	r := &jsonschema.Reflector{
		Namer: func(t reflect.Type) string {
			if name, ok := openAPISchemas[t]; ok {
				return name
			}
			return t.Name()
		},
		// Every field the handler always encodes is required; omitempty
		// ones are not.
		RequiredFromJSONSchemaTags: false,
	}
	defs := jsonschema.Definitions{}
	for t := range openAPISchemas {
		s := r.ReflectFromType(t)
		for name, d := range s.Definitions {
			defs[name] = d
		}
	}
	b, err := json.Marshal(defs)
	if err != nil {
		panic(err)
	}
	b = []byte(strings.ReplaceAll(string(b), `"#/$defs/`, `"#/components/schemas/`))
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		panic(err)
	}
	// A card is stored and served as fetched (json.RawMessage reflects as
	// "anything"); say what it is.
	for _, name := range []string{"Record", "Hit"} {
		props := out[name].(map[string]any)["properties"].(map[string]any)
		props["card"] = map[string]any{"type": "object", "description": "The A2A agent card as fetched, in canonical JSON."}
	}
	return out
}

// serveOpenAPI answers GET /openapi.json.
func serveOpenAPI(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Write(openAPIJSON())
}
