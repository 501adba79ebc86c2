package static

import (
	"strings"

	"github.com/agentnet/agentnet/internal/lazyregexp"
)

// braceListRE finds a list of values in braces in an option's help, as
// argparse prints choices ("Type of output to generate {text,html,xml}."):
// two or more plain words, no spaces.
var braceListRE = lazyregexp.New(`\{([A-Za-z0-9][\w.-]*(?:,[A-Za-z0-9][\w.-]*)+)\}`)

// helpBraceChoices returns the values an option's help lists in braces
// when its program checks them itself and says so only in prose: the help
// holds one such list, and each value is a word (not a letter standing for
// a coordinate, as in "{x,y}").
func helpBraceChoices(help string) []string {
	all := braceListRE.FindAllStringSubmatch(help, -1)
	if len(all) != 1 {
		return nil
	}
	values := strings.Split(all[0][1], ",")
	for _, v := range values {
		if len(v) < 2 {
			return nil
		}
	}
	return values
}
