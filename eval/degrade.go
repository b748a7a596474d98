package eval

import (
	"fmt"
	"math"
	"strings"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/resample"
)

// Degradation says how a low-resolution input is made from a high-resolution
// image (docs/CONVENTIONS.md section 5). The zero value is the clean protocol: antialiased
// bicubic downsampling, identical for every band. The options apply in this
// order: Gaussian blur of sigma Blur*s HR pixels, band-dependent blur of
// sigma Kappa*s*(b-1)/(B-1) HR pixels for band b = 1..B, then the
// downsampling (block mean when Area, antialiased bicubic otherwise), then
// Gaussian noise of standard deviation Noise on the LR cube (not clipped).
// s is the nominal factor of the protocol.
type Degradation struct {
	Noise float64 `json:"noise,omitempty"`
	Blur  float64 `json:"blur,omitempty"`
	Area  bool    `json:"area,omitempty"`
	Kappa float64 `json:"kappa,omitempty"`
	// Seed is the base seed of the noise; each image draws from its own
	// stream derived from Seed, the scene, the image and the factor.
	Seed uint64 `json:"seed,omitempty"`
}

// Validate checks the options.
func (d Degradation) Validate() error {
	for _, v := range []struct {
		name string
		v    float64
	}{{"noise", d.Noise}, {"blur", d.Blur}, {"kappa", d.Kappa}} {
		if math.IsNaN(v.v) || math.IsInf(v.v, 0) || v.v < 0 {
			return fmt.Errorf("eval: degradation %s %v must be a finite number >= 0", v.name, v.v)
		}
	}
	return nil
}

// Clean reports whether d is the plain antialiased bicubic downsampling.
func (d Degradation) Clean() bool {
	return d.Noise == 0 && d.Blur == 0 && !d.Area && d.Kappa == 0
}

// String describes d for tables: "antialiased bicubic", or e.g.
// "blur 0.4s + antialiased bicubic + noise 0.01".
func (d Degradation) String() string {
	var parts []string
	if d.Blur > 0 {
		parts = append(parts, fmt.Sprintf("Gaussian blur sigma=%gs", d.Blur))
	}
	if d.Kappa > 0 {
		parts = append(parts, fmt.Sprintf("band-dependent blur kappa=%g", d.Kappa))
	}
	if d.Area {
		parts = append(parts, "area (block mean)")
	} else {
		parts = append(parts, "antialiased bicubic")
	}
	if d.Noise > 0 {
		parts = append(parts, fmt.Sprintf("Gaussian noise sigma=%g (seed %d)", d.Noise, d.Seed))
	}
	return strings.Join(parts, " + ")
}

// Apply makes the lh x lw low-resolution input from hr at nominal factor s
// with resample.Degrade; seed selects the noise stream of this image. hr is
// not modified.
func (d Degradation) Apply(hr *hsi.Cube, lh, lw int, s float64, seed uint64) (*hsi.Cube, error) {
	if err := d.Validate(); err != nil {
		return nil, err
	}
	return resample.Degrade(hr, resample.DegradeOptions{
		Scale: s, H: lh, W: lw,
		Blur: d.Blur, BandKappa: d.Kappa, Area: d.Area,
		Noise: d.Noise, Seed: seed,
	})
}
