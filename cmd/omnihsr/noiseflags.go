package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/omnihsr/omnihsr"
	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/formats"
	"github.com/omnihsr/omnihsr/hsi/products"
	"github.com/omnihsr/omnihsr/internal/method"
	"github.com/omnihsr/omnihsr/internal/model"
)

// noiseFlags are upscale's noise flags: -noise auto|clean|SIGMA and
// -noise-file FILE|auto.
type noiseFlags struct {
	level, file string
	companion   bool // file is the input's EMIT RFLUNCERT companion (-noise-file auto)
	keepNoisy   bool // -keep-noisy-bands
}

const noiseFlagsHelp = `Noise: the default model pair estimates the input's noise band by band (a
robust scale of a spatial and spectral high-pass residual) and renders a
noisy input with its noise-aware model, which smooths where the model for
clean inputs would sharpen the noise, keeping the share of that model's
operator field that super-resolving the input itself from half its size
supports (towards bicubic where noise drowns detail); the estimate, the
choice and the share are printed on stderr. -noise SIGMA gives the noise standard deviation instead
(the input's units, every band), -noise clean treats the input as clean,
and -noise-file FILE takes one value per band: a text file of numbers, or a
cube of the input's band count (e.g. a sensor's per-pixel uncertainty
product), reduced to the root mean square of each band's valid samples.
-noise-file auto, for an EMIT L2A reflectance granule
(EMIT_L2A_RFL_001_<time>_<orbit>_<scene>.nc), takes the granule's
uncertainty companion from the same folder
(EMIT_L2A_RFLUNCERT_001_<time>_<orbit>_<scene>.nc, as LP DAAC delivers the
two); its grid must match the input's (swath, or the GLT grid with -ortho).
A band whose estimated noise is far above its spectral neighbours' (over
6 times their level and over 10 % of its own signal: a water-vapour band,
a detector edge, a subset exported without a bad-band list) is left out
of the estimated noise level, of the choice of model and of the field
gain, and is rendered like every band; the bands and why are printed
(and listed by omnihsr info). -keep-noisy-bands keeps them in.
`

func (n *noiseFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&n.level, "noise", "auto", "input noise: auto (estimated), clean, or the standard deviation in the input's units")
	fs.StringVar(&n.file, "noise-file", "", "per-band noise standard deviations: a text file of numbers, an uncertainty cube, or auto (an EMIT granule's RFLUNCERT companion)")
	fs.BoolVar(&n.keepNoisy, "keep-noisy-bands", false, "keep bands whose estimated noise is far above their neighbours' in the noise level, the routing and the field gain (by default they are left out of these, and still rendered)")
}

// check validates the flags before any input is read.
func (n *noiseFlags) check() error {
	switch strings.ToLower(strings.TrimSpace(n.level)) {
	case "", "auto", "clean":
	default:
		v, err := strconv.ParseFloat(n.level, 64)
		if err != nil || !(v >= 0) || math.IsInf(v, 0) {
			return usagef("-noise %q: want auto, clean or a finite number >= 0", n.level)
		}
	}
	if n.file != "" && !(n.level == "" || strings.EqualFold(n.level, "auto")) {
		return usagef("give -noise or -noise-file, not both")
	}
	return nil
}

// resolve turns -noise-file auto into the path of the input's EMIT
// RFLUNCERT companion, before the input is read.
func (n *noiseFlags) resolve(in string) error {
	if !strings.EqualFold(strings.TrimSpace(n.file), "auto") {
		return nil
	}
	p, err := products.EMITUncertaintyPath(in)
	if err != nil {
		return fmt.Errorf("-noise-file auto: %w", err)
	}
	n.file, n.companion = p, true
	return nil
}

// apply sets lr.Meta.Noise from the flags (nil: estimate). ro are the
// options the input was read with; w gets one line naming a companion
// file.
func (n *noiseFlags) apply(w io.Writer, lr *hsi.Cube, ro hsi.ReadOptions) error {
	if n.file != "" {
		s, err := readNoiseFile(n.file, lr, ro, n.companion)
		if err != nil {
			return err
		}
		if n.companion {
			fmt.Fprintf(w, "upscale: noise from %s (the input's RFLUNCERT companion: root mean square of each band's uncertainty over the swath)\n", n.file)
		}
		lr.Meta.Noise = s
		return nil
	}
	switch l := strings.ToLower(strings.TrimSpace(n.level)); l {
	case "", "auto":
		return nil
	case "clean":
		lr.Meta.Noise = make([]float64, lr.B)
	default:
		v, _ := strconv.ParseFloat(l, 64)
		lr.Meta.Noise = make([]float64, lr.B)
		for b := range lr.Meta.Noise {
			lr.Meta.Noise[b] = v
		}
	}
	return nil
}

// readNoiseFile reads one noise value per band of lr from path: numbers
// separated by white space or commas ('#' starts a comment), or any cube
// the formats read, reduced to each band's root mean square over its
// finite, valid samples (an HDF5 or NetCDF-4 cube streamed chunk by chunk).
// A companion is read with the input's -ortho and must have its grid.
func readNoiseFile(path string, lr *hsi.Cube, ro hsi.ReadOptions, companion bool) ([]float64, error) {
	bands := lr.B
	if formats.Sniff(path) == "HDF5" {
		opt := hsi.ReadOptions{}
		if companion {
			opt.Ortho = ro.Ortho
		}
		st, err := products.BandRMS(path, opt)
		if err != nil {
			return nil, fmt.Errorf("-noise-file: %w", err)
		}
		if len(st.RMS) != bands {
			return nil, fmt.Errorf("-noise-file %s: %d bands, the input has %d", path, len(st.RMS), bands)
		}
		if companion && (st.H != lr.H || st.W != lr.W) {
			return nil, fmt.Errorf("-noise-file %s: %d x %d pixels, the input has %d x %d: not the same granule", path, st.H, st.W, lr.H, lr.W)
		}
		for b, n := range st.Count {
			if n == 0 && !isBad(lr, b) {
				return nil, fmt.Errorf("-noise-file %s: band %d has no valid value", path, b+1)
			}
		}
		return st.RMS, nil
	}
	if _, err := formats.ForRead(path); err == nil {
		c, _, err := formats.Read(path, hsi.ReadOptions{})
		if err != nil {
			return nil, fmt.Errorf("-noise-file: %w", err)
		}
		if c.B != bands {
			return nil, fmt.Errorf("-noise-file %s: %d bands, the input has %d", path, c.B, bands)
		}
		out := make([]float64, bands)
		cnt := make([]int, bands)
		ign, hasIgn := c.Meta.IgnoreValue() // compared as the samples hold it
		for i, v := range c.Data {
			f := float64(v)
			if math.IsNaN(f) || math.IsInf(f, 0) || (hasIgn && v == ign) {
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
				return nil, fmt.Errorf("-noise-file %s: band %d has no valid value", path, b+1)
			}
			out[b] = math.Sqrt(out[b] / float64(cnt[b]))
		}
		return out, nil
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("-noise-file: %w", err)
	}
	var out []float64
	for ln, line := range strings.Split(string(raw), "\n") {
		line, _, _ = strings.Cut(line, "#")
		for _, f := range strings.FieldsFunc(line, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\r' }) {
			v, err := strconv.ParseFloat(f, 64)
			if err != nil || !(v >= 0) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("-noise-file %s: line %d: %q is not a finite number >= 0", path, ln+1, f)
			}
			out = append(out, v)
		}
	}
	if len(out) != bands {
		return nil, fmt.Errorf("-noise-file %s: %d values, the input has %d bands", path, len(out), bands)
	}
	return out, nil
}

// isBad reports whether band b of c is a bad band, which the model leaves
// out, so that its noise value is not needed.
func isBad(c *hsi.Cube, b int) bool {
	return b < len(c.Meta.BadBands) && c.Meta.BadBands[b]
}

// reportNoise writes one line saying what noise the model worked with and
// which model rendered (nothing for bicubic): omnihsr.ModelReport.
func reportNoise(w io.Writer, r method.Renderer, m *model.Model) {
	if _, ok := r.(interface{ Noise() model.Noise }); !ok || m == nil {
		return
	}
	fmt.Fprintln(w, "upscale: "+omnihsr.ModelReportOf(r, m).String())
}
