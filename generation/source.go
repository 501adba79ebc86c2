package generation

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/agentnet/agentnet/bundle"
	"github.com/agentnet/agentnet/internal/proc"
)

// CloneTimeout bounds a git clone and checkout.
const CloneTimeout = 10 * time.Minute

// fetchSource brings the repository into dst: a clone with the system git
// for a git URL (or a local path with a ref), a copy otherwise. It returns
// the ref to record (the ref asked for, or the commit checked out).
func fetchSource(ctx context.Context, repoArg, ref, dst string, env []string, log io.Writer) (string, error) {
	if bundle.IsGitURL(repoArg) || ref != "" {
		return clone(ctx, repoArg, ref, dst, env, log)
	}
	fi, err := os.Stat(repoArg)
	if err != nil {
		return "", fmt.Errorf("repository %s: %w", repoArg, err)
	}
	if !fi.IsDir() {
		return "", fmt.Errorf("repository %s is not a directory", repoArg)
	}
	skipped, err := copyTree(repoArg, dst)
	for _, s := range skipped {
		fmt.Fprintf(log, "# left out: %s\n", s)
	}
	return "", err
}

func clone(ctx context.Context, url, ref, dst string, env []string, log io.Writer) (string, error) {
	// Git must never stop to ask for a password on a terminal.
	env = append(append([]string{}, env...), "GIT_TERMINAL_PROMPT=0", "GIT_ASKPASS=", "SSH_ASKPASS=", "GCM_INTERACTIVE=never")
	git := func(stdin string, args ...string) ([]byte, error) {
		fmt.Fprintf(log, "$ git %s\n", strings.Join(args, " "))
		res := proc.Run(ctx, proc.Spec{Argv: append([]string{"git"}, args...), Env: env, Timeout: CloneTimeout, Stdin: strings.NewReader(stdin)})
		log.Write(res.Stderr)
		return res.Stdout, res.Err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return "", fmt.Errorf("clone %s: %w", url, err)
	}
	// The work tree is checked out below, at the ref, so that a copy
	// lacking some files' contents still yields the rest.
	args := []string{"clone", "--quiet", "--no-tags", "--no-checkout"}
	if ref == "" {
		args = append(args, "--depth", "1")
	}
	if _, err := git("", append(args, "--", url, dst)...); err != nil {
		return "", fmt.Errorf("clone %s: %w", url, err)
	}
	want := ref
	if want == "" {
		want = "HEAD"
	}
	absent, err := checkoutPinned(git, dst, want)
	if err != nil && ref != "" {
		// A tag not fetched by --no-tags.
		if _, ferr := git("", "-C", dst, "fetch", "--quiet", "origin", "tag", ref, "--no-tags"); ferr != nil {
			return "", fmt.Errorf("checkout %s of %s: %w", ref, url, err)
		}
		absent, err = checkoutPinned(git, dst, ref)
	}
	if err != nil {
		return "", fmt.Errorf("checkout %s of %s: %w", want, url, err)
	}
	for _, p := range absent {
		fmt.Fprintf(log, "# left out: %s: the copy of the repository lacks its contents\n", p)
	}
	out, err := git("", "-C", dst, "rev-parse", "HEAD")
	if err != nil {
		return "", fmt.Errorf("clone %s: %w", url, err)
	}
	if ref == "" {
		ref = strings.TrimSpace(string(out))
	}
	return ref, nil
}

// copyTree copies the regular files and directories of src into dst,
// leaving out VCS metadata and agentnet's own directories. A symbolic link
// is kept only when it points inside src; links that lead outside, and
// special files, are left out and listed.
func copyTree(src, dst string) (skipped []string, err error) {
	root, err := filepath.Abs(src)
	if err != nil {
		return nil, err
	}
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			skipped = append(skipped, fmt.Sprintf("%s: %v", p, err))
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		if rel != "." && d.IsDir() && (d.Name() == ".git" || d.Name() == ".agentnet" || d.Name() == ".hg" || d.Name() == ".svn") {
			return fs.SkipDir
		}
		target := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(target, 0o755)
		case d.Type()&fs.ModeSymlink != 0:
			link, err := os.Readlink(p)
			if err != nil {
				skipped = append(skipped, rel+": unreadable link")
				return nil
			}
			resolved := link
			if !filepath.IsAbs(link) {
				resolved = filepath.Join(filepath.Dir(p), link)
			}
			if real, err := filepath.EvalSymlinks(resolved); err == nil {
				resolved = real
			}
			if !within(root, resolved) || filepath.IsAbs(link) {
				skipped = append(skipped, fmt.Sprintf("%s: symbolic link to %s, outside the repository", rel, link))
				return nil
			}
			return os.Symlink(link, target)
		case d.Type().IsRegular():
			fi, err := d.Info()
			if err != nil {
				return nil
			}
			return copyFile(p, target, fi.Mode().Perm())
		default:
			skipped = append(skipped, rel+": not a regular file")
			return nil
		}
	})
	return skipped, err
}

func within(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

func copyFile(src, dst string, perm fs.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_EXCL|os.O_WRONLY, perm|0o200)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// repoName is the name of a repository from its URL or path.
func repoName(repoArg string) string {
	s := strings.TrimRight(repoArg, "/")
	if i := strings.LastIndexAny(s, "/:"); i >= 0 {
		s = s[i+1:]
	}
	s = strings.TrimSuffix(s, ".git")
	if s == "" || s == "." {
		if abs, err := filepath.Abs(repoArg); err == nil {
			s = path.Base(filepath.ToSlash(abs))
		}
	}
	return s
}
