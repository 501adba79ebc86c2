package host

import (
	"hash/maphash"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// inputs are the files in a task's work directory before its skill runs:
// the attached and fetched files, those made of the message's text. After
// the run, an input is an output only when the skill changed its bytes (a
// formatter working in place).
//
// Each input's content sum is known before the run — taken as the host
// wrote the file when it could (a fetched file is hashed as it arrives),
// else by reading it — and its stat. After the run a file whose stat is the
// same (the same file, size, modification and, where the system has it,
// change time, which no program can set back) was not written, and is not
// read again: a large input is hashed once, not twice.
type inputs map[string]inputFile

type inputFile struct {
	sum  contentSum
	info fs.FileInfo
}

// contentSum tells whether a file's bytes changed while a task ran: a
// 64-bit hash/maphash sum under a seed of this process, several times as
// fast as SHA-256 (it is no digest to show anyone: no caller knows the
// seed, nor gains anything from a collision but an output left out).
type contentSum uint64

var contentSeed = maphash.MakeSeed()

func newContentHash() *maphash.Hash {
	h := new(maphash.Hash)
	h.SetSeed(contentSeed)
	return h
}

// sumOf is the content sum of data.
func sumOf(data []byte) contentSum { return contentSum(maphash.Bytes(contentSeed, data)) }

// fileSum is the content sum of the file at p, read in small pieces.
func fileSum(p string) (contentSum, error) {
	f, err := os.Open(p)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	h := newContentHash()
	if _, err := io.Copy(h, f); err != nil {
		return 0, err
	}
	return contentSum(h.Sum64()), nil
}

// snapshot records every regular file under work; known holds the sums of
// files the host hashed as it wrote them, by path relative to work.
func snapshot(work string, known map[string]contentSum) inputs {
	in := inputs{}
	walkWork(work, func(rel, p string, d fs.DirEntry) error {
		if !d.Type().IsRegular() {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		sum, ok := known[rel]
		if !ok {
			if sum, err = fileSum(p); err != nil {
				return nil
			}
		}
		in[rel] = inputFile{sum: sum, info: info}
		return nil
	})
	return in
}

// walkWork calls fn for every entry under the work directory that is not a
// directory, in lexical order, with its path relative to work
// (slash-separated) and its path; it descends into directories and follows
// no symbolic link, as filepath.WalkDir, skipping what it cannot read. It
// stops when fn returns fs.SkipAll. Unlike filepath.WalkDir it does not
// stat the work directory itself, which the host has just made or read.
func walkWork(work string, fn func(rel, p string, d fs.DirEntry) error) {
	var walk func(dir, rel string) bool
	walk = func(dir, rel string) bool {
		entries, _ := os.ReadDir(dir) // what was read before an error
		for _, d := range entries {
			r, p := d.Name(), filepath.Join(dir, d.Name())
			if rel != "" {
				r = rel + "/" + r
			}
			if d.IsDir() {
				if !walk(p, r) {
					return false
				}
				continue
			}
			if fn(r, p, d) == fs.SkipAll {
				return false
			}
		}
		return true
	}
	walk(work, "")
}

// unchanged reports whether rel, now at p with stat info, is an input whose
// bytes the run left as they were.
func (in inputs) unchanged(rel, p string, info fs.FileInfo) bool {
	f, ok := in[rel]
	if !ok {
		return false
	}
	if sameStat(f.info, info) {
		return true
	}
	now, err := fileSum(p)
	return err != nil || now == f.sum
}

// sameStat reports whether a and b are the same file not written between:
// the same file, size, modification time and change time.
func sameStat(a, b fs.FileInfo) bool {
	return os.SameFile(a, b) && a.Size() == b.Size() && a.ModTime().Equal(b.ModTime()) && a.Mode() == b.Mode() &&
		changeTime(a) == changeTime(b)
}
