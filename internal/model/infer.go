package model

import (
	"context"
	"fmt"
	"math"
	"sync"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/internal/cofr"
	"github.com/omnihsr/omnihsr/internal/nn"
	"github.com/omnihsr/omnihsr/internal/par"
)

// Inference on images of any size.
//
// The encoder's convolutions see a few neighbouring rows, and ESSA couples
// all tokens of the image only through per-channel sums over tokens (see
// nn.ESSAStream). Inference therefore runs layer by layer over bands of
// low-res rows: a 3x3 convolution reads its band plus a one-row halo, the
// feed-forward pair a two-row halo, and every ESSA layer makes two passes
// (accumulate the sums, then apply them). The result is the whole-image
// result, not an approximation: tiles never see a different normalisation,
// and the only differences are float32 rounding (the tests bound them at
// 1e-4 relative). Peak memory is the input cube, the band-resampled input
// (M floats per low-res pixel), three C-channel feature maps, the raw head
// output (31 floats per pixel) and the primitives (about 32 floats per
// pixel), plus COFR's r_n (B floats per pixel) and two bands of output rows
// (StreamRows: 64 MiB in all); see DESIGN notes in docs/ARCHITECTURE.md.

// chunkFloats bounds the activations of one band of rows (the FFN's hidden
// layer dominates: R*C floats per pixel).
var chunkFloats = 4 << 20

// chunkRows is the number of low-res rows per band for an image of width w
// and c channels per pixel.
func chunkRows(w, c int) int { return max(1, chunkFloats/max(1, w*c)) }

// rowsOf returns the rows [a, b) of an N=1 tensor as a tensor sharing its data.
func rowsOf(t *nn.Tensor, a, b int) *nn.Tensor {
	n := t.W * t.C
	return nn.FromData(1, b-a, t.W, t.C, t.Data[a*n:b*n])
}

// forBands calls f for bands [r0, r1) of h rows with the given halo, passing
// the haloed band [lo, hi).
func forBands(h, rows, halo int, f func(r0, r1, lo, hi int) error) error {
	for r0 := 0; r0 < h; r0 += rows {
		r1 := min(h, r0+rows)
		if err := f(r0, r1, max(0, r0-halo), min(h, r1+halo)); err != nil {
			return err
		}
	}
	return nil
}

// bandOp computes out rows [r0, r1) from a haloed input band through op,
// which must be a function of rows with the given halo.
// The op outputs of one band are taken from an arena and given back as
// soon as the band is copied out, so inference reuses a few buffers
// instead of allocating (and zeroing, and collecting) one per op.
//
// It stops between bands when ctx is done and returns ctx's error.
func bandOp(ctx context.Context, a *nn.Arena, x *nn.Tensor, cout, halo int, op func(g *nn.Graph, in *nn.Tensor) *nn.Tensor, t func(rows int)) (*nn.Tensor, error) {
	out := nn.New(1, x.H, x.W, cout)
	rows := chunkRows(x.W, max(x.C, cout, 128))
	err := forBands(x.H, rows, halo, func(r0, r1, lo, hi int) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		g := nn.NewGraph(false).WithArena(a)
		y := op(g, rowsOf(x, lo, hi))
		copy(out.Data[r0*x.W*cout:r1*x.W*cout], y.Data[(r0-lo)*x.W*cout:(r1-lo)*x.W*cout])
		g.Release()
		tick(t, r1-r0)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// bandAddOp adds op(x) to x in place (op keeps the channel count and is a
// function of rows with the given halo), band by band, with the values of
// bandOp followed by an addition: a band's op reads rows of the bands
// around it, so each band's result is held until no later band reads its
// rows. No whole-image output is made.
//
// It stops between bands when ctx is done and returns ctx's error (x is
// then left part updated).
func bandAddOp(ctx context.Context, a *nn.Arena, x *nn.Tensor, halo int, op func(g *nn.Graph, in *nn.Tensor) *nn.Tensor, t func(rows int)) error {
	type pending struct {
		g          *nn.Graph
		y          *nn.Tensor
		r0, r1, lo int
	}
	add := func(p pending) {
		n := x.W * x.C
		dst := x.Data[p.r0*n : p.r1*n]
		addTo(dst, p.y.Data[(p.r0-p.lo)*n:][:len(dst)])
		p.g.Release()
	}
	var queue []pending
	err := forBands(x.H, chunkRows(x.W, max(x.C, 128)), halo, func(r0, r1, lo, hi int) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		g := nn.NewGraph(false).WithArena(a)
		queue = append(queue, pending{g, op(g, rowsOf(x, lo, hi)), r0, r1, lo})
		// The next band reads rows from r1 - halo on.
		for len(queue) > 0 && queue[0].r1 <= r1-halo {
			add(queue[0])
			queue = queue[1:]
		}
		tick(t, r1-r0)
		return nil
	})
	for _, p := range queue {
		if err != nil {
			p.g.Release()
			continue
		}
		add(p)
	}
	return err
}

// arenas recycles inference buffers between calls (a Model is shared by
// concurrent callers, so each call takes its own arena). Not a sync.Pool:
// a pool is emptied at every garbage collection, and an upscale allocates
// its output, so the buffers were lost (and re-zeroed) at almost every
// call. At most maxArenas arenas of at most maxArenaBytes each are kept.
var arenas arenaList

const (
	maxArenas     = 4
	maxArenaBytes = 64 << 20
)

type arenaList struct {
	sync.Mutex
	free []*nn.Arena
}

func (l *arenaList) Get() *nn.Arena {
	l.Lock()
	defer l.Unlock()
	if n := len(l.free); n > 0 {
		a := l.free[n-1]
		l.free = l.free[:n-1]
		return a
	}
	return nn.NewArena()
}

func (l *arenaList) Put(a *nn.Arena) {
	if a.Bytes() > maxArenaBytes {
		return // a large image's buffers: let the collector have them
	}
	l.Lock()
	defer l.Unlock()
	if len(l.free) < maxArenas {
		l.free = append(l.free, a)
	}
}

// encodeBands runs the encoder band by band (exactly the whole-image result).
// It stops between bands when ctx is done, returning ctx's error.
// p, when not nil, counts the work done.
func (m *Model) encodeBands(ctx context.Context, z *nn.Tensor, p *encProgress) (*nn.Tensor, error) {
	e := m.Enc
	c := e.Config.C
	ar := arenas.Get()
	defer arenas.Put(ar)
	tk := p.ticks()
	s, err := bandOp(ctx, ar, z, c, 1, func(g *nn.Graph, in *nn.Tensor) *nn.Tensor { return e.Stem.Forward(g, in) }, tk.stem)
	if err != nil {
		return nil, err
	}
	x := s.Clone()
	rows := chunkRows(x.W, c*max(3, e.Config.FFNRatio))
	// Pass 1 of each ESSA layer keeps every pixel's q and v for pass 2
	// (2C floats a pixel, one buffer for all layers).
	qv := nn.New(1, x.H, x.W, 2*c)
	for _, b := range e.Blocks {
		// ESSA, pass 1: global sums. q and v go straight into qv, k to a
		// band of its own (the qkv Linear's rows split in two: the same
		// values, to the bit with the AVX2 GEMM kernels).
		wqv, bqv, wk, bk := splitQKV(b.Attn.QKV, c)
		st := nn.NewESSAStream(c)
		err := forBands(x.H, rows, 0, func(r0, r1, _, _ int) error {
			if err := ctx.Err(); err != nil {
				return err
			}
			g := nn.NewGraph(false).WithArena(ar)
			defer g.Release()
			ln := b.LN1.Forward(g, rowsOf(x, r0, r1))
			qvr := rowsOf(qv, r0, r1)
			g.LinearTo(ln, wqv, bqv, qvr)
			if err := st.AddK(g.Linear(ln, wk, bk), qvr); err != nil {
				return err
			}
			tick(tk.pass1, r1-r0)
			return nil
		})
		if err != nil {
			return nil, err
		}
		st.Finish()
		// Pass 2: x += Out(v + q2 A), band by band (per-pixel, so in place).
		err = forBands(x.H, rows, 0, func(r0, r1, _, _ int) error {
			if err := ctx.Err(); err != nil {
				return err
			}
			g := nn.NewGraph(false).WithArena(ar)
			defer g.Release()
			a, err := st.ApplyQV(g, rowsOf(qv, r0, r1))
			if err != nil {
				return err
			}
			o := b.Attn.Out.Forward(g, a)
			addTo(x.Data[r0*x.W*c:r1*x.W*c], o.Data)
			tick(tk.pass2, r1-r0)
			return nil
		})
		if err != nil {
			return nil, err
		}
		// Feed-forward: two 3x3 convolutions, a two-row halo.
		err = bandAddOp(ctx, ar, x, 2, func(g *nn.Graph, in *nn.Tensor) *nn.Tensor {
			return b.FFN2.ForwardWinograd(g, b.FFN1.ForwardWinogradGELU(g, b.LN2.Forward(g, in)))
		}, tk.ffn)
		if err != nil {
			return nil, err
		}
	}
	out, err := bandOp(ctx, ar, x, c, 1, func(g *nn.Graph, in *nn.Tensor) *nn.Tensor { return e.Tail.ForwardWinograd(g, in) }, tk.tail)
	if err != nil {
		return nil, err
	}
	addTo(out.Data, s.Data)
	return out, nil
}

// splitQKV returns the rows of the Linear(C -> 3C) l that make q and v
// (2C outputs: q, then v) and those that make k (C outputs), each with its
// bias (nil when l has none).
func splitQKV(l *nn.LinearLayer, c int) (wqv, bqv, wk, bk *nn.Tensor) {
	cin := l.W.C
	w := l.W.Data
	wqv = nn.New(2*c, 1, 1, cin)
	copy(wqv.Data, w[:c*cin])
	copy(wqv.Data[c*cin:], w[2*c*cin:3*c*cin])
	wk = nn.FromData(c, 1, 1, cin, w[c*cin:2*c*cin])
	if l.B != nil {
		bqv = nn.New(1, 1, 1, 2*c)
		copy(bqv.Data, l.B.Data[:c])
		copy(bqv.Data[c:], l.B.Data[2*c:3*c])
		bk = nn.FromData(1, 1, 1, c, l.B.Data[c:2*c])
	}
	return wqv, bqv, wk, bk
}

// addTo adds src to dst (of the same length) elementwise, on every core
// for long slices.
func addTo(dst, src []float32) {
	par.Ranges(len(dst), par.Parts(len(dst), 1<<16, 0), func(_, lo, hi int) {
		d := dst[lo:hi]
		for i, v := range src[lo:hi] {
			d[i] += v
		}
	})
}

// headBands applies FiLM(s) and the head band by band and returns the raw
// head output (1 x h x w x Cfg.HeadChans()).
func (m *Model) headBands(feat *nn.Tensor, s, nf float64) *nn.Tensor {
	ar := arenas.Get()
	defer arenas.Put(ar)
	out, _ := bandOp(context.Background(), ar, feat, m.Cfg.HeadChans(), 1, func(g *nn.Graph, in *nn.Tensor) *nn.Tensor { return m.HeadRaw(g, in, s, nf) }, nil)
	return out
}

// Encoded is a low-res image after C_B and the encoder: the part of the
// model that does not depend on the factor. Render it at as many factors
// as needed (the paper's cached multi-scale inference).
type Encoded struct {
	m    *Model
	lr   *hsi.Cube       // the input, no-data pixels filled
	nd   *hsi.NoDataMask // the input's no-data mask (nil: none)
	feat *nn.Tensor
	// filled reports whether lr is a filled copy of the input (the input
	// had no-data) rather than the input itself.
	filled bool
	// noise is the input's noise level (see Model.NoiseLevel); used only
	// by a model with NoiseInput or a noise companion.
	noise Noise
}

// EncodeImage runs C_B and the encoder on lr (any size, band by band)
// with the zero EncodeOptions: the noise estimated, noisy bands screened,
// no progress. No-data (hsi.FillNoData: samples holding lr.Meta.DataIgnore
// or NaN, band by band) is filled from valid neighbours of the same band
// first, bad bands (flagged bad, or no-data in every pixel) are left out
// of the network input, and both come out as no-data in every rendering.
// An input with neither is encoded as it is.
func (m *Model) EncodeImage(lr *hsi.Cube) (*Encoded, error) {
	return m.EncodeImageContext(context.Background(), lr, EncodeOptions{})
}

// EncodeImageContext is EncodeImage with the settings opt, stopping early
// when ctx is done: the encoder checks ctx between bands of rows and
// returns ctx's error (context.Canceled or context.DeadlineExceeded,
// wrapped). The encoding it returns otherwise equals EncodeImage's with
// the same settings, bit for bit, whatever opt.Progress.
func (m *Model) EncodeImageContext(ctx context.Context, lr *hsi.Cube, opt EncodeOptions) (*Encoded, error) {
	return m.encodeImage(ctx, lr, opt)
}

func (m *Model) encodeImage(ctx context.Context, lr *hsi.Cube, opt EncodeOptions) (*Encoded, error) {
	if err := lr.Validate(); err != nil {
		return nil, fmt.Errorf("model: %w", err)
	}
	orig := lr
	lr, nd, err := hsi.FillNoData(lr)
	if err != nil {
		return nil, fmt.Errorf("model: %w", err)
	}
	// After the fill: a no-data value of -FLT_MAX is not a sample.
	if err := lr.CheckMagnitude(); err != nil {
		return nil, fmt.Errorf("model: %w", err)
	}
	usable := nd.Usable(lr.B)
	// The noise is estimated on the input as read, where the estimator
	// leaves out the no-data samples, not on the filled cube.
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	nz, err := m.noiseOf(orig, lr, usable, opt)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	e, err := m.encodeWithNoise(ctx, lr, usable, nd, nz, m.newEncProgress(opt.Progress, lr.H))
	if err != nil {
		return nil, err
	}
	e.filled = lr != orig
	return e, nil
}

// Crop returns the encoding of the window of h x w low-res pixels whose
// top-left pixel is (y0, x0), cut from this one (the features of the
// whole image, not an encoding of the window alone: the encoder couples
// every pixel through its attention). The factor-dependent rest of the
// model is local: the head's 3x3 convolution, the primitives, COFR's
// neighbourhood of primitives, their 5x5 operators and bicubic U_s X. So
// the window's output at a factor z on each axis that is a power of two
// equals the whole output's (rows y0*z.., columns x0*z..), bit for bit,
// away from the window's sides inside the image: CropMargin low-res
// pixels from them, when y0 and x0 are multiples of CropAlign (COFR
// renders cells in groups of up to 8 x 8 and its sums follow the groups).
// At other factors the pixel positions (u + 0.5) / z round differently
// from the window's origin and the values differ in the last bits.
func (e *Encoded) Crop(y0, x0, h, w int) (*Encoded, error) {
	lr, err := e.lr.Crop(y0, x0, h, w)
	if err != nil {
		return nil, fmt.Errorf("model: %w", err)
	}
	f := e.feat
	c := f.C
	feat := nn.New(1, h, w, c)
	for y := range h {
		copy(feat.Data[y*w*c:(y+1)*w*c], f.Data[((y0+y)*f.W+x0)*c:])
	}
	return &Encoded{m: e.m, lr: lr, nd: e.nd.Crop(y0, x0, h, w), feat: feat, filled: true, noise: e.noise}, nil
}

// CropMargin and CropAlign are the margin and the alignment, in low-res
// pixels, that make a cropped encoding's output equal the whole output
// (Encoded.Crop).
const (
	CropMargin = 8
	CropAlign  = 24
)

// Bytes returns the memory the encoding holds besides the input it was
// made from: the encoder's features (C floats a low-res pixel) and, when
// the input had no-data, its filled copy.
func (e *Encoded) Bytes() int64 {
	n := int64(len(e.feat.Data)) * 4
	if e.filled {
		n += int64(len(e.lr.Data)) * 4
	}
	return n
}

// noiseOf is the noise level of the network's bands of lr (the usable
// ones): from opt.Noise (one per band of lr) when given, else estimated
// (no-data samples of lr left out; the noisy bands screened unless
// opt.KeepNoisyBands). It is put in the network's units with the
// scale of filled (lr with its no-data filled, hsi.FillNoData), the cube
// the network sees, so that a fill value such as -9999 does not shrink
// it. A model without NoiseInput or a noise companion needs none (zero
// Noise).
func (m *Model) noiseOf(lr, filled *hsi.Cube, usable []int, opt EncodeOptions) (Noise, error) {
	sigmas := opt.Noise
	if !m.Cfg.NoiseInput && m.noisy == nil {
		return Noise{Gain: 1}, nil
	}
	x := lr
	if len(usable) < lr.B {
		var err error
		if x, err = lr.SelectBands(usable); err != nil {
			return Noise{}, fmt.Errorf("model: %w", err)
		}
		if sigmas != nil {
			if len(sigmas) != lr.B {
				return Noise{}, fmt.Errorf("model: %d noise values for %d bands", len(sigmas), lr.B)
			}
			sx := make([]float64, len(usable))
			for i, b := range usable {
				sx[i] = sigmas[b]
			}
			sigmas = sx
		}
	}
	nz, err := noiseSigma(x, sigmas)
	if err != nil {
		return nz, err
	}
	if nz.Estimated && !opt.KeepNoisyBands {
		var idx []int
		if len(usable) < lr.B {
			idx = usable
		}
		nz = nz.screen(x, idx)
	}
	if len(usable) < filled.B {
		return nz.inUnits(inputScaleBands(filled, usable)), nil
	}
	return nz.inUnits(InputScale(filled)), nil
}

// encodeWithNoise encodes a cube without no-data whose network input is the
// bands listed in usable (every band of lr: the network sees lr itself),
// at the noise level nz: a model with a noise companion hands the input to
// it when the level is above the gate.
func (m *Model) encodeWithNoise(ctx context.Context, lr *hsi.Cube, usable []int, nd *hsi.NoDataMask, nz Noise, p *encProgress) (*Encoded, error) {
	if err := lr.CheckFinite(); err != nil {
		return nil, fmt.Errorf("model: %w", err)
	}
	x := lr
	if len(usable) < lr.B {
		var err error
		if x, err = lr.SelectBands(usable); err != nil {
			return nil, fmt.Errorf("model: %w", err)
		}
	}
	use := m
	if m.noisy != nil && nz.Feature > m.gate {
		use, nz.Routed = m.noisy, true
		if use.Cfg.Variant != VariantSpectral {
			xg := x
			if nz.gainBands != nil {
				var err error
				if xg, err = x.SelectBands(nz.gainBands); err != nil {
					return nil, fmt.Errorf("model: %w", err)
				}
			}
			g, err := use.fieldGain(ctx, xg, nz.bands)
			if err != nil {
				return nil, err
			}
			nz.Gain = g
		}
	}
	z, err := use.Input(x)
	if err != nil {
		return nil, err
	}
	feat, err := use.encodeBands(ctx, z, p)
	if err != nil {
		return nil, err
	}
	return &Encoded{m: use, lr: lr, nd: nd, feat: feat, noise: nz}, nil
}

// Primitives returns the primitives for an output of outH x outW (with
// the parameterisation of the model's variant).
func (e *Encoded) Primitives(outH, outW int) (*cofr.Primitives, error) {
	raw, err := e.raw(outH, outW)
	if err != nil {
		return nil, err
	}
	p, err := e.m.Primitives(raw, e.lr.H, e.lr.W)
	if err != nil {
		return nil, err
	}
	scaleOperators(p, e.noise)
	return p, nil
}

// raw returns the raw head output for an output of outH x outW.
func (e *Encoded) raw(outH, outW int) ([]float32, error) {
	if outH < 1 || outW < 1 {
		return nil, fmt.Errorf("model: output size %dx%d", outH, outW)
	}
	s := EffectiveFactor(e.lr.H, e.lr.W, outH, outW)
	if !(s > 0) || math.IsInf(s, 0) {
		return nil, fmt.Errorf("model: factor %v", s)
	}
	return e.m.headBands(e.feat, s, e.noise.Feature).Data, nil
}

// Output returns the output path (any variant) for an output of outH x outW.
func (e *Encoded) Output(outH, outW int) (*Output, error) {
	return e.OutputContext(context.Background(), outH, outW)
}

// OutputContext is Output stopping early when ctx is done: ctx is checked
// before the head and again before the primitives, and its error is
// returned. The output it returns otherwise equals Output's.
func (e *Encoded) OutputContext(ctx context.Context, outH, outW int) (*Output, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	raw, err := e.raw(outH, outW)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	o, err := e.m.newOutput(e.lr, raw, outH, outW, e.noise)
	if err != nil {
		return nil, err
	}
	o.nd = e.nd
	return o, nil
}

// RenderTo renders the outH x outW output a band of rows at a time into
// sink (StreamRowsCut, the bands ending where COFR's rows of groups begin:
// Output.RowCut), so an output far larger than memory can stream to disk.
// progress, if not nil, is called with the rows done.
func (e *Encoded) RenderTo(outH, outW int, sink RowSink, progress func(done, total int)) error {
	r, err := e.Output(outH, outW)
	if err != nil {
		return err
	}
	return StreamRowsCut(outH, outW, e.lr.B, r.RowCut, func(u0, u1 int, dst []float32) error {
		if err := r.RenderRows(u0, u1, dst); err != nil {
			return fmt.Errorf("model: %w", err)
		}
		return nil
	}, sink, progress)
}

// Render renders the whole output in memory.
func (e *Encoded) Render(outH, outW int) (*hsi.Cube, error) {
	r, err := e.Output(outH, outW)
	if err != nil {
		return nil, err
	}
	return r.Render()
}
