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
	// A call that reaches for the network: the gate's inputs are files
	// and words, never an address, so the skill goes online by itself
	// (an online service's client), which this machine cannot serve.
	{lazyregexp.New(`Name or service not known|Temporary failure in name resolution|nodename nor servname provided|getaddrinfo (?:ENOTFOUND|EAI_AGAIN)|dial tcp: lookup \S+.*no such host|Network is unreachable`), "it needs the network, which this machine does not reach"},
	// Node.js loading its own code (a SyntaxError is no sign: JSON.parse
	// throws one for bad input).
	{lazyregexp.New(`(?m)(?:^|: )Error: Cannot find module `), "a module it loads is missing"},
}

// pythonBroken are the exceptions that end a Python traceback when the
// code that runs is broken rather than its input wrong: a module that does
// not import, a name that is not there, code that does not parse. A
// TypeError or AttributeError is broken code only when its message says so
// (pythonBrokenMessage): raised by a library handed a word where it wants
// a number, it is the input's fault.
var pythonBroken = map[string]string{
	"ModuleNotFoundError": "a module it imports is missing",
	"ImportError":         "a module it imports does not load",
	"NameError":           "it uses a name that does not exist",
	"SyntaxError":         "its code does not parse",
	"IndentationError":    "its code does not parse",
	"NotImplementedError": "it is not implemented",
}

// pythonBrokenMessage are the messages of a TypeError or AttributeError
// that say the code calls what is not there whatever the input: a call
// that does not fit the function's signature, an attribute missing from a
// module, a class or an object of the library's own (an object of a type
// the input could have been, str or int, says the input was wrong).
var pythonBrokenMessage = []struct {
	re   *lazyregexp.Regexp
	says string
}{
	{lazyregexp.New(`^TypeError: .*(?:missing \d+ required (?:positional|keyword-only) argument|got an unexpected keyword argument|takes (?:\d+|no) (?:positional )?arguments?(?: but \d+ (?:was|were) given)?|got multiple values for argument|object is not callable)`), "it calls a function with arguments it does not take"},
	{lazyregexp.New(`^AttributeError: (?:module|type object) '[^']+' has no attribute`), "it uses an attribute that does not exist"},
	{lazyregexp.New(`^AttributeError: '(?:[^']+)' object has no attribute`), "it uses an attribute that does not exist"},
}

// inputTypeRE is an attribute missing from a Python type that a value
// made of the call's input has: the input's fault.
var inputTypeRE = lazyregexp.New(`^AttributeError: '(?:str|int|float|bool|bytes|bytearray|list|dict|tuple|NoneType|_io\.\w+)' object has no attribute`)

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
	exc, line := pythonException(msg)
	if why, ok := pythonBroken[exc]; ok {
		return why
	}
	if inputTypeRE.MatchString(line) {
		return ""
	}
	for _, m := range pythonBrokenMessage {
		if m.re.MatchString(line) {
			return m.says
		}
	}
	return ""
}

// pythonException is the class of the exception that ends the last Python
// traceback in msg (without its module), and its line with the class so
// shortened; "" when msg holds no traceback.
func pythonException(msg string) (string, string) {
	i := strings.LastIndex(msg, "Traceback (most recent call last):")
	if i < 0 {
		return "", ""
	}
	for _, line := range strings.Split(msg[i:], "\n") {
		if line == "" || line[0] == ' ' || line[0] == '\t' || strings.HasPrefix(line, "Traceback") {
			continue
		}
		m := lastExceptionRE.FindStringSubmatch(line)
		if m == nil {
			return "", ""
		}
		exc := m[1]
		if j := strings.LastIndexByte(exc, '.'); j >= 0 {
			line = exc[j+1:] + strings.TrimPrefix(line, exc)
			exc = exc[j+1:]
		}
		return exc, line
	}
	return "", ""
}
