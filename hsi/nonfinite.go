package hsi

import (
	"fmt"
	"math"
)

// NonFiniteError reports NaN or infinite samples in a file. Readers return
// it together with the fully read cube, so that a caller that wants to
// inspect such a file (omnihsr info) can, while every other caller stops at
// the error. Row, Col and Band (0-based) locate the first such sample.
//
// The formats' Read applies ReadOptions' policy: NaN is no-data, so that
// the error counts and locates infinite samples only (InfOnly), unless
// RefuseNaN makes NaN an error too.
type NonFiniteError struct {
	Path           string
	Row, Col, Band int
	Value          float32
	Count          int64
	// InfOnly says that Count and the position are of the infinite
	// samples (NaN being read as no-data).
	InfOnly bool
}

func (e *NonFiniteError) Error() string {
	if e.InfOnly {
		return fmt.Sprintf("%s: %d infinite value(s) (or beyond the float32 range); the first, %v, at row %d, column %d, band %d (0-based): not accepted (NaN is read as no-data)",
			e.Path, e.Count, e.Value, e.Row, e.Col, e.Band)
	}
	return fmt.Sprintf("%s: %d non-finite value(s) (NaN, infinite or beyond the float32 range); the first, %v, at row %d, column %d, band %d (0-based); such samples are not accepted",
		e.Path, e.Count, e.Value, e.Row, e.Col, e.Band)
}

// FirstInfinite names the first infinite sample of data (whole rows of w
// pixels of b bands, pixel-interleaved, the first being row y0 of the
// image at path) and counts them, as an InfOnly *NonFiniteError: the
// error of a reader whose NaN samples are no-data. nil when none is
// infinite.
func FirstInfinite(path string, data []float32, w, b, y0 int) *NonFiniteError {
	return firstNonFinite(path, data, w, b, y0, true)
}

// FirstNonFinite is FirstInfinite counting NaN samples too (InfOnly
// false): the error of a reader that refuses NaN.
func FirstNonFinite(path string, data []float32, w, b, y0 int) *NonFiniteError {
	return firstNonFinite(path, data, w, b, y0, false)
}

// firstNonFinite names and counts the infinite samples of data, and its
// NaN samples unless infOnly.
func firstNonFinite(path string, data []float32, w, b, y0 int, infOnly bool) *NonFiniteError {
	e := &NonFiniteError{Path: path, InfOnly: infOnly}
	for i, v := range data {
		if math.IsInf(float64(v), 0) || (!infOnly && v != v) {
			if e.Count == 0 {
				p := i / b
				e.Row, e.Col, e.Band, e.Value = y0+p/w, p%w, i%b, v
			}
			e.Count++
		}
	}
	if e.Count == 0 {
		return nil
	}
	return e
}
