package generation

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// gitRunner runs one git command in a clone and returns its standard output.
type gitRunner func(stdin string, args ...string) ([]byte, error)

// checkoutPinned checks ref out in the clone dst. A copy of a repository may
// lack the contents of a few files (a mirror that left out large test
// fixtures or sample media): git then refuses the whole checkout. Those files are left out of the work tree
// through a sparse checkout and returned, so the rest of the repository can
// still be read; a commit none of whose missing files can be named is an
// error, as before.
func checkoutPinned(git gitRunner, dst, ref string) (absent []string, err error) {
	checkout := func() error {
		_, err := git("", "-C", dst, "-c", "advice.detachedHead=false", "checkout", "--quiet", "--force", "--detach", ref)
		return err
	}
	first := checkout()
	if first == nil {
		return nil, nil
	}
	absent, err = absentFiles(git, dst, ref)
	if err != nil || len(absent) == 0 {
		return nil, first
	}
	if err := sparseWithout(git, dst, absent); err != nil {
		return nil, fmt.Errorf("%w (leaving out %d file(s) without contents: %v)", first, len(absent), err)
	}
	if err := checkout(); err != nil {
		return nil, err
	}
	return absent, nil
}

// absentFiles lists the paths of ref's tree whose blobs the clone lacks.
func absentFiles(git gitRunner, dst, ref string) ([]string, error) {
	tree, err := git("", "-C", dst, "ls-tree", "-r", "-z", ref)
	if err != nil {
		return nil, err
	}
	paths := map[string][]string{}
	var oids []string
	for _, entry := range bytes.Split(tree, []byte{0}) {
		meta, name, ok := strings.Cut(string(entry), "\t")
		fields := strings.Fields(meta)
		if !ok || len(fields) != 3 || fields[1] != "blob" {
			continue
		}
		if _, seen := paths[fields[2]]; !seen {
			oids = append(oids, fields[2])
		}
		paths[fields[2]] = append(paths[fields[2]], name)
	}
	if len(oids) == 0 {
		return nil, nil
	}
	// --batch-check reports "OID missing" for an object the clone lacks.
	out, err := git(strings.Join(oids, "\n")+"\n", "-C", dst, "cat-file", "--batch-check=%(objectname) %(objecttype)")
	if err != nil {
		return nil, err
	}
	var absent []string
	for _, line := range strings.Split(string(out), "\n") {
		oid, state, _ := strings.Cut(line, " ")
		if state == "missing" {
			absent = append(absent, paths[oid]...)
		}
	}
	sort.Strings(absent)
	return absent, nil
}

// sparseWithout makes the clone's checkout leave out the given paths.
func sparseWithout(git gitRunner, dst string, absent []string) error {
	out, err := git("", "-C", dst, "rev-parse", "--absolute-git-dir")
	if err != nil {
		return err
	}
	gitDir := strings.TrimSpace(string(out))
	if _, err := git("", "-C", dst, "config", "core.sparseCheckout", "true"); err != nil {
		return err
	}
	var b strings.Builder
	b.WriteString("/*\n")
	for _, p := range absent {
		b.WriteString("!/" + sparseEscape(p) + "\n")
	}
	if err := os.MkdirAll(filepath.Join(gitDir, "info"), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(gitDir, "info", "sparse-checkout"), []byte(b.String()), 0o644); err != nil {
		return err
	}
	// The failed checkout's index names the absent files.
	if err := os.Remove(filepath.Join(gitDir, "index")); err != nil && !os.IsNotExist(err) {
		return err
	}
	return nil
}

// sparseEscape quotes the characters a sparse-checkout pattern would read
// as glob or negation syntax, so a path stands for itself.
func sparseEscape(p string) string {
	var b strings.Builder
	for _, r := range p {
		if strings.ContainsRune(`\*?[]!#`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
