package generation

import "errors"

// The built-in generators.
func init() {
	RegisterGenerator("static", func(*Config) (Generator, error) { return NewStatic(), nil })
	RegisterGenerator("llm", func(cfg *Config) (Generator, error) {
		if cfg.LLM == nil {
			return nil, errors.New("the llm generator needs an LLM endpoint (AGENTNET_LLM_BASE_URL, AGENTNET_LLM_MODEL)")
		}
		return NewLLM(*cfg.LLM, cfg.Repairs), nil
	})
	RegisterGenerator("command", func(cfg *Config) (Generator, error) {
		if cfg.BuilderCmd == "" {
			return nil, errors.New("the command generator needs a builder command (--builder-cmd)")
		}
		return NewCommand(cfg.BuilderCmd, cfg.Upstreams, InSandbox(cfg.Sandbox))
	})
}
