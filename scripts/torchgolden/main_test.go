package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"
)

// goldenDir is the committed goldens, relative to this package.
const goldenDir = "../../internal/train/torch/testdata"

// tol bounds the difference between the Go forward pass now and the
// committed goldens, relative to an array's largest value (at least 1):
// float32 rounding that differs between GEMM backends (measured between the
// pure-Go kernels and OpenBLAS: up to 5.2e-6 on the features, 2.1e-6 on
// the outputs), far below a change of the model.
const tol = 1e-5

// TestGoldensMatchGoForward recomputes every case with the Go model and
// checks the committed files: the manifest's sizes, factors and noise
// features, and every array within tol, so the goldens the Python tests use
// stay the Go model's output without Python.
func TestGoldensMatchGoForward(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(goldenDir, "manifest.json"))
	if err != nil {
		t.Fatalf("read manifest: %v (regenerate with go run ./scripts/torchgolden)", err)
	}
	var stored []Result
	if err := json.Unmarshal(b, &stored); err != nil {
		t.Fatalf("manifest: %v", err)
	}
	if len(stored) != len(Cases) {
		t.Fatalf("manifest has %d cases, the program %d", len(stored), len(Cases))
	}
	for i, c := range Cases {
		t.Run(c.Name, func(t *testing.T) {
			r, err := Compute("../..", c)
			if err != nil {
				t.Fatal(err)
			}
			s := stored[i]
			if s.Case != c {
				t.Fatalf("manifest case %+v, program %+v", s.Case, c)
			}
			if s.Factor != r.Factor || s.InputScale != r.InputScale || s.M != r.M || s.C != r.C {
				t.Errorf("manifest factor %v scale %v m %d c %d, computed %v %v %d %d", s.Factor, s.InputScale, s.M, s.C, r.Factor, r.InputScale, r.M, r.C)
			}
			if math.Abs(s.NoiseFeature-r.NoiseFeature) > 1e-9 {
				t.Errorf("noise feature %v, computed %v", s.NoiseFeature, r.NoiseFeature)
			}
			for _, l := range [][2]float64{{s.Loss.Total, r.Loss.Total}, {s.Loss.Charbonnier, r.Loss.Charbonnier},
				{s.Loss.Consistency, r.Loss.Consistency}, {s.Loss.Angle, r.Loss.Angle}, {s.Loss.Curvature, r.Loss.Curvature}} {
				if math.Abs(l[0]-l[1]) > 1e-6*math.Abs(l[1])+1e-12 {
					t.Errorf("loss %+v, computed %+v", s.Loss, r.Loss)
					break
				}
			}
			if !(r.Loss.Total > 0) {
				t.Errorf("loss %+v: want a positive total", r.Loss)
			}
			if c.Noise > 0 && !(r.NoiseFeature > 0) {
				t.Errorf("noisy case has noise feature %v", r.NoiseFeature)
			}
			for _, suf := range Suffixes {
				want := r.Array(suf)
				got, err := ReadF32(filepath.Join(goldenDir, c.Name+"."+suf+".f32"), len(want))
				if err != nil {
					t.Fatal(err)
				}
				// Relative to the array's scale: the features reach about 8.
				scale := 1.0
				for _, v := range want {
					scale = math.Max(scale, math.Abs(float64(v)))
				}
				worst, at := 0.0, -1
				for k := range want {
					if d := math.Abs(float64(got[k]) - float64(want[k])); d > worst || math.IsNaN(d) {
						worst, at = d, k
					}
				}
				if !(worst <= tol*scale) {
					t.Errorf("%s: largest difference %.3g at %d (golden %v, Go now %v)", suf, worst, at, got[at], want[at])
				}
			}
		})
	}
}

// TestModelIsNotBicubic guards the goldens against a degenerate model: the
// shipped weights must change the output away from bicubic, or the
// equivalence tests would not test the operator field.
func TestModelIsNotBicubic(t *testing.T) {
	for _, c := range Cases {
		r, err := Compute("../..", c)
		if err != nil {
			t.Fatal(err)
		}
		var d float64
		for k, v := range r.Array("out") {
			d = math.Max(d, math.Abs(float64(v-r.Array("bicubic")[k])))
		}
		if d < 1e-3 {
			t.Errorf("%s: output within %.3g of bicubic", c.Name, d)
		}
	}
}

// TestRunWritesGoldens runs the command into a temporary directory and
// checks that it writes every file and that a rerun gives the same bytes.
func TestRunWritesGoldens(t *testing.T) {
	dir := t.TempDir()
	var out, errb bytes.Buffer
	for k := 0; k < 2; k++ {
		sub := filepath.Join(dir, []string{"a", "b"}[k])
		if rc := run([]string{"-out", sub, "-root", "../.."}, &out, &errb); rc != 0 {
			t.Fatalf("run: %d: %s", rc, errb.String())
		}
	}
	for _, c := range Cases {
		for _, s := range Suffixes {
			a, err := os.ReadFile(filepath.Join(dir, "a", c.Name+"."+s+".f32"))
			if err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(filepath.Join(dir, "b", c.Name+"."+s+".f32"))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(a, b) || len(a) == 0 {
				t.Errorf("%s.%s: reruns differ or empty", c.Name, s)
			}
		}
	}
	if rc := run([]string{"-root", "/nonexistent"}, &out, &errb); rc != 1 {
		t.Errorf("missing weights: exit %d, want 1", rc)
	}
}
