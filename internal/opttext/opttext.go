package opttext

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Label formats a factor as an output's name has it: 4, 3.5, 2.25 (the
// shortest decimal that reads back as the factor).
func Label(s float64) string { return strconv.FormatFloat(s, 'g', -1, 64) }

// ExpandScale returns pattern with every "{scale}" replaced by the label
// of the factor s.
func ExpandScale(pattern string, s float64) string {
	return strings.ReplaceAll(pattern, "{scale}", Label(s))
}

// Size reads an output size "HxW" (e.g. 512x480; the x in either case,
// spaces around the numbers allowed): ok is false unless both are positive
// integers.
func Size(s string) (h, w int, ok bool) {
	a, b, found := strings.Cut(strings.ToLower(strings.TrimSpace(s)), "x")
	if !found {
		return 0, 0, false
	}
	h, err1 := strconv.Atoi(strings.TrimSpace(a))
	w, err2 := strconv.Atoi(strings.TrimSpace(b))
	if err1 != nil || err2 != nil || h < 1 || w < 1 {
		return 0, 0, false
	}
	return h, w, true
}

// Factors reads a comma-separated list of factors, each a finite number
// > 0 and none given twice (each factor is one output).
func Factors(s string) ([]float64, error) {
	var out []float64
	for f := range strings.SplitSeq(s, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not a number", f)
		}
		if !(v > 0) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("factor %v: want a finite number > 0", v)
		}
		if slices.Contains(out, v) {
			return nil, fmt.Errorf("factor %v given twice (each factor is one output)", v)
		}
		out = append(out, v)
	}
	return out, nil
}

// NoiseKind is what a noise text asks for.
type NoiseKind int

const (
	NoiseAuto  NoiseKind = iota // "" or "auto": estimated from the input
	NoiseClean                  // "clean": the input is taken as clean
	NoiseSigma                  // a number: the noise standard deviation
)

// Noise reads a noise text: "" or "auto", "clean" (either case, spaces
// around allowed), or a number, the standard deviation, returned as sigma
// (its range is the caller's to check); ok is false for anything else.
func Noise(s string) (kind NoiseKind, sigma float64, ok bool) {
	switch t := strings.ToLower(strings.TrimSpace(s)); t {
	case "", "auto":
		return NoiseAuto, 0, true
	case "clean":
		return NoiseClean, 0, true
	default:
		v, err := strconv.ParseFloat(t, 64)
		if err != nil {
			return 0, 0, false
		}
		return NoiseSigma, v, true
	}
}

// Adapt reads an adaptation text: "auto" (either case; auto is true) or
// a step count >= 0 (0: off); ok is false for anything else.
func Adapt(s string) (steps int, auto, ok bool) {
	t := strings.TrimSpace(s)
	if strings.EqualFold(t, "auto") {
		return 0, true, true
	}
	n, err := strconv.Atoi(t)
	if err != nil || n < 0 {
		return 0, false, false
	}
	return n, false, true
}
