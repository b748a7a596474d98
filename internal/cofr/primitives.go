package cofr

import (
	"errors"
	"fmt"
	"math"
	"runtime"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/internal/simd"
)

// Taps is the number of operator coefficients per primitive (a 5x5 window).
const Taps = 25

// Eps is the constant added to the denominator of the normalised weights.
const Eps = 1e-6

// DefaultNeighbourhood is the default side K of the K x K neighbourhood of
// primitives considered for a target pixel.
const DefaultNeighbourhood = 7

// DefaultA is the anti-aliasing constant a of sigma_eff = sqrt(sigma^2+(a/s)^2).
const DefaultA = 0.5

// Primitives holds one primitive per low-resolution pixel, in physical units
// (the network's raw outputs already mapped through tanh, softplus, sigmoid).
// Primitive n = i*W + j belongs to low-res pixel (i, j); every slice has H*W
// entries, K has H*W*Taps.
type Primitives struct {
	H, W int
	// OffY, OffX: centre offsets in low-res pixels; the centre is
	// (i + 0.5 + OffY, j + 0.5 + OffX).
	OffY, OffX []float32
	// Sigma1, Sigma2: widths along the two principal axes, in low-res pixels (> 0).
	Sigma1, Sigma2 []float32
	// Theta: rotation in radians. Principal axis 1 points along
	// (dx, dy) = (cos Theta, sin Theta), x the column axis and y the row axis
	// (rows grow downwards, so a positive Theta turns clockwise on screen).
	Theta []float32
	// Alpha: opacity (>= 0; the model's sigmoid keeps it in (0, 1)).
	Alpha []float32
	// K: the 5x5 operators, K[n*Taps + (dy+2)*5 + (dx+2)] for dy, dx in -2..2.
	// They are zero-sum by construction upstream; COFR does not enforce it.
	K []float32
}

// NewPrimitives returns h x w primitives with zero offsets, widths 0.5,
// angle 0, opacity 0.5 and zero operators (the output of a zero-initialised
// operator layer renders bicubic interpolation exactly).
func NewPrimitives(h, w int) (*Primitives, error) {
	if h <= 0 || w <= 0 {
		return nil, fmt.Errorf("cofr: primitives %dx%d: sizes must be positive", h, w)
	}
	n, err := hsi.Elems(h, w, Taps)
	if err != nil {
		return nil, fmt.Errorf("cofr: primitives %dx%d: %w", h, w, err)
	}
	m := h * w
	p := &Primitives{H: h, W: w,
		OffY: make([]float32, m), OffX: make([]float32, m),
		Sigma1: make([]float32, m), Sigma2: make([]float32, m),
		Theta: make([]float32, m), Alpha: make([]float32, m),
		K: make([]float32, n)}
	for i := 0; i < m; i++ {
		p.Sigma1[i], p.Sigma2[i], p.Alpha[i] = 0.5, 0.5, 0.5
	}
	return p, nil
}

// Validate checks sizes, lengths and values: every value finite, widths > 0,
// opacities >= 0.
func (p *Primitives) Validate() error {
	if p == nil {
		return errors.New("cofr: nil primitives")
	}
	if p.H <= 0 || p.W <= 0 {
		return fmt.Errorf("cofr: primitives %dx%d: sizes must be positive", p.H, p.W)
	}
	if _, err := hsi.Elems(p.H, p.W, Taps); err != nil {
		return fmt.Errorf("cofr: primitives %dx%d: %w", p.H, p.W, err)
	}
	m := p.H * p.W
	fields := []struct {
		name string
		v    []float32
		n    int
	}{{"OffY", p.OffY, m}, {"OffX", p.OffX, m}, {"Sigma1", p.Sigma1, m}, {"Sigma2", p.Sigma2, m},
		{"Theta", p.Theta, m}, {"Alpha", p.Alpha, m}, {"K", p.K, m * Taps}}
	for _, f := range fields {
		if len(f.v) != f.n {
			return fmt.Errorf("cofr: primitives %dx%d: %s has %d values, want %d", p.H, p.W, f.name, len(f.v), f.n)
		}
		if simd.FiniteParallel(f.v) {
			continue
		}
		for i, v := range f.v {
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
				return fmt.Errorf("cofr: primitive %d (row %d, column %d): %s is %v", i/(f.n/m), i/(f.n/m)/p.W, i/(f.n/m)%p.W, f.name, v)
			}
		}
	}
	for i := 0; i < m; i++ {
		if !(p.Sigma1[i] > 0) || !(p.Sigma2[i] > 0) {
			return fmt.Errorf("cofr: primitive %d (row %d, column %d): widths %v, %v must be positive", i, i/p.W, i%p.W, p.Sigma1[i], p.Sigma2[i])
		}
		if p.Alpha[i] < 0 {
			return fmt.Errorf("cofr: primitive %d (row %d, column %d): opacity %v is negative", i, i/p.W, i%p.W, p.Alpha[i])
		}
	}
	return nil
}

// Clone returns a deep copy.
func (p *Primitives) Clone() *Primitives {
	c := *p
	c.OffY = append([]float32(nil), p.OffY...)
	c.OffX = append([]float32(nil), p.OffX...)
	c.Sigma1 = append([]float32(nil), p.Sigma1...)
	c.Sigma2 = append([]float32(nil), p.Sigma2...)
	c.Theta = append([]float32(nil), p.Theta...)
	c.Alpha = append([]float32(nil), p.Alpha...)
	c.K = append([]float32(nil), p.K...)
	return &c
}

// Options selects the truncation rule and the rendering width.
type Options struct {
	// Neighbourhood is the side K (odd) of the K x K block of primitives
	// around the low-res cell of a target pixel that are considered for it
	// (clipped at the image border). 0 means DefaultNeighbourhood (7),
	// the shipped model's (docs/CONVENTIONS.md section 3); other odd values
	// are accepted for experiments.
	Neighbourhood int
	// PaperRule replaces the K x K rule by the paper's: every primitive whose
	// centre lies within Chebyshev distance ceil(3*sigma_max*s) high-res
	// pixels of the target pixel, sigma_max the largest sigma_eff of the image.
	PaperRule bool
	// A is the anti-aliasing constant of sigma_eff; 0 means DefaultA (0.5).
	A float64
	// Workers is the number of goroutines; 0 means runtime.GOMAXPROCS(0).
	Workers int
}

func (o Options) resolve() (Options, error) {
	if o.Neighbourhood == 0 {
		o.Neighbourhood = DefaultNeighbourhood
	}
	if o.Neighbourhood < 1 || o.Neighbourhood%2 == 0 {
		return o, fmt.Errorf("cofr: neighbourhood %d must be odd and positive", o.Neighbourhood)
	}
	if o.A == 0 {
		o.A = DefaultA
	}
	if !(o.A > 0) || math.IsInf(o.A, 0) {
		return o, fmt.Errorf("cofr: anti-aliasing constant a = %v must be positive and finite", o.A)
	}
	if o.Workers < 0 {
		return o, fmt.Errorf("cofr: %d workers", o.Workers)
	}
	if o.Workers == 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	return o, nil
}

// Grads holds dL/d(parameter) for every field of Primitives, same layout.
type Grads struct {
	OffY, OffX, Sigma1, Sigma2, Theta, Alpha, K []float32
}
