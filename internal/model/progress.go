package model

// EncodeOptions are the settings of one encoding (EncodeImageContext,
// EncodeEnsembleContext), passed with its context; the zero value
// estimates the noise, screens the noisy bands and reports no progress.
type EncodeOptions struct {
	// Noise is the standard deviation of each band's noise in the units
	// of the input, one per band (a sensor's uncertainty product, or given
	// by the user); nil estimates it from the input. Only a model with
	// NoiseInput or a noise companion (WithNoisy) uses it.
	Noise []float64
	// KeepNoisyBands turns off the screening of bands by their estimated
	// noise (Noise.Outliers).
	KeepNoisyBands bool
	// Progress, when not nil, is called as the encoder works: done of
	// total units of the encoder's work, rising to total when an encoding
	// is complete. total is the same for every call of one encoding (the
	// views of a self-ensemble count together) and grows with the input's
	// rows; a unit is one row of one stage, weighted by the stage's
	// multiply-adds per pixel. It runs on the encoding goroutine between
	// bands of rows and must return quickly. The encodings are the same,
	// bit for bit, with or without it.
	Progress func(done, total int)
}

// encProgress counts the encoder's work for a progress callback. A nil
// *encProgress counts nothing.
type encProgress struct {
	f           func(done, total int)
	done, total int
	// Units per row of each stage: the stem, the two passes of an ESSA
	// layer, the feed-forward and the tail (multiply-adds per pixel in
	// units of C^2, at least 1).
	stem, pass1, pass2, ffn, tail int
}

// newEncProgress returns the counter for f of encodings of rows input
// rows in all (the sum over a self-ensemble's views), or nil when f is nil.
func (m *Model) newEncProgress(f func(done, total int), rows int) *encProgress {
	if f == nil {
		return nil
	}
	e := m.Enc.Config
	c := max(e.C, 1)
	p := &encProgress{
		f:     f,
		stem:  max(1, (9*e.In+c/2)/c), // 3 x 3 convolution, In -> C
		pass1: 3,                      // q, k, v: C -> 3C
		pass2: 2,                      // attention and output: C -> C twice
		// Two 3 x 3 convolutions C -> rC -> C, as Winograd F(4x4, 3x3):
		// 16 multiplies for 36, 18 r C^2 / 2.25 = 8 r C^2.
		ffn:  max(1, 8*e.FFNRatio),
		tail: 4, // 3 x 3 convolution C -> C, Winograd
	}
	p.total = rows * (p.stem + e.Blocks*(p.pass1+p.pass2+p.ffn) + p.tail)
	return p
}

// stageTicks are the callbacks of the encoder's stages, each called with
// the rows of a band as it is done (all nil when nothing is counted).
type stageTicks struct{ stem, pass1, pass2, ffn, tail func(rows int) }

// ticks returns p's stage callbacks.
func (p *encProgress) ticks() stageTicks {
	if p == nil {
		return stageTicks{}
	}
	of := func(w int) func(int) {
		return func(n int) {
			p.done = min(p.total, p.done+n*w)
			p.f(p.done, p.total)
		}
	}
	return stageTicks{of(p.stem), of(p.pass1), of(p.pass2), of(p.ffn), of(p.tail)}
}

// tick calls t with n rows when t is not nil.
func tick(t func(int), n int) {
	if t != nil {
		t(n)
	}
}
