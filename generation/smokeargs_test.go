package generation

import (
	"reflect"
	"testing"

	"github.com/agentnet/agentnet/bundle"
)

// TestCallFromExample maps an example's command line onto the run
// template: subcommand words skipped, options by the flag before their
// placeholder, switches, "--opt=value", positional operands in order, and
// a file's kind from its extension; examples that name an option the
// template lacks or of another program give no call.
func TestCallFromExample(t *testing.T) {
	sk := &bundle.Skill{
		ID:  "resize",
		Run: bundle.Command{".agentnet/bin/imgkit", "resize", "--width", "{{width}}", "--json", "{{json}}", "--output={{output}}", "{{image}}"},
		Params: map[string]any{"type": "object", "required": []any{"image"}, "properties": map[string]any{
			"width":  map[string]any{"type": "integer"},
			"json":   map[string]any{"type": "boolean"},
			"output": map[string]any{"type": "string", "format": "output-path"},
			"image":  map[string]any{"type": "string", "format": "path"},
		}},
	}
	tests := []struct {
		ex   string
		args map[string]any
		kind string
	}{
		{"Run `imgkit resize --width 64 --json --output=small.png photo.jpg`",
			map[string]any{"width": 64.0, "json": true, "output": "small.png", "image": "photo.jpg"}, "image/jpeg"},
		{"Run `imgkit resize photo.gif`", map[string]any{"image": "photo.gif"}, "image/gif"},
		{"Run `imgkit resize --height 3 photo.gif`", nil, ""},
		{"Run `otherprog resize photo.gif`", nil, ""},
		{"Run `imgkit resize --width 64`", nil, ""},
		{"Run `imgkit resize a.png | cat`", nil, ""},
		{"Run `imgkit resize https://example.com/a.png`", nil, ""},
	}
	for _, tc := range tests {
		c, ok := callFromExample(sk, tc.ex, "")
		if tc.args == nil {
			if ok {
				t.Errorf("callFromExample(%q) = %v, want no call", tc.ex, c.args)
			}
			continue
		}
		if !ok || !reflect.DeepEqual(c.args, tc.args) {
			t.Errorf("callFromExample(%q) = %v, %v; want %v", tc.ex, c.args, ok, tc.args)
			continue
		}
		if len(c.files) != 1 || c.files[0].mediaType != tc.kind {
			t.Errorf("callFromExample(%q) files = %+v, want one %s", tc.ex, c.files, tc.kind)
		}
	}
}

// TestCallFromTypes gives every required parameter and the standard-input
// parameter a value of its type, and file parameters a sample of the kind
// their description names.
func TestCallFromTypes(t *testing.T) {
	sk := &bundle.Skill{
		Stdin: "{{data}}",
		Params: map[string]any{"type": "object", "required": []any{"mode", "count", "sheet", "out"}, "properties": map[string]any{
			"mode":  map[string]any{"type": "string", "enum": []any{"fast", "slow"}},
			"count": map[string]any{"type": "integer"},
			"sheet": map[string]any{"type": "string", "format": "path", "description": "A CSV file of rows."},
			"out":   map[string]any{"type": "string", "format": "output-path", "description": "The PDF to write."},
			"data":  map[string]any{"type": "string", "format": "path", "description": "JSON records."},
			"skip":  map[string]any{"type": "boolean"},
		}},
	}
	c := callFromTypes(sk)
	want := map[string]any{"mode": "fast", "count": 1, "sheet": "sheet.csv", "out": "out-out.pdf", "data": "data.json"}
	if !reflect.DeepEqual(c.args, want) {
		t.Errorf("args = %v, want %v", c.args, want)
	}
	kinds := map[string]string{}
	for _, f := range c.files {
		kinds[f.name] = f.mediaType
	}
	if want := map[string]string{"sheet.csv": "text/csv", "data.json": "application/json"}; !reflect.DeepEqual(kinds, want) {
		t.Errorf("files = %v, want %v", kinds, want)
	}
}

// TestCallFromTypesOptionalInput gives a skill whose input file is
// optional (standard input otherwise) that file.
func TestCallFromTypesOptionalInput(t *testing.T) {
	sk := &bundle.Skill{Params: map[string]any{"type": "object", "properties": map[string]any{
		"input":  map[string]any{"type": "string", "format": "path"},
		"output": map[string]any{"type": "string", "format": "output-path"},
		"armor":  map[string]any{"type": "boolean"},
	}}}
	c := callFromTypes(sk)
	if want := map[string]any{"input": "input.txt"}; !reflect.DeepEqual(c.args, want) || len(c.files) != 1 {
		t.Errorf("args = %v, files %d; want %v and one file", c.args, len(c.files), want)
	}
}

// TestWhyCannotRun tells a program that cannot run from one that refused
// its input.
func TestWhyCannotRun(t *testing.T) {
	tests := []struct{ msg, want string }{
		{`skill "x" could not start: exec: "nope": executable file not found in $PATH`, "the program could not start"},
		{`skill "x" exited with status 127: /usr/bin/env: 'python': No such file or directory`, "the program or one it runs was not found"},
		{"skill \"x\" exited with status 1: Traceback (most recent call last):\n  File \"w.py\", line 3, in <module>\n    import lib\nModuleNotFoundError: No module named 'lib'", "a module it imports is missing"},
		{"skill \"x\" exited with status 1: Traceback (most recent call last):\n  File \"w.py\", line 9, in main\n    print(obj.km)\nAttributeError: 'Point' object has no attribute 'km'", "it uses an attribute that does not exist"},
		{"skill \"x\" exited with status 1: Traceback (most recent call last):\n  File \"t.py\", line 9, in main\n    int(s)\nValueError: invalid literal for int() with base 10: 'example'", ""},
		{"skill \"x\" exited with status 1: Traceback (most recent call last):\n  File \"lib/distance.py\", line 273, in __init__\n    km += args[0]\nTypeError: unsupported operand type(s) for +=: 'int' and 'str'", ""},
		{"skill \"x\" exited with status 1: Traceback (most recent call last):\n  File \"w.py\", line 8, in main\n    f(a, b)\nTypeError: f() missing 1 required positional argument: 'c'", "it calls a function with arguments it does not take"},
		{"skill \"x\" exited with status 1: Traceback (most recent call last):\n  File \"lib.py\", line 8, in g\n    s.decode()\nAttributeError: 'str' object has no attribute 'decode'", ""},
		{"skill \"x\" exited with status 1: Traceback (most recent call last):\n  File \"w.py\", line 8, in main\n    getattr(mod, 'gone')\nAttributeError: module 'lib' has no attribute 'gone'", "it uses an attribute that does not exist"},
		{"skill \"x\" exited with status 2: usage: tool [-h] FILE\ntool: error: the following arguments are required: FILE", ""},
		{"skill \"x\" exited with status 1: tool: input.txt: not found", ""},
		{"skill \"x\" exited with status 1: sh: 1: helper: not found", "a program it runs was not found"},
		{"skill \"x\" exited with status 1: requests.exceptions.ConnectionError: HTTPSConnectionPool(host='api.example.com', port=443): Max retries exceeded (Caused by NewConnectionError('Failed to establish a new connection: [Errno -2] Name or service not known'))", "it needs the network, which this machine does not reach"},
		{"skill \"x\" exited with status 1: Error: Cannot find module 'left-pad'\nRequire stack:", "a module it loads is missing"},
	}
	for _, tc := range tests {
		if got := whyCannotRun(tc.msg); got != tc.want {
			t.Errorf("whyCannotRun(%q) = %q, want %q", tc.msg, got, tc.want)
		}
	}
}
