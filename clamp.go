package omnihsr

import (
	"fmt"
	"math"
	"strings"
	"sync/atomic"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/internal/method"
	"github.com/omnihsr/omnihsr/internal/model"
)

// Clamp says what keeps the output's values physical (Options.Clamp,
// `omnihsr upscale -clamp`). The model, like any sharpening interpolator,
// overshoots next to edges: its operators add a zero-sum high-pass term on
// top of bicubic interpolation, which itself rings past the input's range.
type Clamp int

const (
	// ClampNone, the default, writes the values as rendered; an integer
	// Type still clamps to its range, as gdal_translate -ot does.
	ClampNone Clamp = iota
	// ClampInput clamps every output band to its own range in the input
	// (no-data samples and bad bands excluded; no-data stays no-data).
	ClampInput
	// ClampType clamps to the output type's range only: today's integer
	// clamping, named (the same values as ClampNone).
	ClampType
)

var clampNames = [...]string{ClampNone: "none", ClampInput: "input", ClampType: "type"}

// String returns the name ParseClamp reads: none, input or type.
func (c Clamp) String() string {
	if c >= 0 && int(c) < len(clampNames) {
		return clampNames[c]
	}
	return fmt.Sprintf("Clamp(%d)", int(c))
}

// ParseClamp reads none, input or type ("" is none).
func ParseClamp(s string) (Clamp, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	if s == "" {
		return ClampNone, nil
	}
	for c, n := range clampNames {
		if s == n {
			return Clamp(c), nil
		}
	}
	return ClampNone, fmt.Errorf("%w: clamp %q: want none, input or type", ErrOption, s)
}

// bandRanges returns each band's smallest and largest valid input value
// (finite, not the declared no-data value); a band with none (bad, or
// no-data everywhere) gets lo > hi, which clamps nothing.
func bandRanges(c *hsi.Cube) (lo, hi []float32) {
	lo, hi = make([]float32, c.B), make([]float32, c.B)
	for b := range lo {
		lo[b], hi[b] = float32(math.Inf(1)), float32(math.Inf(-1))
	}
	nd := c.Meta.NoData()
	for i, v := range c.Data {
		if nd.Is(v) || math.IsInf(float64(v), 0) {
			continue
		}
		b := i % c.B
		lo[b], hi[b] = min(lo[b], v), max(hi[b], v)
	}
	for b := range lo {
		if b < len(c.Meta.BadBands) && c.Meta.BadBands[b] {
			lo[b], hi[b] = float32(math.Inf(1)), float32(math.Inf(-1))
		}
	}
	return lo, hi
}

// mapRows renders with r and lets f change each band of rows in place
// (H x W x B order: band i % B) before it reaches the sink.
type mapRows struct {
	r method.Renderer
	f func(d []float32)
}

func (m mapRows) RenderTo(h, w int, sink model.RowSink, progress func(done, total int)) error {
	return m.r.RenderTo(h, w, mapSink{m.f, sink}, progress)
}

type mapSink struct {
	f    func(d []float32)
	sink model.RowSink
}

func (s mapSink) WriteRows(d []float32) error {
	s.f(d)
	return s.sink.WriteRows(d)
}

// newInputClamp clamps every band of what r renders to its input range,
// lo and hi (bandRanges), keeping NaN and the output's no-data value nd
// (when hasND), and counts the samples it moved in clamped.
func newInputClamp(r method.Renderer, lo, hi []float32, nd float64, hasND bool, clamped *atomic.Int64) method.Renderer {
	ign, hasIgn := float32(nd), hasND && !math.IsNaN(nd)
	B := len(lo)
	return mapRows{r, func(d []float32) {
		var n int64
		for i, v := range d {
			b := i % B
			if lo, hi := lo[b], hi[b]; lo <= hi && (v < lo || v > hi) && !(hasIgn && v == ign) {
				d[i] = min(max(v, lo), hi)
				n++
			}
		}
		clamped.Add(n)
	}}
}
