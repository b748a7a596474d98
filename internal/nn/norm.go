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
		layerNormRows(xd, od, mean, rstd, gm, bt, c, invC, eps, lo, hi)
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

// pixelStats is the mean and reciprocal standard deviation of one pixel's
// channels xs (invC = 1/len(xs)), with laneSum's sums (the order of the
// vector kernel, layerNormAVX).
func pixelStats(xs []float32, invC, eps float32) (mean, rstd float32) {
	m := laneSum(xs) * invC
	var p [8]float32
	for j, v := range xs {
		d := v - m
		p[j&7] += d * d
	}
	return m, float32(1 / math.Sqrt(float64(laneTotal(&p)*invC+eps)))
}

// layerNormRows is LayerNorm's forward pass on pixels [lo, hi): with AVX2
// and c a multiple of 8 the vector kernel, otherwise layerNormRowsGo, with
// the same bits.
func layerNormRows(xd, od, mean, rstd, gm, bt []float32, c int, invC, eps float32, lo, hi int) {
	if hi <= lo {
		return
	}
	if useNormAVX && c%8 == 0 && c > 0 {
		_, _, _, _ = xd[hi*c-1], od[hi*c-1], gm[c-1], bt[c-1]
		_, _ = mean[hi-1], rstd[hi-1]
		layerNormAVX(&xd[lo*c], &od[lo*c], &mean[lo], &rstd[lo], &gm[0], &bt[0], c, hi-lo, invC, eps)
		return
	}
	layerNormRowsGo(xd, od, mean, rstd, gm, bt, c, invC, eps, lo, hi)
}

// layerNormRowsGo is layerNormRows one pixel at a time.
func layerNormRowsGo(xd, od, mean, rstd, gm, bt []float32, c int, invC, eps float32, lo, hi int) {
	gm, bt = gm[:c], bt[:c]
	for p := lo; p < hi; p++ {
		xs := xd[p*c : (p+1)*c]
		m, r := pixelStats(xs, invC, eps)
		mean[p], rstd[p] = m, r
		layerNormAffine(od[p*c:(p+1)*c], xs, m, r, gm, bt)
	}
}

// layerNormAffine writes (x - m) r gamma + beta.
func layerNormAffine(os, xs []float32, m, r float32, gm, bt []float32) {
	os = os[:len(xs)]
	gm, bt = gm[:len(xs)], bt[:len(xs)]
	for j, v := range xs {
		os[j] = (v-m)*r*gm[j] + bt[j]
	}
}
