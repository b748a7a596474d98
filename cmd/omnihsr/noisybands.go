package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/internal/model"
	"github.com/omnihsr/omnihsr/noise"
)

// noisyBands returns the bands of c that the model's noise screening
// judges unusable (noise.Outliers on the usable bands, as
// model.Model.EncodeImage screens them).
func noisyBands(c *hsi.Cube) ([]noise.Outlier, error) {
	_, nd, err := hsi.FillNoData(c)
	if err != nil {
		return nil, err
	}
	usable := nd.Usable(c.B)
	x := c
	if len(usable) < c.B {
		if x, err = c.SelectBands(usable); err != nil {
			return nil, err
		}
	}
	sig, err := noise.Bands(x, true)
	if err != nil {
		return nil, err
	}
	out := noise.Outliers(x, sig)
	if len(out) >= x.B {
		return nil, nil // the model screens none then
	}
	for i := range out {
		out[i].Band = usable[out[i].Band]
	}
	return out, nil
}

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
const noisyBandsNote = "noise far above their spectral neighbours' (over %gx, and over %.0f %% of the band's signal): left out of the noise level, the routing and the field gain, rendered like every band"

// reportOutliers writes the bands the encoding left out of its noise level.
func reportOutliers(w io.Writer, r any, lr *hsi.Cube) {
	nr, ok := r.(interface{ Noise() model.Noise })
	if !ok {
		return
	}
	if out := nr.Noise().Outliers; len(out) > 0 {
		fmt.Fprintf(w, "upscale: %d band(s) judged unusable, "+noisyBandsNote+" (-keep-noisy-bands keeps them in): %s\n",
			len(out), noise.OutlierFactor, 100*noise.OutlierNSR, describeOutliers(&lr.Meta, out))
	}
}
