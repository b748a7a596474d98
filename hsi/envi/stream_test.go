package envi

import (
	"bytes"
	"encoding/binary"
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
		// A copy, so that the writer cannot rely on the cube's memory.
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

// sameFiles checks that dirs a and b hold the same file names with the
// same bytes.
func sameFiles(t *testing.T, a, b string) {
	t.Helper()
	ea, _ := os.ReadDir(a)
	eb, _ := os.ReadDir(b)
	if len(ea) != len(eb) || len(ea) == 0 {
		t.Fatalf("%s holds %v, %s holds %v", a, ea, b, eb)
	}
	for i := range ea {
		if ea[i].Name() != eb[i].Name() {
			t.Fatalf("%s holds %v, %s holds %v", a, ea, b, eb)
		}
		x, _ := os.ReadFile(filepath.Join(a, ea[i].Name()))
		y, _ := os.ReadFile(filepath.Join(b, eb[i].Name()))
		if !bytes.Equal(x, y) {
			t.Fatalf("%s differs: %d vs %d bytes", ea[i].Name(), len(x), len(y))
		}
	}
}

func empty(t *testing.T, dir string) {
	t.Helper()
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Fatalf("%s holds %v", dir, ents)
	}
}

// TestStreamMatchesWrite: every interleave and data type, rows in uneven
// chunks (including an empty call), gives Write's files byte for byte.
func TestStreamMatchesWrite(t *testing.T) {
	types := []sample.Type{sample.Uint8, sample.Int16, sample.Uint16, sample.Int32, sample.Uint32, sample.Int64, sample.Uint64, sample.Float32, sample.Float64}
	for _, il := range []string{"bsq", "bil", "bip"} {
		for _, typ := range types {
			c := testCube(7, 5, 19, typ) // 19 bands: a full and a partial group of 16
			c.Meta = fullMeta(19)
			opt := hsi.WriteOptions{DataType: typ, Interleave: hsi.Interleave(il)}
			a, b := t.TempDir(), t.TempDir()
			if err := Write(filepath.Join(a, "x.hdr"), c, opt); err != nil {
				t.Fatal(err)
			}
			if err := streamRows(filepath.Join(b, "x.hdr"), c, opt, []int{2, 0, 1, 3}); err != nil {
				t.Fatalf("%s %s: %v", il, typ, err)
			}
			sameFiles(t, a, b)
		}
	}
}

// TestStreamMatchesWriteLarge crosses every buffer boundary: more samples
// than one bip chunk, more pixels than one bsq block, more lines than one
// bil buffer, within one call and across calls.
func TestStreamMatchesWriteLarge(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 40 MB")
	}
	c := testCube(300, 300, 17, sample.Float32)
	for _, il := range []string{"bsq", "bil", "bip"} {
		opt := hsi.WriteOptions{Interleave: hsi.Interleave(il)}
		a := t.TempDir()
		if err := Write(filepath.Join(a, "x.bin"), c, opt); err != nil {
			t.Fatal(err)
		}
		for _, chunks := range [][]int{{300}, {1, 256, 43}} {
			b := t.TempDir()
			if err := streamRows(filepath.Join(b, "x.bin"), c, opt, chunks); err != nil {
				t.Fatal(err)
			}
			sameFiles(t, a, b)
		}
	}
}

// TestStreamMetadata reads the streamed image back with its metadata.
func TestStreamMetadata(t *testing.T) {
	c := testCube(4, 3, 5, sample.Float32)
	c.Meta = fullMeta(5)
	p := filepath.Join(t.TempDir(), "m.img")
	if err := streamRows(p, c, hsi.WriteOptions{Interleave: "bil"}, []int{3}); err != nil {
		t.Fatal(err)
	}
	got, info, err := Read(p, hsi.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if info.Layout != "bil" || !slices.Equal(got.Data, c.Data) {
		t.Fatalf("layout %s, data differ", info.Layout)
	}
	m := got.Meta
	if !slices.Equal(m.Wavelengths, c.Meta.Wavelengths) || !slices.Equal(m.FWHM, c.Meta.FWHM) || !slices.Equal(m.BadBands, c.Meta.BadBands) ||
		m.Geo == nil || m.Geo.MapInfo != c.Meta.Geo.MapInfo || m.Geo.CoordSys != c.Meta.Geo.CoordSys || !m.HasDataIgnore || m.DataIgnore != -9999 {
		t.Fatalf("metadata %+v", m)
	}
}

// TestStreamNaNPosition: an infinite value (and NaN for an integer type)
// in a later chunk is reported at its row, column and band, for every
// interleave and a float and an integer type,
// and the failed writer leaves nothing even without Abort.
func TestStreamNaNPosition(t *testing.T) {
	for _, il := range []string{"bsq", "bil", "bip"} {
		for _, typ := range []sample.Type{sample.Float32, sample.Uint16} {
			for _, bad := range []float32{float32(math.NaN()), float32(math.Inf(-1))} {
				if typ == sample.Float32 && bad != bad {
					continue // NaN is written to float types
				}
				dir := t.TempDir()
				c := testCube(6, 4, 18, sample.Uint8)
				c.Set(4, 2, 17, bad)
				err := streamRows(filepath.Join(dir, "n.hdr"), c, hsi.WriteOptions{Interleave: hsi.Interleave(il), DataType: typ}, []int{3, 2})
				if err == nil || !strings.Contains(err.Error(), "row 4, column 2, band 17") || !strings.Contains(err.Error(), "non-finite") {
					t.Fatalf("%s %s: %v", il, typ, err)
				}
				empty(t, dir)
			}
		}
	}
}

func TestStreamRangeError(t *testing.T) {
	dir := t.TempDir()
	c := testCube(3, 4, 2, sample.Uint8)
	c.Set(2, 3, 1, 300)
	err := streamRows(filepath.Join(dir, "r.hdr"), c, hsi.WriteOptions{DataType: sample.Uint8}, []int{1})
	if err == nil || !strings.Contains(err.Error(), "value 300 at row 2, column 3, band 1") || !strings.Contains(err.Error(), "does not fit uint8") {
		t.Fatalf("%v", err)
	}
	empty(t, dir)
}

// TestStreamLifecycle covers missing rows, Abort, misuse and Commit twice.
func TestStreamLifecycle(t *testing.T) {
	c := testCube(5, 3, 4, sample.Float32)
	row := c.W * c.B
	open := func(t *testing.T) (string, *StreamWriter) {
		dir := t.TempDir()
		s, err := Create(filepath.Join(dir, "x.hdr"), 5, 3, 4, hsi.Meta{}, hsi.WriteOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return dir, s
	}
	t.Run("missing rows", func(t *testing.T) {
		dir, s := open(t)
		if err := s.WriteRows(c.Data[:3*row]); err != nil {
			t.Fatal(err)
		}
		err := s.Commit()
		if err == nil || !strings.Contains(err.Error(), "only 3 of 5 rows") {
			t.Fatalf("%v", err)
		}
		empty(t, dir)
		if err2 := s.Commit(); err2 != err {
			t.Fatalf("second Commit: %v", err2)
		}
		s.Abort()
		empty(t, dir)
	})
	t.Run("abort", func(t *testing.T) {
		dir, s := open(t)
		if err := s.WriteRows(c.Data[:2*row]); err != nil {
			t.Fatal(err)
		}
		s.Abort()
		s.Abort()
		empty(t, dir)
		if err := s.WriteRows(c.Data[2*row : 3*row]); err == nil {
			t.Fatal("WriteRows after Abort succeeded")
		}
		if err := s.Commit(); err == nil {
			t.Fatal("Commit after Abort succeeded")
		}
		empty(t, dir)
	})
	t.Run("partial row", func(t *testing.T) {
		dir, s := open(t)
		if err := s.WriteRows(c.Data[:row+1]); err == nil || !strings.Contains(err.Error(), "not whole rows") {
			t.Fatalf("%v", err)
		}
		empty(t, dir)
	})
	t.Run("too many rows", func(t *testing.T) {
		dir, s := open(t)
		s.WriteRows(c.Data[:4*row])
		if err := s.WriteRows(c.Data[:2*row]); err == nil || !strings.Contains(err.Error(), "2 more rows after 4 of 5") {
			t.Fatalf("%v", err)
		}
		empty(t, dir)
	})
	t.Run("commit twice, abort after", func(t *testing.T) {
		dir, s := open(t)
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
		if err := s.WriteRows(c.Data[:row]); err == nil {
			t.Fatal("WriteRows after Commit succeeded")
		}
		got, _, err := Read(filepath.Join(dir, "x.hdr"), hsi.ReadOptions{})
		if err != nil || !slices.Equal(got.Data, c.Data) {
			t.Fatalf("read back: %v", err)
		}
		if ents, _ := os.ReadDir(dir); len(ents) != 2 {
			t.Fatalf("%v", ents)
		}
	})
}

func TestStreamCreateErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		h, w, b int
		meta    hsi.Meta
		opt     hsi.WriteOptions
		want    string
	}{
		{0, 3, 4, hsi.Meta{}, hsi.WriteOptions{}, "zero dimension"},
		{3, 3, -1, hsi.Meta{}, hsi.WriteOptions{}, "zero dimension"},
		{1 << 40, 1 << 20, 1 << 10, hsi.Meta{}, hsi.WriteOptions{}, "too large"},
		{3, 3, 4, hsi.Meta{Wavelengths: []float64{1, 2}}, hsi.WriteOptions{}, "wavelength has 2 entries for 4 bands"},
		{3, 3, 4, hsi.Meta{}, hsi.WriteOptions{Interleave: "bsx"}, "interleave"},
		{3, 3, 4, hsi.Meta{}, hsi.WriteOptions{DataType: sample.Int8}, "cannot be stored in ENVI"},
		{3, 3, 4, hsi.Meta{}, hsi.WriteOptions{DataType: sample.Type(99)}, "unknown data type"},
	} {
		_, err := Create(filepath.Join(dir, "e.hdr"), tc.h, tc.w, tc.b, tc.meta, tc.opt)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "e.hdr") {
			t.Errorf("%+v: %v", tc, err)
		}
	}
	if _, err := Create(filepath.Join(dir, "no", "such", "e.hdr"), 1, 1, 1, hsi.Meta{}, hsi.WriteOptions{}); err == nil {
		t.Error("Create in a missing directory succeeded")
	}
	empty(t, dir)
}

// TestStreamMemory checks that the writer's allocations are bounded by one
// call's rows, not by the image: 64 rows of 64 x 64 x 32 float32 (8 MiB)
// written 4 rows at a time.
func TestStreamMemory(t *testing.T) {
	const H, W, B, k = 256, 64, 32, 4
	rows := make([]float32, k*W*B)
	for i := range rows {
		rows[i] = float32(i % 1000)
	}
	callBytes := uint64(len(rows)) * 4
	for _, il := range []string{"bsq", "bil", "bip"} {
		for _, typ := range []sample.Type{sample.Float32, sample.Float64} {
			s, err := Create(filepath.Join(t.TempDir(), "m.hdr"), H, W, B, hsi.Meta{}, hsi.WriteOptions{Interleave: hsi.Interleave(il), DataType: typ})
			if err != nil {
				t.Fatal(err)
			}
			var m0, m1 runtime.MemStats
			runtime.ReadMemStats(&m0)
			for y := 0; y < H; y += k {
				if err := s.WriteRows(rows); err != nil {
					t.Fatal(err)
				}
			}
			runtime.ReadMemStats(&m1)
			if err := s.Commit(); err != nil {
				t.Fatal(err)
			}
			// The encoded rows of one call (twice the float32 bytes for
			// float64) plus the 16-band transposition buffer.
			if got := m1.TotalAlloc - m0.TotalAlloc; got > 3*callBytes {
				t.Errorf("%s %s: allocated %d bytes for an image of %d; one call holds %d", il, typ, got, H*W*B*4, callBytes)
			}
		}
	}
}

func BenchmarkStream(b *testing.B) {
	for _, sz := range benchSizes {
		for _, il := range []string{"bsq", "bil", "bip"} {
			b.Run(sz.name+"/"+il+"/float32", func(b *testing.B) {
				if sz.name == "Large" && testing.Short() {
					b.Skip("large")
				}
				c := testCube(sz.h, sz.w, sz.b, sample.Float32)
				p := filepath.Join(b.TempDir(), "x.hdr")
				b.SetBytes(int64(len(c.Data)) * 4)
				for b.Loop() {
					if err := streamRows(p, c, hsi.WriteOptions{Interleave: hsi.Interleave(il)}, []int{8}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// TestStreamBSQFloat32Bytes: streamed float32 BSQ samples are the values'
// little-endian bytes at their place in the band planes, NaN included
// (in a full group of 16 bands and in the last, shorter group), with
// blocks of several pixels and rows arriving in uneven chunks; checked
// against offsets computed here, not against Write.
func TestStreamBSQFloat32Bytes(t *testing.T) {
	const h, w, b = 7, 700, 37 // more than one 512-pixel block per row
	c := testCube(h, w, b, sample.Float32)
	nan := float32(math.NaN())
	c.Set(0, 0, 0, nan)
	c.Set(3, 650, 15, nan)
	c.Set(6, 699, 36, nan)
	c.Set(5, 10, 33, float32(math.Copysign(0, -1)))
	dir := t.TempDir()
	p := filepath.Join(dir, "f.hdr")
	if err := streamRows(p, c, hsi.WriteOptions{Interleave: "bsq"}, []int{3, 1, 2}); err != nil {
		t.Fatal(err)
	}
	_, dataPath := WritePaths(p)
	got, err := os.ReadFile(dataPath)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != h*w*b*4 {
		t.Fatalf("%d bytes, want %d", len(got), h*w*b*4)
	}
	for k := 0; k < b; k++ {
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				off := ((k*h+y)*w + x) * 4
				if u, want := binary.LittleEndian.Uint32(got[off:]), math.Float32bits(c.At(y, x, k)); u != want {
					t.Fatalf("band %d, row %d, column %d: bits %#x, want %#x", k, y, x, u, want)
				}
			}
		}
	}
}
