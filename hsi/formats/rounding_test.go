package formats

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/sample"
)

// writable lists one file name per writer that stores integer samples.
var writable = []string{"x.hdr", "x.bil", "x.bip", "x.npy", "x.tif", "x.mat"}

// roundTrip writes c as type dt to dir/name and reads it back.
func roundTrip(t *testing.T, dir, name string, c *hsi.Cube, dt sample.Type) *hsi.Cube {
	t.Helper()
	p := filepath.Join(dir, dt.String()+"_"+name)
	opt := hsi.WriteOptions{DataType: dt}
	if ext := filepath.Ext(name); ext == ".bil" || ext == ".bip" {
		opt.Interleave = hsi.Interleave(ext[1:])
		p = filepath.Join(dir, dt.String()+"_"+strings.TrimSuffix(name, ext)+ext+".hdr")
	}
	if err := Write(p, c, opt); err != nil {
		t.Fatalf("%s as %s: %v", name, dt, err)
	}
	got, info, err := Read(p, hsi.ReadOptions{})
	if err != nil {
		t.Fatalf("%s as %s: read back: %v", name, dt, err)
	}
	if info.DataType != dt.String() {
		t.Errorf("%s as %s: read back as %s", name, dt, info.DataType)
	}
	if got.H != c.H || got.W != c.W || got.B != c.B {
		t.Fatalf("%s as %s: %dx%dx%d, want %dx%dx%d", name, dt, got.H, got.W, got.B, c.H, c.W, c.B)
	}
	return got
}

// TestWritersRoundAlike writes the same cube of halfway and other values
// as each integer type through every writer and checks that all read back
// the values of the codec's rule, halfway cases away from zero.
func TestWritersRoundAlike(t *testing.T) {
	signed := []float32{0.5, 1.5, 2.5, 3.5, -0.5, -1.5, -2.5, 0.49, -0.51, 7, 99.5, -99.5}
	unsigned := []float32{0.5, 1.5, 2.5, 3.5, 0.49, 0.51, 7, 99.5, 100.5, 254.5, 0, 254.4}
	cases := []struct {
		dt   sample.Type
		vals []float32
		want []float32
	}{
		{sample.Int16, signed, []float32{1, 2, 3, 4, -1, -2, -3, 0, -1, 7, 100, -100}},
		{sample.Int32, signed, []float32{1, 2, 3, 4, -1, -2, -3, 0, -1, 7, 100, -100}},
		{sample.Uint16, unsigned, []float32{1, 2, 3, 4, 0, 1, 7, 100, 101, 255, 0, 254}},
		{sample.Uint8, unsigned, []float32{1, 2, 3, 4, 0, 1, 7, 100, 101, 255, 0, 254}},
	}
	dir := t.TempDir()
	for _, tc := range cases {
		c := hsi.MustNew(2, 3, 2) // 12 values, pixel-interleaved
		copy(c.Data, tc.vals)
		for _, name := range writable {
			got := roundTrip(t, dir, name, c, tc.dt)
			for i, v := range got.Data {
				if v != tc.want[i] {
					t.Errorf("%s as %s: value %d: %v read back as %v, want %v", name, tc.dt, i, tc.vals[i], v, tc.want[i])
				}
			}
		}
	}
}

// TestWritersMatchGDAL converts the float32 goldens of testdata/rounding
// to integer types with every writer and compares with gdal_translate -ot
// of the same files (make_golden.py).
func TestWritersMatchGDAL(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		src  string
		dt   sample.Type
		gdal string
	}{
		{"signed.tif", sample.Int16, "gdal_int16.tif"},
		{"signed.tif", sample.Int32, "gdal_int32.tif"},
		{"unsigned.tif", sample.Uint8, "gdal_uint8.tif"},
		{"unsigned.tif", sample.Uint16, "gdal_uint16.tif"},
	} {
		src, _, err := Read(filepath.Join("testdata", "rounding", tc.src), hsi.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		want, info, err := Read(filepath.Join("testdata", "rounding", tc.gdal), hsi.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if info.DataType != tc.dt.String() || want.H != src.H || want.W != src.W || want.B != src.B {
			t.Fatalf("%s: %s %dx%dx%d, source %dx%dx%d", tc.gdal, info.DataType, want.H, want.W, want.B, src.H, src.W, src.B)
		}
		ties := 0
		for _, v := range src.Data {
			if v-float32(int(v)) == 0.5 || v-float32(int(v)) == -0.5 {
				ties++
			}
		}
		if ties < 8 {
			t.Fatalf("%s holds %d halfway values; the golden should test ties", tc.src, ties)
		}
		for _, name := range writable {
			got := roundTrip(t, dir, name, src, tc.dt)
			for i, v := range got.Data {
				if v != want.Data[i] {
					t.Errorf("%s as %s: %v read back as %v, GDAL gives %v", name, tc.dt, src.Data[i], v, want.Data[i])
				}
			}
		}
	}
}

// TestWritersRefuseAlike checks that every writer refuses a value outside
// the type's range, or NaN in an integer type, with an error naming the
// value and the type, and leaves no file behind.
func TestWritersRefuseAlike(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		dt   sample.Type
		v    float32
		want string
	}{
		{sample.Int16, 32767.5, "value 32767.5"},
		{sample.Int16, -40000, "value -40000"},
		{sample.Uint16, -0.5, "value -0.5"},
		{sample.Uint8, 255.5, "value 255.5"},
		{sample.Int32, 3e9, "value 3e+09"},
	} {
		c := hsi.MustNew(2, 2, 2)
		c.Data[5] = tc.v
		for _, name := range writable {
			p := filepath.Join(dir, "bad_"+tc.dt.String()+"_"+name)
			opt := hsi.WriteOptions{DataType: tc.dt}
			if ext := filepath.Ext(name); ext == ".bil" || ext == ".bip" {
				opt.Interleave = hsi.Interleave(ext[1:])
			}
			err := Write(p, c, opt)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "does not fit "+tc.dt.String()) ||
				!strings.Contains(err.Error(), "row 1, column 0, band 1") {
				t.Errorf("%s as %s with %v: error %v, want %q, the type and the position", name, tc.dt, tc.v, err, tc.want)
			}
			if _, _, err := Read(p, hsi.ReadOptions{}); err == nil {
				t.Errorf("%s as %s: a file was left behind", name, tc.dt)
			}
		}
		if err := sample.Check(tc.v, tc.dt); err == nil {
			t.Errorf("sample.Check(%v, %s) accepted what the writers refuse", tc.v, tc.dt)
		} else if re := (*sample.RangeError)(nil); !errors.As(err, &re) {
			t.Errorf("sample.Check(%v, %s) = %v, not a *sample.RangeError", tc.v, tc.dt, err)
		}
	}
}
