package main

import (
	"errors"
	"math"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/formats"
	"github.com/omnihsr/omnihsr/hsi/sample"
	"github.com/omnihsr/omnihsr/internal/testrand"
)

// readNaN reads an output that may hold NaN (its no-data value).
func readNaN(t *testing.T, path string) (*hsi.Cube, hsi.SourceInfo) {
	t.Helper()
	c, info, err := formats.Read(path, hsi.ReadOptions{})
	var nf *hsi.NonFiniteError
	if err != nil && !(errors.As(err, &nf) && c != nil) {
		t.Fatal(err)
	}
	return c, info
}

// The cases of a per-band no-data column and NaN bad bands, on an ENVI
// file: one column at -9999 in bands 3-5 only (data ignore value -9999)
// and the two bands flagged bbl = 0 all NaN. Every method exits 0, no
// output sample lies between -9999 and the valid range, the column is
// -9999 in bands 3-5 only, and the bad bands are -9999 everywhere.
func TestUpscalePerBandNoDataAndNaNBadBands(t *testing.T) {
	dir := t.TempDir()
	const h, w, b, col = 12, 10, 8, 4
	lr := testrand.Cube(testrand.New(uint64(h), uint64(w)), h, w, b)
	lr.Meta.BadBands = make([]bool, b)
	lr.Meta.BadBands[0], lr.Meta.BadBands[7] = true, true
	for p := 0; p < h*w; p++ {
		lr.Data[p*b] = float32(math.NaN())
		lr.Data[p*b+7] = float32(math.NaN())
		if p%w == col {
			for k := 3; k <= 5; k++ {
				lr.Data[p*b+k] = -9999
			}
		}
	}
	lr.Meta.DataIgnore, lr.Meta.HasDataIgnore = -9999, true
	in := filepath.Join(dir, "lr.hdr")
	if err := formats.Write(in, lr, hsi.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, method := range []string{"bicubic", "omnihsr", "omnihsr-bp"} {
		out := filepath.Join(dir, method+".hdr")
		if code, stderr := runRsCmd(t, "upscale", "-in", in, "-out", out, "-scale", "4", "-method", method); code != 0 {
			t.Fatalf("%s: exit %d: %s", method, code, stderr)
		}
		got, _ := readNaN(t, out)
		if !got.Meta.HasDataIgnore || got.Meta.DataIgnore != -9999 {
			t.Errorf("%s: output declares no-data %v (%v), want -9999", method, got.Meta.DataIgnore, got.Meta.HasDataIgnore)
		}
		leaked := 0
		for p := 0; p < got.H*got.W; p++ {
			for k := 0; k < b; k++ {
				x := got.Data[p*b+k]
				want := k == 0 || k == 7 || (p%got.W)/4 == col && k >= 3 && k <= 5
				if want != (x == -9999) {
					t.Fatalf("%s: pixel %d band %d = %v, no-data expected: %v", method, p, k, x, want)
				}
				if x > -9999 && x <= -1 || x != x {
					leaked++
				}
			}
		}
		if leaked != 0 {
			t.Errorf("%s: %d samples between -9999 and -1 or NaN", method, leaked)
		}
	}
}

// NaN bad bands without a declared no-data value: the output declares NaN
// and holds NaN in those bands only.
func TestUpscaleNaNWithoutDataIgnore(t *testing.T) {
	dir := t.TempDir()
	lr := testrand.Cube(testrand.New(uint64(6), uint64(7)), 6, 7, 4)
	lr.Meta.BadBands = []bool{false, false, true, false}
	for p := 0; p < 6*7; p++ {
		lr.Data[p*4+2] = float32(math.NaN())
	}
	in := filepath.Join(dir, "lr.hdr")
	if err := formats.Write(in, lr, hsi.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "sr.tif")
	if code, stderr := runRsCmd(t, "upscale", "-in", in, "-out", out, "-scale", "2"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	got, _ := readNaN(t, out)
	if !got.Meta.HasDataIgnore || !math.IsNaN(got.Meta.DataIgnore) {
		t.Errorf("output declares %v (%v), want NaN", got.Meta.DataIgnore, got.Meta.HasDataIgnore)
	}
	for i, x := range got.Data {
		if (i%4 == 2) != (x != x) {
			t.Fatalf("sample %d band %d = %v", i/4, i%4, x)
		}
	}
}

var clampedRE = regexp.MustCompile(`(\d+) sample\(s\) outside the uint16 range 0\.\.65535 clamped`)

// -type uint16 clamps the sharpening's overshoot below 0 (and a no-data
// value of -9999 to 0, with a warning) instead of failing, reports the
// count it clamped, and that count is the number of output samples the
// float32 output has below -0.5 (the values that round outside the range).
// -type same writes the input's type.
func TestUpscaleIntegerClamp(t *testing.T) {
	dir := t.TempDir()
	lr := testrand.Cube(testrand.New(uint64(10), uint64(9)), 10, 9, 3)
	for i := range lr.Data {
		lr.Data[i] = float32(math.Round(float64(lr.Data[i]) * 2000)) // 0..2000, sharp edges
		if i%7 == 0 {
			lr.Data[i] = 0
		}
	}
	in := filepath.Join(dir, "lr.hdr")
	if err := formats.Write(in, lr, hsi.WriteOptions{DataType: sample.Uint16}); err != nil {
		t.Fatal(err)
	}
	ref := filepath.Join(dir, "ref.hdr")
	if code, stderr := runRsCmd(t, "upscale", "-in", in, "-out", ref, "-scale", "3"); code != 0 {
		t.Fatalf("float32: exit %d: %s", code, stderr)
	}
	f := rsReadBack(t, ref)
	below := 0
	for _, x := range f.Data {
		if math.Round(float64(x)) < 0 {
			below++
		}
	}
	if below == 0 {
		t.Fatal("the test input gives no overshoot below 0")
	}
	for _, typ := range []string{"uint16", "same"} {
		out := filepath.Join(dir, typ+".hdr")
		code, stderr := runRsCmd(t, "upscale", "-in", in, "-out", out, "-scale", "3", "-type", typ)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", typ, code, stderr)
		}
		m := clampedRE.FindStringSubmatch(stderr)
		if m == nil {
			t.Fatalf("%s: no clamp count on stderr: %q", typ, stderr)
		}
		if n, _ := strconv.Atoi(m[1]); n != below {
			t.Errorf("%s: %d clamped, the float output has %d values that round below 0", typ, n, below)
		}
		got, info := readNaN(t, out)
		if info.DataType != "uint16" {
			t.Errorf("%s: written as %s", typ, info.DataType)
		}
		for i, x := range got.Data {
			// The writer rounds; the rule for ties is the codec's.
			want := max(0, float64(f.Data[i]))
			if math.Abs(float64(x)-want) > 0.5 || x != float32(math.Trunc(float64(x))) {
				t.Fatalf("%s: sample %d = %v, want %v rounded", typ, i, x, want)
			}
		}
	}

	lr.Meta.DataIgnore, lr.Meta.HasDataIgnore = -9999, true
	lr.Data[5] = -9999
	if err := formats.Write(in, lr, hsi.WriteOptions{DataType: sample.Int16}); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "nd.hdr")
	code, stderr := runRsCmd(t, "upscale", "-in", in, "-out", out, "-scale", "2", "-type", "uint16", "-method", "bicubic")
	if code != 0 || !strings.Contains(stderr, "the no-data value -9999 does not fit uint16 (0..65535): written as 0") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if got, _ := readNaN(t, out); !got.Meta.HasDataIgnore || got.Meta.DataIgnore != 0 {
		t.Errorf("uint16 output declares no-data %v (%v), want 0", got.Meta.DataIgnore, got.Meta.HasDataIgnore)
	}
	if code, stderr := runRsCmd(t, "upscale", "-in", in, "-out", out, "-scale", "2", "-type", "same", "-method", "bicubic"); code != 0 || strings.Contains(stderr, "clamped") {
		t.Errorf("int16 same: exit %d: %s", code, stderr)
	}
}

// A scaled integer input (int16 with reflectance scale factor 10000, and
// per-band gain) upscaled with -type same and -type uint16 keeps the
// stored values' scale metadata, so readers get the same physical values.
func TestUpscaleScaledIntegerKeepsScale(t *testing.T) {
	dir := t.TempDir()
	lr := testrand.Cube(testrand.New(uint64(8), uint64(9)), 8, 9, 3)
	for i := range lr.Data {
		lr.Data[i] = float32(math.Round(float64(lr.Data[i]) * 8000))
	}
	lr.Meta.ReflectanceScale = 10000
	in := filepath.Join(dir, "lr.hdr")
	if err := formats.Write(in, lr, hsi.WriteOptions{DataType: sample.Int16}); err != nil {
		t.Fatal(err)
	}
	for _, typ := range []string{"same", "uint16"} {
		for _, ext := range []string{".hdr", ".tif"} {
			out := filepath.Join(dir, typ+ext)
			if code, stderr := runRsCmd(t, "upscale", "-in", in, "-out", out, "-scale", "2", "-type", typ); code != 0 {
				t.Fatalf("%s %s: exit %d: %s", typ, ext, code, stderr)
			}
			got, info := readNaN(t, out)
			want := map[string]string{"same": "int16", "uint16": "uint16"}[typ]
			if info.DataType != want {
				t.Errorf("%s %s: written as %s, want %s", typ, ext, info.DataType, want)
			}
			s, o, ok := got.Meta.PhysicalScale(1)
			if !ok || math.Abs(s-1e-4) > 1e-12 || o != 0 {
				t.Errorf("%s %s: physical scale %v offset %v (%v), want 1e-4 and 0", typ, ext, s, o, ok)
			}
		}
	}
}
