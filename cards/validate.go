package cards

import (
	"encoding/json"
	"fmt"
	"mime"
	"net"
	"net/url"
	"strings"
	"sync"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/invopop/jsonschema"
	orderedmap "github.com/pb33f/ordered-map/v2"

	"github.com/agentnet/agentnet/internal/schemax"
)

// Problem is one thing wrong with a card.
type Problem struct {
	// Field is the path of the offending value ("skills[1].id"); empty for
	// the card as a whole.
	Field string `json:"field"`
	// Rule is "json", "schema" or "lint".
	Rule string `json:"rule"`
	Msg  string `json:"message"`
}

func (p Problem) String() string {
	f := p.Field
	if f == "" {
		f = "card"
	}
	return fmt.Sprintf("%s: %s [%s]", f, p.Msg, p.Rule)
}

// Problems is a list of problems; as an error it prints one per line.
type Problems []Problem

func (ps Problems) Error() string {
	lines := make([]string, len(ps))
	for i, p := range ps {
		lines[i] = p.String()
	}
	return strings.Join(lines, "\n")
}

// The fields an A2A 0.3 card carries that 1.0 dropped; hosts that answer both
// versions serve them next to the 1.0 fields, so the schema admits them.
var v03CardFields = map[string]*jsonschema.Schema{
	"url":                               {Type: "string", Description: "A2A 0.3: the preferred interface's URL."},
	"protocolVersion":                   {Type: "string", Description: "A2A 0.3: the protocol version of url."},
	"preferredTransport":                {Type: "string", Description: "A2A 0.3: the transport of url."},
	"additionalInterfaces":              {Type: "array", Items: &jsonschema.Schema{Type: "object", Properties: props(map[string]*jsonschema.Schema{"url": {Type: "string"}, "transport": {Type: "string"}}), Required: []string{"url", "transport"}}},
	"security":                          {Type: "array", Items: &jsonschema.Schema{Type: "object"}},
	"supportsAuthenticatedExtendedCard": {Type: "boolean"},
}

func props(m map[string]*jsonschema.Schema) *orderedmap.OrderedMap[string, *jsonschema.Schema] {
	p := jsonschema.NewProperties()
	for k, v := range m {
		p.Set(k, v)
	}
	return p
}

// Schema returns the JSON Schema of an agent card, generated from a2a-go's
// a2a.AgentCard type: every field a2a-go always writes is required, no
// unknown field is allowed, and a list is never null. It admits the 0.3
// fields a dual-version card carries, and supportedInterfaces may be missing
// from a 0.3-only card that has url (the lint rules insist on one of them).
func Schema() *jsonschema.Schema {
	r := &jsonschema.Reflector{}
	s := r.Reflect(&a2a.AgentCard{})
	s.ID = "https://agentnet.dev/schema/agent-card.json"
	s.Title = "A2A agent card"
	if c := s.Definitions["AgentCard"]; c != nil {
		for k, v := range v03CardFields {
			c.Properties.Set(k, v)
		}
		c.Required = without(c.Required, "supportedInterfaces")
	}
	if caps := s.Definitions["AgentCapabilities"]; caps != nil {
		// A2A 0.3 capability that 1.0 dropped; 0.3 SDKs serve it.
		caps.Properties.Set("stateTransitionHistory", &jsonschema.Schema{Type: "boolean"})
	}
	if sk := s.Definitions["AgentSkill"]; sk != nil {
		sk.Properties.Set("security", &jsonschema.Schema{Type: "array", Items: &jsonschema.Schema{Type: "object"}})
	}
	return s
}

func without(list []string, x string) []string {
	var out []string
	for _, s := range list {
		if s != x {
			out = append(out, s)
		}
	}
	return out
}

var compiled = sync.OnceValues(func() (*schemax.Schema, error) { return schemax.Compile(Schema()) })

// Validate checks a card's JSON strictly — the generated schema, then the lint
// rules — and returns every problem, or nil for a clean card. It is safe for
// concurrent use.
func Validate(data []byte) Problems {
	var raw any
	if err := json.Unmarshal(data, &raw); err != nil {
		return Problems{{Rule: "json", Msg: fmt.Sprintf("not valid JSON: %v", err)}}
	}
	sch, err := compiled()
	if err != nil {
		panic(fmt.Sprintf("cards: the card schema does not compile: %v", err)) // static types
	}
	var out Problems
	for _, is := range sch.ValidateJSON(data) {
		out = append(out, Problem{Field: is.Path, Rule: "schema", Msg: is.Msg})
	}
	obj, ok := raw.(map[string]any)
	if !ok {
		return out
	}
	return append(out, lint(obj)...)
}

// ValidateCard validates a card value as it would be served.
func ValidateCard(card *a2a.AgentCard) Problems {
	data, err := json.Marshal(card)
	if err != nil {
		return Problems{{Rule: "json", Msg: fmt.Sprintf("cannot encode: %v", err)}}
	}
	return Validate(data)
}

// Parse decodes a card served by an A2A 1.0 or 0.3 agent. A 0.3-only card's
// url, preferredTransport and additionalInterfaces become supportedInterfaces.
func Parse(data []byte) (*a2a.AgentCard, error) {
	var card a2a.AgentCard
	if err := json.Unmarshal(data, &card); err != nil {
		return nil, fmt.Errorf("parse card: %w", err)
	}
	if len(card.SupportedInterfaces) == 0 {
		var old struct {
			URL                  string `json:"url"`
			ProtocolVersion      string `json:"protocolVersion"`
			PreferredTransport   string `json:"preferredTransport"`
			AdditionalInterfaces []struct {
				URL       string `json:"url"`
				Transport string `json:"transport"`
			} `json:"additionalInterfaces"`
		}
		if err := json.Unmarshal(data, &old); err != nil {
			return nil, fmt.Errorf("parse card: %w", err)
		}
		ver := a2a.ProtocolVersion(old.ProtocolVersion)
		if ver == "" {
			ver = V03
		}
		tr := a2a.TransportProtocol(old.PreferredTransport)
		if tr == "" {
			tr = a2a.TransportProtocolJSONRPC
		}
		if old.URL != "" {
			card.SupportedInterfaces = append(card.SupportedInterfaces, &a2a.AgentInterface{URL: old.URL, ProtocolBinding: tr, ProtocolVersion: ver})
		}
		for _, ai := range old.AdditionalInterfaces {
			if ai.URL != old.URL || a2a.TransportProtocol(ai.Transport) != tr {
				card.SupportedInterfaces = append(card.SupportedInterfaces, &a2a.AgentInterface{URL: ai.URL, ProtocolBinding: a2a.TransportProtocol(ai.Transport), ProtocolVersion: ver})
			}
		}
	}
	return &card, nil
}

type linter struct{ out Problems }

func (l *linter) errf(field, format string, args ...any) {
	l.out = append(l.out, Problem{Field: field, Rule: "lint", Msg: fmt.Sprintf(format, args...)})
}

// nonEmpty flags a string field that is present but blank (absence is the
// schema's business).
func (l *linter) nonEmpty(obj map[string]any, key, field string) {
	if s, ok := obj[key].(string); ok && strings.TrimSpace(s) == "" {
		l.errf(field, "empty string")
	}
}

func (l *linter) strings(obj map[string]any, key, field string, check func(string, string)) {
	list, _ := obj[key].([]any)
	for i, v := range list {
		s, ok := v.(string)
		f := fmt.Sprintf("%s[%d]", field, i)
		if ok && strings.TrimSpace(s) == "" {
			l.errf(f, "empty string")
			continue
		}
		if ok && check != nil {
			check(f, s)
		}
	}
}

func (l *linter) mediaType(field, m string) {
	mt, _, err := mime.ParseMediaType(m)
	if err != nil || strings.Count(mt, "/") != 1 || strings.HasPrefix(mt, "/") || strings.HasSuffix(mt, "/") {
		l.errf(field, "%q is not a MIME type (want type/subtype, e.g. text/plain)", m)
	}
}

func lint(card map[string]any) Problems {
	l := &linter{}
	for _, k := range []string{"name", "description", "version"} {
		l.nonEmpty(card, k, k)
	}
	l.strings(card, "defaultInputModes", "defaultInputModes", l.mediaType)
	l.strings(card, "defaultOutputModes", "defaultOutputModes", l.mediaType)

	ifaces, _ := card["supportedInterfaces"].([]any)
	legacyURL, hasLegacy := card["url"].(string)
	if len(ifaces) == 0 && !hasLegacy {
		l.errf("supportedInterfaces", "no interface: neither supportedInterfaces (A2A 1.0) nor url (A2A 0.3) says where to call the agent")
	}
	for i, v := range ifaces {
		f := fmt.Sprintf("supportedInterfaces[%d]", i)
		iface, ok := v.(map[string]any)
		if !ok {
			continue
		}
		for _, k := range []string{"url", "protocolBinding", "protocolVersion"} {
			l.nonEmpty(iface, k, f+"."+k)
		}
		if u, ok := iface["url"].(string); ok && strings.TrimSpace(u) != "" {
			if msg := CheckURL(u); msg != "" {
				l.errf(f+".url", "%s", msg)
			}
		}
	}
	if hasLegacy {
		if msg := CheckURL(legacyURL); msg != "" {
			l.errf("url", "%s", msg)
		}
	}
	if p, ok := card["provider"].(map[string]any); ok {
		l.nonEmpty(p, "organization", "provider.organization")
		l.nonEmpty(p, "url", "provider.url")
	}

	skills, isList := card["skills"].([]any)
	if isList && len(skills) == 0 {
		l.errf("skills", "no skills: nothing tells a caller or a router what this agent does")
	}
	seen := map[string]string{}
	for i, v := range skills {
		f := fmt.Sprintf("skills[%d]", i)
		sk, ok := v.(map[string]any)
		if !ok {
			continue
		}
		for _, k := range []string{"id", "name", "description"} {
			l.nonEmpty(sk, k, f+"."+k)
		}
		if id, ok := sk["id"].(string); ok && id != "" {
			if prev, dup := seen[id]; dup {
				l.errf(f+".id", "duplicate skill id %q (also %s)", id, prev)
			} else {
				seen[id] = f
			}
		}
		l.strings(sk, "tags", f+".tags", nil)
		l.strings(sk, "examples", f+".examples", nil)
		l.strings(sk, "inputModes", f+".inputModes", l.mediaType)
		l.strings(sk, "outputModes", f+".outputModes", l.mediaType)
	}
	return l.out
}

// CheckURL returns why a card URL is one a caller cannot reach — not an
// absolute http(s) URL, an unspecified address (0.0.0.0, ::), or a
// single-label host name such as a container or compose service name — or ""
// when it looks reachable.
func CheckURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Sprintf("%q is not a URL: %v", raw, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return fmt.Sprintf("%q is not an http(s) URL", raw)
	}
	host := u.Hostname()
	if host == "" {
		return fmt.Sprintf("%q has no host", raw)
	}
	if ip := net.ParseIP(host); ip != nil {
		if ip.IsUnspecified() {
			return fmt.Sprintf("%q names the unspecified address %s, which no caller can reach; advertise the address callers use", raw, host)
		}
		return ""
	}
	if !strings.Contains(host, ".") && !strings.EqualFold(host, "localhost") {
		return fmt.Sprintf("%q names the single-label host %q (a container or service name?) that callers outside its network cannot resolve", raw, host)
	}
	return ""
}
