package cofr

import (
	"errors"
	"fmt"
	"runtime"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/internal/par"
)

// This file holds the entry points that the ablation variants of the model
// need (paper Table "Ablation"), built on the renderer's own code:
//
//   - ApplyOperators and OperatorGrads: r_n = sum_q k_nq x(q) on the
//     low-res grid and its adjoint, for the variant without COFR
//     (Y = U_s(X + r)).
//   - ValueRenderer: splats given per-primitive vectors with the normalised
//     Gaussian weights, Y(p) = sum_n w_n(p) V_n, with no U_s X term, and
//     its backward pass (d V and d geometry), for the variant whose head
//     predicts the spectral values.
//
// The ValueRenderer is a Renderer whose input cube is V and whose r_n is V
// itself: the weights, the neighbour blocks, the group GEMMs and the
// backward sums are the renderer's (groupField, backwardItem), only the
// bicubic term is left out.

// ApplyOperators returns r (h x w x B) with r_n = sum_q k_nq x(q) over the
// 5 x 5 window of low-res pixel n (replicate border) on every band;
// k holds h*w*Taps values laid out as Primitives.K.
func ApplyOperators(x *hsi.Cube, k []float32) (*hsi.Cube, error) {
	if err := checkOperatorInput(x, len(k), x.H*x.W*Taps, "operators"); err != nil {
		return nil, err
	}
	r, err := hsi.New(x.H, x.W, x.B)
	if err != nil {
		return nil, fmt.Errorf("cofr: %w", err)
	}
	rowLen := x.W * x.B
	par.ForEach(x.H, runtime.GOMAXPROCS(0), func(i int) {
		operatorRow(x, k, i, r.Data[i*rowLen:(i+1)*rowLen])
	})
	return r, nil
}

// OperatorGrads returns dL/dk (h*w*Taps values) given dr = dL/dr for the r
// of ApplyOperators (h*w*B values): dk_nq = <dr_n, x(q)>.
func OperatorGrads(x *hsi.Cube, dr []float32) ([]float32, error) {
	if err := checkOperatorInput(x, len(dr), x.H*x.W*x.B, "dL/dr"); err != nil {
		return nil, err
	}
	dk := make([]float32, x.H*x.W*Taps)
	rowLen := x.W * x.B
	par.ForEach(x.H, runtime.GOMAXPROCS(0), func(i int) {
		operatorGradRow(x, dr[i*rowLen:(i+1)*rowLen], i, dk)
	})
	return dk, nil
}

func checkOperatorInput(x *hsi.Cube, got, want int, what string) error {
	if x == nil {
		return errors.New("cofr: nil input cube")
	}
	if err := x.Validate(); err != nil {
		return fmt.Errorf("cofr: input cube: %w", err)
	}
	if got != want {
		return fmt.Errorf("cofr: %s hold %d values for a %dx%dx%d input, want %d", what, got, x.H, x.W, x.B, want)
	}
	return nil
}

// ValueRenderer renders Y(p) = sum_n w_n(p) V_n: the normalised Gaussian
// weights of a set of primitives applied to given per-primitive vectors V
// (h x w x B) in place of the operator field, with no bicubic term. The
// primitives' operators K are ignored (they may be nil). The truncation
// rule, the anti-aliased widths and the group products are the Renderer's.
// A ValueRenderer is safe for concurrent use.
type ValueRenderer struct {
	r *Renderer
}

// NewValueRenderer validates v, p, the target size and the options.
func NewValueRenderer(v *hsi.Cube, p *Primitives, outH, outW int, opt Options) (*ValueRenderer, error) {
	if p == nil {
		return nil, errors.New("cofr: nil primitives")
	}
	q := *p
	if len(q.K) == 0 && q.H > 0 && q.W > 0 {
		n, err := hsi.Elems(q.H, q.W, Taps)
		if err != nil {
			return nil, fmt.Errorf("cofr: primitives %dx%d: %w", q.H, q.W, err)
		}
		q.K = make([]float32, n) // only to pass validation; never read
	}
	r, err := NewRenderer(v, &q, outH, outW, opt)
	if err != nil {
		return nil, err
	}
	// The weights' gradients need r_n = V_n, which zero operators would
	// otherwise mark as absent.
	r.zeroK = false
	return &ValueRenderer{r: r}, nil
}

// RowCut is Renderer.RowCut: the first target row of the row of groups
// that holds target row u.
func (vr *ValueRenderer) RowCut(u int) int { return vr.r.RowCut(u) }

// Size returns the target size.
func (vr *ValueRenderer) Size() (outH, outW int) { return vr.r.oh, vr.r.ow }

// Render returns the whole target cube (no metadata: V is not an image of
// the sensor's units in general; callers copy what they need).
func (vr *ValueRenderer) Render() (*hsi.Cube, error) {
	r := vr.r
	out, err := hsi.New(r.oh, r.ow, r.nb)
	if err != nil {
		return nil, fmt.Errorf("cofr: %w", err)
	}
	if err := vr.RenderRows(0, r.oh, out.Data); err != nil {
		return nil, err
	}
	return out, nil
}

// RenderRows renders target rows [u0, u1) into dst ((u1-u0)*outW*B values,
// pixel-interleaved). Rendering in bands of rows gives the same bits as
// rendering the whole image.
func (vr *ValueRenderer) RenderRows(u0, u1 int, dst []float32) error {
	r := vr.r
	if u0 < 0 || u1 > r.oh || u0 >= u1 {
		return fmt.Errorf("cofr: rows [%d, %d) outside a %d-row target", u0, u1, r.oh)
	}
	if want := (u1 - u0) * r.ow * r.nb; len(dst) != want {
		return fmt.Errorf("cofr: rows [%d, %d): destination holds %d values, want %d", u0, u1, len(dst), want)
	}
	gLo, gHi := cellOf(u0, r.h, r.oh)/r.gy, cellOf(u1-1, r.h, r.oh)/r.gy
	fs := vr.fieldState(max(0, gLo*r.gy-r.radY), min(r.h, (gHi+1)*r.gy+r.radY))
	items := r.split(u0, u1, gLo, gHi)
	r.run(len(items), func(wk *worker, k int) {
		vr.renderItem(wk, fs, items[k], u0, u1, dst)
	})
	return nil
}

// fieldState is the renderer's fieldState with r_n = V_n (shared, not
// copied) for low-res rows [r0, r1).
func (vr *ValueRenderer) fieldState(r0, r1 int) *fieldState {
	r := vr.r
	fs := &fieldState{r0: r0, r1: r1, cw: r.w,
		rr:  r.x.Data[r0*r.w*r.nb : r1*r.w*r.nb],
		geo: make([]geom, (r1-r0)*r.w)}
	par.ForEach(r1-r0, r.opt.Workers, func(k int) {
		i := r0 + k
		for j := 0; j < r.w; j++ {
			fs.geo[k*r.w+j] = makeGeom(r.p, i*r.w+j, i, j, r.a2, r.hy, r.hx)
		}
	})
	return fs
}

// renderItem is Renderer.renderItem without the bicubic term: every
// group's field is copied to the output as it is.
func (vr *ValueRenderer) renderItem(wk *worker, fs *fieldState, it item, u0, u1 int, dst []float32) {
	r := vr.r
	B, W := r.nb, r.ow
	first, last := r.group(it.g0, it.c0), r.group(it.g0, it.c1-1)
	if first.va >= last.vb {
		return
	}
	for gr := it.g0; gr < it.g1; gr++ {
		row := r.group(gr, it.c0)
		ua, ub := max(row.fa, u0), min(row.fb, u1)
		if ua >= ub {
			continue
		}
		blk := r.buildNeighbours(wk, fs, row.i0, row.i1, first.j0, last.j1)
		for gc := it.c0; gc < it.c1; gc++ {
			g := r.group(gr, gc)
			if g.va >= g.vb {
				continue
			}
			tmp := r.groupField(wk, fs, &blk, g, ua, ub)
			seg := (g.vb - g.va) * B
			for u := ua; u < ub; u++ {
				copy(dst[((u-u0)*W+g.va)*B:((u-u0)*W+g.vb)*B], tmp[(u-ua)*seg:(u-ua+1)*seg])
			}
		}
	}
}

// Backward returns dL/dV (h*w*B values) and the gradients with respect to
// the primitives' geometry (Grads.K is nil), given dY = dL/dY for the whole
// target cube. Nothing from the forward pass is kept.
func (vr *ValueRenderer) Backward(dY []float32) ([]float32, *Grads, error) {
	r := vr.r
	if want := r.oh * r.ow * r.nb; len(dY) != want {
		return nil, nil, fmt.Errorf("cofr: backward: dY holds %d values, want %d", len(dY), want)
	}
	fs := vr.fieldState(0, r.h)
	dv, acc := r.backwardSums(fs, dY)
	return dv, geometryGrads(r, fs, acc), nil
}
