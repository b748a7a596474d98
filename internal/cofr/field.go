package cofr

import (
	"fmt"
	"math"
)

// Weights returns the primitives considered for target pixel (u, v)
// (indices n = i*W + j) and their normalised weights w_n(p), evaluated
// directly in float64. It is meant for analysis (maps of the field, tests),
// not for rendering.
func (r *Renderer) Weights(u, v int) (idx []int, w []float64, err error) {
	if u < 0 || u >= r.oh || v < 0 || v >= r.ow {
		return nil, nil, fmt.Errorf("cofr: pixel (%d, %d) outside a %dx%d target", u, v, r.oh, r.ow)
	}
	i, j := cellOf(u, r.h, r.oh), cellOf(v, r.w, r.ow)
	py, px := (float64(u)+0.5)*r.hy, r.px[v]
	var sum float64
	for pi := max(0, i-r.radY); pi <= min(r.h-1, i+r.radY); pi++ {
		for pj := max(0, j-r.radX); pj <= min(r.w-1, j+r.radX); pj++ {
			n := pi*r.w + pj
			gm := makeGeom(r.p, n, pi, pj, r.a2, r.hy, r.hx)
			if r.opt.PaperRule && (math.Abs(py-gm.muY)*r.sy > r.radius || math.Abs(px-gm.muX)*r.sx > r.radius) {
				continue
			}
			a := gm.alpha * math.Exp(gm.expo(py-gm.muY, px-gm.muX))
			idx = append(idx, n)
			w = append(w, a)
			sum += a
		}
	}
	for k := range w {
		w[k] /= sum + Eps
	}
	return idx, w, nil
}
