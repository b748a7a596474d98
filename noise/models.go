package noise

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/omnihsr/omnihsr/hsi"
)

// Kind names a synthetic noise model.
type Kind int

const (
	// White is independent Gaussian noise of one standard deviation Sigma
	// on every sample.
	White Kind = iota
	// Signal is signal-dependent noise: shot noise whose variance grows
	// with the value plus read noise, var = Shot*max(x, 0) + Read^2.
	Signal
	// Profile is white noise whose standard deviation varies over the
	// bands, Sigma times Band[b]: a sensor's per-band SNR profile.
	Profile
	// Stripes is white noise plus a fixed offset per column and band (the
	// detector-to-detector differences of a pushbroom sensor), of standard
	// deviation Stripe.
	Stripes
)

func (k Kind) String() string {
	switch k {
	case White:
		return "white"
	case Signal:
		return "signal-dependent"
	case Profile:
		return "band profile"
	case Stripes:
		return "striping"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Spec is one synthetic noise draw's parameters, in the units of the cube
// it is added to.
type Spec struct {
	Kind   Kind
	Sigma  float64   // white part (White, Profile, Stripes)
	Shot   float64   // Signal: variance per unit of signal
	Read   float64   // Signal: standard deviation of the read noise
	Band   []float64 // Profile: factor per band (len = bands)
	Stripe float64   // Stripes: standard deviation of the column offsets
}

// String describes s.
func (s Spec) String() string {
	switch s.Kind {
	case Signal:
		return fmt.Sprintf("%s (shot %.3g, read %.3g)", s.Kind, s.Shot, s.Read)
	case Profile:
		return fmt.Sprintf("%s (sigma %.3g)", s.Kind, s.Sigma)
	case Stripes:
		return fmt.Sprintf("%s (sigma %.3g, stripes %.3g)", s.Kind, s.Sigma, s.Stripe)
	}
	return fmt.Sprintf("%s (sigma %.3g)", s.Kind, s.Sigma)
}

// Add adds noise drawn from s with rng to c in place. Profile needs one
// factor per band of c.
func (s Spec) Add(c *hsi.Cube, rng *rand.Rand) error {
	if err := c.Validate(); err != nil {
		return fmt.Errorf("noise: %w", err)
	}
	for _, v := range []float64{s.Sigma, s.Shot, s.Read, s.Stripe} {
		if !(v >= 0) || math.IsInf(v, 0) {
			return fmt.Errorf("noise: %v: parameters must be finite and >= 0", s)
		}
	}
	if s.Kind == Profile && len(s.Band) != c.B {
		return fmt.Errorf("noise: band profile of %d values for %d bands", len(s.Band), c.B)
	}
	d := c.Data
	switch s.Kind {
	case White:
		for i := range d {
			d[i] += float32(s.Sigma * rng.NormFloat64())
		}
	case Signal:
		r2 := s.Read * s.Read
		for i, v := range d {
			sd := math.Sqrt(s.Shot*max(float64(v), 0) + r2)
			d[i] += float32(sd * rng.NormFloat64())
		}
	case Profile:
		for i := range d {
			d[i] += float32(s.Sigma * s.Band[i%c.B] * rng.NormFloat64())
		}
	case Stripes:
		off := make([]float64, c.W*c.B)
		for i := range off {
			off[i] = s.Stripe * rng.NormFloat64()
		}
		for i := range d {
			d[i] += float32(off[i%(c.W*c.B)] + s.Sigma*rng.NormFloat64())
		}
	default:
		return fmt.Errorf("noise: unknown kind %d", int(s.Kind))
	}
	return nil
}

// SensorProfile returns the per-band noise factors of a VNIR/SWIR imaging
// spectrometer at the given band centres (nm): low noise in the visible
// and near infrared, more beyond 1.3 um, peaks at the water-vapour bands
// near 940, 1140, 1400 and 1900 nm where the signal collapses, and a steady
// rise beyond 2 um. The factors are normalised to a mean of 1. Bands of
// unknown wavelength (nil wl) are spread evenly over 400-2500 nm.
func SensorProfile(wl []float64, bands int) []float64 {
	out := make([]float64, bands)
	var sum float64
	for b := range out {
		x := 400 + 2100*float64(b)/math.Max(1, float64(bands-1))
		if wl != nil {
			x = wl[b]
		}
		f := 1 + 0.8/(1+math.Exp(-(x-1300)/40)) // the SWIR detector
		if x > 2000 {
			f += 2.5 * (x - 2000) / 500
		}
		for _, w := range [][2]float64{{940, 0.8}, {1140, 1.2}, {1400, 4}, {1900, 5}} {
			f += w[1] * math.Exp(-0.5*math.Pow((x-w[0])/35, 2))
		}
		out[b] = f
		sum += f
	}
	for b := range out {
		out[b] *= float64(bands) / sum
	}
	return out
}

// Draw picks a random noise model for training on a cube of the given
// band count whose values are normalised to a maximum of 1: white noise
// (40 %), signal-dependent (25 %), a random smooth band profile (20 %) or
// striping (15 %), with a level log-uniform in [lo, hi] (the standard
// deviation at a value of 0.5 for signal-dependent noise).
func Draw(rng *rand.Rand, bands int, lo, hi float64) Spec {
	level := lo * math.Exp(rng.Float64()*math.Log(hi/lo))
	u := rng.Float64()
	switch {
	case u < 0.40:
		return Spec{Kind: White, Sigma: level}
	case u < 0.65:
		f := 0.3 + 0.7*rng.Float64() // shot part of the variance at 0.5
		return Spec{Kind: Signal, Shot: f * level * level / 0.5, Read: math.Sqrt(1-f) * level}
	case u < 0.85:
		return Spec{Kind: Profile, Sigma: level, Band: randomProfile(rng, bands)}
	default:
		return Spec{Kind: Stripes, Sigma: level, Stripe: level * (0.2 + 0.8*rng.Float64())}
	}
}

// randomProfile is a smooth random per-band factor: a log-normal baseline
// plus a few narrow peaks (absorption bands), normalised to a mean of 1.
func randomProfile(rng *rand.Rand, bands int) []float64 {
	out := make([]float64, bands)
	tilt := 1.5 * (rng.Float64()*2 - 1)
	type peak struct{ at, width, height float64 }
	var peaks []peak
	for range rng.IntN(4) {
		peaks = append(peaks, peak{rng.Float64(), 0.01 + 0.04*rng.Float64(), 1 + 4*rng.Float64()})
	}
	var sum float64
	for b := range out {
		x := float64(b) / math.Max(1, float64(bands-1))
		f := math.Exp(tilt * (x - 0.5))
		for _, p := range peaks {
			f += p.height * math.Exp(-0.5*math.Pow((x-p.at)/p.width, 2))
		}
		out[b] = f
		sum += f
	}
	for b := range out {
		out[b] *= float64(bands) / sum
	}
	return out
}
