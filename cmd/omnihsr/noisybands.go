package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/noise"
)

// listAll is the most noisy bands that are listed one by one without -v;
// past it they are listed as ranges of band numbers with the worst band's
// figures.
const listAll = 6

// describeOutliers lists the bands and why they were judged unusable:
// every band's figures when all is set or there are at most listAll,
// else the bands as ranges and the figures of the band furthest above its
// neighbours (a NEON or AVIRIS cube as delivered has some 60).
func describeOutliers(m *hsi.Meta, out []noise.Outlier, all bool) string {
	one := func(o noise.Outlier) string {
		return fmt.Sprintf("%s: noise %.3g, %.1fx its neighbours', %.0f %% of its signal", bandLabel(m, o.Band), o.Sigma, o.Sigma/o.Ref, 100*o.NSR)
	}
	if all || len(out) <= listAll {
		parts := make([]string, len(out))
		for i, o := range out {
			parts[i] = one(o)
		}
		return strings.Join(parts, "; ")
	}
	var ranges []string
	worst := out[0]
	for i := 0; i < len(out); {
		j := i
		for j+1 < len(out) && out[j+1].Band == out[j].Band+1 {
			j++
		}
		r := bandLabel(m, out[i].Band)
		if lo, hi := out[i].Band, out[j].Band; j > i {
			r = strconv.Itoa(lo+1) + "-" + strconv.Itoa(hi+1)
			if hi < len(m.Wavelengths) {
				r += fmt.Sprintf(" (%g-%g %s)", m.Wavelengths[lo], m.Wavelengths[hi], m.WavelengthUnits)
			}
		}
		ranges = append(ranges, r)
		for _, o := range out[i : j+1] {
			if o.Sigma/o.Ref > worst.Sigma/worst.Ref {
				worst = o
			}
		}
		i = j + 1
	}
	return fmt.Sprintf("bands %s; the furthest above its neighbours, %s (-v lists every band)", strings.Join(ranges, ", "), one(worst))
}

// bandLabel is band b's 1-based number, with its wavelength when known.
func bandLabel(m *hsi.Meta, b int) string {
	s := strconv.Itoa(b + 1)
	if b < len(m.Wavelengths) {
		s += fmt.Sprintf(" (%g %s)", m.Wavelengths[b], m.WavelengthUnits)
	}
	return s
}

// noisyBandsNote is what info and upscale say of the screening.
const noisyBandsNote = "noise far above their spectral neighbours' (over %gx, and over %.0f %% of the band's signal): left out of the noise estimate and the choice of model, rendered like every band"
