package formats

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/omnihsr/omnihsr/hsi"
)

func cube() *hsi.Cube {
	c := hsi.MustNew(5, 6, 4)
	for i := range c.Data {
		c.Data[i] = float32(i%251) - 20.5
	}
	c.Meta.Wavelengths = []float64{450, 550, 650, 750}
	c.Meta.WavelengthUnits = "Nanometers"
	return c
}

// TestChain converts a cube through every writable lossless format and back.
func TestChain(t *testing.T) {
	dir := t.TempDir()
	c := cube()
	paths := []string{"a.hdr", "b.npy", "c.mat", "d.tif", "e.img", "f.bil"}
	cur := c
	for _, name := range paths {
		p := filepath.Join(dir, name)
		if err := Write(p, cur, hsi.WriteOptions{}); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got, _, err := Read(p, hsi.ReadOptions{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got.H != c.H || got.W != c.W || got.B != c.B {
			t.Fatalf("%s: shape %dx%dx%d", name, got.H, got.W, got.B)
		}
		for i := range c.Data {
			if got.Data[i] != c.Data[i] {
				t.Fatalf("%s: value %d = %v, want %v", name, i, got.Data[i], c.Data[i])
			}
		}
		cur = got
	}
	// The first ENVI file keeps the wavelengths (NPY between drops them).
	got, _, _ := Read(filepath.Join(dir, "a.hdr"), hsi.ReadOptions{})
	if len(got.Meta.Wavelengths) != 4 || got.Meta.Wavelengths[2] != 650 {
		t.Fatalf("ENVI lost wavelengths: %+v", got.Meta)
	}
}

func TestDispatch(t *testing.T) {
	for path, want := range map[string]string{
		"x.HDR": "ENVI", "x.img": "ENVI", "y.npy": "NPY", "z.MAT": "MAT", "t.tif": "TIFF", "t.TIFF": "TIFF", "p.png": "PNG",
	} {
		f, err := ForRead(path)
		if err != nil || f.Name != want {
			t.Errorf("ForRead(%s) = %v, %v; want %s", path, f, err, want)
		}
	}
	if _, err := ForRead("x.jpg"); !errors.Is(err, ErrUnknownFormat) || !strings.Contains(err.Error(), "x.jpg") || !strings.Contains(err.Error(), ".npy") {
		t.Errorf("x.jpg: %v", err)
	}
	if _, err := ForWrite("noext"); !errors.Is(err, ErrUnknownFormat) {
		t.Errorf("noext: %v", err)
	}
	// A file with no extension but a header beside it is ENVI.
	dir := t.TempDir()
	if err := Write(filepath.Join(dir, "scene.hdr"), cube(), hsi.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	os.Rename(filepath.Join(dir, "scene.img"), filepath.Join(dir, "scene"))
	if c, _, err := Read(filepath.Join(dir, "scene"), hsi.ReadOptions{}); err != nil || c.B != 4 {
		t.Fatalf("bare ENVI data file: %v", err)
	}
	if exts := strings.Join(Extensions(), " "); len(Formats()) != 7 || !strings.Contains(exts, ".npy") || !strings.Contains(exts, ".nc") {
		t.Fatalf("Formats/Extensions: %v\n%s", Formats(), exts)
	}
}

func TestWriteOptionChecks(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		path string
		opt  hsi.WriteOptions
		want string
	}{
		{"a.npy", hsi.WriteOptions{Interleave: "bil"}, "ENVI output only"},
		{"a.hdr", hsi.WriteOptions{Compression: "deflate"}, "MAT and TIFF output only"},
		{"a.png", hsi.WriteOptions{Compression: "lzw"}, "MAT and TIFF output only"},
		{"a.xyz", hsi.WriteOptions{}, "unknown file format"},
	} {
		err := Write(filepath.Join(dir, tc.path), cube(), tc.opt)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), tc.path) {
			t.Errorf("%s %+v: %v", tc.path, tc.opt, err)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Fatalf("left %v", ents)
	}
	// Compression none is accepted everywhere.
	if err := Write(filepath.Join(dir, "ok.npy"), cube(), hsi.WriteOptions{Compression: "none"}); err != nil {
		t.Fatal(err)
	}
}

// TestNaNPolicyEveryFormat checks that a NaN is reported with its position
// whatever the format, including readers that do not check themselves.
func TestNaNPolicyEveryFormat(t *testing.T) {
	dir := t.TempDir()
	c := cube()
	for _, name := range []string{"n.hdr", "n.npy", "n.mat"} {
		p := filepath.Join(dir, name)
		if err := Write(p, c, hsi.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		// Patch the first stored float32 1.5 (value 22 - 20.5) into a NaN:
		// pixel 5 band 2 -> row 0, column 5, band 2.
		b, _ := os.ReadFile(strings.Replace(p, ".hdr", ".img", 1))
		target := []byte{0, 0, 0xc0, 0x3f} // 1.5f little-endian
		i := strings.Index(string(b), string(target))
		if i < 0 {
			t.Fatalf("%s: value not found", name)
		}
		copy(b[i:], []byte{0, 0, 0xc0, 0x7f})
		os.WriteFile(strings.Replace(p, ".hdr", ".img", 1), b, 0o644)
		got, _, err := Read(p, hsi.ReadOptions{RefuseNaN: true})
		var nf *hsi.NonFiniteError
		if !errors.As(err, &nf) || got == nil || !math.IsNaN(float64(nf.Value)) || !strings.Contains(err.Error(), strings.TrimSuffix(name, filepath.Ext(name))+".") {
			t.Fatalf("%s: err = %v, cube %v", name, err, got != nil)
		}
		if want := [3]int{0, 5, 2}; name != "n.mat" && [3]int{nf.Row, nf.Col, nf.Band} != want {
			t.Errorf("%s: NaN at %d,%d,%d, want %v", name, nf.Row, nf.Col, nf.Band, want)
		}
	}
}

// TestSniff: the content decides the format, whatever the extension says.
func TestSniff(t *testing.T) {
	dir := t.TempDir()
	h5, err := os.ReadFile(filepath.Join("..", "products", "testdata", "generic_bhw.h5"))
	if err != nil {
		t.Fatal(err)
	}
	asMat := filepath.Join(dir, "cube.mat")
	if err := os.WriteFile(asMat, h5, 0o644); err != nil {
		t.Fatal(err)
	}
	npyAsDat := filepath.Join(dir, "cube.dat")
	if err := Write(filepath.Join(dir, "c.npy"), cube(), hsi.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	os.Rename(filepath.Join(dir, "c.npy"), npyAsDat)
	tifAsNpy := filepath.Join(dir, "t.npy")
	if err := Write(filepath.Join(dir, "t.tif"), cube(), hsi.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	os.Rename(filepath.Join(dir, "t.tif"), tifAsNpy)
	v5 := filepath.Join(dir, "v5.mat")
	if err := Write(v5, cube(), hsi.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ path, want string }{
		{asMat, "HDF5"},
		{npyAsDat, "NPY"},
		{tifAsNpy, "TIFF"},
		{v5, "MAT"},
		{filepath.Join("..", "matfile", "testdata", "v73_latest.mat.golden"), "MAT"},
	} {
		f, err := ForRead(tc.path)
		if err != nil || f.Name != tc.want {
			t.Errorf("%s: format %v, %v; want %s", tc.path, f, err, tc.want)
		}
	}
	// The HDF5 file named .mat keeps its stored axis order (band, y, x).
	c, info, err := Read(asMat, hsi.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if c.H != 4 || c.W != 6 || c.B != 5 || info.Layout != "BHW" {
		t.Errorf("HDF5 named .mat read as %dx%dx%d layout %q", c.H, c.W, c.B, info.Layout)
	}
}

// TestSniffFIFO: telling a named pipe's format must not block on opening it.
func TestSniffFIFO(t *testing.T) {
	p := filepath.Join(t.TempDir(), "pipe.h5")
	if err := mkfifo(p); err != nil {
		t.Skip("no named pipes here:", err)
	}
	done := make(chan string)
	go func() { done <- Sniff(p) }()
	select {
	case got := <-done:
		if got != "" {
			t.Errorf("Sniff(FIFO) = %q", got)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Sniff blocked on a FIFO")
	}
}
