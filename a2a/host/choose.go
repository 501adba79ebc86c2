package host

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agentnet/agentnet/bundle"
	"github.com/agentnet/agentnet/internal/bm25"
	"github.com/agentnet/agentnet/internal/lazyregexp"
	"github.com/agentnet/agentnet/internal/llm"
)

// SkillMetadataKeys are the message (or request) metadata keys that name the
// skill to run explicitly; the first present wins.
var SkillMetadataKeys = []string{"skill", "skill_id", "skillId"}

type choice struct {
	skill *bundle.Skill
	args  map[string]any // arguments the chooser filled (LLM), or nil
	by    string         // "explicit", "only", "llm", "bm25"
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
	// The instruction says which skill; content to work on (code, a
	// table) would only add noise.
	query := bm25.Query(req.words())
	if strings.TrimSpace(req.words()) == "" {
		query = bm25.Query(req.text)
	}
	if strings.TrimSpace(query) == "" {
		query = strings.Join(files, " ")
		for k := range req.data {
			query += " " + k
		}
	}
	best := bm25.New(docs).Rank(query)[0]
	return choice{skill: &skills[best.Doc], by: "bm25"}, nil
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
