package host

import (
	"context"
	"encoding/json"
	"fmt"
	"mime"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agentnet/agentnet/bundle"
	"github.com/agentnet/agentnet/internal/bm25"
	"github.com/agentnet/agentnet/internal/lazyregexp"
	"github.com/agentnet/agentnet/internal/llm"
	"github.com/agentnet/agentnet/internal/vocab"
)

// SkillMetadataKeys are the message (or request) metadata keys that name the
// skill to run explicitly; the first present wins.
var SkillMetadataKeys = []string{"skill", "skill_id", "skillId"}

type choice struct {
	skill *bundle.Skill
	args  map[string]any // arguments the chooser filled (LLM), or nil
	by    string         // "explicit", "only", "llm", "bm25", "bm25+bind"
	// next are the other skills BM25 found as likely, best first: when
	// the chosen one's arguments cannot be bound from the message, the
	// first of them whose can is run instead (see bindFirst).
	next  []*bundle.Skill
	blind bool // BM25 found no word of the message in any skill
}

// choose picks the skill for a request: an explicit skill id wins; a bundle
// with one skill needs no choice; otherwise an LLM (when configured) or BM25
// over the skills' text ranks them against the message.
func (h *Host) choose(ctx context.Context, req *request, files []string) (choice, error) {
	skills := h.b.Skills
	if req.skill != "" {
		if sk := h.b.Skill(req.skill); sk != nil {
			return choice{skill: sk, by: "explicit"}, nil
		}
		ids := make([]string, len(skills))
		for i, s := range skills {
			ids[i] = s.ID
		}
		return choice{}, failf("unknown skill %q (this agent has: %s)", req.skill, strings.Join(ids, ", "))
	}
	if len(skills) == 1 {
		return choice{skill: &skills[0], by: "only"}, nil
	}
	if h.cfg.llm != nil {
		ch, err := h.chooseLLM(ctx, req, files)
		if err == nil {
			return ch, nil
		}
		h.log.Warn("LLM skill choice failed; falling back to BM25", "task", req.taskID, "err", err)
	}
	docs := make([]string, len(skills))
	for i, s := range skills {
		docs[i] = skillText(&s)
	}
	ranked := bm25.New(docs).Rank(skillQuery(req, files))
	ch := choice{skill: &skills[ranked[0].Doc], by: "bm25", blind: ranked[0].Score == 0}
	for _, r := range ranked[1:] {
		// With words in common, the others that share some; with none,
		// every skill, in the bundle's order.
		if r.Score > 0 || ranked[0].Score == 0 {
			ch.next = append(ch.next, &skills[r.Doc])
		}
	}
	return ch, nil
}

// skillQuery is what BM25 ranks the skills against: the instruction's
// words, less those in a clause after a negation ("without decrypting it,
// …" asks for no decryption) — content to work on (code, a table) would
// only add noise; failing words, the files' names and the data's keys.
func skillQuery(req *request, files []string) string {
	query := bm25.Query(unnegated(req.words()))
	if strings.TrimSpace(req.words()) == "" {
		query = bm25.Query(req.text)
	}
	if strings.TrimSpace(query) == "" {
		query = strings.Join(files, " ")
		for k := range req.data {
			query += " " + k
		}
	}
	return query
}

// bindFirst keeps the chosen skill when the message binds its arguments
// cleanly, else takes the first of the next likely skills whose arguments
// it does: a skill that needs two files when one came, whose required
// setting the message does not state, or that takes another kind of file,
// is not what the message asks for. When the instruction shares no word
// with any skill, one that works on the attached file (a required file
// parameter takes it) goes before one that merely may. When none binds
// cleanly the chosen one stays, to fail saying why.
func bindFirst(ch choice, skills []bundle.Skill, work string, req *request, saved []string) choice {
	if ch.by == "bm25" && len(saved) > 0 {
		// A skill that reads the whole instruction as its query over the
		// attached table does what it asks, whatever words it shares.
		if sk := understood(ch, skills, work, req, saved); sk == ch.skill {
			return ch
		} else if sk != nil {
			return choice{skill: sk, by: ch.by + "+query"}
		}
	}
	if len(ch.next) == 0 {
		return ch
	}
	want := 1
	if ch.blind {
		want = 2
	}
	all := append([]*bundle.Skill{ch.skill}, ch.next...)
	grades := make([]int, len(all))
	typed := make([]bool, len(all))
	for i, sk := range all {
		grades[i], typed[i] = bindGradeTyped(sk, work, req, saved)
	}
	if sk := dataFirst(all, grades, req.data); sk != nil && sk != ch.skill {
		return choice{skill: sk, by: ch.by + "+data"}
	}
	if grades[0] < want {
		if sk := typedFirst(all, grades, typed, want, skills, work, req, saved); sk != nil {
			return choice{skill: sk, by: ch.by + "+bind"}
		}
	}
	for g := want; g >= 1; g-- {
		for i, sk := range all {
			if grades[i] >= g {
				if i == 0 {
					return ch
				}
				return choice{skill: sk, by: ch.by + "+bind"}
			}
		}
	}
	return ch
}

// typedFirst is, when BM25's first skill does not take the message, the
// first other skill that does and whose file parameters name the attached
// files' media types (before one that takes any file): of those BM25
// ranked (all, their grades and typed), then of the rest of the bundle's
// skills — the type of what is attached says what a skill takes when the
// instruction's words miss its description. nil when none.
func typedFirst(all []*bundle.Skill, grades []int, typed []bool, want int, skills []bundle.Skill, work string, req *request, saved []string) *bundle.Skill {
	for i, sk := range all {
		if grades[i] >= want && typed[i] {
			return sk
		}
	}
	if len(saved) == 0 {
		return nil
	}
	for i := range skills {
		sk := &skills[i]
		if slices.Contains(all, sk) {
			continue
		}
		if g, ok := bindGradeTyped(sk, work, req, saved); g >= want && ok {
			return sk
		}
	}
	return nil
}

// dataFirst is, of the skills that bind cleanly (grades), the first whose
// parameters the data part's fields name the most of (dataParam), when
// that is more than the first clean one's: structured arguments say what
// the skill takes better than words the instruction shares with its
// description. nil when the data names no parameter of any.
func dataFirst(all []*bundle.Skill, grades []int, data map[string]any) *bundle.Skill {
	if len(data) == 0 {
		return nil
	}
	var best *bundle.Skill
	most, first := 0, -1
	for i, sk := range all {
		if grades[i] < 1 {
			continue
		}
		s := &bindState{BindCall: &BindCall{Skill: sk}, params: sk.ParamList(), declared: map[string]bundle.Param{}}
		for _, p := range s.params {
			s.declared[p.Name] = p
		}
		n := 0
		for k := range data {
			if dataParam(s, k) != "" {
				n++
			}
		}
		if first < 0 {
			first = n
		}
		if n > most {
			best, most = sk, n
		}
	}
	if most <= first {
		return nil
	}
	return best
}

// understood is the skill that reads the instruction as its query over
// the attached table (bindGrade gives it gradeUnderstood): of the skills
// that take a query, the chosen one and the likely ones first, the first
// whose card examples run it on a file of an attached file's kind where
// several do; nil when none does.
func understood(ch choice, skills []bundle.Skill, work string, req *request, saved []string) *bundle.Skill {
	order := append([]*bundle.Skill{ch.skill}, ch.next...)
	for i := range skills {
		if !slices.Contains(order, &skills[i]) {
			order = append(order, &skills[i])
		}
	}
	var first *bundle.Skill
	for _, sk := range order {
		if !slices.ContainsFunc(sk.ParamList(), func(p bundle.Param) bool { return p.Role == bundle.RoleQuery }) {
			continue
		}
		if bindGrade(sk, work, req, saved) != gradeUnderstood {
			continue
		}
		if examplesShowKind(sk, work, saved) {
			return sk
		}
		if first == nil {
			first = sk
		}
	}
	return first
}

// examplesShowKind reports whether sk's examples name the kind of one of
// the attached files: a file with its extension ("dogs.csv"), or its
// format ("import CSV or JSON data").
func examplesShowKind(sk *bundle.Skill, work string, files []string) bool {
	named := vocab.MediaTypes(strings.Join(sk.Examples, "\n"))
	for _, f := range files {
		mt, _, _ := mime.ParseMediaType(mediaTypeOfFile(f, filepath.Join(work, f)))
		if mt != "" && slices.Contains(named, mt) {
			return true
		}
	}
	return false
}

// gradeUnderstood is the bindGrade of a skill whose query the rules
// wrote from the instruction's words over the attached table, every
// attached file in a parameter that takes its type.
const gradeUnderstood = 3

// bindGrade says how well the rules bind sk's arguments from the message:
// 0 not cleanly (a required argument missing or invalid by the schema, an
// attached file unused or of a type its parameter does not take, the whole
// instruction in a parameter beside attached files); 1 cleanly; 2 cleanly
// with every attached file in a required parameter; gradeUnderstood.
func bindGrade(sk *bundle.Skill, work string, req *request, saved []string) int {
	g, _ := bindGradeTyped(sk, work, req, saved)
	return g
}

// bindGradeTyped is bindGrade, and whether every attached file went to a
// parameter that names the file's media type (rather than taking any file).
func bindGradeTyped(sk *bundle.Skill, work string, req *request, saved []string) (grade int, typed bool) {
	c := callOf(sk, work, req, saved, nil)
	c.trial = true
	b, err := rulesBinder{}.Bind(context.Background(), c)
	if err != nil || b.pasted && len(saved) > 0 || sk.Check(b.Args) != nil {
		return 0, false
	}
	grade, typed = 2, len(saved) > 0
	for _, f := range saved {
		full := filepath.Join(work, f)
		p, ok := paramOf(sk, b.Args, full)
		mt, _, _ := mime.ParseMediaType(mediaTypeOfFile(f, full)) // "text/csv; charset=utf-8"
		types := takes(sk, p)
		if !ok || !bundle.Accepts(types, mt) {
			return 0, false
		}
		typed = typed && len(types) > 0
		if !p.Required {
			grade = 1
		}
	}
	if slices.ContainsFunc(b.Trace, func(e Evidence) bool { return e.Step == "sql-from-words" }) {
		return gradeUnderstood, typed
	}
	return grade, typed
}

// takes are the media types file parameter p takes: those the bundle
// gives, else those its name and description name, else, for a skill's
// one input file, those the skill's description names for its input.
func takes(sk *bundle.Skill, p bundle.Param) []string {
	if len(p.Accepts) > 0 {
		return p.Accepts
	}
	if a := bundle.DeriveAccepts(p); len(a) > 0 {
		return a
	}
	inputs := 0
	for _, q := range sk.ParamList() {
		if q.Role == bundle.RoleInputFile {
			inputs++
		}
	}
	if inputs == 1 && p.Role == bundle.RoleInputFile {
		return bundle.SkillInputTypes(sk.Description, sk.Examples)
	}
	return nil
}

// paramOf is the parameter whose argument (or an item of it) is path.
func paramOf(sk *bundle.Skill, args map[string]any, path string) (bundle.Param, bool) {
	for _, p := range sk.ParamList() {
		if usesFile(map[string]any{p.Name: args[p.Name]}, path) {
			return p, true
		}
	}
	return bundle.Param{}, false
}

// usesFile reports whether an argument (or an item of one) is path.
func usesFile(args map[string]any, path string) bool {
	for _, v := range args {
		switch v := v.(type) {
		case string:
			if v == path {
				return true
			}
		case []any:
			for _, x := range v {
				if x == path {
					return true
				}
			}
		}
	}
	return false
}

// skillText is what BM25 ranks a skill by.
func skillText(s *bundle.Skill) string {
	return strings.Join([]string{s.ID, s.Name, s.Description, strings.Join(s.Tags, " "), strings.Join(s.Examples, " ")}, "\n")
}

var toolNameRE = lazyregexp.New(`[^A-Za-z0-9_-]`)

// toolName turns a skill id into a function name chat-completions accepts.
func toolName(id string) string {
	n := toolNameRE.ReplaceAllString(id, "_")
	if len(n) > 64 {
		n = n[:64]
	}
	return n
}

// chooseLLM asks the model to call the one skill function that does what
// the message asks, with its arguments.
func (h *Host) chooseLLM(ctx context.Context, req *request, files []string) (choice, error) {
	var tools []llm.Tool
	byName := map[string]*bundle.Skill{}
	for i := range h.b.Skills {
		s := &h.b.Skills[i]
		name := toolName(s.ID)
		byName[name] = s
		desc := s.Name + ": " + s.Description
		if len(s.Examples) > 0 {
			desc += " Examples: " + strings.Join(s.Examples, " | ")
		}
		tools = append(tools, llm.FunctionTool(name, desc, s.ParamsSchema()))
	}
	var b strings.Builder
	b.WriteString(req.text)
	if len(files) > 0 {
		fmt.Fprintf(&b, "\n\nAttached files (pass these names to file parameters): %s", strings.Join(files, ", "))
	}
	if len(req.data) > 0 {
		d, _ := json.Marshal(req.data)
		fmt.Fprintf(&b, "\n\nStructured input: %s", d)
	}
	temp := 0.0
	resp, err := h.cfg.llm.Chat(ctx, &llm.Request{
		Messages: []llm.Message{
			{Role: "system", Content: fmt.Sprintf("You are the dispatcher of the agent %q (%s). Call exactly one of its functions, the one that does what the user asks, with the arguments taken from the user's message.", h.b.Name, h.b.Description)},
			{Role: "user", Content: b.String()},
		},
		Tools:       tools,
		ToolChoice:  "required",
		Temperature: &temp,
	})
	if err != nil {
		return choice{}, err
	}
	calls := resp.Choices[0].Message.ToolCalls
	if len(calls) == 0 {
		return choice{}, fmt.Errorf("the model called no function")
	}
	sk := byName[calls[0].Function.Name]
	if sk == nil {
		return choice{}, fmt.Errorf("the model called an unknown function %q", calls[0].Function.Name)
	}
	var args map[string]any
	if a := strings.TrimSpace(calls[0].Function.Arguments); a != "" {
		if err := json.Unmarshal([]byte(a), &args); err != nil {
			return choice{}, fmt.Errorf("the model's arguments for %s are not a JSON object: %w", sk.ID, err)
		}
	}
	// A file argument the model made up (not an attached file) is dropped:
	// files come from the message, never from the model's imagination.
	for _, p := range sk.ParamList() {
		if s, ok := args[p.Name].(string); ok && p.IsPath() && !contains(files, s) {
			delete(args, p.Name)
		}
	}
	return choice{skill: sk, args: args, by: "llm"}, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
