package main

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr"
	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/formats"
	"github.com/omnihsr/omnihsr/hsi/sample"
	"github.com/omnihsr/omnihsr/internal/testrand"
)

// omnihsr.UpscaleFile writes the same bytes (every file of the output) as
// `omnihsr upscale` with the same options, for every method, sample type,
// noise source and several formats, on an input with no-data and
// wavelengths; each output of -scales (one encoding) has the bytes of the
// same factor made alone; the typed Result says what the CLI printed.
func TestUpscaleFileSameBytesAsCLI(t *testing.T) {
	dir := t.TempDir()
	rng := testrand.New(30, 1)
	lr := testrand.Uniform(rng, 14, 11, 7, 100, 900)
	for i := range lr.Data { // smooth structure plus noise
		p, b := i/lr.B, i%lr.B
		y, x := p/lr.W, p%lr.W
		lr.Data[i] += float32(300 * math.Sin(0.8*float64(x)+0.3*float64(b)) * math.Cos(0.6*float64(y)))
	}
	lr.Data[(3*lr.W+4)*lr.B+2] = -9999
	lr.Meta.DataIgnore, lr.Meta.HasDataIgnore = -9999, true
	lr.Meta.Wavelengths = []float64{450, 500, 550, 600, 650, 700, 750}
	in := filepath.Join(dir, "lr.hdr")
	if err := formats.Write(in, lr, hsi.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	// A second input with two noisy bands that the model screens.
	nb := hsi.MustNew(32, 32, 16)
	for y := range 32 {
		for x := range 32 {
			for b := range 16 {
				v := 0.3 + 0.2*math.Sin(float64(x)/4+float64(b)/6)*math.Cos(float64(y)/5) + 0.001*rng.NormFloat64()
				if b == 7 || b == 8 {
					v = 0.03 + 0.1*rng.NormFloat64()
				}
				nb.Data[(y*32+x)*16+b] = float32(v)
			}
		}
	}
	nb.Meta.Wavelengths = make([]float64, 16)
	for b := range nb.Meta.Wavelengths {
		nb.Meta.Wavelengths[b] = 1000 + 50*float64(b)
	}
	nb.Meta.WavelengthUnits = "Nanometers"
	noisy := filepath.Join(dir, "noisy.hdr")
	if err := formats.Write(noisy, nb, hsi.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	txt := filepath.Join(dir, "noise.txt")
	if err := os.WriteFile(txt, []byte("30 31 32 33\n34, 35, 36 # per band\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, ext string
		args      []string
		opt       omnihsr.Options
		noisy     bool
	}{
		{"noise file", ".hdr", []string{"-scale", "2", "-noise-file", txt}, omnihsr.Options{Scale: 2, Noise: omnihsr.Noise{Mode: omnihsr.NoiseFile, File: txt}}, false},
		{"bicubic rows ENVI uint16", ".hdr", []string{"-scale", "2.5", "-method", "bicubic", "-type", "uint16"}, omnihsr.Options{Scale: 2.5, Method: omnihsr.MethodBicubic, Type: sample.Uint16}, true},
		{"self-ensemble", ".npy", []string{"-scale", "1.5", "-method", "omnihsr-se"}, omnihsr.Options{Scale: 1.5, Method: omnihsr.MethodOmniHSRSE}, false},
		{"noisy bands screened", ".hdr", []string{"-scale", "2"}, omnihsr.Options{Scale: 2}, true},
		{"noisy bands kept", ".npy", []string{"-scale", "2", "-keep-noisy-bands"}, omnihsr.Options{Scale: 2, KeepNoisyBands: true}, true},
		{"default x2 ENVI", ".hdr", []string{"-scale", "2"}, omnihsr.Options{Scale: 2}, false},
		{"fractional npy", ".npy", []string{"-scale", "1.7"}, omnihsr.Options{Scale: 1.7}, false},
		{"size uint8 clamp", ".hdr", []string{"-size", "25x19", "-type", "uint8"}, omnihsr.Options{Size: [2]int{25, 19}, Type: sample.Uint8}, false},
		{"bicubic tif", ".tif", []string{"-scale", "3", "-method", "bicubic"}, omnihsr.Options{Scale: 3, Method: omnihsr.MethodBicubic}, false},
		{"COG deflate", ".tif", []string{"-scale", "2", "-of", "COG", "-co", "COMPRESS=DEFLATE"}, omnihsr.Options{Scale: 2, Driver: "COG", Creation: []string{"COMPRESS=DEFLATE"}}, false},
		{"noise clean, same type", ".hdr", []string{"-scale", "2.5", "-noise", "clean", "-type", "same"}, omnihsr.Options{Scale: 2.5, Noise: omnihsr.Noise{Mode: omnihsr.NoiseClean}, SameType: true}, false},
		{"noise sigma", ".hdr", []string{"-scale", "2", "-noise", "40"}, omnihsr.Options{Scale: 2, Noise: omnihsr.Noise{Mode: omnihsr.NoiseGiven, Sigma: []float64{40}}}, false},
		{"back-projection", ".npy", []string{"-scale", "2", "-method", "omnihsr-bp"}, omnihsr.Options{Scale: 2, Method: omnihsr.MethodOmniHSRBP}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := in
			if tc.noisy {
				in = noisy
			}
			cli := filepath.Join(dir, "cli_"+filepath.Base(t.Name())+tc.ext)
			lib := filepath.Join(dir, "lib_"+filepath.Base(t.Name())+tc.ext)
			var so, se bytes.Buffer
			if code := run(append([]string{"upscale", "-in", in, "-out", cli}, tc.args...), &so, &se); code != 0 {
				t.Fatalf("CLI: exit %d: %s", code, se.String())
			}
			res, err := omnihsr.UpscaleFile(context.Background(), in, lib, tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			sameFiles(t, cli, lib)
			if tc.opt.Scale != 0 {
				// -scales S,S+1.25 renders both from one encoding: the
				// first output has the bytes of -scale S alone.
				sc := filepath.Join(dir, "scales_"+filepath.Base(t.Name())+"_x{scale}"+tc.ext)
				args := append([]string{"upscale", "-in", in, "-out", sc, "-scales", fmt.Sprint(tc.opt.Scale) + "," + fmt.Sprint(tc.opt.Scale+1.25)}, tc.args[2:]...)
				if code := run(args, &bytes.Buffer{}, &bytes.Buffer{}); code != 0 {
					t.Fatalf("-scales: exit %d", code)
				}
				sameFiles(t, strings.ReplaceAll(sc, "{scale}", fmt.Sprint(tc.opt.Scale)), lib)
			}
			if len(res.Files) != 1 || res.Files[0].Path != lib || res.Files[0].Height != res.Height || res.Files[0].Width != res.Width {
				t.Errorf("Result.Files %+v", res.Files)
			}
			if tc.opt.Noise.Mode == omnihsr.NoiseFile && (res.NoiseFile != txt || res.Model.Estimated || math.Abs(res.Model.Sigma-math.Sqrt(7651.0/7)) > 1e-9) {
				t.Errorf("noise file: Result.NoiseFile %q, Model %+v", res.NoiseFile, res.Model)
			}
			// The typed warnings say what the CLI printed.
			for _, w := range res.Files[0].Warnings() {
				w = string(bytes.ReplaceAll([]byte(w), []byte("lib_"), []byte("cli_")))
				if !bytes.Contains(se.Bytes(), []byte(w)) {
					t.Errorf("warning %q not among the CLI's:\n%s", w, se.String())
				}
			}
			if clamps := tc.opt.Type == sample.Uint8; (res.Files[0].Clamped > 0) != clamps {
				t.Errorf("Result.Files[0].Clamped %d with Type %v", res.Files[0].Clamped, tc.opt.Type)
			}
			if res.Model.Used == (tc.opt.Method == omnihsr.MethodBicubic) {
				t.Errorf("Result.Model.Used %v with method %q", res.Model.Used, tc.opt.Method)
			}
			if screened := len(res.Model.Screened) > 0; screened != (tc.noisy && !tc.opt.KeepNoisyBands && res.Model.Used) {
				t.Errorf("Result.Model.Screened %v", res.Model.Screened)
			}
			if want := 1; tc.noisy {
				if res.NoData != 0 {
					t.Errorf("Result.NoData %d, want 0", res.NoData)
				}
			} else if res.NoData != want {
				t.Errorf("Result.NoData %d, want %d", res.NoData, want)
			}
		})
	}
}

// sameFiles fails t unless the outputs a and b have the same files with
// the same bytes (an ENVI header names its data file: the one difference
// allowed).
func sameFiles(t *testing.T, a, b string) {
	t.Helper()
	af, bf := formats.WriteFiles(a), formats.WriteFiles(b)
	if len(af) != len(bf) {
		t.Fatalf("files %v vs %v", af, bf)
	}
	for i := range af {
		x, err := os.ReadFile(af[i])
		if err != nil {
			t.Fatal(err)
		}
		y, err := os.ReadFile(bf[i])
		if err != nil {
			t.Fatal(err)
		}
		x = bytes.ReplaceAll(x, []byte(strings.TrimSuffix(filepath.Base(af[i]), filepath.Ext(af[i]))), []byte(strings.TrimSuffix(filepath.Base(bf[i]), filepath.Ext(bf[i]))))
		if !bytes.Equal(x, y) {
			t.Fatalf("%s and %s differ (%d vs %d bytes)", af[i], bf[i], len(x), len(y))
		}
	}
}
