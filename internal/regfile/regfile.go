package regfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// ErrNotRegular marks a path that exists but is not a regular file.
var ErrNotRegular = errors.New("not a regular file")

// ErrTooLarge marks a file larger than the bound its reader gives.
var ErrTooLarge = errors.New("file too large")

// Kind describes a file mode that is not a regular file's: "a directory",
// "a named pipe (FIFO)", "a socket", "a device" or "not a regular file".
func Kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "not a regular file"
}

func notRegular(path string, m fs.FileMode) error {
	return fmt.Errorf("%s: %w: it is %s; give a regular file", path, ErrNotRegular, Kind(m))
}

// Check returns an error wrapping ErrNotRegular when path exists (after
// symbolic links) and is not a regular file. A missing or unreadable path
// is not an error here: the reader that opens it reports it.
func Check(path string) error {
	st, err := os.Stat(path)
	if err != nil || st.Mode().IsRegular() {
		return nil
	}
	return notRegular(path, st.Mode())
}

// CheckInput is Check for a path that must exist, with one stat: a
// missing path is an error naming it in the system's words
// ("scene.tif: no such file or directory", as GDAL says it), wrapping
// fs.ErrNotExist, rather than each reader's own message.
func CheckInput(path string) error {
	st, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return fmt.Errorf("%s: %w", path, err)
	}
	if err != nil || st.Mode().IsRegular() {
		return nil
	}
	return notRegular(path, st.Mode())
}

// Open opens path for reading when it is a regular file, and otherwise
// returns an error wrapping ErrNotRegular without blocking: the file is
// opened non-blocking (where the system has the flag), so that opening a
// FIFO with no writer returns at once, and checked on the open file, so
// that a path swapped between a check and the open is caught too.
func Open(path string) (*os.File, error) {
	if err := Check(path); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_RDONLY|nonBlock, 0)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, notRegular(path, st.Mode())
	}
	return f, nil
}

// ReadFile reads the regular file path whole (Open) when it holds at most
// limit bytes; a larger file is an error wrapping ErrTooLarge that names
// what the file is ("a weight file"), checked from its size before it is
// read and again while reading (a file that grows).
func ReadFile(path string, limit int64, what string) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	tooLarge := func(n int64) error {
		return fmt.Errorf("%s: %w: %d bytes or more, more than the %s %s may take", path, ErrTooLarge, n, size(limit), what)
	}
	if st.Size() > limit {
		return nil, tooLarge(st.Size())
	}
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if int64(len(b)) > limit {
		return nil, tooLarge(int64(len(b)))
	}
	return b, nil
}

// size prints a bound in binary units ("16 MiB").
func size(n int64) string {
	for _, u := range []struct {
		shift int
		name  string
	}{{30, "GiB"}, {20, "MiB"}, {10, "KiB"}} {
		if n >= 1<<u.shift && n%(1<<u.shift) == 0 {
			return fmt.Sprintf("%d %s", n>>u.shift, u.name)
		}
	}
	return fmt.Sprintf("%d bytes", n)
}
