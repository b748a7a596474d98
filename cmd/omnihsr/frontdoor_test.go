package main

import (
	"bytes"
	"context"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/omnihsr/omnihsr"
	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/formats"
	"github.com/omnihsr/omnihsr/internal/testrand"
)

// omnihsr.UpscaleFile writes the same bytes (every file of the output) as
// `omnihsr upscale` with the same options made by upscale's own
// orchestration (the path of -scales, useFrontDoor false), for every
// method, sample type and several formats, on an input with no-data and
// wavelengths; upscale through the front door (a model method, one
// output) writes the same stdout and stderr as through its own path.
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
	for _, tc := range []struct {
		name, ext string
		args      []string
		opt       omnihsr.Options
		noisy     bool
	}{
		{"noisy bands screened", ".hdr", []string{"-scale", "2"}, omnihsr.Options{Scale: 2}, true},
		{"noisy bands kept", ".npy", []string{"-scale", "2", "-keep-noisy-bands"}, omnihsr.Options{Scale: 2, KeepNoisyBands: true}, true},
		{"default x2 ENVI", ".hdr", []string{"-scale", "2"}, omnihsr.Options{Scale: 2}, false},
		{"fractional npy", ".npy", []string{"-scale", "1.7"}, omnihsr.Options{Scale: 1.7}, false},
		{"size uint8 clamp", ".hdr", []string{"-size", "25x19", "-type", "uint8"}, omnihsr.Options{Size: [2]int{25, 19}, Type: "uint8"}, false},
		{"bicubic tif", ".tif", []string{"-scale", "3", "-method", "bicubic"}, omnihsr.Options{Scale: 3, Method: omnihsr.MethodBicubic}, false},
		{"COG deflate", ".tif", []string{"-scale", "2", "-of", "COG", "-co", "COMPRESS=DEFLATE"}, omnihsr.Options{Scale: 2, Driver: "COG", Creation: []string{"COMPRESS=DEFLATE"}}, false},
		{"noise clean, same type", ".hdr", []string{"-scale", "2.5", "-noise", "clean", "-type", "same"}, omnihsr.Options{Scale: 2.5, Noise: omnihsr.Noise{Mode: omnihsr.NoiseClean}, Type: "same"}, false},
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
			useFrontDoor = false
			code := run(append([]string{"upscale", "-in", in, "-out", cli}, tc.args...), &so, &se)
			useFrontDoor = true
			if code != 0 {
				t.Fatalf("CLI: exit %d: %s", code, se.String())
			}
			var fo, fe bytes.Buffer
			front := filepath.Join(dir, "front_"+filepath.Base(t.Name())+tc.ext)
			if code := run(append([]string{"upscale", "-in", in, "-out", front}, tc.args...), &fo, &fe); code != 0 {
				t.Fatalf("CLI through the front door: exit %d: %s", code, fe.String())
			}
			rename := func(b []byte) string { return string(bytes.ReplaceAll(b, []byte("front_"), []byte("cli_"))) }
			if rename(fo.Bytes()) != so.String() || rename(fe.Bytes()) != se.String() {
				t.Errorf("upscale's own path printed\n%s%s\nthrough the front door\n%s%s", so.String(), se.String(), fo.String(), fe.String())
			}
			res, err := omnihsr.UpscaleFile(context.Background(), in, lib, tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			cf, lf := formats.WriteFiles(cli), formats.WriteFiles(lib)
			if len(cf) != len(lf) {
				t.Fatalf("files %v vs %v", cf, lf)
			}
			for i := range cf {
				a, err := os.ReadFile(cf[i])
				if err != nil {
					t.Fatal(err)
				}
				b, err := os.ReadFile(lf[i])
				if err != nil {
					t.Fatal(err)
				}
				// An ENVI header names its data file: the one difference allowed.
				a = bytes.ReplaceAll(a, []byte("cli_"), []byte("lib_"))
				if !bytes.Equal(a, b) {
					t.Fatalf("%s and %s differ (%d vs %d bytes)", cf[i], lf[i], len(a), len(b))
				}
			}
			// The typed warnings say what the CLI printed.
			for _, w := range res.File.Warnings() {
				w = string(bytes.ReplaceAll([]byte(w), []byte("lib_"), []byte("cli_")))
				if !bytes.Contains(se.Bytes(), []byte(w)) {
					t.Errorf("warning %q not among the CLI's:\n%s", w, se.String())
				}
			}
			if clamps := tc.opt.Type == "uint8"; (res.File.Clamped > 0) != clamps {
				t.Errorf("Result.File.Clamped %d with Type %q", res.File.Clamped, tc.opt.Type)
			}
			if res.Model.Used == (tc.opt.Method == omnihsr.MethodBicubic) {
				t.Errorf("Result.Model.Used %v with method %q", res.Model.Used, tc.opt.Method)
			}
			if screened := len(res.Model.Screened) > 0; screened != (tc.noisy && !tc.opt.KeepNoisyBands) {
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
