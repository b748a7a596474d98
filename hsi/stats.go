package hsi

import "math"

// Stats summarises the samples of a cube as `omnihsr info` prints them:
// the range of the finite samples other than the no-data value, how many
// samples are NaN, infinite or the no-data value, and where the first NaN
// or infinite sample lies. A reader can fill it while it streams a file,
// without holding the cube (Add, AddRun), or StatsOf computes it from a
// cube.
type Stats struct {
	Lo, Hi            float32 // +Inf and -Inf while no finite value was seen
	NaN, Inf, Ignored int64
	// Row, Col and Band (0-based) locate the first NaN or infinite sample
	// in raster order (row, then column, then band), when NaN+Inf > 0.
	Row, Col, Band int

	nd NoData
}

// NewStats returns empty statistics of samples whose no-data test is m's
// (Meta.NoData: a NaN sample is counted in NaN, one at the data ignore
// value in Ignored).
func NewStats(m Meta) *Stats {
	return &Stats{Lo: float32(math.Inf(1)), Hi: float32(math.Inf(-1)), nd: m.NoData()}
}

// Add counts sample v at (row, col, band).
func (s *Stats) Add(v float32, row, col, band int) {
	switch {
	case v != v:
		s.noteBad(row, col, band)
		s.NaN++
	case s.nd.Is(v):
		s.Ignored++
	case math.IsInf(float64(v), 0):
		s.noteBad(row, col, band)
		s.Inf++
	default:
		s.Lo, s.Hi = min(s.Lo, v), max(s.Hi, v)
	}
}

// AddRepeat counts n samples of the finite value v whose positions do not
// matter (the unwritten part of a dataset, all one value).
func (s *Stats) AddRepeat(v float32, n int64) {
	if n <= 0 {
		return
	}
	if s.nd.Is(v) {
		s.Ignored += n
		return
	}
	s.Lo, s.Hi = min(s.Lo, v), max(s.Hi, v)
}

func (s *Stats) noteBad(row, col, band int) {
	if s.NaN+s.Inf == 0 || row < s.Row || row == s.Row && (col < s.Col || col == s.Col && band < s.Band) {
		s.Row, s.Col, s.Band = row, col, band
	}
}

// StatsOf returns the statistics of c's samples.
func StatsOf(c *Cube) Stats {
	s := NewStats(c.Meta)
	for i, v := range c.Data {
		if !math.IsInf(float64(v), 0) && !s.nd.Is(v) {
			s.Lo, s.Hi = min(s.Lo, v), max(s.Hi, v) // the common case, inline
			continue
		}
		p := i / c.B
		s.Add(v, p/c.W, p%c.W, i%c.B)
	}
	return *s
}
