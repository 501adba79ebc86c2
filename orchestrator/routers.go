package orchestrator

// The built-in routers, linked here.
func init() {
	RegisterRouter("bm25", func(RouterConfig) (Router, error) { return NewBM25(), nil })
	RegisterRouter("llm", newLLMFromConfig)
	RegisterRouter("a2a", newRemoteFromConfig)
}
