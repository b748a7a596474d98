// Package stat holds the two summary statistics the evaluation code needs
// in several places (eval, report, bench): the mean and the median.
package stat

import (
	"math"
	"sort"
)

// Mean is the arithmetic mean of v (NaN for no values).
func Mean(v []float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	var s float64
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}

// Median is the median of v, the mean of the two middle values for an even
// count (NaN for no values); v is not modified.
func Median(v []float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}
