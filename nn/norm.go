package nn

import (
	"fmt"
	"math"
)

// LayerNorm normalises every pixel's channel vector to zero mean and unit
// variance (biased variance, eps inside the square root, as PyTorch's
// nn.LayerNorm(C)) and applies the per-channel affine gamma * xhat + beta;
// gamma and beta are 1 x 1 x 1 x C.
func (g *Graph) LayerNorm(x, gamma, beta *Tensor, eps float32) *Tensor {
	c := x.C
	for _, p := range []*Tensor{gamma, beta} {
		if p.Len() != c {
			panic(fmt.Sprintf("nn: LayerNorm: affine %v for input %v", p, x))
		}
	}
	np := x.Pixels()
	out := g.out(x.N, x.H, x.W, c)
	mean := g.keep(np)
	rstd := g.keep(np)
	xd, od, gm, bt := x.Data, out.Data, gamma.Data, beta.Data
	invC := 1 / float32(c)
	parFor(np, minElems/max(c, 1), func(lo, hi int) {
		for p := lo; p < hi; p++ {
			xs := xd[p*c : (p+1)*c]
			var s float32
			for _, v := range xs {
				s += v
			}
			m := s * invC
			var v2 float32
			for _, v := range xs {
				d := v - m
				v2 += d * d
			}
			r := float32(1 / math.Sqrt(float64(v2*invC+eps)))
			mean[p], rstd[p] = m, r
			os := od[p*c : (p+1)*c]
			for j, v := range xs {
				os[j] = (v-m)*r*gm[j] + bt[j]
			}
		}
	})
	g.record(out, func() {
		gy := out.Grad
		if x.needsGrad {
			gx, fresh := g.gradFresh(x)
			parFor(np, minElems/max(c, 1), func(lo, hi int) {
				for p := lo; p < hi; p++ {
					xs, gys, gxs := xd[p*c:(p+1)*c], gy[p*c:(p+1)*c], gx[p*c:(p+1)*c]
					m, r := mean[p], rstd[p]
					var s1, s2 float32 // mean(dxhat), mean(dxhat*xhat)
					for j, v := range xs {
						dxh := gys[j] * gm[j]
						s1 += dxh
						s2 += dxh * (v - m) * r
					}
					s1 *= invC
					s2 *= invC
					if fresh {
						for j, v := range xs {
							xh := (v - m) * r
							gxs[j] = r * (gys[j]*gm[j] - s1 - xh*s2)
						}
						continue
					}
					for j, v := range xs {
						xh := (v - m) * r
						gxs[j] += r * (gys[j]*gm[j] - s1 - xh*s2)
					}
				}
			})
		}
		if gamma.needsGrad || beta.needsGrad {
			acc := parReduce(np, minElems/max(c, 1), 2*c, func(lo, hi int, acc []float64) {
				for p := lo; p < hi; p++ {
					xs, gys := xd[p*c:(p+1)*c], gy[p*c:(p+1)*c]
					m, r := mean[p], rstd[p]
					for j, v := range xs {
						acc[j] += float64(gys[j] * (v - m) * r)
						acc[c+j] += float64(gys[j])
					}
				}
			})
			if gamma.needsGrad {
				gg := g.gradOf(gamma)
				for j := 0; j < c; j++ {
					gg[j] += float32(acc[j])
				}
			}
			if beta.needsGrad {
				gb := g.gradOf(beta)
				for j := 0; j < c; j++ {
					gb[j] += float32(acc[c+j])
				}
			}
		}
	}, x, gamma, beta)
	return out
}
