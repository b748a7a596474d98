package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/noise"
)

// describeOutliers lists the bands and why they were judged unusable.
func describeOutliers(m *hsi.Meta, out []noise.Outlier) string {
	parts := make([]string, len(out))
	for i, o := range out {
		s := strconv.Itoa(o.Band + 1)
		if o.Band < len(m.Wavelengths) {
			s += fmt.Sprintf(" (%g %s)", m.Wavelengths[o.Band], m.WavelengthUnits)
		}
		parts[i] = fmt.Sprintf("%s: noise %.3g, %.1fx its neighbours', %.0f %% of its signal", s, o.Sigma, o.Sigma/o.Ref, 100*o.NSR)
	}
	return strings.Join(parts, "; ")
}

// noisyBandsNote is what info and upscale say of the screening.
const noisyBandsNote = "noise far above their spectral neighbours' (over %gx, and over %.0f %% of the band's signal): left out of the noise estimate and the choice of model, rendered like every band"
