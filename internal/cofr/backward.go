package cofr

import (
	"fmt"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/internal/par"
)

// Per-primitive sums kept by the backward pass (float64):
// dL/dalpha, and with de = dL/d(exponent) at each pixel:
// sum de*dy, sum de*dx, sum de*dy^2, sum de*dy*dx, sum de*dx^2.
const accN = 6

// Backward returns the gradients of a loss L with respect to every
// primitive parameter, given dY = dL/dY for the whole target cube
// (outH*outW*B values, pixel-interleaved). U_s X does not depend on the
// primitives; no gradient with respect to X is computed. Nothing from the
// forward pass is kept: the weights are recomputed cell by cell.
//
// Under the paper's rule the set of primitives considered for a pixel
// depends on the parameters (through sigma_max and the centres); it is
// treated as fixed, as automatic differentiation of the paper's renderer
// would.
func (r *Renderer) Backward(dY []float32) (*Grads, error) {
	if want := r.oh * r.ow * r.nb; len(dY) != want {
		return nil, fmt.Errorf("cofr: backward: dY holds %d values, want %d", len(dY), want)
	}
	B, nPrim := r.nb, r.h*r.w
	fs := r.newFieldState(0, r.h)
	dr, acc := r.backwardSums(fs, dY)
	g := geometryGrads(r, fs, acc)
	g.K = make([]float32, nPrim*Taps)
	rowLen := r.w * B
	par.ForEach(r.h, r.opt.Workers, func(i int) {
		operatorGradRow(r.x, dr[i*rowLen:(i+1)*rowLen], i, g.K)
	})
	return g, nil
}

// backwardSums runs the backward pass over every target pixel and returns
// dL/d(value rendered by each primitive) (h*w*B: dL/dr_n, or dL/dV_n for a
// ValueRenderer) and the per-primitive sums that geometryGrads turns into
// geometry gradients, reduced over the workers in a fixed order.
func (r *Renderer) backwardSums(fs *fieldState, dY []float32) ([]float32, []float64) {
	B, nPrim := r.nb, r.h*r.w
	items := r.split(0, r.oh, 0, (r.h-1)/r.gy)
	wks := r.run(len(items), func(wk *worker, k int) {
		if wk.dr == nil {
			wk.dr = make([]float32, nPrim*B)
			wk.acc = make([]float64, nPrim*accN)
		}
		r.backwardItem(wk, fs, items[k], dY)
	})
	// Reduce the sums of the workers that ran (one may have found no work).
	var dr []float32
	var acc []float64
	for _, wk := range wks {
		if wk.dr == nil {
			continue
		}
		if dr == nil {
			dr, acc = wk.dr, wk.acc
			continue
		}
		for k, v := range wk.dr {
			dr[k] += v
		}
		for k, v := range wk.acc {
			acc[k] += v
		}
	}
	if dr == nil { // no worker ran: an empty target cannot happen, but stay total
		dr, acc = make([]float32, nPrim*B), make([]float64, nPrim*accN)
	}
	return dr, acc
}

// geometryGrads turns the per-primitive sums of the backward pass into
// gradients with respect to the geometry (Grads.K is left nil).
func geometryGrads(r *Renderer, fs *fieldState, acc []float64) *Grads {
	nPrim := r.h * r.w
	g := &Grads{
		OffY: make([]float32, nPrim), OffX: make([]float32, nPrim),
		Sigma1: make([]float32, nPrim), Sigma2: make([]float32, nPrim),
		Theta: make([]float32, nPrim), Alpha: make([]float32, nPrim),
	}
	for n := 0; n < nPrim; n++ {
		gm := &fs.geo[n]
		a := acc[n*accN : (n+1)*accN]
		g.Alpha[n] = float32(a[0])
		g.OffY[n] = float32(gm.iyy*a[1] + gm.ixy*a[2])
		g.OffX[n] = float32(gm.ixx*a[2] + gm.ixy*a[1])
		dIyy, dIxy, dIxx := -0.5*a[3], -a[4], -0.5*a[5]
		c, s := gm.cos, gm.sin
		du1 := dIxx*c*c + dIyy*s*s + dIxy*c*s
		du2 := dIxx*s*s + dIyy*c*c - dIxy*c*s
		g.Theta[n] = float32((gm.u1 - gm.u2) * (2*c*s*(dIyy-dIxx) + (c*c-s*s)*dIxy))
		s1, s2 := float64(r.p.Sigma1[n]), float64(r.p.Sigma2[n])
		g.Sigma1[n] = float32(du1 * (-2 * s1 * gm.u1 * gm.u1))
		g.Sigma2[n] = float32(du2 * (-2 * s2 * gm.u2 * gm.u2))
	}
	return g
}

func (r *Renderer) backwardItem(wk *worker, fs *fieldState, it item, dY []float32) {
	B, W := r.nb, r.ow
	first, last := r.group(it.g0, it.c0), r.group(it.g0, it.c1-1)
	for gr := it.g0; gr < it.g1; gr++ {
		row := r.group(gr, it.c0)
		if row.fa >= row.fb {
			continue
		}
		blk := r.buildNeighbours(wk, fs, row.i0, row.i1, first.j0, last.j1)
		wk.dnb = grow(wk.dnb, len(blk.buf))
		clear(wk.dnb)
		for gc := it.c0; gc < it.c1; gc++ {
			g := r.group(gr, gc)
			if g.va >= g.vb {
				continue
			}
			kc, P := r.weights(wk, fs, &blk, g, true)
			cj0, _, nbm := r.candidates(&blk, g)
			off := (cj0 - blk.c0) * blk.kr * B
			// dY of the group, P x B.
			seg := (g.vb - g.va) * B
			wk.dyc = grow(wk.dyc, P*B)
			for u := g.fa; u < g.fb; u++ {
				copy(wk.dyc[(u-g.fa)*seg:(u-g.fa+1)*seg], dY[(u*W+g.va)*B:(u*W+g.vb)*B])
			}
			// dL/dr_n += sum_p w_n(p) dY(p)
			sgemm(false, false, kc, B, P, 1, wk.wt, P, wk.dyc, B, 1, wk.dnb[off:], B)
			if r.zeroK {
				continue // r = 0: no gradient reaches the weights
			}
			// gt[c][p] = <r_c, dY(p)>
			wk.gt = grow(wk.gt, kc*P)
			sgemm(false, true, kc, P, B, 1, nbm, B, wk.dyc, B, 0, wk.gt, P)
			r.geomGrads(wk, fs, &blk, g, kc, P)
		}
		// Scatter dL/d(block) into this worker's dL/dr.
		for c := blk.c0; c <= blk.c1; c++ {
			for k := 0; k < blk.kr; k++ {
				src := wk.dnb[((c-blk.c0)*blk.kr+k)*B:][:B]
				d := wk.dr[((blk.i0+k)*r.w+c)*B:][:B]
				for b, v := range src {
					d[b] += v
				}
			}
		}
	}
}

// geomGrads accumulates the per-primitive sums of one group from
// gt = <r_n, dY(p)>, the weights and G left in wk by weights().
func (r *Renderer) geomGrads(wk *worker, fs *fieldState, blk *neighbours, g group, kc, P int) {
	cj0, _, _ := r.candidates(blk, g)
	nbc := g.vb - g.va
	inv := wk.sum[:P]
	wk.dot = grow(wk.dot, P)
	dot := wk.dot
	clear(dot)
	for c := 0; c < kc; c++ {
		if !wk.nz[c] {
			continue
		}
		pi, pj := blk.i0+c%blk.kr, cj0+c/blk.kr
		al := fs.geo[(pi-fs.r0)*r.w+pj].alpha
		gg := wk.g64[c*P : (c+1)*P]
		gt := wk.gt[c*P : (c+1)*P]
		for p, v := range gg {
			dot[p] += float64(gt[p]) * al * v * inv[p]
		}
	}
	for c := 0; c < kc; c++ {
		if !wk.nz[c] {
			continue
		}
		pi, pj := blk.i0+c%blk.kr, cj0+c/blk.kr
		n := pi*r.w + pj
		gm := &fs.geo[(pi-fs.r0)*r.w+pj]
		al := gm.alpha
		gg := wk.g64[c*P : (c+1)*P]
		gt := wk.gt[c*P : (c+1)*P]
		var sA, sY, sX, sYY, sYX, sXX float64
		for a := 0; a < g.fb-g.fa; a++ {
			dy := (float64(g.fa+a)+0.5)*r.hy - gm.muY
			var tA, tE, tX, tXX float64
			for b := 0; b < nbc; b++ {
				p := a*nbc + b
				G := gg[p]
				if G == 0 {
					continue
				}
				da := (float64(gt[p]) - dot[p]) * inv[p]
				tA += da * G
				de := da * al * G
				dx := r.px[g.va+b] - gm.muX
				tE += de
				tX += de * dx
				tXX += de * dx * dx
			}
			sA += tA
			sY += tE * dy
			sX += tX
			sYY += tE * dy * dy
			sYX += tX * dy
			sXX += tXX
		}
		a := wk.acc[n*accN : (n+1)*accN]
		a[0] += sA
		a[1] += sY
		a[2] += sX
		a[3] += sYY
		a[4] += sYX
		a[5] += sXX
	}
}

// Backward is the function form of Renderer.Backward.
func Backward(x *hsi.Cube, p *Primitives, outH, outW int, dY []float32, opt Options) (*Grads, error) {
	r, err := NewRenderer(x, p, outH, outW, opt)
	if err != nil {
		return nil, err
	}
	return r.Backward(dY)
}
