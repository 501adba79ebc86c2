package conformance

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"

	"github.com/agentnet/agentnet/cards"
	"github.com/agentnet/agentnet/internal/bm25"
)

// The card paths, relative to the audited URL.
const (
	cardPath   = ".well-known/agent-card.json"
	legacyPath = ".well-known/agent.json"
)

// discover fetches the card and runs the discovery checks. It returns the
// card's bytes, or nil when there is no card to audit.
func (r *run) discover(ctx context.Context) []byte {
	cardURL := r.base.JoinPath(cardPath).String()
	legacyURL := r.base.JoinPath(legacyPath).String()
	rep, err := r.c.do(ctx, http.MethodGet, cardURL, nil, map[string]string{"Accept": "application/json"})
	legacy, lerr := r.c.do(ctx, http.MethodGet, legacyURL, nil, map[string]string{"Accept": "application/json"})
	legacyOK := lerr == nil && legacy.Status == http.StatusOK && json.Valid(legacy.Body)

	switch {
	case legacyOK:
		r.pass(CardLegacyPath, "")
	case lerr != nil:
		r.fail(CardLegacyPath, "", "%v", lerr)
	default:
		r.fail(CardLegacyPath, "", "GET %s: HTTP %d", legacyURL, legacy.Status)
	}

	fetched := err == nil && rep.Status == http.StatusOK
	switch {
	case fetched:
		r.pass(CardFetch, "")
	case err != nil && legacyOK:
		r.fail(CardFetch, "", "%v; only the legacy path %s serves a card", err, legacyPath)
	case err != nil:
		r.fail(CardFetch, "", "%v", err)
	case legacyOK:
		r.fail(CardFetch, "", "GET %s: HTTP %d; only the legacy path %s serves a card", cardURL, rep.Status, legacyPath)
	default:
		r.fail(CardFetch, "", "GET %s: HTTP %d", cardURL, rep.Status)
	}
	if !fetched {
		if !legacyOK {
			return nil
		}
		rep = legacy // audit the legacy card rather than nothing
	}

	if mt := rep.mediaType(); mt == "application/json" {
		r.pass(CardContentType, "")
	} else {
		r.fail(CardContentType, "", "served with Content-Type %q, want application/json", rep.ContentType)
	}
	var obj map[string]any
	if err := json.Unmarshal(rep.Body, &obj); err != nil || obj == nil {
		if err == nil {
			err = fmt.Errorf("got %s", jsonKind(rep.Body))
		}
		r.fail(CardJSON, "", "not a JSON object: %v", err)
		return nil
	}
	r.pass(CardJSON, "")
	r.cardObj = obj
	return rep.Body
}

func jsonKind(data []byte) string {
	var v any
	if json.Unmarshal(data, &v) != nil {
		return "invalid JSON"
	}
	switch v.(type) {
	case nil:
		return "null"
	case []any:
		return "an array"
	case string:
		return "a string"
	case float64:
		return "a number"
	case bool:
		return "a boolean"
	}
	return "an object"
}

// cardVersion is the protocol version whose schema the card is checked
// against: 1.0 when it lists supportedInterfaces, else its 0.3
// protocolVersion (0.3 when absent).
func cardVersion(card map[string]any) string {
	if l, ok := card["supportedInterfaces"].([]any); ok && len(l) > 0 {
		return "1.0"
	}
	if v, ok := card["protocolVersion"].(string); ok && v != "" {
		return v
	}
	return "0.3"
}

// checkCard runs the schema and lint checks over a card's JSON. The cards
// package finds the problems; each is charged to exactly one check.
func (r *run) checkCard(data []byte) {
	card := r.cardObj
	ver := cardVersion(card)
	found := map[string][]string{}
	add := func(id, msg string) { found[id] = append(found[id], msg) }

	for _, p := range cards.Validate(data) {
		switch p.Rule {
		case "schema", "json":
			if v, present := lookupPath(card, p.Field); present && v == nil {
				add(CardNullLists, fmt.Sprintf("%s is null", p.Field))
			} else {
				add(CardSchema, p.String())
			}
		default:
			add(classifyLint(p), p.String())
		}
	}
	if !strings.HasPrefix(ver, "1.") {
		// A 0.3 card says where to call the agent in url.
		if _, ok := card["url"].(string); !ok {
			add(CardSchema, "url: missing (an A2A 0.3 card without supportedInterfaces needs url) [schema]")
		}
	}
	lintVersions(card, add)
	lintTagsExamples(card, add)
	lintTransport(card, add)
	lintDescriptions(card, add)

	for _, id := range []string{CardSchema, CardNullLists, LintRequiredStrings, LintProtocolVersion, LintMIMEModes, LintSkills,
		LintUniqueSkillIDs, LintTagsExamples, LintReachableURL, LintTransport, LintGenericDescription, LintSkillDescription, LintOther} {
		msgs := found[id]
		if len(msgs) == 0 {
			r.pass(id, "")
			continue
		}
		reason := msgs[0]
		if id == CardSchema {
			reason = fmt.Sprintf("A2A %s schema: %s", ver, reason)
		}
		if len(msgs) > 1 {
			reason += fmt.Sprintf(" (and %d more)", len(msgs)-1)
		}
		r.fail(id, "", "%s", reason)
	}
}

// classifyLint charges a lint problem of the cards package to one check.
func classifyLint(p cards.Problem) string {
	f, m := p.Field, p.Msg
	switch {
	case strings.HasPrefix(m, "empty string") && (strings.Contains(f, ".tags[") || strings.Contains(f, ".examples[")):
		return LintTagsExamples
	case strings.HasPrefix(m, "empty string"):
		return LintRequiredStrings
	case strings.Contains(m, "is not a MIME type"):
		return LintMIMEModes
	case strings.HasPrefix(m, "no interface"):
		return CardSchema
	case strings.HasPrefix(m, "no skills"):
		return LintSkills
	case strings.HasPrefix(m, "duplicate skill id"):
		return LintUniqueSkillIDs
	case f == "url" || strings.HasSuffix(f, ".url"):
		return LintReachableURL
	}
	return LintOther
}

var fieldStep = regexp.MustCompile(`^([^\[\]]*)((?:\[\d+\])*)$`)

// lookupPath finds the value at a field path such as "skills[1].tags" in a
// decoded card; present is false when some step is missing.
func lookupPath(v any, path string) (val any, present bool) {
	if path == "" {
		return v, true
	}
	for _, step := range strings.Split(path, ".") {
		m := fieldStep.FindStringSubmatch(step)
		if m == nil {
			return nil, false
		}
		if m[1] != "" {
			obj, ok := v.(map[string]any)
			if !ok {
				return nil, false
			}
			if v, ok = obj[m[1]]; !ok {
				return nil, false
			}
		}
		for _, idx := range regexp.MustCompile(`\d+`).FindAllString(m[2], -1) {
			list, ok := v.([]any)
			var i int
			fmt.Sscan(idx, &i)
			if !ok || i >= len(list) {
				return nil, false
			}
			v = list[i]
		}
	}
	return v, true
}

var versionRE = regexp.MustCompile(`^\d+\.\d+(\.\d+)?$`)

func lintVersions(card map[string]any, add func(id, msg string)) {
	check := func(field string, v any) {
		s, ok := v.(string)
		if ok && s != "" && !versionRE.MatchString(s) {
			add(LintProtocolVersion, fmt.Sprintf("%s: %q is not MAJOR.MINOR", field, s))
		}
	}
	if v, ok := card["protocolVersion"]; ok {
		check("protocolVersion", v)
	}
	for i, it := range listAt(card, "supportedInterfaces") {
		if obj, ok := it.(map[string]any); ok {
			check(fmt.Sprintf("supportedInterfaces[%d].protocolVersion", i), obj["protocolVersion"])
		}
	}
}

func listAt(obj map[string]any, key string) []any {
	l, _ := obj[key].([]any)
	return l
}

func skillsOf(card map[string]any) []map[string]any {
	var out []map[string]any
	for _, s := range listAt(card, "skills") {
		if m, ok := s.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

func lintTagsExamples(card map[string]any, add func(id, msg string)) {
	for i, sk := range skillsOf(card) {
		if len(listAt(sk, "tags")) == 0 {
			add(LintTagsExamples, fmt.Sprintf("skills[%d].tags: no tags", i))
		}
		if len(listAt(sk, "examples")) == 0 {
			add(LintTagsExamples, fmt.Sprintf("skills[%d].examples: no examples", i))
		}
	}
}

var knownBindings = map[string]bool{"JSONRPC": true, "GRPC": true, "HTTP+JSON": true}

func lintTransport(card map[string]any, add func(id, msg string)) {
	type pair struct{ url, binding string }
	var declared []pair
	for i, it := range listAt(card, "supportedInterfaces") {
		obj, ok := it.(map[string]any)
		if !ok {
			continue
		}
		b, _ := obj["protocolBinding"].(string)
		u, _ := obj["url"].(string)
		if b != "" && !knownBindings[b] {
			add(LintTransport, fmt.Sprintf("supportedInterfaces[%d].protocolBinding: unknown binding %q (want JSONRPC, GRPC or HTTP+JSON)", i, b))
		}
		declared = append(declared, pair{u, b})
	}
	for i, it := range listAt(card, "additionalInterfaces") {
		obj, ok := it.(map[string]any)
		if !ok {
			continue
		}
		t, _ := obj["transport"].(string)
		u, _ := obj["url"].(string)
		if t != "" && !knownBindings[t] {
			add(LintTransport, fmt.Sprintf("additionalInterfaces[%d].transport: unknown transport %q", i, t))
		}
		declared = append(declared, pair{u, t})
	}
	u, hasURL := card["url"].(string)
	pt, hasPT := card["preferredTransport"].(string)
	if hasPT && !knownBindings[pt] {
		add(LintTransport, fmt.Sprintf("preferredTransport: unknown transport %q", pt))
		return
	}
	if !hasURL || len(declared) == 0 {
		return
	}
	if !hasPT {
		pt = "JSONRPC" // the 0.3 default
	}
	for _, d := range declared {
		if d.url == u && d.binding == pt {
			return
		}
	}
	add(LintTransport, fmt.Sprintf("url %s with preferredTransport %s matches none of the declared interfaces", u, pt))
}

// genericDescriptions are descriptions that tell a router nothing.
var genericDescriptions = map[string]bool{}

func init() {
	for _, s := range []string{
		"generic software agent", "software agent", "generic agent", "agent", "an agent", "a2a agent", "an a2a agent",
		"ai agent", "an ai agent", "assistant", "an assistant", "a helpful assistant", "helpful assistant",
		"a helpful agent", "todo", "tbd", "description", "n/a", "none", "test", "test agent", "my agent", "skill", "a skill",
	} {
		genericDescriptions[s] = true
	}
}

func isGeneric(desc, name string) bool {
	d := strings.ToLower(strings.Trim(strings.TrimSpace(desc), ".!"))
	if d == "" {
		return false // lint.required-strings reports it
	}
	return genericDescriptions[d] || strings.EqualFold(d, strings.TrimSpace(name)) || len(bm25.Tokenize(d)) < 2
}

// minSkillWords is the fewest words a skill description needs to route on.
const minSkillWords = 5

func lintDescriptions(card map[string]any, add func(id, msg string)) {
	name, _ := card["name"].(string)
	if d, ok := card["description"].(string); ok && isGeneric(d, name) {
		add(LintGenericDescription, fmt.Sprintf("description: %q says nothing about what this agent does", d))
	}
	for i, sk := range skillsOf(card) {
		d, _ := sk["description"].(string)
		sn, _ := sk["name"].(string)
		if isGeneric(d, sn) {
			add(LintGenericDescription, fmt.Sprintf("skills[%d].description: %q is generic", i, d))
			continue
		}
		if n := len(strings.Fields(d)); d != "" && n < minSkillWords {
			add(LintSkillDescription, fmt.Sprintf("skills[%d].description: %q has %d words, too few to route on (want %d or more)", i, d, n, minSkillWords))
		}
	}
}
