package matfile

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/sample"
	"github.com/omnihsr/omnihsr/internal/testrand"
)

// TestRoundTrip writes every class, compressed and not, and reads it back.
func TestRoundTrip(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		dt      sample.Type
		lo, hi  float64
		integer bool
		class   string
	}{
		{sample.Invalid, -1e3, 1e3, false, "float32"},
		{sample.Float32, -1, 1, false, "float32"},
		{sample.Float64, -1e6, 1e6, false, "float64"},
		{sample.Int8, -128, 127, true, "int8"},
		{sample.Uint8, 0, 255, true, "uint8"},
		{sample.Int16, -32768, 32767, true, "int16"},
		{sample.Uint16, 0, 65535, true, "uint16"},
		{sample.Int32, -1e7, 1e7, true, "int32"},
		{sample.Uint32, 0, 1e7, true, "uint32"},
		{sample.Int64, -1e7, 1e7, true, "int64"},
		{sample.Uint64, 0, 1e7, true, "uint64"},
	} {
		for _, comp := range []string{"none", "deflate"} {
			for _, size := range [][3]int{{7, 5, 3}, {4, 6, 1}, {1, 1, 1}, {9, 2, 33}} {
				gen := testrand.Uniform
				if tc.integer {
					gen = testrand.Integers
				}
				c := gen(testrand.New(uint64(size[0]*size[2]), 1), size[0], size[1], size[2], tc.lo, tc.hi)
				c.Meta.Wavelengths = make([]float64, c.B)
				for i := range c.Meta.Wavelengths {
					c.Meta.Wavelengths[i] = 400.5 + 10*float64(i)
				}
				c.Meta.WavelengthUnits = "Nanometers"
				path := filepath.Join(dir, "rt.mat")
				err := Write(path, c, hsi.WriteOptions{DataType: tc.dt, Compression: hsi.Compression(comp), Var: "hsi_cube"})
				if err != nil {
					t.Fatal(err)
				}
				back, info, err := Read(path, hsi.ReadOptions{})
				if err != nil {
					t.Fatalf("%s %s %v: %v", tc.dt, comp, size, err)
				}
				if info.Variable != "hsi_cube" || info.DataType != tc.class {
					t.Errorf("%s: info %+v", tc.dt, info)
				}
				if back.H != c.H || back.W != c.W || back.B != c.B {
					t.Fatalf("%s %v: read back %dx%dx%d", tc.dt, size, back.H, back.W, back.B)
				}
				for i := range c.Data {
					if back.Data[i] != c.Data[i] {
						t.Fatalf("%s %s %v: value %d = %v, wrote %v", tc.dt, comp, size, i, back.Data[i], c.Data[i])
					}
				}
				if len(back.Meta.Wavelengths) != c.B || back.Meta.Wavelengths[c.B-1] != c.Meta.Wavelengths[c.B-1] || back.Meta.WavelengthUnits != "Nanometers" {
					t.Errorf("%s: metadata %+v", tc.dt, back.Meta)
				}
			}
		}
	}
}

func TestWriteErrors(t *testing.T) {
	dir := t.TempDir()
	c := testrand.Uniform(testrand.New(1, 1), 3, 3, 2, -5, 300)
	for _, tc := range []struct {
		opt  hsi.WriteOptions
		want string
	}{
		{hsi.WriteOptions{DataType: sample.Uint8}, "does not fit uint8"},
		{hsi.WriteOptions{DataType: sample.Type(99)}, "not supported"},
		{hsi.WriteOptions{Compression: "lzw"}, "not available"},
		{hsi.WriteOptions{Var: "1abc"}, "not a MATLAB name"},
		{hsi.WriteOptions{Var: "a-b"}, "not a MATLAB name"},
	} {
		path := filepath.Join(dir, "bad.mat")
		err := Write(path, c, tc.opt)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), path) {
			t.Errorf("%+v: err = %v, want %q naming the file", tc.opt, err, tc.want)
		}
		if _, serr := os.Stat(path); serr == nil {
			t.Errorf("%+v: a file was left behind", tc.opt)
		}
	}
	nan := c.Clone()
	nan.Data[4] = float32(math.NaN())
	if err := Write(filepath.Join(dir, "nan.mat"), nan, hsi.WriteOptions{DataType: sample.Int16}); err == nil {
		t.Error("NaN written as int16")
	}
	if err := Write(filepath.Join(dir, "empty.mat"), &hsi.Cube{}, hsi.WriteOptions{}); err == nil {
		t.Error("empty cube written")
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 0 {
		t.Errorf("files left behind: %v", ents)
	}
}
