package nn

import (
	"fmt"
	"math"
)

// The losses of OmniHSR's training (docs/CONVENTIONS.md section 8) return a 1 x 1 x 1 x 1
// tensor. Gradients flow to both arguments (to whichever requires one).
// Channels are the spectral bands.

// scalarOut makes a 1-element output holding v.
func (g *Graph) scalarOut(v float64) *Tensor {
	o := g.out(1, 1, 1, 1)
	o.Data[0] = float32(v)
	return o
}

// Charbonnier is mean(sqrt((pred - target)^2 + eps2)) over all elements;
// OmniHSR uses eps2 = 1e-6.
func (g *Graph) Charbonnier(pred, target *Tensor, eps2 float32) *Tensor {
	mustSameShape("Charbonnier", pred, target)
	pd, td := pred.Data, target.Data
	n := len(pd)
	sum := parReduce(n, minElems, 1, func(lo, hi int, acc []float64) {
		var s float64
		for i := lo; i < hi; i++ {
			d := pd[i] - td[i]
			s += math.Sqrt(float64(d*d + eps2))
		}
		acc[0] += s
	})
	out := g.scalarOut(sum[0] / float64(max(n, 1)))
	g.record(out, func() {
		gs := out.Grad[0] / float32(max(n, 1))
		gp, gt := g.gradIfNeeded(pred), g.gradIfNeeded(target)
		parFor(n, minElems, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				d := pd[i] - td[i]
				v := gs * d / float32(math.Sqrt(float64(d*d+eps2)))
				if gp != nil {
					gp[i] += v
				}
				if gt != nil {
					gt[i] -= v
				}
			}
		})
	}, pred, target)
	return out
}

// angleClip bounds the cosine away from +-1, where acos has an infinite
// slope (docs/CONVENTIONS.md section 7).
const angleClip = 1e-6

// normEps is the floor of a spectrum's norm in SpectralAngle.
const normEps = 1e-8

// SpectralAngle is the mean over pixels of the angle (radians) between the
// predicted and the true spectrum, acos(<p,t> / (|p| |t|)), with each norm
// floored at 1e-8 and the cosine clipped to [-1+1e-6, 1-1e-6] (zero
// gradient where it is clipped).
func (g *Graph) SpectralAngle(pred, target *Tensor) *Tensor {
	mustSameShape("SpectralAngle", pred, target)
	c, np := pred.C, pred.Pixels()
	pd, td := pred.Data, target.Data
	type px struct{ np, nt, dot, cos float64 }
	info := make([]px, np)
	sum := parReduce(np, minElems/max(c, 1), 1, func(lo, hi int, acc []float64) {
		for p := lo; p < hi; p++ {
			var pp, tt, pt float64
			for j := 0; j < c; j++ {
				a, b := float64(pd[p*c+j]), float64(td[p*c+j])
				pp += a * a
				tt += b * b
				pt += a * b
			}
			n1, n2 := max(math.Sqrt(pp), normEps), max(math.Sqrt(tt), normEps)
			cs := pt / (n1 * n2)
			info[p] = px{n1, n2, pt, cs}
			acc[0] += math.Acos(min(max(cs, -1+angleClip), 1-angleClip))
		}
	})
	out := g.scalarOut(sum[0] / float64(max(np, 1)))
	g.record(out, func() {
		gs := float64(out.Grad[0]) / float64(max(np, 1))
		gp, gt := g.gradIfNeeded(pred), g.gradIfNeeded(target)
		parFor(np, minElems/max(c, 1), func(lo, hi int) {
			for p := lo; p < hi; p++ {
				in := info[p]
				if in.cos <= -1+angleClip || in.cos >= 1-angleClip {
					continue
				}
				dcos := -gs / math.Sqrt(1-in.cos*in.cos)
				// d cos / d p_j = t_j/(np nt) - cos p_j/np^2 (the second term
				// only where |p| is above the floor), and symmetrically.
				kp, kt := 0.0, 0.0
				if in.np > normEps {
					kp = in.cos / (in.np * in.np)
				}
				if in.nt > normEps {
					kt = in.cos / (in.nt * in.nt)
				}
				inv := 1 / (in.np * in.nt)
				for j := 0; j < c; j++ {
					a, b := float64(pd[p*c+j]), float64(td[p*c+j])
					if gp != nil {
						gp[p*c+j] += float32(dcos * (b*inv - kp*a))
					}
					if gt != nil {
						gt[p*c+j] += float32(dcos * (a*inv - kt*b))
					}
				}
			}
		})
	}, pred, target)
	return out
}

// SpectralCurvature is the mean over pixels and bands of
// |second difference along the channels of (pred - target)|; it is zero
// for fewer than three channels.
func (g *Graph) SpectralCurvature(pred, target *Tensor) *Tensor {
	mustSameShape("SpectralCurvature", pred, target)
	c, np := pred.C, pred.Pixels()
	if c < 3 {
		out := g.scalarOut(0)
		return out
	}
	pd, td := pred.Data, target.Data
	cnt := float64(np * (c - 2))
	sum := parReduce(np, minElems/max(c, 1), 1, func(lo, hi int, acc []float64) {
		var s float64
		for p := lo; p < hi; p++ {
			for j := 0; j+2 < c; j++ {
				i := p*c + j
				d0, d1, d2 := pd[i]-td[i], pd[i+1]-td[i+1], pd[i+2]-td[i+2]
				s += math.Abs(float64(d2 - 2*d1 + d0))
			}
		}
		acc[0] += s
	})
	out := g.scalarOut(sum[0] / cnt)
	g.record(out, func() {
		gs := float32(float64(out.Grad[0]) / cnt)
		gp, gt := g.gradIfNeeded(pred), g.gradIfNeeded(target)
		parFor(np, minElems/max(c, 1), func(lo, hi int) {
			dd := make([]float32, c)
			for p := lo; p < hi; p++ {
				clear(dd)
				for j := 0; j+2 < c; j++ {
					i := p*c + j
					d0, d1, d2 := pd[i]-td[i], pd[i+1]-td[i+1], pd[i+2]-td[i+2]
					sd := d2 - 2*d1 + d0
					var sg float32
					if sd > 0 {
						sg = gs
					} else if sd < 0 {
						sg = -gs
					}
					dd[j] += sg
					dd[j+1] -= 2 * sg
					dd[j+2] += sg
				}
				for j, v := range dd {
					if gp != nil {
						gp[p*c+j] += v
					}
					if gt != nil {
						gt[p*c+j] -= v
					}
				}
			}
		})
	}, pred, target)
	return out
}

// Mean is the mean of all elements of x, as a 1-element tensor.
func (g *Graph) Mean(x *Tensor) *Tensor {
	n := x.Len()
	xd := x.Data
	sum := parReduce(n, minElems, 1, func(lo, hi int, acc []float64) {
		var s float64
		for _, v := range xd[lo:hi] {
			s += float64(v)
		}
		acc[0] += s
	})
	out := g.scalarOut(sum[0] / float64(max(n, 1)))
	g.record(out, func() {
		gs := out.Grad[0] / float32(max(n, 1))
		gx := g.gradOf(x)
		parFor(n, minElems, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				gx[i] += gs
			}
		})
	}, x)
	return out
}

// WeightedSum is sum_i w[i] * terms[i] for tensors of one shape (e.g. loss
// terms).
func (g *Graph) WeightedSum(terms []*Tensor, w []float32) *Tensor {
	if len(terms) == 0 || len(terms) != len(w) {
		panic(fmt.Sprintf("nn: WeightedSum of %d terms with %d weights", len(terms), len(w)))
	}
	for _, t := range terms[1:] {
		mustSameShape("WeightedSum", terms[0], t)
	}
	t0 := terms[0]
	out := g.out(t0.N, t0.H, t0.W, t0.C)
	clear(out.Data)
	for i, t := range terms {
		for j, v := range t.Data {
			out.Data[j] += w[i] * v
		}
	}
	g.record(out, func() {
		for i, t := range terms {
			if !t.needsGrad {
				continue
			}
			gt := g.gradOf(t)
			for j, v := range out.Grad {
				gt[j] += w[i] * v
			}
		}
	}, terms...)
	return out
}
