package cards

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"

	"github.com/agentnet/agentnet/bundle"
)

func loadBundle(t *testing.T, text string) *bundle.Bundle {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, bundle.FileName), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := bundle.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

const shouter = `version: 1
name: shouter
description: Turns text into capital letters.
skills:
  - id: shout
    name: Shout
    description: Convert the given text to upper case letters.
    params: {type: object, properties: {text: {type: string}}, required: [text]}
    run: [python3, "{{repo}}/upper.py", "{{text}}"]
  - id: whisper
    name: ""
    description: Convert text to lower case.
    tags: [text]
    output_modes: [text/plain, application/json]
    run: [tr, A-Z, a-z]
`

func TestBuild(t *testing.T) {
	t.Parallel()
	b := loadBundle(t, strings.Replace(shouter, `name: ""`, `name: Whisper`, 1))
	card := Build(b, "http://127.0.0.1:8080/", WithVersion("2.0.0"))
	data, err := json.Marshal(card)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), "null") {
		t.Errorf("Build() card has a null: %s", data)
	}
	if ps := Validate(data); ps != nil {
		t.Errorf("Validate(Build()) = %v, want no problems", ps)
	}
	if !card.Capabilities.Streaming {
		t.Error("Build() card does not stream")
	}
	if got, want := card.Version, "2.0.0"; got != want {
		t.Errorf("Build().Version = %q, want %q", got, want)
	}
	var got []string
	for _, ai := range card.SupportedInterfaces {
		got = append(got, string(ai.ProtocolBinding)+" "+string(ai.ProtocolVersion))
	}
	if want := "JSONRPC 1.0, JSONRPC 0.3, HTTP+JSON 1.0, GRPC 1.0"; strings.Join(got, ", ") != want {
		t.Errorf("Build() interfaces = %s, want %s", strings.Join(got, ", "), want)
	}
	if got, want := strings.Join(card.DefaultOutputModes, ","), "text/plain,application/json"; got != want {
		t.Errorf("DefaultOutputModes = %q, want %q", got, want)
	}
	if card.Skills[0].Tags == nil {
		t.Error("skill tags are nil; they would encode as null")
	}
}

func TestValidateProblems(t *testing.T) {
	t.Parallel()
	base := func() map[string]any {
		return map[string]any{
			"name": "x", "description": "d", "version": "1",
			"supportedInterfaces": []any{map[string]any{"url": "http://127.0.0.1:9/", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}},
			"capabilities":        map[string]any{"streaming": true},
			"defaultInputModes":   []any{"text/plain"}, "defaultOutputModes": []any{"text/plain"},
			"skills": []any{map[string]any{"id": "a", "name": "A", "description": "d", "tags": []any{}}},
		}
	}
	tests := []struct {
		name   string
		mutate func(c map[string]any)
		want   []string
	}{
		{"clean", func(map[string]any) {}, nil},
		{"null list", func(c map[string]any) { c["skills"] = nil }, []string{"skills: got null, want array [schema]"}},
		{"missing required", func(c map[string]any) { delete(c, "name") }, []string{"missing property 'name' [schema]"}},
		{"unknown field", func(c map[string]any) { c["colour"] = "red" }, []string{"additional properties 'colour' not allowed [schema]"}},
		{"empty strings", func(c map[string]any) { c["version"] = " "; c["skills"].([]any)[0].(map[string]any)["name"] = "" },
			[]string{"version: empty string [lint]", "skills[0].name: empty string [lint]"}},
		{"duplicate skills", func(c map[string]any) { c["skills"] = append(c["skills"].([]any), c["skills"].([]any)[0]) },
			[]string{`skills[1].id: duplicate skill id "a" (also skills[0]) [lint]`}},
		{"bad modes", func(c map[string]any) { c["defaultInputModes"] = []any{"text"} }, []string{`defaultInputModes[0]: "text" is not a MIME type`}},
		{"unspecified address", func(c map[string]any) {
			c["supportedInterfaces"].([]any)[0].(map[string]any)["url"] = "http://0.0.0.0:8080/"
		}, []string{"supportedInterfaces[0].url: \"http://0.0.0.0:8080/\" names the unspecified address"}},
		{"container name", func(c map[string]any) { c["url"] = "http://textkit:8080/" }, []string{`url: "http://textkit:8080/" names the single-label host "textkit"`}},
		{"no interface", func(c map[string]any) { delete(c, "supportedInterfaces") }, []string{"supportedInterfaces: no interface"}},
		{"no skills", func(c map[string]any) { c["skills"] = []any{} }, []string{"skills: no skills"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := base()
			tc.mutate(c)
			data, _ := json.Marshal(c)
			ps := Validate(data)
			if tc.want == nil {
				if ps != nil {
					t.Fatalf("Validate() = %v, want none", ps)
				}
				return
			}
			got := ps.Error()
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("Validate() lacks %q; got:\n%s", w, got)
				}
			}
		})
	}
}

func TestValidateNotJSON(t *testing.T) {
	t.Parallel()
	if ps := Validate([]byte("<html>")); len(ps) != 1 || ps[0].Rule != "json" {
		t.Errorf("Validate(html) = %v, want one json problem", ps)
	}
}

func TestParseV03(t *testing.T) {
	t.Parallel()
	data := []byte(`{"name":"old","description":"d","version":"1","url":"http://127.0.0.1:9/rpc","protocolVersion":"0.3.0","preferredTransport":"JSONRPC",
	"capabilities":{},"defaultInputModes":["text/plain"],"defaultOutputModes":["text/plain"],"skills":[{"id":"a","name":"A","description":"d","tags":[]}]}`)
	if ps := Validate(data); ps != nil {
		t.Errorf("Validate(0.3 card) = %v, want none", ps)
	}
	card, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	want := a2a.AgentInterface{URL: "http://127.0.0.1:9/rpc", ProtocolBinding: a2a.TransportProtocolJSONRPC, ProtocolVersion: "0.3.0"}
	if len(card.SupportedInterfaces) != 1 || *card.SupportedInterfaces[0] != want {
		t.Errorf("Parse().SupportedInterfaces = %+v, want [%+v]", card.SupportedInterfaces, want)
	}
}

func FuzzValidate(f *testing.F) {
	f.Add([]byte(`{"name":"x","skills":[{"id":"a"},{"id":"a"}],"url":"http://0.0.0.0/"}`))
	f.Add([]byte(`{"supportedInterfaces":[{"url":"::"}],"defaultInputModes":["/"]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		_ = Validate(data)
		_, _ = Parse(data)
	})
}

// A skill's input and output modes are what its parameters' roles and
// media types say when the bundle gives none: a PNG step can tell an image
// tool from a text tool by its card.
func TestBuildModesFromRoles(t *testing.T) {
	t.Parallel()
	b := loadBundle(t, `version: 1
name: imgkit
description: Image tools.
skills:
  - id: thumb
    name: Thumbnail
    description: Make a thumbnail of an image.
    params:
      type: object
      properties:
        image: {type: string, format: path, description: the PNG or JPEG image}
        out: {type: string, format: output-path, description: where to write the PNG thumbnail}
      required: [image]
    run: [thumb, "{{image}}", -o, "{{out}}"]
`)
	card := Build(b, "http://127.0.0.1:8080/")
	sk := card.Skills[0]
	if got, want := strings.Join(sk.InputModes, ","), "image/png,image/jpeg"; got != want {
		t.Errorf("InputModes = %q, want %q", got, want)
	}
	if got, want := strings.Join(sk.OutputModes, ","), "text/plain,image/png"; got != want {
		t.Errorf("OutputModes = %q, want %q", got, want)
	}
	data, _ := json.Marshal(card)
	if ps := Validate(data); ps != nil {
		t.Errorf("Validate = %v", ps)
	}
}
