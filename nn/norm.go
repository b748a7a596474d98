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
// channels xs (invC = 1/len(xs)), summed in channel order: layerNormRows's
// four-pixel loop gives the same bits for each of its pixels.
func pixelStats(xs []float32, invC, eps float32) (mean, rstd float32) {
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
	return m, float32(1 / math.Sqrt(float64(v2*invC+eps)))
}

// layerNormRows is LayerNorm's forward pass on pixels [lo, hi). The sums of
// one pixel are sequential (a chain of dependent adds), so four pixels are
// summed side by side, each in the same order as alone: the result is the
// same, bit for bit, as one pixel at a time, at several times the rate.
func layerNormRows(xd, od, mean, rstd, gm, bt []float32, c int, invC, eps float32, lo, hi int) {
	gm, bt = gm[:c], bt[:c]
	p := lo
	for ; p+4 <= hi; p += 4 {
		x0 := xd[p*c : (p+1)*c]
		x1 := xd[(p+1)*c : (p+2)*c][:len(x0)]
		x2 := xd[(p+2)*c : (p+3)*c][:len(x0)]
		x3 := xd[(p+3)*c : (p+4)*c][:len(x0)]
		var s0, s1, s2, s3 float32
		for j, v := range x0 {
			s0 += v
			s1 += x1[j]
			s2 += x2[j]
			s3 += x3[j]
		}
		m0, m1, m2, m3 := s0*invC, s1*invC, s2*invC, s3*invC
		var v0, v1, v2, v3 float32
		for j, v := range x0 {
			d0, d1, d2, d3 := v-m0, x1[j]-m1, x2[j]-m2, x3[j]-m3
			v0 += d0 * d0
			v1 += d1 * d1
			v2 += d2 * d2
			v3 += d3 * d3
		}
		r0 := float32(1 / math.Sqrt(float64(v0*invC+eps)))
		r1 := float32(1 / math.Sqrt(float64(v1*invC+eps)))
		r2 := float32(1 / math.Sqrt(float64(v2*invC+eps)))
		r3 := float32(1 / math.Sqrt(float64(v3*invC+eps)))
		mean[p], mean[p+1], mean[p+2], mean[p+3] = m0, m1, m2, m3
		rstd[p], rstd[p+1], rstd[p+2], rstd[p+3] = r0, r1, r2, r3
		layerNormAffine(od[p*c:(p+1)*c], x0, m0, r0, gm, bt)
		layerNormAffine(od[(p+1)*c:(p+2)*c], x1, m1, r1, gm, bt)
		layerNormAffine(od[(p+2)*c:(p+3)*c], x2, m2, r2, gm, bt)
		layerNormAffine(od[(p+3)*c:(p+4)*c], x3, m3, r3, gm, bt)
	}
	for ; p < hi; p++ {
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
