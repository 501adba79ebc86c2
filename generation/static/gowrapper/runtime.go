// Package gowrapper is the runtime of the main package the static
// generator writes for a Go library: reading "--name=value" arguments as
// the types the library's functions take, and printing what they return
// (text as it is, bytes into a file, anything else as JSON).
//
// The generator copies this file into every generated package as
// runtime.go, its package clause changed to main, beside the main.go that
// calls the library; here it is an ordinary package, so that it is
// formatted, vetted and tested like the rest of agentnet.
package gowrapper

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"
)

type args map[string]string

func parse(argv []string) args {
	a := args{}
	for _, s := range argv {
		k, v, ok := strings.Cut(strings.TrimPrefix(s, "--"), "=")
		if !ok || !strings.HasPrefix(s, "--") {
			fail(fmt.Errorf("bad argument %q: want --name=value", s))
		}
		a[k] = v
	}
	return a
}

func (a args) str(name string) string {
	v, ok := a[name]
	if !ok {
		fail(fmt.Errorf("missing argument --%s", name))
	}
	return v
}

func (a args) boolean(name string) bool {
	v, ok := a[name]
	if !ok {
		return false
	}
	b, err := strconv.ParseBool(strings.TrimSpace(v))
	check(err)
	return b
}

func (a args) integer(name string) int64 {
	s := strings.TrimSpace(a.str(name))
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		f, ferr := strconv.ParseFloat(s, 64)
		if ferr != nil || f != float64(int64(f)) {
			fail(fmt.Errorf("--%s: %q is not an integer", name, s))
		}
		n = int64(f)
	}
	return n
}

func (a args) number(name string) float64 {
	f, err := strconv.ParseFloat(strings.TrimSpace(a.str(name)), 64)
	if err != nil {
		fail(fmt.Errorf("--%s: %q is not a number", name, a.str(name)))
	}
	return f
}

// list reads a JSON array, or else one item per line.
func (a args) list(name string) []string {
	v, ok := a[name]
	if !ok {
		return nil
	}
	var items []interface{}
	if json.Unmarshal([]byte(v), &items) == nil {
		out := make([]string, len(items))
		for i, it := range items {
			if s, ok := it.(string); ok {
				out[i] = s
			} else {
				b, _ := json.Marshal(it)
				out[i] = string(b)
			}
		}
		return out
	}
	var out []string
	for _, ln := range strings.Split(v, "\n") {
		if strings.TrimSpace(ln) != "" {
			out = append(out, strings.TrimSpace(ln))
		}
	}
	return out
}

func (a args) strs(name string) []string { return a.list(name) }

func (a args) ints(name string) []int {
	var out []int
	for _, s := range a.list(name) {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		check(err)
		out = append(out, n)
	}
	return out
}

func (a args) floats(name string) []float64 {
	var out []float64
	for _, s := range a.list(name) {
		f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		check(err)
		out = append(out, f)
	}
	return out
}

func (a args) file(name string) []byte {
	b, err := os.ReadFile(a.str(name))
	check(err)
	return b
}

func (a args) open(name string) io.Reader {
	f, err := os.Open(a.str(name))
	check(err)
	return f
}

func (a args) has(name string) bool {
	_, ok := a[name]
	return ok
}

// decode reads a JSON object into v, a pointer to one of the library's
// structs; an unknown field is an error, not ignored.
func (a args) decode(name string, v interface{}) {
	s, ok := a[name]
	if !ok || strings.TrimSpace(s) == "" {
		return
	}
	d := json.NewDecoder(strings.NewReader(s))
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		fail(fmt.Errorf("--%s: %v", name, err))
	}
}

// created are the output files the call writes, closed and named by emit.
var created []*os.File

// create opens the output file a call writes to (a name the host keeps in
// the task's work directory: the parameter's format says it is an output).
func (a args) create(name string) io.Writer {
	p := a.str(name)
	if p == "" || strings.ContainsRune(p, 0) {
		fail(fmt.Errorf("--%s: want a file name", name))
	}
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	check(err)
	created = append(created, f)
	return f
}

func (a args) duration(name string) time.Duration {
	d, err := time.ParseDuration(strings.TrimSpace(a.str(name)))
	check(err)
	return d
}

// emit prints a result: text as it is, bytes into a file, anything else as
// JSON.
func emit(skill string, vals ...interface{}) {
	var wrote []string
	for _, f := range created {
		check(f.Close())
		wrote = append(wrote, f.Name())
	}
	created = nil
	if len(vals) == 0 {
		if len(wrote) == 0 {
			fmt.Println("done")
		} else {
			fmt.Println("wrote " + strings.Join(wrote, ", "))
		}
		return
	}
	if len(vals) == 1 {
		switch v := vals[0].(type) {
		case string:
			fmt.Println(strings.TrimRight(v, "\n"))
			return
		case []byte:
			name := skill + ".out"
			check(os.WriteFile(name, v, 0o644))
			fmt.Println("wrote " + name)
			return
		case fmt.Stringer:
			if b, err := json.Marshal(v); err == nil && (string(b) == "{}" || !strings.HasPrefix(string(b), "{")) {
				fmt.Println(v.String())
				return
			}
		}
	}
	var out interface{} = vals
	if len(vals) == 1 {
		out = vals[0]
	}
	b, err := json.MarshalIndent(out, "", "  ")
	check(err)
	fmt.Println(string(b))
}

func check(err error) {
	if err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "error:", err)
	os.Exit(1)
}
