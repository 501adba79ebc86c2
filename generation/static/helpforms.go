package static

import (
	"strings"

	"github.com/agentnet/agentnet/internal/lazyregexp"
)

// commandWordRE is a literal subcommand word of a usage form: lower-case,
// not a placeholder.
var commandWordRE = lazyregexp.New(`^[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*$`)

// formSubs reads usage forms that differ by a literal word after the
// program's name — docopt's "clipper cut <video> <start> <end>" and
// "clipper frames <video> [--every=<s>]" — as subcommands, each with the
// operands and options of its own forms. It reports whether it made any;
// the program itself then takes none of those operands.
func formSubs(c *Command, forms []string) bool {
	groups := map[string][]string{}
	var order []string
	prog := ""
	for _, form := range forms {
		fs := strings.Fields(form)
		if len(fs) < 2 {
			continue
		}
		if prog == "" {
			prog = fs[0]
		}
		if fs[0] != prog || !commandWordRE.MatchString(fs[1]) {
			continue
		}
		if _, ok := groups[fs[1]]; !ok {
			order = append(order, fs[1])
		}
		groups[fs[1]] = append(groups[fs[1]], form)
	}
	if len(order) < 2 {
		return false
	}
	for _, name := range order {
		if c.find(name) != nil {
			continue
		}
		sub := &Command{Name: name, Usage: groups[name][0]}
		for _, form := range groups[name] {
			synopsisFlags(sub, form)
		}
		for i, f := range sub.Flags {
			// The options list describes them better than the usage.
			if full := c.flag(f.Long, f.Short); full != nil {
				sub.Flags[i] = full
			}
		}
		usageArgs(sub, groups[name])
		sub.Hidden = isHiddenCommand(name)
		c.Subs = append(c.Subs, sub)
	}
	return true
}
