package main

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/formats"
	"github.com/omnihsr/omnihsr/internal/model"
	"github.com/omnihsr/omnihsr/internal/testrand"
	"github.com/omnihsr/omnihsr/resample"
)

// The default method is the embedded OmniHSR model: the command's output
// equals the library's, and differs from bicubic (the shipped model is
// trained, so its operators are not zero) on a clean image with detail.
// (Pure noise would go to the noise-aware model, whose field gain on it is
// zero: bicubic.)
func TestUpscaleDefaultIsOmniHSR(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "lr.npy")
	lr := hsi.MustNew(12, 10, 5)
	for i := range lr.Data {
		p, b := i/lr.B, i%lr.B
		y, x := p/lr.W, p%lr.W
		lr.Data[i] = float32(0.5 + 0.3*math.Sin(0.9*float64(x)+0.2*float64(b))*math.Cos(0.7*float64(y)))
	}
	if err := formats.Write(in, lr, hsi.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "sr.npy")
	if code, stderr := runRsCmd(t, "upscale", "-in", in, "-out", out, "-scale", "3"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	m, err := model.Default()
	if err != nil {
		t.Fatal(err)
	}
	want, err := m.Upscale(lr, 36, 30)
	if err != nil {
		t.Fatal(err)
	}
	got := rsReadBack(t, out)
	rsSameData(t, "default method", got, want)
	bic, _ := resample.Upsample(lr, 36, 30)
	var d float64
	for i := range bic.Data {
		d = max(d, math.Abs(float64(bic.Data[i]-got.Data[i])))
	}
	if d == 0 {
		t.Fatal("the default method returned bicubic interpolation")
	}
}

// -scales renders several factors from one encoding into a directory or a
// {scale} pattern, each equal to a single-factor run.
func TestUpscaleMultiScale(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "lr.npy")
	lr := testrand.Cube(testrand.New(uint64(8), uint64(9)), 8, 9, 3)
	if err := formats.Write(in, lr, hsi.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if code, stderr := runRsCmd(t, "upscale", "-in", in, "-out", filepath.Join(dir, "out")+string(os.PathSeparator), "-scales", "2,3.5"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if code, stderr := runRsCmd(t, "upscale", "-in", in, "-out", filepath.Join(dir, "p_x{scale}.hdr"), "-scales", "2,3.5"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, s := range []string{"2", "3.5"} {
		single := filepath.Join(dir, "single.npy")
		if code, stderr := runRsCmd(t, "upscale", "-in", in, "-out", single, "-scale", s); code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		want := rsReadBack(t, single)
		rsSameData(t, "dir x"+s, rsReadBack(t, filepath.Join(dir, "out", "lr_x"+s+".npy")), want)
		rsSameData(t, "pattern x"+s, rsReadBack(t, filepath.Join(dir, "p_x"+s+".hdr")), want)
	}
	if code, _ := runRsCmd(t, "upscale", "-in", in, "-out", filepath.Join(dir, "one.npy"), "-scales", "2,3"); code != 2 {
		t.Fatalf("several scales into one file: exit %d, want 2", code)
	}
}

// -method omnihsr-se writes the library's 8-orientation self-ensemble.
func TestUpscaleSelfEnsemble(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "lr.npy")
	lr := testrand.Cube(testrand.New(uint64(11), uint64(9)), 11, 9, 4)
	if err := formats.Write(in, lr, hsi.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "sr.npy")
	if code, stderr := runRsCmd(t, "upscale", "-in", in, "-out", out, "-size", "30x25", "-method", "omnihsr-se"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	m, err := model.Default()
	if err != nil {
		t.Fatal(err)
	}
	want, err := m.UpscaleEnsemble(lr, 30, 25, 8)
	if err != nil {
		t.Fatal(err)
	}
	rsSameData(t, "omnihsr-se", rsReadBack(t, out), want)
}

// An ENVI input with a data ignore value: the output header keeps it, the
// pixels over no-data input pixels hold it, and neither the model nor
// bicubic lets it bleed into the valid pixels.
func TestUpscaleNoData(t *testing.T) {
	dir := t.TempDir()
	lr := testrand.Cube(testrand.New(uint64(12), uint64(10)), 12, 10, 4)
	rsHole(lr, 0, 4, 6, 10, -9999)
	in := filepath.Join(dir, "lr.hdr")
	if err := formats.Write(in, lr, hsi.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	lo, hi := float32(math.Inf(1)), float32(math.Inf(-1))
	for _, v := range lr.Data {
		if v != -9999 {
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	span := hi - lo
	for _, method := range []string{"omnihsr", "bicubic", "omnihsr-se"} {
		out := filepath.Join(dir, method+".hdr")
		if code, stderr := runRsCmd(t, "upscale", "-in", in, "-out", out, "-scale", "2", "-method", method); code != 0 {
			t.Fatalf("%s: exit %d: %s", method, code, stderr)
		}
		got := rsReadBack(t, out)
		if !got.Meta.HasDataIgnore || got.Meta.DataIgnore != -9999 {
			t.Errorf("%s: output header lost the data ignore value", method)
		}
		for u := 0; u < 24; u++ {
			for v := 0; v < 20; v++ {
				hole := u < 8 && v >= 12
				for k := 0; k < 4; k++ {
					x := got.Data[(u*20+v)*4+k]
					if hole && x != -9999 {
						t.Fatalf("%s (%d,%d): %v, want -9999", method, u, v, x)
					}
					if !hole && (x < lo-span || x > hi+span) {
						t.Fatalf("%s (%d,%d): %v outside the valid range [%v, %v] widened by its span", method, u, v, x, lo, hi)
					}
				}
			}
		}
	}
}
