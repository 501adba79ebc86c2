package host

import (
	"context"

	"github.com/agentnet/agentnet/bundle"
)

// bind runs the rules binder's steps for req without the final check for
// required parameters left unbound, so that tests see what was left.
func bind(sk *bundle.Skill, work string, req *request, saved []string, given map[string]any) (map[string]any, error) {
	b, err := rulesBinder{noMissing: true}.Bind(context.Background(), callOf(sk, work, req, saved, given))
	if err != nil {
		return nil, err
	}
	return b.Args, nil
}
