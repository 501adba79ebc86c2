// Package llm is a small client for OpenAI-compatible chat-completions
// endpoints (POST {base}/chat/completions), with tool calling and token
// metering. Every "llm" choice in agentnet (the host's skill picker, routers,
// judges, the generator) goes through it.
//
//	cfg, ok := llm.ConfigFrom(env.Getenv) // AGENTNET_LLM_BASE_URL, _API_KEY, _MODEL
//	if !ok { ... } // not configured: use the non-LLM default
//	c := llm.New(cfg)
//	resp, err := c.Chat(ctx, &llm.Request{
//		Messages: []llm.Message{{Role: "user", Content: "Shout hello"}},
//		Tools:    []llm.Tool{llm.FunctionTool("shout", "Upper-case text", schema)},
//		ToolChoice: "required",
//	})
//	call := resp.Choices[0].Message.ToolCalls[0] // call.Function.Name, call.Function.Arguments (JSON)
//	fmt.Println(c.Usage().TotalTokens)
//
// A Client is safe for concurrent use.
package llm
