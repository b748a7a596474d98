package omnihsr

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/formats"
	"github.com/omnihsr/omnihsr/internal/regfile"
)

// readNoise reads one noise value per band of lr from path (NoiseFile):
// numbers separated by white space or commas ('#' starts a comment), or
// any cube the formats read, reduced to each band's root mean square over
// its finite, valid samples (bandRMS: the rows streamed through
// formats.Open). A companion (NoiseCompanion) of the input companionOf
// (empty otherwise) is read as its swath, which must be the input's
// swath (for an EMIT granule read with Ortho, the statistic is over the
// swath, where each measured pixel counts once; the GLT repeats some of
// them in the grid). A band flagged bad in lr needs no value.
func readNoise(path string, lr *hsi.Cube, companionOf string) ([]float64, error) {
	bands := lr.B
	if _, err := formats.ForRead(path); err == nil {
		src, err := formats.Open(path, hsi.ReadOptions{})
		if err != nil {
			return nil, fmt.Errorf("noise file: %w", err)
		}
		defer src.Close()
		hd := src.Header()
		if hd.B != bands {
			return nil, fmt.Errorf("noise file %s: %d bands, the input has %d", path, hd.B, bands)
		}
		if companionOf != "" {
			if err := sameSwath(path, hd, companionOf); err != nil {
				return nil, err
			}
		}
		out, cnt, err := bandRMS(src)
		if err != nil {
			return nil, fmt.Errorf("noise file: %w", err)
		}
		for b, n := range cnt {
			if n == 0 && !isBad(lr, b) {
				return nil, fmt.Errorf("noise file %s: band %d has no valid value", path, b+1)
			}
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

// sameSwath checks that the companion at path, whose header is hd, has the
// swath of the input in (both read without Ortho: a header only).
func sameSwath(path string, hd hsi.Header, in string) error {
	src, err := formats.Open(in, hsi.ReadOptions{})
	if err != nil {
		return err
	}
	ih := src.Header()
	src.Close()
	if hd.H != ih.H || hd.W != ih.W {
		return fmt.Errorf("noise file %s: %d x %d pixels, the input has %d x %d: not the same granule", path, hd.H, hd.W, ih.H, ih.W)
	}
	return nil
}

// bandRMS returns each band's root mean square over the valid samples of
// src (neither no-data, hsi.Meta.NoData, nor infinite) and how many each
// band has, reading the rows a band at a time (about 4 MiB of float32), so
// that the memory held is what src holds. An infinite sample is the
// Source's error, as formats.Read gives it: the first of the image,
// counted over all of it. A band without a valid sample gets 0.
func bandRMS(src formats.Source) (rms []float64, count []int, err error) {
	hd := src.Header()
	H, W, B := hd.H, hd.W, hd.B
	rms, count = make([]float64, B), make([]int, B)
	nd := hd.Meta.NoData()
	var first *hsi.NonFiniteError
	step := rowBand(W, B)
	buf := make([]float32, min(step, H)*W*B)
	for y0 := 0; y0 < H; y0 += step {
		y1 := min(H, y0+step)
		rows := buf[:(y1-y0)*W*B]
		var nf *hsi.NonFiniteError
		if err := src.ReadRows(y0, y1, rows); errors.As(err, &nf) {
			if first == nil {
				first = nf
			} else {
				first.Count += nf.Count
			}
			continue
		} else if err != nil {
			return nil, nil, err
		}
		for i, v := range rows {
			f := float64(v)
			if nd.Is(v) || math.IsInf(f, 0) {
				continue
			}
			rms[i%B] += f * f
			count[i%B]++
		}
	}
	if first != nil {
		return nil, nil, first
	}
	for b := range rms {
		if count[b] > 0 {
			rms[b] = math.Sqrt(rms[b] / float64(count[b]))
		}
	}
	return rms, count, nil
}

// maxNoiseTextBytes bounds a noise file of numbers: a few bytes per band.
const maxNoiseTextBytes = 16 << 20

// isBad reports whether band b of c is flagged bad, which the model leaves
// out, so that its noise value is not needed.
func isBad(c *hsi.Cube, b int) bool {
	return b < len(c.Meta.BadBands) && c.Meta.BadBands[b]
}
