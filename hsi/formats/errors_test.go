package formats_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/formats"
	"github.com/omnihsr/omnihsr/hsi/npy"
)

// bombReader is a .npy file of size bytes: a header declaring shape and
// then zeros, none of them stored.
type bombReader struct{ head []byte }

func (r bombReader) ReadAt(p []byte, off int64) (int, error) {
	clear(p)
	if off < int64(len(r.head)) {
		copy(p, r.head[off:])
	}
	return len(p), nil
}

// npyHeader is the version 1.0 header of a .npy file with dictionary dict.
func npyHeader(dict string) []byte {
	dict += strings.Repeat(" ", (64-(10+len(dict)+1)%64)%64) + "\n"
	b := append([]byte("\x93NUMPY\x01\x00"), byte(len(dict)), byte(len(dict)>>8))
	return append(b, dict...)
}

// TestErrTooLargeFromOutside reads, as a program outside the module
// would, files whose headers declare a cube of 1 GiB (uint8) with a memory
// limit of 256 MiB: the errors match hsi.ErrTooLarge, the one sentinel a
// caller can import, and name the file; nothing is allocated.
func TestErrTooLargeFromOutside(t *testing.T) {
	t.Setenv("OMNIHSR_MEM_LIMIT", "256M")
	head := npyHeader("{'descr': '|u1', 'fortran_order': False, 'shape': (8192, 8192, 16), }")
	size := int64(len(head)) + 8192*8192*16
	c, _, err := npy.Decode(bombReader{head}, size, hsi.ReadOptions{})
	if c != nil || !errors.Is(err, hsi.ErrTooLarge) {
		t.Fatalf("npy.Decode: cube %v, error %v; want hsi.ErrTooLarge", c != nil, err)
	}

	// The same through formats.Read, from an ENVI header over a sparse
	// data file.
	dir := t.TempDir()
	hdr := filepath.Join(dir, "bomb.hdr")
	if err := os.WriteFile(hdr, []byte("ENVI\nsamples = 8192\nlines = 8192\nbands = 16\ndata type = 1\nheader offset = 0\nbyte order = 0\ninterleave = bsq\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(filepath.Join(dir, "bomb.img"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.Truncate(8192 * 8192 * 16); err != nil {
		t.Skip("no sparse files here:", err)
	}
	c, _, err = formats.Read(hdr, hsi.ReadOptions{})
	if c != nil || !errors.Is(err, hsi.ErrTooLarge) || !strings.Contains(err.Error(), "bomb") {
		t.Fatalf("formats.Read: cube %v, error %v; want one naming the file and matching hsi.ErrTooLarge", c != nil, err)
	}
}
