package eval

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strings"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/noise"
	"github.com/omnihsr/omnihsr/resample"
)

// Degradation says how a low-resolution input is made from a high-resolution
// image (docs/CONVENTIONS.md section 5). The zero value is the clean protocol: antialiased
// bicubic downsampling, identical for every band. The options apply in this
// order: Gaussian blur of sigma Blur*s HR pixels, band-dependent blur of
// sigma Kappa*s*(b-1)/(B-1) HR pixels for band b = 1..B, then the
// downsampling (block mean when Area, antialiased bicubic otherwise), then
// Gaussian noise of standard deviation Noise on the LR cube (not clipped).
// s is the nominal factor of the protocol. NoiseModel replaces the white
// noise by a sensor-like noise of level Noise (see NoiseModels).
type Degradation struct {
	Noise float64 `json:"noise,omitempty"`
	// NoiseModel is "" (white Gaussian noise) or one of NoiseModels.
	NoiseModel string  `json:"noise_model,omitempty"`
	Blur       float64 `json:"blur,omitempty"`
	Area       bool    `json:"area,omitempty"`
	Kappa      float64 `json:"kappa,omitempty"`
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
	if d.NoiseModel != "" {
		if _, ok := noiseModels[d.NoiseModel]; !ok {
			return fmt.Errorf("eval: noise model %q: want one of %s", d.NoiseModel, strings.Join(NoiseModels(), ", "))
		}
	}
	return nil
}

// noiseModels are the sensor-like noises of the evaluation, each a
// function of the level sigma (data normalised to a maximum of 1) and the
// band count:
//   - "shot": signal-dependent noise, shot variance 0.75 sigma^2/0.5 per
//     unit of signal plus read noise 0.5 sigma, so that the standard
//     deviation is sigma at a value of 0.5;
//   - "profile": white noise of mean level sigma shaped over the bands like
//     a VNIR/SWIR imaging spectrometer's (noise.SensorProfile, the bands
//     spread evenly over 400-2500 nm);
//   - "stripes": white noise of sigma plus a fixed offset per column and
//     band of standard deviation sigma (pushbroom striping).
var noiseModels = map[string]func(sigma float64, bands int) noise.Spec{
	"shot": func(s float64, _ int) noise.Spec {
		return noise.Spec{Kind: noise.Signal, Shot: 0.75 * s * s / 0.5, Read: 0.5 * s}
	},
	"profile": func(s float64, b int) noise.Spec {
		return noise.Spec{Kind: noise.Profile, Sigma: s, Band: noise.SensorProfile(nil, b)}
	},
	"stripes": func(s float64, _ int) noise.Spec {
		return noise.Spec{Kind: noise.Stripes, Sigma: s, Stripe: s}
	},
}

// NoiseModels lists the names of the sensor-like noise models.
func NoiseModels() []string {
	names := make([]string, 0, len(noiseModels))
	for n := range noiseModels {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
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
	if d.Noise > 0 && d.NoiseModel != "" {
		parts = append(parts, fmt.Sprintf("%s noise %g (seed %d)", d.NoiseModel, d.Noise, d.Seed))
	} else if d.Noise > 0 {
		parts = append(parts, fmt.Sprintf("Gaussian noise sigma=%g (seed %d)", d.Noise, d.Seed))
	}
	return strings.Join(parts, " + ")
}

// Input makes the low-resolution input of hr at factor s as the protocol
// does: round(side/s) on each side (LRSide), then Apply.
func (d Degradation) Input(hr *hsi.Cube, s float64, seed uint64) (*hsi.Cube, error) {
	lh, err := LRSide(hr.H, s)
	if err != nil {
		return nil, err
	}
	lw, err := LRSide(hr.W, s)
	if err != nil {
		return nil, err
	}
	return d.Apply(hr, lh, lw, s, seed)
}

// Apply makes the lh x lw low-resolution input from hr at nominal factor s
// with resample.Degrade; seed selects the noise stream of this image. hr is
// not modified.
func (d Degradation) Apply(hr *hsi.Cube, lh, lw int, s float64, seed uint64) (*hsi.Cube, error) {
	if err := d.Validate(); err != nil {
		return nil, err
	}
	white := d.Noise
	if d.NoiseModel != "" {
		white = 0
	}
	lr, err := resample.Degrade(hr, resample.DegradeOptions{
		Scale: s, H: lh, W: lw,
		Blur: d.Blur, BandKappa: d.Kappa, Area: d.Area,
		Noise: white, Seed: seed,
	})
	if err != nil || d.NoiseModel == "" || d.Noise == 0 {
		return lr, err
	}
	sp := noiseModels[d.NoiseModel](d.Noise, lr.B)
	if err := sp.Add(lr, rand.New(rand.NewPCG(seed, 0x5e05))); err != nil {
		return nil, fmt.Errorf("eval: %w", err)
	}
	return lr, nil
}
