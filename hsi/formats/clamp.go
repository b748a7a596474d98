package formats

import (
	"fmt"
	"math"

	"github.com/omnihsr/omnihsr/hsi/internal/raw"
	"github.com/omnihsr/omnihsr/hsi/sample"
)

// Clamp is GDAL's conversion of float samples to an integer type
// (gdal_translate -ot): a value whose rounding falls outside the type's
// range becomes the nearest end of the range, and NaN becomes 0.
type Clamp struct {
	lo, hi float64 // the type's range
	// flo and fhi are the float32 values nearest the ends inside the range.
	flo, fhi float32
	// noData is the file's no-data value as it is written (already
	// clamped); samples holding the original value are no-data, not
	// counted as clamped.
	noData, origNoData float32
	hasNoData          bool
	n                  int64
}

// NewClamp returns the clamp to the integer type dataType (as in
// hsi.WriteOptions.DataType, the zero value float32), or nil for a float
// type, which needs none. noData and hasNoData are the output's no-data
// value; the value as written is NoData.
func NewClamp(dataType sample.Type, noData float64, hasNoData bool) (*Clamp, error) {
	t, err := raw.WriteType(dataType)
	if err != nil {
		return nil, err
	}
	if t.IsFloat() {
		return nil, nil
	}
	lo, hi := t.Range()
	c := &Clamp{lo: lo, hi: hi, flo: float32(lo), fhi: float32(hi), hasNoData: hasNoData}
	// 32- and 64-bit bounds round to a float32 beyond them: step inside.
	if float64(c.flo) < lo {
		c.flo = math.Nextafter32(c.flo, 0)
	}
	// The range of int64 and uint64 ends at 2^63-1 and 2^64-1, which
	// float64 rounds up to 2^63 and 2^64: their float32 ends step inside
	// from those too.
	if float64(c.fhi) > hi || (t == sample.Int64 || t == sample.Uint64) && float64(c.fhi) >= hi {
		c.fhi = math.Nextafter32(c.fhi, 0)
	}
	if hasNoData {
		c.origNoData = float32(noData)
		c.noData = c.one(float32(noData))
	}
	return c, nil
}

// one clamps one value.
func (c *Clamp) one(v float32) float32 {
	if v != v {
		return 0
	}
	// Compared with the float32 ends, not the range: float64 holds no
	// 2^63-1 or 2^64-1, so the range of int64 and uint64 ends at 2^63 and
	// 2^64, which float32 holds and those types do not.
	r := sample.Round(v)
	switch {
	case r < float64(c.flo):
		return c.flo
	case r > float64(c.fhi):
		return c.fhi
	}
	return v
}

// Apply clamps data in place and returns the number of samples it changed,
// not counting no-data samples (which become NoData).
func (c *Clamp) Apply(data []float32) int64 {
	var n int64
	nanND := c.hasNoData && c.origNoData != c.origNoData
	for i, v := range data {
		if c.hasNoData && (v == c.origNoData || nanND && v != v) {
			data[i] = c.noData
			continue
		}
		if x := c.one(v); x != v { // NaN too
			data[i] = x
			n++
		}
	}
	c.n += n
	return n
}

// Clamped returns the number of samples changed by Apply so far (0 for a
// nil clamp).
func (c *Clamp) Clamped() int64 {
	if c == nil {
		return 0
	}
	return c.n
}

// NoData returns the no-data value as written (the clamped value) and
// whether it differs from the value asked for.
func (c *Clamp) NoData() (v float64, changed bool) {
	return float64(c.noData), c.hasNoData && !(c.noData == c.origNoData)
}

// Writer returns w with every row clamped by c before it is written
// (rows are clamped in place). A nil clamp returns w itself.
func (c *Clamp) Writer(w RowWriter) RowWriter {
	if c == nil {
		return w
	}
	return &clampWriter{RowWriter: w, c: c}
}

type clampWriter struct {
	RowWriter
	c *Clamp
}

func (w *clampWriter) WriteRows(data []float32) error {
	w.c.Apply(data)
	return w.RowWriter.WriteRows(data)
}

// String describes the clamp for messages: "uint16 (0..65535)".
func (c *Clamp) String() string { return fmt.Sprintf("%g..%g", c.lo, c.hi) }
