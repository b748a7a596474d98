package model

import (
	"context"
	"fmt"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/internal/memlimit"
)

// Dihedral is one of the 8 flips and rotations of an image. Output pixel
// (i, j) of Apply comes from the input pixel found by flipping (i, j)
// left-right (bit 0), top-bottom (bit 1) in the output grid and then
// transposing (bit 2). Dihedral(0) is the identity; training draws its
// augmentations with the same numbering.
type Dihedral uint8

// source maps output pixel (i, j) of an oh x ow output to its input pixel.
func (d Dihedral) source(i, j, oh, ow int) (int, int) {
	if d&1 != 0 {
		j = ow - 1 - j
	}
	if d&2 != 0 {
		i = oh - 1 - i
	}
	if d&4 != 0 {
		i, j = j, i
	}
	return i, j
}

// Apply returns c transformed by d (metadata is not carried).
func (d Dihedral) Apply(c *hsi.Cube) (*hsi.Cube, error) { return d.remap(c, false) }

// Invert undoes Apply: d.Invert(d.Apply(c)) == c.
func (d Dihedral) Invert(c *hsi.Cube) (*hsi.Cube, error) { return d.remap(c, true) }

// remap gathers (Apply) or scatters back (Invert) along d.source.
func (d Dihedral) remap(c *hsi.Cube, inverse bool) (*hsi.Cube, error) {
	if d > 7 {
		return nil, fmt.Errorf("model: dihedral transform %d (want 0..7)", d)
	}
	h, w, b := c.H, c.W, c.B
	oh, ow := h, w
	if d&4 != 0 {
		oh, ow = w, h
	}
	out, err := hsi.New(oh, ow, b)
	if err != nil {
		return nil, fmt.Errorf("model: %w", err)
	}
	if inverse {
		// c is the transformed image: its pixel (i, j) came from the
		// original's pixel d.source(i, j, h, w).
		for i := 0; i < h; i++ {
			for j := 0; j < w; j++ {
				si, sj := d.source(i, j, h, w)
				copy(out.Data[(si*ow+sj)*b:(si*ow+sj+1)*b], c.Data[(i*w+j)*b:(i*w+j+1)*b])
			}
		}
		return out, nil
	}
	for i := 0; i < oh; i++ {
		for j := 0; j < ow; j++ {
			si, sj := d.source(i, j, oh, ow)
			copy(out.Data[(i*ow+j)*b:(i*ow+j+1)*b], c.Data[(si*w+sj)*b:(si*w+sj+1)*b])
		}
	}
	return out, nil
}

// Ensemble is a low-res image encoded in several orientations (the
// self-ensemble of super-resolution: the same image flipped and rotated,
// super-resolved, turned back and averaged). It costs one encoding and one
// rendering per orientation and holds the output in memory.
type Ensemble struct {
	lr    *hsi.Cube       // the input, no-data pixels filled
	nd    *hsi.NoDataMask // applied to the mean (the views see filled inputs)
	views []*Encoded
	ds    []Dihedral
}

// EnsembleSizes are the supported numbers of orientations: 2 (identity and
// the left-right flip), 4 (the flips) and 8 (flips and rotations).
var EnsembleSizes = []int{2, 4, 8}

// EncodeEnsemble encodes lr in n orientations (see EnsembleSizes).
func (m *Model) EncodeEnsemble(lr *hsi.Cube, n int) (*Ensemble, error) {
	return m.EncodeEnsembleContext(context.Background(), lr, n, EncodeOptions{})
}

// EncodeEnsembleContext is EncodeEnsemble with the settings opt (one noise
// level for every view; the progress counts the views together), stopping
// early when ctx is done: each view's encoder checks ctx between bands of
// rows (EncodeImageContext), and ctx's error is returned.
func (m *Model) EncodeEnsembleContext(ctx context.Context, lr *hsi.Cube, n int, opt EncodeOptions) (*Ensemble, error) {
	// The sizes are prefixes of the numbering: 0-1 the left-right flip,
	// 0-3 the flips, 0-7 everything.
	if n != 2 && n != 4 && n != 8 {
		return nil, fmt.Errorf("model: self-ensemble of %d orientations (want 2, 4 or 8)", n)
	}
	ds := make([]Dihedral, n)
	for i := range ds {
		ds[i] = Dihedral(i)
	}
	if err := lr.Validate(); err != nil {
		return nil, fmt.Errorf("model: %w", err)
	}
	orig := lr
	lr, nd, err := hsi.FillNoData(lr)
	if err != nil {
		return nil, fmt.Errorf("model: %w", err)
	}
	if err := lr.CheckMagnitude(); err != nil {
		return nil, fmt.Errorf("model: %w", err)
	}
	usable := nd.Usable(lr.B)
	e := &Ensemble{lr: lr, nd: nd, ds: ds}
	// One noise level for every view (a flip or rotation does not change
	// it), so that all views take the same model of a pair. A routed view
	// measures its own field gain (Noise.Gain) on its own orientation, so
	// that each view's output depends on its input alone and the mean stays
	// equivariant.
	nz, err := m.noiseOf(orig, lr, usable, opt)
	if err != nil {
		return nil, err
	}
	rows := 0
	for _, d := range ds {
		rows += lr.H
		if d&4 != 0 { // a transposition: the view has lr.W rows
			rows += lr.W - lr.H
		}
	}
	p := m.newEncProgress(opt.Progress, rows)
	for _, d := range ds {
		x, err := d.Apply(lr)
		if err != nil {
			return nil, err
		}
		v, err := m.encodeWithNoise(ctx, x, usable, nil, nz, p)
		if err != nil {
			return nil, err
		}
		e.views = append(e.views, v)
	}
	return e, nil
}

// Noise returns the noise level the views were encoded with (and the
// field gain of the first, the input as given).
func (e *Ensemble) Noise() Noise { return e.views[0].Noise() }

// Render returns the mean of the orientations' outputs at outH x outW,
// with the metadata Encoded.Render gives.
func (e *Ensemble) Render(outH, outW int) (*hsi.Cube, error) {
	n, err := hsi.Elems(outH, outW, e.lr.B)
	if err != nil {
		return nil, fmt.Errorf("model: %w", err)
	}
	// The sum, one orientation's output and its turned-back copy.
	if err := memlimit.Check(3*4*uint64(n), fmt.Sprintf("the self-ensemble of a %dx%dx%d output", outH, outW, e.lr.B)); err != nil {
		return nil, fmt.Errorf("model: %w", err)
	}
	var acc *hsi.Cube
	for i, d := range e.ds {
		h, w := outH, outW
		if d&4 != 0 {
			h, w = outW, outH
		}
		y, err := e.views[i].Render(h, w)
		if err != nil {
			return nil, err
		}
		if y, err = d.Invert(y); err != nil {
			return nil, err
		}
		if acc == nil {
			acc = y
			continue
		}
		for j, v := range y.Data {
			acc.Data[j] += v
		}
	}
	inv := 1 / float32(len(e.ds))
	for j := range acc.Data {
		acc.Data[j] *= inv
	}
	e.nd.Apply(0, outH, outH, outW, e.lr.B, acc.Data)
	if acc.Meta, err = e.lr.Meta.Resized(e.lr.H, e.lr.W, outH, outW); err != nil {
		return nil, err
	}
	return acc, nil
}

// RenderTo renders in memory (Render) and writes the rows to sink.
func (e *Ensemble) RenderTo(outH, outW int, sink RowSink, progress func(done, total int)) error {
	return WriteRendered(e.Render, outH, outW, sink, progress)
}

// WriteRendered renders the whole output with render and writes it to sink
// in one piece: the RenderTo of renderers that hold their output in memory
// (self-ensemble, back-projection, plain bicubic).
func WriteRendered(render func(outH, outW int) (*hsi.Cube, error), outH, outW int, sink RowSink, progress func(done, total int)) error {
	c, err := render(outH, outW)
	if err != nil {
		return err
	}
	if err := sink.WriteRows(c.Data); err != nil {
		return err
	}
	if progress != nil {
		progress(outH, outH)
	}
	return nil
}

// UpscaleEnsemble is Upscale with the self-ensemble of n orientations.
func (m *Model) UpscaleEnsemble(lr *hsi.Cube, outH, outW, n int) (*hsi.Cube, error) {
	if outH < 1 || outW < 1 {
		return nil, fmt.Errorf("model: output size %dx%d", outH, outW)
	}
	e, err := m.EncodeEnsemble(lr, n)
	if err != nil {
		return nil, err
	}
	return e.Render(outH, outW)
}
