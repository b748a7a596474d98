package npy

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/sample"
)

// streamRows writes c through a StreamWriter in row chunks of the given
// sizes (cycled until the image is done) and commits.
func streamRows(path string, c *hsi.Cube, opt hsi.WriteOptions, chunks []int) error {
	s, err := Create(path, c.H, c.W, c.B, c.Meta, opt)
	if err != nil {
		return err
	}
	defer s.Abort()
	row := c.W * c.B
	for y, i := 0, 0; y < c.H; i++ {
		n := min(chunks[i%len(chunks)], c.H-y)
		if err := s.WriteRows(slices.Clone(c.Data[y*row : (y+n)*row])); err != nil {
			return err
		}
		y += n
	}
	if s.Rows() != c.H {
		return os.ErrInvalid
	}
	return s.Commit()
}

func empty(t *testing.T, dir string) {
	t.Helper()
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Fatalf("%s holds %v", dir, ents)
	}
}

// TestStreamMatchesWrite: every data type, one band and several, rows in
// uneven chunks, gives Write's file byte for byte.
func TestStreamMatchesWrite(t *testing.T) {
	dir := t.TempDir()
	for _, typ := range []sample.Type{sample.Uint8, sample.Int8, sample.Int16, sample.Uint16, sample.Int32, sample.Uint32, sample.Int64, sample.Uint64, sample.Float32, sample.Float64} {
		for _, b := range []int{1, 7} {
			c := testCube(9, 5, b, typ)
			opt := hsi.WriteOptions{DataType: typ}
			a, s := filepath.Join(dir, "a.npy"), filepath.Join(dir, "s.npy")
			if err := Write(a, c, opt); err != nil {
				t.Fatal(err)
			}
			if err := streamRows(s, c, opt, []int{4, 0, 1, 2}); err != nil {
				t.Fatalf("%s: %v", typ, err)
			}
			x, _ := os.ReadFile(a)
			y, _ := os.ReadFile(s)
			if len(x) == 0 || !bytes.Equal(x, y) {
				t.Fatalf("%s x %d bands: streamed file differs (%d vs %d bytes)", typ, b, len(x), len(y))
			}
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 2 {
		t.Fatalf("left %v", ents)
	}
}

// TestStreamMatchesWriteLarge crosses the 4 MiB buffer within a call.
func TestStreamMatchesWriteLarge(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 20 MB")
	}
	c := testCube(300, 300, 13, sample.Float32)
	dir := t.TempDir()
	a, s := filepath.Join(dir, "a.npy"), filepath.Join(dir, "s.npy")
	if err := Write(a, c, hsi.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, chunks := range [][]int{{300}, {7, 251}} {
		if err := streamRows(s, c, hsi.WriteOptions{}, chunks); err != nil {
			t.Fatal(err)
		}
		x, _ := os.ReadFile(a)
		y, _ := os.ReadFile(s)
		if !bytes.Equal(x, y) {
			t.Fatalf("%v: streamed file differs", chunks)
		}
	}
}

func TestStreamValueErrors(t *testing.T) {
	for _, tc := range []struct {
		typ  sample.Type
		v    float32
		want string
	}{
		{sample.Float32, float32(math.Inf(-1)), "holds -Inf at row 5, column 1, band 2"},
		{sample.Float64, float32(math.Inf(1)), "holds +Inf at row 5, column 1, band 2"},
		{sample.Int16, float32(math.NaN()), "holds NaN at row 5, column 1, band 2"},
		{sample.Uint8, -1, "value -1 at row 5, column 1, band 2 (0-based) does not fit uint8"},
	} {
		dir := t.TempDir()
		c := testCube(7, 3, 4, sample.Uint8)
		c.Set(5, 1, 2, tc.v)
		err := streamRows(filepath.Join(dir, "v.npy"), c, hsi.WriteOptions{DataType: tc.typ}, []int{2, 4})
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "v.npy") {
			t.Errorf("%s: %v", tc.typ, err)
		}
		empty(t, dir)
	}
}

func TestStreamLifecycle(t *testing.T) {
	c := testCube(5, 3, 2, sample.Float32)
	row := c.W * c.B
	dir := t.TempDir()
	p := filepath.Join(dir, "l.npy")

	s, err := Create(p, 5, 3, 2, hsi.Meta{}, hsi.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	s.WriteRows(c.Data[:4*row])
	if err := s.Commit(); err == nil || !strings.Contains(err.Error(), "only 4 of 5 rows") {
		t.Fatalf("missing row: %v", err)
	}
	empty(t, dir)

	s, _ = Create(p, 5, 3, 2, hsi.Meta{}, hsi.WriteOptions{})
	s.WriteRows(c.Data[:row])
	s.Abort()
	s.Abort()
	empty(t, dir)
	if s.WriteRows(c.Data[:row]) == nil || s.Commit() == nil {
		t.Fatal("an aborted writer accepted rows or committed")
	}

	s, _ = Create(p, 5, 3, 2, hsi.Meta{}, hsi.WriteOptions{})
	if err := s.WriteRows(c.Data[:row-1]); err == nil || !strings.Contains(err.Error(), "not whole rows") {
		t.Fatalf("partial row: %v", err)
	}
	empty(t, dir)

	s, _ = Create(p, 5, 3, 2, hsi.Meta{}, hsi.WriteOptions{})
	s.WriteRows(c.Data[:3*row])
	if err := s.WriteRows(c.Data[:3*row]); err == nil || !strings.Contains(err.Error(), "3 more rows after 3 of 5") {
		t.Fatalf("too many rows: %v", err)
	}
	empty(t, dir)

	s, _ = Create(p, 5, 3, 2, hsi.Meta{}, hsi.WriteOptions{})
	if err := s.WriteRows(c.Data); err != nil {
		t.Fatal(err)
	}
	if err := s.Commit(); err != nil {
		t.Fatal(err)
	}
	if err := s.Commit(); err != nil {
		t.Fatal(err)
	}
	s.Abort()
	got, _, err := Read(p, hsi.ReadOptions{})
	if err != nil || !slices.Equal(got.Data, c.Data) {
		t.Fatalf("read back: %v", err)
	}

	for _, bad := range []struct {
		h   int
		opt hsi.WriteOptions
	}{{0, hsi.WriteOptions{}}, {5, hsi.WriteOptions{DataType: sample.Float16}}, {5, hsi.WriteOptions{DataType: sample.Type(99)}}} {
		if _, err := Create(filepath.Join(dir, "e.npy"), bad.h, 3, 2, hsi.Meta{}, bad.opt); err == nil || !strings.Contains(err.Error(), "e.npy") {
			t.Errorf("%+v: %v", bad, err)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Fatalf("left %v", ents)
	}
}

// TestStreamMemory: allocations are bounded by one call, not the image.
func TestStreamMemory(t *testing.T) {
	const H, W, B, k = 256, 64, 32, 4
	rows := make([]float32, k*W*B)
	s, err := Create(filepath.Join(t.TempDir(), "m.npy"), H, W, B, hsi.Meta{}, hsi.WriteOptions{DataType: sample.Float64})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Abort()
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	for y := 0; y < H; y += k {
		if err := s.WriteRows(rows); err != nil {
			t.Fatal(err)
		}
	}
	runtime.ReadMemStats(&m1)
	if got, call := m1.TotalAlloc-m0.TotalAlloc, uint64(len(rows))*4; got > 3*call {
		t.Errorf("allocated %d bytes for an image of %d; one call holds %d", got, H*W*B*4, call)
	}
	if err := s.Commit(); err != nil {
		t.Fatal(err)
	}
}
