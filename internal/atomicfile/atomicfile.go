// Package atomicfile writes files so that a reader never sees a partial one:
// data goes to a temporary file in the destination directory, which is
// renamed over the destination only after every byte was written and synced.
// On any error the temporary file is removed and the destination is untouched.
package atomicfile

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Write creates path atomically with the bytes that fill writes to w.
func Write(path string, fill func(w io.Writer) error) (err error) {
	f, err := Create(path)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Abort()
		}
	}()
	bw := bufio.NewWriterSize(f, 1<<20)
	if err = fill(bw); err != nil {
		return err
	}
	if err = bw.Flush(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return f.Commit()
}

// File is a temporary file that becomes Path on Commit.
type File struct {
	*os.File
	Path string
	done bool
}

// Create opens a temporary file beside path. Call Commit to publish it or
// Abort to discard it; Abort after Commit is a no-op, so
// `defer f.Abort()` is always safe.
func Create(path string) (*File, error) {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return nil, fmt.Errorf("create %s: %w", path, err)
	}
	return &File{File: tmp, Path: path}, nil
}

// Commit syncs, closes and renames the temporary file to its destination.
func (f *File) Commit() error {
	if f.done {
		return nil
	}
	f.done = true
	name := f.File.Name()
	if err := f.File.Sync(); err != nil {
		f.File.Close()
		os.Remove(name)
		return fmt.Errorf("write %s: %w", f.Path, err)
	}
	if err := f.File.Close(); err != nil {
		os.Remove(name)
		return fmt.Errorf("write %s: %w", f.Path, err)
	}
	if err := os.Chmod(name, 0o644); err != nil {
		os.Remove(name)
		return fmt.Errorf("write %s: %w", f.Path, err)
	}
	if err := os.Rename(name, f.Path); err != nil {
		os.Remove(name)
		return fmt.Errorf("write %s: %w", f.Path, err)
	}
	return nil
}

// Abort closes and removes the temporary file.
func (f *File) Abort() {
	if f.done {
		return
	}
	f.done = true
	name := f.File.Name()
	f.File.Close()
	os.Remove(name)
}
