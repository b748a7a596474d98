package formats

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/sample"
	"github.com/omnihsr/omnihsr/internal/memlimit"
)

// intCube holds integers 0..250 (they fit every data type) and the
// metadata the writers keep.
func intCube(h, w, b int) *hsi.Cube {
	c := hsi.MustNew(h, w, b)
	for i := range c.Data {
		c.Data[i] = float32((i * 37) % 251)
	}
	for i := 0; i < b; i++ {
		c.Meta.Wavelengths = append(c.Meta.Wavelengths, 400+12.5*float64(i))
	}
	c.Meta.WavelengthUnits = "Nanometers"
	c.Meta.Geo = &hsi.Geo{MapInfo: "UTM, 1, 1, 500000, 4100000, 2, 2, 33, North, WGS-84"}
	return c
}

// stream writes c through Create in row chunks of the given sizes (cycled).
func stream(path string, c *hsi.Cube, opt hsi.WriteOptions, chunks []int) error {
	w, err := Create(path, c.H, c.W, c.B, c.Meta, opt)
	if err != nil {
		return err
	}
	defer w.Abort()
	row := c.W * c.B
	for y, i := 0, 0; y < c.H; i++ {
		n := min(chunks[i%len(chunks)], c.H-y)
		if err := w.WriteRows(slices.Clone(c.Data[y*row : (y+n)*row])); err != nil {
			return err
		}
		y += n
	}
	return w.Commit()
}

func dirEmpty(t *testing.T, dir string) {
	t.Helper()
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Fatalf("%s holds %v", dir, ents)
	}
}

// sameDirs checks that a and b hold the same files with the same bytes.
func sameDirs(t *testing.T, a, b string) {
	t.Helper()
	ea, _ := os.ReadDir(a)
	eb, _ := os.ReadDir(b)
	if len(ea) == 0 || len(ea) != len(eb) {
		t.Fatalf("%v vs %v", ea, eb)
	}
	for i := range ea {
		x, _ := os.ReadFile(filepath.Join(a, ea[i].Name()))
		y, err := os.ReadFile(filepath.Join(b, ea[i].Name()))
		if err != nil || !bytes.Equal(x, y) {
			t.Fatalf("%s: streamed file differs (%d vs %d bytes, %v)", ea[i].Name(), len(x), len(y), err)
		}
	}
}

// TestCreateMatchesWrite: for every format, interleave and a few data
// types, rows in uneven chunks give Write's files byte for byte.
func TestCreateMatchesWrite(t *testing.T) {
	c := intCube(7, 5, 18)
	for _, tc := range []struct {
		name string
		opt  hsi.WriteOptions
	}{
		{"x.hdr", hsi.WriteOptions{}},
		{"x.hdr", hsi.WriteOptions{Interleave: "bil", DataType: sample.Uint16}},
		{"x.bip", hsi.WriteOptions{Interleave: "bip", DataType: sample.Int16}},
		{"x.img", hsi.WriteOptions{Interleave: "bsq", DataType: sample.Float64}},
		{"x.bil", hsi.WriteOptions{Interleave: "bil", DataType: sample.Uint8}},
		{"x.dat", hsi.WriteOptions{Interleave: "bip", DataType: sample.Int32}},
		{"x.npy", hsi.WriteOptions{}},
		{"x.npy", hsi.WriteOptions{DataType: sample.Uint8}},
		{"x.npy", hsi.WriteOptions{DataType: sample.Float64}},
		{"x.tif", hsi.WriteOptions{}},
		{"x.tif", hsi.WriteOptions{DataType: sample.Uint16, Compression: "deflate"}},
		{"x.mat", hsi.WriteOptions{DataType: sample.Int16}},
		{"x.png", hsi.WriteOptions{}},
	} {
		a, b := t.TempDir(), t.TempDir()
		if err := Write(filepath.Join(a, tc.name), c, tc.opt); err != nil {
			t.Fatal(err)
		}
		if err := stream(filepath.Join(b, tc.name), c, tc.opt, []int{3, 1, 0, 2}); err != nil {
			t.Fatalf("%s %+v: %v", tc.name, tc.opt, err)
		}
		sameDirs(t, a, b)
	}
}

// TestCreateMetadata reads wavelengths and georeferencing back.
func TestCreateMetadata(t *testing.T) {
	c := intCube(4, 6, 3)
	for _, name := range []string{"m.hdr", "m.tif"} {
		p := filepath.Join(t.TempDir(), name)
		if err := stream(p, c, hsi.WriteOptions{}, []int{1, 3}); err != nil {
			t.Fatal(err)
		}
		got, _, err := Read(p, hsi.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got.Data, c.Data) || !slices.Equal(got.Meta.Wavelengths, c.Meta.Wavelengths) || got.Meta.Geo == nil {
			t.Fatalf("%s: meta %+v", name, got.Meta)
		}
		if name == "m.hdr" && got.Meta.Geo.MapInfo != c.Meta.Geo.MapInfo {
			t.Fatalf("map info %q", got.Meta.Geo.MapInfo)
		}
	}
}

// TestCreateNaNEveryFormat: every format writes NaN to a float type and
// reads it back at its place; WriteRows reports an infinite value's
// position in every format, and the failed writer leaves nothing.
func TestCreateNaNEveryFormat(t *testing.T) {
	c := intCube(6, 3, 5)
	c.Set(4, 1, 2, float32(math.NaN()))
	for _, name := range []string{"n.hdr", "n.bil", "n.npy", "n.tif", "n.mat"} {
		p := filepath.Join(t.TempDir(), name)
		if err := stream(p, c, hsi.WriteOptions{}, []int{2, 3}); err != nil {
			t.Fatalf("%s: NaN: %v", name, err)
		}
		got, _, err := Read(p, hsi.ReadOptions{RefuseNaN: true})
		var nf *hsi.NonFiniteError
		if !errors.As(err, &nf) || nf.Count != 1 || nf.Row != 4 || nf.Col != 1 || nf.Band != 2 || got == nil {
			t.Fatalf("%s: read back: %v", name, err)
		}
		for i, v := range got.Data {
			if v != c.Data[i] && !(v != v && c.Data[i] != c.Data[i]) {
				t.Fatalf("%s: value %d = %v, want %v", name, i, v, c.Data[i])
			}
		}
	}
	c.Set(4, 1, 2, float32(math.Inf(1)))
	for _, name := range []string{"n.hdr", "n.bil", "n.npy", "n.tif", "n.mat", "n.png"} {
		dir := t.TempDir()
		opt := hsi.WriteOptions{}
		if name == "n.bil" {
			opt.Interleave = "bil"
		}
		err := stream(filepath.Join(dir, name), c, opt, []int{2, 3})
		if err == nil || !strings.Contains(err.Error(), "+Inf at row 4, column 1, band 2") || !strings.Contains(err.Error(), "n.") {
			t.Errorf("%s: %v", name, err)
		}
		dirEmpty(t, dir)
	}
}

// TestCreateLifecycle: missing rows, Abort, misuse, for a streamed and an
// in-memory format.
func TestCreateLifecycle(t *testing.T) {
	c := intCube(5, 4, 3)
	row := c.W * c.B
	for _, name := range []string{"l.hdr", "l.npy", "l.tif", "l.mat"} {
		dir := t.TempDir()
		p := filepath.Join(dir, name)
		open := func() RowWriter {
			w, err := Create(p, c.H, c.W, c.B, c.Meta, hsi.WriteOptions{})
			if err != nil {
				t.Fatal(err)
			}
			return w
		}
		w := open()
		if err := w.WriteRows(c.Data[:4*row]); err != nil {
			t.Fatal(err)
		}
		if err := w.Commit(); err == nil || !strings.Contains(err.Error(), "only 4 of 5 rows") {
			t.Fatalf("%s missing row: %v", name, err)
		}
		w.Abort()
		dirEmpty(t, dir)

		w = open()
		w.WriteRows(c.Data[:2*row])
		w.Abort()
		w.Abort()
		dirEmpty(t, dir)
		if w.WriteRows(c.Data[2*row:3*row]) == nil || w.Commit() == nil {
			t.Fatalf("%s: an aborted writer went on", name)
		}
		dirEmpty(t, dir)

		w = open()
		if err := w.WriteRows(c.Data[:row+2]); err == nil || !strings.Contains(err.Error(), "not whole rows") {
			t.Fatalf("%s partial row: %v", name, err)
		}
		dirEmpty(t, dir)

		w = open()
		if err := w.WriteRows(append(slices.Clone(c.Data), c.Data[:row]...)); err == nil || !strings.Contains(err.Error(), "6 more rows after 0 of 5") {
			t.Fatalf("%s too many rows: %v", name, err)
		}
		dirEmpty(t, dir)

		w = open()
		if err := w.WriteRows(c.Data); err != nil {
			t.Fatal(err)
		}
		if err := w.Commit(); err != nil {
			t.Fatal(err)
		}
		if err := w.Commit(); err != nil {
			t.Fatalf("%s second Commit: %v", name, err)
		}
		w.Abort()
		if w.WriteRows(c.Data[:row]) == nil {
			t.Fatalf("%s: WriteRows after Commit succeeded", name)
		}
		got, _, err := Read(p, hsi.ReadOptions{})
		if err != nil || !slices.Equal(got.Data, c.Data) {
			t.Fatalf("%s read back: %v", name, err)
		}
	}
}

// TestCreateTooLarge: an in-memory format refuses an output beyond the
// memory limit and points to the streaming formats, which need no memory
// for it but do need the disk space.
func TestCreateTooLarge(t *testing.T) {
	t.Setenv("OMNIHSR_MEM_LIMIT", "64M")
	dir := t.TempDir()
	for _, name := range []string{"big.mat", "big.png"} {
		_, err := Create(filepath.Join(dir, name), 8192, 8192, 128, hsi.Meta{}, hsi.WriteOptions{})
		if !errors.Is(err, memlimit.ErrTooLarge) {
			t.Fatalf("%s: %v", name, err)
		}
		for _, want := range []string{name, "8192x8192x128 float32 needs 32.0 GiB", "ENVI (.hdr) or NPY (.npy)", "stream to disk"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%s: %q lacks %q", name, err, want)
			}
		}
	}
	dirEmpty(t, dir)

	defer func(f func(string) (uint64, bool)) { diskFree = f }(diskFree)
	diskFree = func(string) (uint64, bool) { return 1 << 50, true }
	for _, name := range []string{"big.hdr", "big.npy", "big.tif"} {
		w, err := Create(filepath.Join(dir, name), 8192, 8192, 128, hsi.Meta{}, hsi.WriteOptions{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		w.Abort()
	}
	dirEmpty(t, dir)

	diskFree = func(string) (uint64, bool) { return 10 << 30, true }
	_, err := Create(filepath.Join(dir, "big.hdr"), 8192, 8192, 128, hsi.Meta{}, hsi.WriteOptions{DataType: sample.Uint16})
	if !errors.Is(err, hsi.ErrNoSpace) || !strings.Contains(err.Error(), "16.0 GiB on disk") || !strings.Contains(err.Error(), "10.0 GiB free") {
		t.Fatalf("no space: %v", err)
	}
	dirEmpty(t, dir)
}

// TestCreateRefusesEarly: options and metadata a format refuses fail at
// Create, naming the destination, and leave nothing.
func TestCreateRefusesEarly(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		meta hsi.Meta
		opt  hsi.WriteOptions
		want string
	}{
		{"e.tif", hsi.Meta{}, hsi.WriteOptions{DataType: sample.Int64}, "not supported"},
		{"e.tif", hsi.Meta{}, hsi.WriteOptions{Compression: "brotli"}, "brotli"},
		{"e.tif", hsi.Meta{}, hsi.WriteOptions{Creation: []string{"COMPRESS=JPEG"}}, "COMPRESS=JPEG"},
		{"e.tif", hsi.Meta{}, hsi.WriteOptions{Driver: "COG", Creation: []string{"TILED=YES"}}, "TILED is not known to the COG driver"},
		{"e.hdr", hsi.Meta{}, hsi.WriteOptions{Creation: []string{"COMPRESS=LZW"}}, "TIFF output only"},
		{"e.mat", hsi.Meta{}, hsi.WriteOptions{Var: "1bad"}, "1bad"},
		{"e.png", hsi.Meta{}, hsi.WriteOptions{DataType: sample.Float32}, "8-bit"},
		{"e.tif", hsi.Meta{Wavelengths: []float64{1}}, hsi.WriteOptions{}, "1 entries for 3 bands"},
		{"e.hdr", hsi.Meta{Wavelengths: []float64{1}}, hsi.WriteOptions{}, "1 entries for 3 bands"},
		{"e.hdr", hsi.Meta{}, hsi.WriteOptions{DataType: sample.Int8}, "cannot be stored in ENVI"},
		{"e.npy", hsi.Meta{}, hsi.WriteOptions{Interleave: "bil"}, "ENVI output only"},
		{"e.npy", hsi.Meta{}, hsi.WriteOptions{DataType: sample.Float16}, "cannot be written"},
		{"e.xyz", hsi.Meta{}, hsi.WriteOptions{}, "unknown file format"},
	} {
		w, err := Create(filepath.Join(dir, tc.name), 4, 4, 3, tc.meta, tc.opt)
		if err == nil || w != nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), tc.name) || strings.Contains(err.Error(), "probe") {
			t.Errorf("%s %+v: %v", tc.name, tc.opt, err)
		}
	}
	for _, size := range [][3]int{{0, 4, 3}, {4, -1, 3}, {1 << 40, 1 << 20, 1 << 10}} {
		for _, name := range []string{"s.hdr", "s.tif"} {
			if _, err := Create(filepath.Join(dir, name), size[0], size[1], size[2], hsi.Meta{}, hsi.WriteOptions{}); err == nil {
				t.Errorf("%s %v: no error", name, size)
			}
		}
	}
	if _, err := Create(filepath.Join(dir, "missing", "m.tif"), 4, 4, 3, hsi.Meta{}, hsi.WriteOptions{}); err == nil || !strings.Contains(err.Error(), "m.tif") {
		t.Errorf("missing directory: %v", err)
	}
	dirEmpty(t, dir)
}

func TestStreamingFormats(t *testing.T) {
	var names []string
	for _, f := range Formats() {
		if f.Create != nil {
			names = append(names, f.Name)
		}
	}
	if !slices.Equal(names, []string{"ENVI", "NPY", "TIFF"}) {
		t.Fatalf("streaming formats %v", names)
	}
}

// BenchmarkCreate streams a 256x256x128 float32 cube (32 MiB) in bands of
// 16 rows, against Write of the whole cube.
func BenchmarkCreate(b *testing.B) {
	c := hsi.MustNew(256, 256, 128)
	for i := range c.Data {
		c.Data[i] = float32(i%4093) * 0.25
	}
	for _, name := range []string{"x.hdr", "x.npy"} {
		for _, il := range []string{"", "bil", "bip"} {
			if name == "x.npy" && il != "" {
				continue
			}
			opt := hsi.WriteOptions{Interleave: hsi.Interleave(il)}
			p := filepath.Join(b.TempDir(), name)
			b.Run(name+"/"+il+"/stream", func(b *testing.B) {
				b.SetBytes(int64(len(c.Data)) * 4)
				for b.Loop() {
					if err := stream(p, c, opt, []int{16}); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run(name+"/"+il+"/write", func(b *testing.B) {
				b.SetBytes(int64(len(c.Data)) * 4)
				for b.Loop() {
					if err := Write(p, c, opt); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
