package static

import (
	"maps"
	"slices"
	"strings"

	"github.com/agentnet/agentnet/bundle"
)

// A program whose usage lists several forms, each opened by its own
// switch ("tool [--encrypt] -r KEY [INPUT]", "tool --decrypt -i FILE
// [INPUT]"), does one thing per form: each becomes a skill of its own,
// with the switch set, described by the switch's help. A router can then
// tell encrypting from decrypting, which one skill with two switches hides.

// usageModes returns the switches that open two or more of c's usage
// forms, in the order of the forms; nil when fewer than two do.
func usageModes(c *Command) []*Flag {
	var modes []*Flag
	for _, form := range c.Forms {
		fields := strings.Fields(form)
		if len(fields) < 2 {
			continue
		}
		tok := strings.Trim(fields[1], "[]")
		for _, f := range c.Flags {
			if f.Type != "boolean" || f.Metavar != "" {
				continue
			}
			if (f.Long != "" && tok == "--"+f.Long) || (f.Short != "" && tok == "-"+f.Short) || (f.Long != "" && f.Dashes == "-" && tok == "-"+f.Long) {
				if !slices.Contains(modes, f) {
					modes = append(modes, f)
				}
				break
			}
		}
	}
	if len(modes) < 2 {
		return nil
	}
	return modes
}

// splitModes makes one skill of sk per mode switch: the switch set in its
// run template and gone from its parameters, the other modes' switches
// gone too, the switch's help first in its description. It returns sk
// alone when c has no modes or the template does not pass them.
func splitModes(sk bundle.Skill, c *Command) []bundle.Skill {
	modes := usageModes(c)
	if modes == nil {
		return []bundle.Skill{sk}
	}
	params := map[*Flag]string{}
	for _, f := range modes {
		name := switchParam(sk.Run, f)
		if name == "" {
			return []bundle.Skill{sk}
		}
		params[f] = name
	}
	var out []bundle.Skill
	for _, f := range modes {
		s := sk
		s.Run = nil
		for i := 0; i < len(sk.Run); i++ {
			el := sk.Run[i]
			if other := modeAt(sk.Run, i, params); other != nil {
				if other == f {
					s.Run = append(s.Run, el) // the switch, set
				}
				i++ // its placeholder
				continue
			}
			s.Run = append(s.Run, el)
		}
		s.Params = withoutParams(sk.Params, params)
		word := f.Long
		if word == "" {
			word = f.Short
		}
		s.ID = sk.ID + "-" + word
		s.Name = sk.Name + " --" + word
		if f.Long == "" {
			s.Name = sk.Name + " -" + word
		}
		if h := firstSentences(f.Help, 1, 200); h != "" {
			s.Description = sentence(h) + " " + sk.Description
		}
		out = append(out, s)
	}
	return out
}

// switchParam is the parameter whose placeholder follows f's switch in a
// run template.
func switchParam(run bundle.Command, f *Flag) string {
	for i := 0; i+1 < len(run); i++ {
		if !isSwitch(run[i], f) {
			continue
		}
		if names := bundle.Placeholders(run[i+1]); len(names) == 1 && run[i+1] == "{{"+names[0]+"}}" {
			return names[0]
		}
	}
	return ""
}

// modeAt returns the mode switch at run[i] when its placeholder follows.
func modeAt(run bundle.Command, i int, params map[*Flag]string) *Flag {
	if i+1 >= len(run) {
		return nil
	}
	for f, name := range params {
		if isSwitch(run[i], f) && run[i+1] == "{{"+name+"}}" {
			return f
		}
	}
	return nil
}

func isSwitch(el string, f *Flag) bool {
	return f.Long != "" && (el == "--"+f.Long || el == f.Dashes+f.Long) || f.Short != "" && el == "-"+f.Short
}

// withoutParams is a copy of a params schema without the given parameters.
func withoutParams(schema map[string]any, drop map[*Flag]string) map[string]any {
	if schema == nil {
		return nil
	}
	out := maps.Clone(schema)
	props, _ := schema["properties"].(map[string]any)
	props = maps.Clone(props)
	gone := map[string]bool{}
	for _, name := range drop {
		delete(props, name)
		gone[name] = true
	}
	out["properties"] = props
	if req, ok := schema["required"].([]any); ok {
		out["required"] = slices.DeleteFunc(slices.Clone(req), func(v any) bool { s, _ := v.(string); return gone[s] })
	}
	return out
}
