package host

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"

	"github.com/agentnet/agentnet/internal/llm"
)

// llmBinder binds by tool calling: the model is offered the chosen skill
// as one function whose parameters are the skill's JSON Schema and calls
// it with the arguments the message gives. Attached files, defaults and
// what the model left out are then bound as the rules binder does, and a
// file argument that names no attached file is dropped: files come from
// the message, never from the model.
type llmBinder struct {
	client *llm.Client
	log    *slog.Logger
	// args are arguments the model already gave when it chose the skill
	// (one call for both), or nil.
	args map[string]any
}

func (llmBinder) Name() string { return "llm" }

func (b llmBinder) Bind(ctx context.Context, c *BindCall) (*Binding, error) {
	if c.Direct {
		return rulesBinder{}.Bind(ctx, c) // arguments given as such: nothing to ask
	}
	args := b.args
	if args == nil {
		var err error
		if args, err = b.call(ctx, c); err != nil {
			b.log.Warn("LLM argument binding failed; binding by rules", "skill", c.Skill.ID, "err", err)
			return rulesBinder{}.Bind(ctx, c)
		}
	}
	for _, p := range c.Skill.ParamList() {
		if s, ok := args[p.Name].(string); ok && p.IsPath() && !contains(c.Files, s) {
			delete(args, p.Name)
		}
	}
	given := *c
	given.Args = args
	bound, err := rulesBinder{}.Bind(ctx, &given)
	if err != nil {
		return nil, err
	}
	for i, e := range bound.Trace {
		if e.Step == "given" {
			bound.Trace[i].Step, bound.Trace[i].From = "tool-call", "the model's call of "+toolName(c.Skill.ID)
		}
	}
	return bound, nil
}

// call asks the model for the skill's arguments.
func (b llmBinder) call(ctx context.Context, c *BindCall) (map[string]any, error) {
	sk := c.Skill
	name := toolName(sk.ID)
	var msg strings.Builder
	msg.WriteString(c.Instruction)
	if strings.TrimSpace(c.Content) != "" {
		fmt.Fprintf(&msg, "\n\nText to work on:\n%s", c.Content)
	}
	if len(c.Files) > 0 {
		fmt.Fprintf(&msg, "\n\nAttached files (pass these names to file parameters): %s", strings.Join(c.Files, ", "))
	}
	if len(c.Data) > 0 {
		d, _ := json.Marshal(c.Data)
		fmt.Fprintf(&msg, "\n\nStructured input: %s", d)
	}
	temp := 0.0
	resp, err := b.client.Chat(ctx, &llm.Request{
		Messages: []llm.Message{
			{Role: "system", Content: fmt.Sprintf("Call the function %s with the arguments the user's message gives. Leave out an argument the message does not give; never invent file names.", name)},
			{Role: "user", Content: msg.String()},
		},
		Tools:       []llm.Tool{llm.FunctionTool(name, sk.Name+": "+sk.Description, sk.ParamsSchema())},
		ToolChoice:  map[string]any{"type": "function", "function": map[string]any{"name": name}},
		Temperature: &temp,
	})
	if err != nil {
		return nil, err
	}
	if len(resp.Choices) == 0 || len(resp.Choices[0].Message.ToolCalls) == 0 {
		return nil, fmt.Errorf("the model called no function")
	}
	call := resp.Choices[0].Message.ToolCalls[0].Function
	if call.Name != name {
		return nil, fmt.Errorf("the model called %q, not %s", call.Name, name)
	}
	args := map[string]any{}
	if a := strings.TrimSpace(call.Arguments); a != "" {
		if err := json.Unmarshal([]byte(a), &args); err != nil {
			return nil, fmt.Errorf("the model's arguments are not a JSON object: %w", err)
		}
	}
	return args, nil
}

// binder returns the binder for a chosen skill: the model's when one is
// configured (reusing the arguments it gave with its choice), else the
// rules.
func (h *Host) binder(ch choice) Binder {
	if h.cfg.llm != nil {
		return llmBinder{client: h.cfg.llm, log: h.log, args: ch.args}
	}
	return rulesBinder{}
}
