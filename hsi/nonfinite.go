package hsi

import "fmt"

// NonFiniteError reports NaN or infinite samples in a file. Readers return
// it together with the fully read cube, so that a caller that wants to
// inspect such a file (omnihsr info) can, while every other caller stops at
// the error. Row, Col and Band (0-based) locate the first such sample.
type NonFiniteError struct {
	Path           string
	Row, Col, Band int
	Value          float32
	Count          int64
}

func (e *NonFiniteError) Error() string {
	return fmt.Sprintf("%s: %d non-finite value(s) (NaN, infinite or beyond the float32 range); the first, %v, at row %d, column %d, band %d (0-based); such samples are not accepted",
		e.Path, e.Count, e.Value, e.Row, e.Col, e.Band)
}
