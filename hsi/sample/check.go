package sample

import (
	"fmt"
	"math"
)

// Round is the rounding rule of every writer that stores a float32 as an
// integer type: to the nearest integer, halfway cases away from zero (see
// the package documentation).
func Round(v float32) float64 { return math.Round(float64(v)) }

// Fits reports whether v can be written as type t: for a float type, v is
// not infinite (NaN, the usual no-data value of float rasters, is written);
// for an integer type, v is finite and Round(v) lies in the range of t.
// Float16 is never written.
func (t Type) Fits(v float32) bool {
	if t == Float32 || t == Float64 {
		return v-v == 0 || v != v
	}
	if v-v != 0 {
		return false
	}
	r := Round(v)
	switch t {
	case Int64:
		// 2^63 and 2^64 are exact float64 values; the upper bounds are exclusive.
		return r >= -(1<<63) && r < 1<<63
	case Uint64:
		return r >= 0 && r < 1<<64
	case Uint8, Int8, Int16, Uint16, Int32, Uint32:
		lo, hi := t.Range()
		return r >= lo && r <= hi
	}
	return false
}

// RangeError is a value that cannot be written as Type: an infinity, NaN
// for an integer type, or a number whose rounded value lies outside the
// type's range.
type RangeError struct {
	Value float32
	Type  Type
}

func (e *RangeError) Error() string {
	if e.Value-e.Value != 0 {
		return fmt.Sprintf("non-finite value %v cannot be written as %s", e.Value, e.Type)
	}
	lo, hi := e.Type.Range()
	return fmt.Sprintf("value %v does not fit %s (%g..%g)", e.Value, e.Type, lo, hi)
}

// Check returns a *RangeError when v cannot be written as type t, and nil
// when it can.
func Check(v float32, t Type) error {
	if t.Fits(v) {
		return nil
	}
	return &RangeError{Value: v, Type: t}
}

// FirstMisfit returns the index of the first value of vals that cannot be
// written as type t, or -1 when all can.
func FirstMisfit(vals []float32, t Type) int {
	for i, v := range vals {
		if !t.Fits(v) {
			return i
		}
	}
	return -1
}
