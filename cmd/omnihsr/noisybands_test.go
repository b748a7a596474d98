package main

import (
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/formats"
	"github.com/omnihsr/omnihsr/noise"
)

// info and upscale list the bands judged unusable by their noise; upscale
// -keep-noisy-bands keeps them in; the output has every band.
func TestNoisyBandsListed(t *testing.T) {
	c := hsi.MustNew(32, 32, 16)
	r := rand.New(rand.NewPCG(3, 4))
	for y := range 32 {
		for x := range 32 {
			for b := range 16 {
				v := 0.3 + 0.2*math.Sin(float64(x)/4+float64(b)/6)*math.Cos(float64(y)/5) + 0.001*r.NormFloat64()
				if b == 7 || b == 8 {
					v = 0.03 + 0.1*r.NormFloat64() // a water-vapour band after atmospheric correction
				}
				c.Data[(y*32+x)*16+b] = float32(v)
			}
		}
	}
	c.Meta.Wavelengths = make([]float64, 16)
	for b := range c.Meta.Wavelengths {
		c.Meta.Wavelengths[b] = 1000 + 50*float64(b)
	}
	c.Meta.WavelengthUnits = "Nanometers"
	dir := t.TempDir()
	in := filepath.Join(dir, "in.hdr")
	if err := formats.Write(in, c, hsi.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCmd(t, "info", in)
	if code != 0 || !strings.Contains(out, "noisy bands:    2 judged unusable") || !strings.Contains(out, "8 (1350 Nanometers): noise") || !strings.Contains(out, "9 (1400 Nanometers)") {
		t.Fatalf("info: exit %d\n%s%s", code, out, errs)
	}
	for _, keep := range []bool{false, true} {
		args := []string{"upscale", "-in", in, "-out", filepath.Join(dir, "sr.hdr"), "-scale", "2", "-overwrite"}
		if keep {
			args = append(args, "-keep-noisy-bands")
		}
		code, _, errs := runCmd(t, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		if listed := strings.Contains(errs, "upscale: 2 band(s) judged unusable"); listed == keep {
			t.Errorf("-keep-noisy-bands %v: stderr %s", keep, errs)
		}
		sr, _, err := formats.Read(filepath.Join(dir, "sr.hdr"), hsi.ReadOptions{})
		if err != nil || sr.B != 16 {
			t.Fatalf("%v %v", err, sr)
		}
	}
}

// info screens a streamed HDF5 dataset (read chunk by chunk, band first,
// with fill values) as upscale screens the cube it reads: the same bands,
// and a clear note when the screen's residuals do not fit in memory.
func TestNoisyBandsStreamedHDF5(t *testing.T) {
	in := filepath.Join("..", "..", "hsi", "products", "testdata", "noisy_bands.h5") // scripts/miniatures/noisy_hdf5.py
	code, out, errs := runCmd(t, "info", in)
	if code != 0 || !strings.Contains(out, "noisy bands:    2 judged unusable") || !strings.Contains(out, "8 (1350 Nanometers): noise") || !strings.Contains(out, "9 (1400 Nanometers)") {
		t.Fatalf("info: exit %d\n%s%s", code, out, errs)
	}
	code, _, errs = runCmd(t, "upscale", "-in", in, "-out", filepath.Join(t.TempDir(), "sr.hdr"), "-scale", "2")
	if code != 0 || !strings.Contains(errs, "upscale: 2 band(s) judged unusable") || !strings.Contains(errs, "8 (1350 Nanometers): noise") || !strings.Contains(errs, "9 (1400 Nanometers)") {
		t.Fatalf("upscale: exit %d: %s", code, errs)
	}
	t.Setenv("OMNIHSR_MEM_LIMIT", "64K")
	code, out, errs = runCmd(t, "info", in)
	if code != 0 || !strings.Contains(out, "noisy bands:    not screened (") || !strings.Contains(out, "does not fit in memory") {
		t.Fatalf("info under a 64 KiB limit: exit %d\n%s%s", code, out, errs)
	}
}

// Up to six noisy bands are listed one by one; more are listed as ranges
// of band numbers (with their wavelengths when known) and the figures of
// the band furthest above its neighbours, and all (-v) lists every one.
func TestDescribeOutliers(t *testing.T) {
	wl := &hsi.Meta{Wavelengths: []float64{400, 410, 420, 430, 440, 450, 460, 470, 480, 490}, WavelengthUnits: "nm"}
	o := func(b int, ratio float64) noise.Outlier {
		return noise.Outlier{Band: b, Sigma: ratio, Ref: 1, NSR: 0.5}
	}
	seven := []noise.Outlier{o(0, 7), o(1, 8), o(2, 9), o(4, 30), o(7, 7), o(8, 7), o(9, 7)}
	for _, tc := range []struct {
		name string
		m    *hsi.Meta
		out  []noise.Outlier
		all  bool
		want string
	}{
		{"two", wl, []noise.Outlier{o(3, 7), o(5, 9)},
			false, "4 (430 nm): noise 7, 7.0x its neighbours', 50 % of its signal; 6 (450 nm): noise 9, 9.0x its neighbours', 50 % of its signal"},
		{"seven as ranges", wl, seven, false,
			"bands 1-3 (400-420 nm), 5 (440 nm), 8-10 (470-490 nm); the furthest above its neighbours, 5 (440 nm): noise 30, 30.0x its neighbours', 50 % of its signal (-v lists every band)"},
		{"seven without wavelengths", &hsi.Meta{}, seven, false,
			"bands 1-3, 5, 8-10; the furthest above its neighbours, 5: noise 30, 30.0x its neighbours', 50 % of its signal (-v lists every band)"},
	} {
		if got := describeOutliers(tc.m, tc.out, tc.all); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, got, tc.want)
		}
	}
	if got := describeOutliers(wl, seven, true); strings.Count(got, "its neighbours'") != 7 || strings.Contains(got, "-v") {
		t.Errorf("all: %s", got)
	}
}
