package omnihsr

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/formats"
	"github.com/omnihsr/omnihsr/hsi/products"
	"github.com/omnihsr/omnihsr/internal/regfile"
)

// readNoise reads one noise value per band of lr from path (NoiseFile):
// numbers separated by white space or commas ('#' starts a comment), or
// any cube the formats read, reduced to each band's root mean square over
// its finite, valid samples (an HDF5 or NetCDF-4 cube streamed chunk by
// chunk). A companion (NoiseCompanion) is read with the input's Ortho and
// must have its grid. A band flagged bad in lr needs no value.
func readNoise(path string, lr *hsi.Cube, ro hsi.ReadOptions, companion bool) ([]float64, error) {
	bands := lr.B
	if formats.Sniff(path) == "HDF5" {
		opt := hsi.ReadOptions{}
		if companion {
			opt.Ortho = ro.Ortho
		}
		st, err := products.BandRMS(path, opt)
		if err != nil {
			return nil, fmt.Errorf("noise file: %w", err)
		}
		if len(st.RMS) != bands {
			return nil, fmt.Errorf("noise file %s: %d bands, the input has %d", path, len(st.RMS), bands)
		}
		if companion && (st.H != lr.H || st.W != lr.W) {
			return nil, fmt.Errorf("noise file %s: %d x %d pixels, the input has %d x %d: not the same granule", path, st.H, st.W, lr.H, lr.W)
		}
		for b, n := range st.Count {
			if n == 0 && !isBad(lr, b) {
				return nil, fmt.Errorf("noise file %s: band %d has no valid value", path, b+1)
			}
		}
		return st.RMS, nil
	}
	if _, err := formats.ForRead(path); err == nil {
		c, _, err := formats.Read(path, hsi.ReadOptions{})
		if err != nil {
			return nil, fmt.Errorf("noise file: %w", err)
		}
		if c.B != bands {
			return nil, fmt.Errorf("noise file %s: %d bands, the input has %d", path, c.B, bands)
		}
		out := make([]float64, bands)
		cnt := make([]int, bands)
		nd := c.Meta.NoData()
		for i, v := range c.Data {
			f := float64(v)
			if nd.Is(v) || math.IsInf(f, 0) {
				continue
			}
			out[i%bands] += f * f
			cnt[i%bands]++
		}
		for b := range out {
			if cnt[b] == 0 {
				if isBad(lr, b) {
					continue
				}
				return nil, fmt.Errorf("noise file %s: band %d has no valid value", path, b+1)
			}
			out[b] = math.Sqrt(out[b] / float64(cnt[b]))
		}
		return out, nil
	}
	raw, err := regfile.ReadFile(path, maxNoiseTextBytes, "a noise file of numbers")
	if err != nil {
		return nil, fmt.Errorf("noise file: %w", err)
	}
	var out []float64
	for ln, line := range strings.Split(string(raw), "\n") {
		line, _, _ = strings.Cut(line, "#")
		for _, f := range strings.FieldsFunc(line, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\r' }) {
			v, err := strconv.ParseFloat(f, 64)
			if err != nil || !(v >= 0) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("noise file %s: line %d: %q is not a finite number >= 0", path, ln+1, f)
			}
			out = append(out, v)
		}
	}
	if len(out) != bands {
		return nil, fmt.Errorf("noise file %s: %d values, the input has %d bands", path, len(out), bands)
	}
	return out, nil
}

// maxNoiseTextBytes bounds a noise file of numbers: a few bytes per band.
const maxNoiseTextBytes = 16 << 20

// isBad reports whether band b of c is flagged bad, which the model leaves
// out, so that its noise value is not needed.
func isBad(c *hsi.Cube, b int) bool {
	return b < len(c.Meta.BadBands) && c.Meta.BadBands[b]
}
