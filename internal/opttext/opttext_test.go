package opttext

import (
	"math"
	"slices"
	"strings"
	"testing"
)

func TestLabel(t *testing.T) {
	for _, tc := range []struct {
		s    float64
		want string
	}{{4, "4"}, {3.5, "3.5"}, {2.25, "2.25"}, {1.0 / 3, "0.3333333333333333"}, {1e21, "1e+21"}} {
		if got := Label(tc.s); got != tc.want {
			t.Errorf("Label(%v) = %q, want %q", tc.s, got, tc.want)
		}
	}
	if got := ExpandScale("out/sr_x{scale}_{scale}.hdr", 2.5); got != "out/sr_x2.5_2.5.hdr" {
		t.Errorf("ExpandScale: %q", got)
	}
}

func TestSize(t *testing.T) {
	for _, tc := range []struct {
		in   string
		h, w int
		ok   bool
	}{
		{"512x480", 512, 480, true},
		{" 130 X 97 ", 130, 97, true},
		{"1x1", 1, 1, true},
		{"7", 0, 0, false},
		{"130x0", 0, 0, false},
		{"-3x4", 0, 0, false},
		{"3.5x4", 0, 0, false},
		{"3x4x5", 0, 0, false},
		{"x4", 0, 0, false},
		{"", 0, 0, false},
		{"99999999999999999999x2", 0, 0, false},
	} {
		h, w, ok := Size(tc.in)
		if h != tc.h || w != tc.w || ok != tc.ok {
			t.Errorf("Size(%q) = %d, %d, %v; want %d, %d, %v", tc.in, h, w, ok, tc.h, tc.w, tc.ok)
		}
	}
}

func TestFactors(t *testing.T) {
	for _, tc := range []struct {
		in      string
		want    []float64
		errPart string
	}{
		{"2", []float64{2}, ""},
		{"2, 3.5 ,8", []float64{2, 3.5, 8}, ""},
		{"1e-3,4", []float64{1e-3, 4}, ""},
		{"2,x", nil, `"x" is not a number`},
		{"", nil, `"" is not a number`},
		{"2,", nil, `"" is not a number`},
		{"2,0", nil, "factor 0: want a finite number > 0"},
		{"-1", nil, "factor -1: want"},
		{"inf", nil, "factor +Inf: want"},
		{"NaN", nil, "factor NaN: want"},
		{"2,3,2", nil, "factor 2 given twice"},
		{"2,2.0", nil, "factor 2 given twice"},
	} {
		got, err := Factors(tc.in)
		if tc.errPart == "" {
			if err != nil || !slices.Equal(got, tc.want) {
				t.Errorf("Factors(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
			}
		} else if err == nil || !strings.Contains(err.Error(), tc.errPart) {
			t.Errorf("Factors(%q) error %v, want one containing %q", tc.in, err, tc.errPart)
		}
	}
}

func TestNoise(t *testing.T) {
	for _, tc := range []struct {
		in    string
		kind  NoiseKind
		sigma float64
		ok    bool
	}{
		{"", NoiseAuto, 0, true},
		{"auto", NoiseAuto, 0, true},
		{" AUTO ", NoiseAuto, 0, true},
		{"clean", NoiseClean, 0, true},
		{"Clean", NoiseClean, 0, true},
		{"0.5", NoiseSigma, 0.5, true},
		{" 2e-3 ", NoiseSigma, 2e-3, true},
		{"0", NoiseSigma, 0, true},
		{"-1", NoiseSigma, -1, true}, // the range is the caller's
		{"loud", 0, 0, false},
		{"0.5,1", 0, 0, false},
	} {
		kind, sigma, ok := Noise(tc.in)
		if kind != tc.kind || sigma != tc.sigma || ok != tc.ok {
			t.Errorf("Noise(%q) = %v, %v, %v; want %v, %v, %v", tc.in, kind, sigma, ok, tc.kind, tc.sigma, tc.ok)
		}
	}
	if _, s, ok := Noise("inf"); !ok || !math.IsInf(s, 1) {
		t.Errorf("Noise(inf) = %v, %v: the number is read, its range checked by the caller", s, ok)
	}
}

func TestAdapt(t *testing.T) {
	for _, tc := range []struct {
		in       string
		steps    int
		auto, ok bool
	}{
		{"auto", 0, true, true},
		{" Auto ", 0, true, true},
		{"0", 0, false, true},
		{"20", 20, false, true},
		{" 300 ", 300, false, true},
		{"-3", 0, false, false},
		{"lots", 0, false, false},
		{"2.5", 0, false, false},
		{"", 0, false, false},
	} {
		steps, auto, ok := Adapt(tc.in)
		if steps != tc.steps || auto != tc.auto || ok != tc.ok {
			t.Errorf("Adapt(%q) = %d, %v, %v; want %d, %v, %v", tc.in, steps, auto, ok, tc.steps, tc.auto, tc.ok)
		}
	}
}
