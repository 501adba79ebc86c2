package docker

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/docker/docker/api/types/image"
	"github.com/docker/docker/api/types/mount"

	agentimg "github.com/agentnet/agentnet/deploy/image"
)

// jobImage is a job's image and what running a container of it takes.
type jobImage struct {
	ref string
	// binds are read-only binds: the program files that live under /tmp
	// (where the container's tmpfs would hide them in the image) and the
	// Go installation of a go command.
	binds    []mount.Mount
	selfKill bool   // the image holds timeout (coreutils)
	goroot   string // the GOROOT of the go command the job runs; "" for none
	gcc      bool   // the image holds gcc
}

// jobRootfs gathers the files of a job's image while its programs are
// added.
type jobRootfs struct {
	jobs    *Jobs
	tc      *agentimg.Toolchain
	r       *agentimg.Rootfs
	mounts  []Mount // the job's, through which it sees some programs
	img     jobImage
	goBinds []mount.Mount // the Go installation's, once a go command is added
}

// image returns the job's image, with the programs it runs and what they
// need, and the binds a container of it takes.
func (j *Jobs) image(ctx context.Context, argv0 string, programs []string, mounts []Mount) (jobImage, error) {
	b := &jobRootfs{jobs: j, tc: j.img.Tools, r: agentimg.NewRootfs(), mounts: mounts}
	if err := b.add(ctx, argv0, false); err != nil {
		return b.img, err
	}
	for _, p := range programs {
		if err := b.add(ctx, p, true); err != nil {
			return b.img, err
		}
	}
	if err := b.addTools(); err != nil {
		return b.img, err
	}
	binds, err := b.tmpBinds()
	if err != nil {
		return b.img, err
	}
	binds = append(binds, b.goBinds...)
	sort.Slice(binds, func(x, y int) bool { return binds[x].Target < binds[y].Target })
	r := b.r
	r.Dirs["/tmp"] = true
	r.Data["/etc/passwd"] = []byte("root:x:0:0:root:/root:/sbin/nologin\nnobody:x:65534:65534:nobody:/tmp:/sbin/nologin\n")
	r.Data["/etc/group"] = []byte("root:x:0:\nnogroup:x:65534:\n")
	ref := "agentnet-job:" + r.Key("job")[:16]
	if err := j.importImage(ctx, r, ref); err != nil {
		return b.img, err
	}
	b.img.ref, b.img.binds = ref, binds
	return b.img, nil
}

// add adds the program p (a bare name looked up on this machine's PATH, or
// a path in the container) and what running it takes; an optional one
// this machine lacks is left out.
func (b *jobRootfs) add(ctx context.Context, p string, optional bool) error {
	tc, r := b.tc, b.r
	if !strings.ContainsRune(p, '/') {
		host, err := tc.LookPath(p)
		if err != nil {
			if optional {
				return nil
			}
			return err
		}
		if isGoCommand(host) {
			return b.addGo(ctx, host, true)
		}
		return tc.AddCommand(r, p, "")
	}
	host, inMount := hostPath(p, b.mounts)
	if _, err := os.Stat(host); err != nil {
		if optional {
			return nil
		}
		return fmt.Errorf("program %s: %w", p, err)
	}
	if inMount {
		// The job sees it through its mount; the image holds only
		// what running it takes.
		return tc.AddNeeds(r, host)
	}
	if isGoCommand(host) {
		return b.addGo(ctx, host, false)
	}
	return tc.AddProgram(r, host)
}

// addGo adds the go command at host (this machine's, not in a mount): its
// installation is bound into the container, not copied.
func (b *jobRootfs) addGo(ctx context.Context, host string, bare bool) error {
	g, err := b.jobs.goRoot(ctx, host)
	if err != nil {
		return err
	}
	if b.img.goroot != "" && b.img.goroot != g.dir {
		return fmt.Errorf("program %s: a job sees one Go installation, %s, not also %s", host, b.img.goroot, g.dir)
	}
	if b.img.goroot == "" {
		if err := b.useGoRoot(g); err != nil {
			return err
		}
	}
	real, err := filepath.EvalSymlinks(host)
	if err != nil {
		return fmt.Errorf("program %s: %w", host, err)
	}
	if !strings.HasPrefix(real, g.real+"/") {
		// A go outside its GOROOT (a wrapper) is copied like any other
		// program.
		if bare {
			return b.tc.AddCommand(b.r, filepath.Base(host), "")
		}
		return b.tc.AddProgram(b.r, host)
	}
	if err := b.tc.AddNeeds(b.r, real); err != nil {
		return err
	}
	// Go tests that run go find it on PATH.
	b.r.Links["/usr/local/bin/go"] = filepath.Join(g.dir, strings.TrimPrefix(real, g.real))
	return nil
}

// useGoRoot makes g the job's Go installation: its binds, their mount
// points in the image, and the libraries of the tools the go command runs.
func (b *jobRootfs) useGoRoot(g *goRoot) error {
	b.img.goroot = g.dir
	b.goBinds = g.binds
	for _, m := range g.binds {
		// The mount points are in the image, so that nothing need be
		// made in its read-only root.
		if g.files[m.Target] {
			b.r.Data[m.Target] = []byte{}
		} else {
			b.r.Dirs[m.Target] = true
		}
	}
	// The tools the go command runs, when they are not static.
	tools, _ := filepath.Glob(filepath.Join(g.real, "pkg", "tool", "*", "*"))
	return b.tc.AddLibs(b.r, tools...)
}

// addTools adds a shell's usual tools when the image holds a shell, and
// timeout (for the job's own end) when this machine has it, and notes
// whether the image holds gcc.
func (b *jobRootfs) addTools() error {
	tc, r := b.tc, b.r
	if r.Shell {
		if err := tc.AddShellTools(r); err != nil {
			return err
		}
	}
	if _, err := tc.LookPath("timeout"); err == nil {
		if err := tc.AddCommand(r, "timeout", ""); err != nil {
			return err
		}
		b.img.selfKill = true
	}
	for _, d := range filepath.SplitList(agentimg.ImagePath) {
		p := filepath.Join(d, "gcc")
		if _, ok := r.Files[p]; ok {
			b.img.gcc = true
		} else if _, ok := r.Links[p]; ok {
			b.img.gcc = true
		}
	}
	return nil
}

// tmpBinds takes out of the image what lies under /tmp, where the
// container's tmpfs would hide it, and returns read-only binds of the
// files and links' targets instead.
func (b *jobRootfs) tmpBinds() ([]mount.Mount, error) {
	r := b.r
	var binds []mount.Mount
	for p, host := range r.Files {
		if strings.HasPrefix(p, "/tmp/") {
			binds = append(binds, mount.Mount{Type: mount.TypeBind, Source: host, Target: p, ReadOnly: true})
			delete(r.Files, p)
		}
	}
	for p := range r.Links {
		if strings.HasPrefix(p, "/tmp/") {
			target, err := filepath.EvalSymlinks(p)
			if err != nil {
				return nil, fmt.Errorf("program %s: %w", p, err)
			}
			binds = append(binds, mount.Mount{Type: mount.TypeBind, Source: target, Target: p, ReadOnly: true})
			delete(r.Links, p)
		}
	}
	for p := range r.Dirs {
		if strings.HasPrefix(p, "/tmp/") {
			delete(r.Dirs, p)
		}
	}
	for p := range r.Data {
		if strings.HasPrefix(p, "/tmp/") {
			delete(r.Data, p)
		}
	}
	return binds, nil
}

// importImage imports r as the image ref, unless an image of that name is
// there.
func (j *Jobs) importImage(ctx context.Context, r *agentimg.Rootfs, ref string) error {
	return j.img.Ensure(ctx, ref, func() error {
		pr, pw := io.Pipe()
		go func() { pw.CloseWithError(r.WriteTar(pw, "")) }()
		defer pr.Close()
		out, err := j.api.ImageImport(ctx, image.ImportSource{Source: pr, SourceName: "-"}, ref, image.ImportOptions{
			Message: "agentnet job image",
			Changes: []string{
				"ENV PATH=" + agentimg.ImagePath,
				fmt.Sprintf("LABEL %s=true %s=job", LabelManaged, LabelRole),
			},
		})
		if err != nil {
			return err
		}
		defer out.Close()
		id, err := importedID(out)
		if id != "" {
			// Another import of the same contents (another process) may
			// take the tag away from it: it is removed by id.
			j.used(id)
		}
		return err
	})
}

// used records an image a job ran in (or was imported for), for Close.
func (j *Jobs) used(id string) {
	j.mu.Lock()
	j.images[id] = true
	j.mu.Unlock()
}

// importedID reads an image import's progress stream to its end and
// returns the new image's id and the error the stream reports, if any.
func importedID(r io.Reader) (string, error) {
	dec := json.NewDecoder(r)
	id := ""
	for {
		var msg struct {
			Status      string `json:"status"`
			Error       string `json:"error"`
			ErrorDetail struct {
				Message string `json:"message"`
			} `json:"errorDetail"`
		}
		if err := dec.Decode(&msg); err == io.EOF {
			return id, nil
		} else if err != nil {
			return id, err
		}
		if strings.HasPrefix(msg.Status, "sha256:") {
			id = strings.TrimSpace(msg.Status)
		}
		if msg.ErrorDetail.Message != "" {
			return id, errors.New(msg.ErrorDetail.Message)
		}
		if msg.Error != "" {
			return id, errors.New(msg.Error)
		}
	}
}
