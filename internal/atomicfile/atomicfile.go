// Package atomicfile writes files so that a reader never sees a partial one:
// data goes to a temporary file in the destination directory, which is
// renamed over the destination only after every byte was written and synced.
// On any error the temporary file is removed and the destination is untouched.
//
// Temporary files are named .NAME.omnihsr-tmp-PID-N beside the destination
// NAME, PID being the writing process. Every temporary file a process has
// open is listed, so that RemoveAll can delete them all when the process is
// interrupted; one left by a process that was killed outright (SIGKILL, a
// power cut) is removed by the next Create for the same destination once
// that process no longer runs (RemoveStale).
//
// Files that must change together (an ENVI header and its data file) are
// published with CommitAll under an exclusive lock on the group, so that two
// processes writing the same group leave one process's files, never a mix.
package atomicfile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/omnihsr/omnihsr/hsi"
)

// tmpTag sits between a destination's name and the PID in the name of its
// temporary files.
const tmpTag = ".omnihsr-tmp-"

// ErrInterrupted is returned by Create and Commit after RemoveAll: the
// process is being stopped and publishes nothing more.
var ErrInterrupted = errors.New("interrupted: temporary files removed")

// open lists the temporary files of this process that are neither
// committed nor aborted.
var open = struct {
	sync.Mutex
	names   map[string]bool
	stopped bool
	// removed are the destinations whose temporary files were removed
	// unpublished (Aborted).
	removed []string
}{names: map[string]bool{}}

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
	Path  string
	done  bool
	dirty int64 // bytes recorded by Wrote since the last StartWriteback
	every int64 // write-back starts every this many bytes (0: WritebackBytes)
	// spans are the ranges recorded since then, a range that continues
	// another merged into it; ends indexes them by end offset.
	spans []span
	ends  map[int64]int
	// wb takes batches of ranges to the write-back goroutine, which closes
	// wbDone when wb is closed and its last request made.
	wb     chan []span
	wbDone chan struct{}
}

type span struct{ off, n int64 }

// Write writes p at the file's offset, as os.File.Write does; an error for
// a full file system matches hsi.ErrNoSpace as well as syscall.ENOSPC.
func (f *File) Write(p []byte) (int, error) {
	n, err := f.File.Write(p)
	return n, noSpace(err)
}

// WriteAt writes p at offset off, as os.File.WriteAt does; an error for a
// full file system matches hsi.ErrNoSpace as well as syscall.ENOSPC.
func (f *File) WriteAt(p []byte, off int64) (int, error) {
	n, err := f.File.WriteAt(p, off)
	return n, noSpace(err)
}

// WriteString is Write of the bytes of s (io.WriteString uses it).
func (f *File) WriteString(s string) (int, error) {
	n, err := f.File.WriteString(s)
	return n, noSpace(err)
}

// ReadFrom copies r to the file, as os.File.ReadFrom does (io.Copy uses
// it); an error for a full file system matches hsi.ErrNoSpace as well as
// syscall.ENOSPC.
func (f *File) ReadFrom(r io.Reader) (int64, error) {
	n, err := f.File.ReadFrom(r)
	return n, noSpace(err)
}

// noSpaceError is the system's error for a full file system, which also
// matches hsi.ErrNoSpace.
type noSpaceError struct{ err error }

func (e noSpaceError) Error() string   { return e.err.Error() }
func (e noSpaceError) Unwrap() []error { return []error{e.err, hsi.ErrNoSpace} }

// noSpace returns err, made to match hsi.ErrNoSpace when it says that the
// file system is full (ENOSPC; EDQUOT, a user's quota, too where it
// exists).
func noSpace(err error) error {
	if err != nil && isNoSpace(err) && !errors.Is(err, hsi.ErrNoSpace) {
		return noSpaceError{err}
	}
	return err
}

// WritebackBytes is how many written bytes (Wrote) make a File start their
// write-back (StartWriteback). Large enough that the write-back of a file
// written in many places at once (an ENVI BSQ output: one range per band)
// goes to the disk in long runs, small enough that Commit's sync finds
// little left.
const WritebackBytes = 256 << 20

// ExpectSize tells f that it will hold about n bytes: Wrote then starts
// the write-back every quarter of that, at least 16 MiB and at most
// WritebackBytes, so that a file of a few hundred MiB has most of its data
// on its way to the disk before Commit syncs it.
func (f *File) ExpectSize(n int64) {
	f.every = min(WritebackBytes, max(n/4, 16<<20))
}

// Wrote records that the n bytes at offset off were written and, once
// WritebackBytes (or the share set by ExpectSize) have accumulated, starts the write-back of the ranges
// recorded (StartWriteback), so that a file written by a stream of calls is
// written back to disk as it grows and the sync of Commit has little left
// to do.
func (f *File) Wrote(off, n int64) {
	if n <= 0 {
		return
	}
	if i, ok := f.ends[off]; ok {
		delete(f.ends, off)
		f.spans[i].n += n
		f.ends[off+n] = i
	} else {
		if f.ends == nil {
			f.ends = map[int64]int{}
		}
		f.spans = append(f.spans, span{off, n})
		f.ends[off+n] = len(f.spans) - 1
	}
	f.dirty += n
	every := f.every
	if every == 0 {
		every = WritebackBytes
	}
	if f.dirty >= every {
		f.StartWriteback()
	}
}

// StartWriteback hands the ranges recorded by Wrote to a goroutine of the
// File that asks the kernel to start writing them to disk (writeback), and
// forgets them. The request can wait for room in the disk's queue; on its
// own goroutine it never holds up the writes, and when the goroutine is
// still busy with an earlier batch the batch is dropped (the kernel writes
// those pages on its own, and Commit's sync makes them durable).
func (f *File) StartWriteback() {
	if len(f.spans) == 0 {
		return
	}
	batch := append([]span(nil), f.spans...)
	f.spans = f.spans[:0]
	clear(f.ends)
	f.dirty = 0
	if f.done || !writebackSupported {
		return
	}
	if f.wb == nil {
		f.wb, f.wbDone = make(chan []span, 1), make(chan struct{})
		go func(wb <-chan []span, done chan<- struct{}) {
			defer close(done)
			for b := range wb {
				for _, s := range b {
					f.writeback(s.off, s.n)
				}
			}
		}(f.wb, f.wbDone)
	}
	select {
	case f.wb <- batch:
	default:
	}
}

// stopWriteback ends the write-back goroutine, after the request it is
// making.
func (f *File) stopWriteback() {
	if f.wb != nil {
		close(f.wb)
		<-f.wbDone
		f.wb = nil
	}
}

// Tracked returns f as an io.WriterAt and io.Writer that records every
// write with Wrote (a Write at the file's current offset).
func (f *File) Tracked() interface {
	io.WriterAt
	io.Writer
} {
	return tracked{f}
}

type tracked struct{ f *File }

func (t tracked) WriteAt(p []byte, off int64) (int, error) {
	n, err := t.f.WriteAt(p, off)
	t.f.Wrote(off, int64(n))
	return n, err
}

func (t tracked) Write(p []byte) (int, error) {
	off, err := t.f.Seek(0, io.SeekCurrent)
	if err != nil {
		return 0, err
	}
	n, err := t.f.Write(p)
	t.f.Wrote(off, int64(n))
	return n, err
}

// tempPrefix is the name of path's temporary files up to the PID.
func tempPrefix(path string) string { return "." + filepath.Base(path) + tmpTag }

// IsTemp reports whether name (a base name) is a temporary file of this
// package.
func IsTemp(name string) bool {
	return strings.HasPrefix(name, ".") && strings.Contains(name, tmpTag)
}

// Create opens a temporary file beside path, after removing the stale
// temporary files of path (RemoveStale). Call Commit to publish it or Abort
// to discard it; Abort after Commit is a no-op, so `defer f.Abort()` is
// always safe.
func Create(path string) (*File, error) {
	RemoveStale(path)
	dir := filepath.Dir(path)
	open.Lock()
	defer open.Unlock()
	if open.stopped {
		return nil, fmt.Errorf("create %s: %w", path, ErrInterrupted)
	}
	tmp, err := os.CreateTemp(dir, tempPrefix(path)+strconv.Itoa(os.Getpid())+"-*")
	if err != nil {
		return nil, fmt.Errorf("create %s: %w", path, err)
	}
	open.names[tmp.Name()] = true
	return &File{File: tmp, Path: path}, nil
}

// RemoveStale removes the temporary files of path left by processes that
// no longer run, and returns their names. Where process liveness cannot be
// told (not Unix) it removes nothing.
func RemoveStale(path string) []string {
	dir := filepath.Dir(path)
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	prefix := tempPrefix(path)
	var removed []string
	for _, e := range ents {
		name := e.Name()
		rest, ok := strings.CutPrefix(name, prefix)
		if !ok || !e.Type().IsRegular() {
			continue
		}
		pidText, _, _ := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(pidText)
		if err != nil || pid <= 0 || pid == os.Getpid() || alive(pid) {
			continue
		}
		p := filepath.Join(dir, name)
		if os.Remove(p) == nil {
			removed = append(removed, p)
		}
	}
	return removed
}

// RemoveAll removes every temporary file this process has open and makes
// every later Create and Commit fail with ErrInterrupted: it is what a
// process does when a signal stops it. It returns the destinations whose
// temporary files it removed.
func RemoveAll() []string {
	open.Lock()
	defer open.Unlock()
	open.stopped = true
	var dests []string
	for name := range open.names {
		os.Remove(name)
		base := filepath.Base(name)
		dest := strings.TrimPrefix(base[:strings.LastIndex(base, tmpTag)], ".")
		dests = append(dests, filepath.Join(filepath.Dir(name), dest))
		delete(open.names, name)
	}
	return dests
}

// finish syncs, closes and sets the mode of the temporary file, removing it
// on error.
func (f *File) finish() error {
	f.stopWriteback()
	name := f.File.Name()
	open.Lock()
	stopped := open.stopped
	open.Unlock()
	if stopped {
		f.File.Close()
		f.remove()
		return fmt.Errorf("write %s: %w", f.Path, ErrInterrupted)
	}
	err := noSpace(f.File.Sync())
	if cerr := f.File.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(name, 0o644)
	}
	if err != nil {
		f.remove()
		return fmt.Errorf("write %s: %w", f.Path, err)
	}
	return nil
}

// remove deletes the temporary file and forgets it.
func (f *File) remove() {
	name := f.File.Name()
	open.Lock()
	if open.names[name] {
		open.removed = append(open.removed, f.Path)
	}
	delete(open.names, name)
	open.Unlock()
	os.Remove(name)
}

// Aborted returns the destinations whose temporary files this process
// removed without publishing them (Abort, a failed Commit): what a command
// stopped by a signal, its work having returned, reports as removed.
func Aborted() []string {
	open.Lock()
	defer open.Unlock()
	return slices.Clone(open.removed)
}

// Commit syncs, closes and renames the temporary file to its destination.
func (f *File) Commit() error {
	if f.done {
		return nil
	}
	f.done = true
	if err := f.finish(); err != nil {
		return err
	}
	open.Lock()
	defer open.Unlock()
	return f.rename()
}

// rename publishes the finished file; the caller holds open's lock.
func (f *File) rename() error {
	name := f.File.Name()
	delete(open.names, name)
	if open.stopped {
		os.Remove(name)
		return fmt.Errorf("write %s: %w", f.Path, ErrInterrupted)
	}
	if err := os.Rename(name, f.Path); err != nil {
		os.Remove(name)
		return fmt.Errorf("write %s: %w", f.Path, err)
	}
	return nil
}

// CommitAll publishes files together, in order, while holding an exclusive
// lock named for lockPath (.NAME.omnihsr-lock beside it; Lock), so that
// another process committing the same group with the same lockPath does so
// entirely before or after. On error every file is removed: the temporary
// files, and the destinations already renamed (a group is never left half
// replaced). Files already committed or aborted are skipped.
func CommitAll(lockPath string, files ...*File) error {
	var todo []*File
	for _, f := range files {
		if !f.done {
			f.done = true
			todo = append(todo, f)
		}
	}
	for i, f := range todo {
		if err := f.finish(); err != nil {
			for _, g := range todo[i+1:] {
				g.File.Close()
				g.remove()
			}
			for _, g := range todo[:i] {
				g.remove()
			}
			return err
		}
	}
	unlock, err := Lock(lockPath)
	if err != nil {
		for _, f := range todo {
			f.remove()
		}
		return err
	}
	defer unlock()
	open.Lock()
	defer open.Unlock()
	for i, f := range todo {
		if err := f.rename(); err != nil {
			for _, g := range todo[:i] {
				os.Remove(g.Path)
			}
			for _, g := range todo[i+1:] {
				delete(open.names, g.File.Name())
				os.Remove(g.File.Name())
			}
			return err
		}
	}
	return nil
}

// Abort closes and removes the temporary file.
func (f *File) Abort() {
	if f.done {
		return
	}
	f.done = true
	f.stopWriteback()
	f.File.Close()
	f.remove()
}
