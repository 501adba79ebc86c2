package generation

import (
	"strings"

	"github.com/agentnet/agentnet/internal/lazyregexp"
)

// A smoke call's failure says either that the skill's program cannot run
// at all (it does not start, its own code does not load, the wrapper calls
// what is not there) or that it ran and refused the small input it was
// given. Only the first drops a skill: a tool that answers "no such
// column" to a made-up table runs.
//
// cannotRun are the signatures of the first kind, as data: each is what
// a runtime or the host prints when the program itself is broken, never
// the program's own words about its input.
var cannotRun = []struct {
	re   *lazyregexp.Regexp
	says string
}{
	{lazyregexp.New(`could not start`), "the program could not start"},
	{lazyregexp.New(`exited with status 126\b`), "the program is not executable"},
	{lazyregexp.New(`exited with status 127\b`), "the program or one it runs was not found"},
	{lazyregexp.New(`(?i)exec format error`), "the program is not executable here"},
	{lazyregexp.New(`(?m)(?:: command not found|(?:^|: )(?:/bin/)?(?:ba|da)?sh: (?:\d+: )?[^\s:]+: not found)\s*$`), "a program it runs was not found"},
	{lazyregexp.New(`(?m)^/usr/bin/env: .*: No such file or directory`), "its interpreter was not found"},
	// Node.js loading its own code (a SyntaxError is no sign: JSON.parse
	// throws one for bad input).
	{lazyregexp.New(`(?m)(?:^|: )Error: Cannot find module `), "a module it loads is missing"},
}

// pythonBroken are the exceptions that end a Python traceback when the
// code that runs is broken rather than its input wrong: a module that does
// not import, a name or attribute that is not there, a call with the wrong
// arguments, code that does not parse.
var pythonBroken = map[string]string{
	"ModuleNotFoundError": "a module it imports is missing",
	"ImportError":         "a module it imports does not load",
	"AttributeError":      "it uses an attribute that does not exist",
	"NameError":           "it uses a name that does not exist",
	"TypeError":           "it calls a function with arguments it does not take",
	"SyntaxError":         "its code does not parse",
	"IndentationError":    "its code does not parse",
	"NotImplementedError": "it is not implemented",
}

// lastExceptionRE finds the exception line that ends a Python traceback.
var lastExceptionRE = lazyregexp.New(`(?m)^([A-Za-z_][\w.]*(?:Error|Exception|Exit)?)(?::.*)?$`)

// whyCannotRun returns why a smoke call's failure shows that the skill
// cannot run, or "" when the program ran and refused the input.
func whyCannotRun(msg string) string {
	for _, r := range cannotRun {
		if r.re.MatchString(msg) {
			return r.says
		}
	}
	if exc := pythonException(msg); exc != "" {
		if why, ok := pythonBroken[exc]; ok {
			return why
		}
	}
	return ""
}

// pythonException is the class of the exception that ends the last Python
// traceback in msg (without its module), or "".
func pythonException(msg string) string {
	i := strings.LastIndex(msg, "Traceback (most recent call last):")
	if i < 0 {
		return ""
	}
	rest := msg[i:]
	var last string
	for _, line := range strings.Split(rest, "\n") {
		if line == "" || line[0] == ' ' || line[0] == '\t' || strings.HasPrefix(line, "Traceback") {
			continue
		}
		if m := lastExceptionRE.FindStringSubmatch(line); m != nil {
			last = m[1]
			break
		}
	}
	if j := strings.LastIndexByte(last, '.'); j >= 0 {
		last = last[j+1:]
	}
	return last
}
