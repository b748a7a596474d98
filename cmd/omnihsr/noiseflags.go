package main

import (
	"flag"
	"math"
	"strings"

	"github.com/omnihsr/omnihsr"
	"github.com/omnihsr/omnihsr/internal/opttext"
)

// noiseFlags are upscale's noise flags: -noise auto|clean|SIGMA,
// -noise-file FILE|auto, -keep-noisy-bands and -v, which adds the
// technical detail of the model's choice to its plain one-line account.
type noiseFlags struct {
	level, file string
	keepNoisy   bool // -keep-noisy-bands
	verbose     bool // -v
}

const noiseFlagsHelp = `Noise: the default model pair estimates the input's noise band by band (a
robust scale of a spatial and spectral high-pass residual) and renders a
noisy input with its noise-aware model, which smooths where the model for
clean inputs would sharpen the noise, keeping the share of that model's
operator field that super-resolving the input itself from half its size
supports (towards bicubic where noise drowns detail); the estimate and
the choice are printed on stderr in one plain line (the estimated noise as
a share of the signal next to the limit up to which the sharpening model
renders); -v adds the figures the choice was made on (the noise feature,
the gate, the share of the operator field kept). -noise SIGMA gives the
noise standard deviation instead (the input's units, every band), -noise
clean treats the input as clean, and -noise-file FILE takes one value per
band: a text file of numbers, or a cube of the input's band count (e.g. a
sensor's per-pixel uncertainty product), reduced to the root mean square of
each band's valid samples. -noise-file auto, for an EMIT L2A reflectance
granule (EMIT_L2A_RFL_001_<time>_<orbit>_<scene>.nc), takes the granule's
uncertainty companion from the same folder (as LP DAAC delivers the two:
EMIT_L2A_RFLUNCERT_001_<time>_<orbit>_<scene>.nc); its grid must match the
input's (swath, or the GLT grid with -ortho).
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
	fs.BoolVar(&n.keepNoisy, "keep-noisy-bands", false, "keep bands whose estimated noise is far above their neighbours' in the noise estimate and the choice of model (by default they are left out of these, and still rendered)")
	fs.BoolVar(&n.verbose, "v", false, "also print the technical detail of the model's choice (noise feature, gate, field gain) and every noisy band's figures")
}

// check validates the flags before any input is read.
func (n *noiseFlags) check() error {
	if kind, v, ok := opttext.Noise(n.level); !ok || kind == opttext.NoiseSigma && (!(v >= 0) || math.IsInf(v, 0)) {
		return usagef("-noise %q: want auto, clean or a finite number >= 0", n.level)
	}
	if n.file != "" && !(n.level == "" || strings.EqualFold(n.level, "auto")) {
		return usagef("give -noise or -noise-file, not both")
	}
	return nil
}

// noise returns the library's noise options of the flags (checked by
// check): -noise-file auto is the input's EMIT RFLUNCERT companion.
func (n *noiseFlags) noise() omnihsr.Noise {
	switch f := strings.TrimSpace(n.file); {
	case strings.EqualFold(f, "auto"):
		return omnihsr.Noise{Mode: omnihsr.NoiseCompanion}
	case f != "":
		return omnihsr.Noise{Mode: omnihsr.NoiseFile, File: n.file}
	}
	switch kind, v, _ := opttext.Noise(n.level); kind {
	case opttext.NoiseClean:
		return omnihsr.Noise{Mode: omnihsr.NoiseClean}
	case opttext.NoiseSigma:
		return omnihsr.Noise{Mode: omnihsr.NoiseGiven, Sigma: []float64{v}}
	}
	return omnihsr.Noise{}
}
