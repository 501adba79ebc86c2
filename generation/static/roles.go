package static

import "github.com/agentnet/agentnet/bundle"

// writeRoles writes each parameter's role (x-role) and, for files, the
// media types it takes or writes (x-accepts) into the skills' params
// schemas, so that the host binds by what the generator knew rather than
// by guessing again. The mapping is bundle.DeriveRole and
// bundle.DeriveAccepts over the vocabulary of internal/vocab; a role the
// schema already declares is kept.
func writeRoles(b *bundle.Bundle) {
	for i := range b.Skills {
		sk := &b.Skills[i]
		props, _ := sk.Params["properties"].(map[string]any)
		for _, p := range sk.ParamList() {
			m, ok := props[p.Name].(map[string]any)
			if !ok || !p.RoleDerived {
				continue
			}
			m[bundle.KeyRole] = p.Role
			if len(p.Accepts) > 0 && (p.Role == bundle.RoleInputFile || p.Role == bundle.RoleOutput) {
				m[bundle.KeyAccepts] = toAny(p.Accepts)
			}
		}

	}
}

func toAny(list []string) []any {
	out := make([]any, len(list))
	for i, s := range list {
		out[i] = s
	}
	return out
}
