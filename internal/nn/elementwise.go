package nn

import (
	"fmt"
	"math"
)

// unary applies f elementwise; df(x, y) is dy/dx given the input and the
// output.
func (g *Graph) unary(x *Tensor, f func(float32) float32, df func(x, y float32) float32) *Tensor {
	out := g.out(x.N, x.H, x.W, x.C)
	xd, od := x.Data, out.Data
	parFor(len(xd), minElems, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			od[i] = f(xd[i])
		}
	})
	g.record(out, func() {
		gx, fresh := g.gradFresh(x)
		gy := out.Grad
		parFor(len(xd), minElems, func(lo, hi int) {
			if fresh {
				for i := lo; i < hi; i++ {
					gx[i] = gy[i] * df(xd[i], od[i])
				}
				return
			}
			for i := lo; i < hi; i++ {
				gx[i] += gy[i] * df(xd[i], od[i])
			}
		})
	}, x)
	return out
}

// GELU is x * Phi(x), Phi the standard normal CDF (erf form, as PyTorch's
// default nn.GELU()). On a training graph it keeps Phi(x) for the backward
// pass, d/dx = Phi(x) + x phi(x).
func (g *Graph) GELU(x *Tensor) *Tensor {
	out := g.out(x.N, x.H, x.W, x.C)
	xd, od := x.Data, out.Data
	if !g.train || !x.needsGrad {
		parFor(len(xd), minElems, func(lo, hi int) { phiSlice(od[lo:hi], xd[lo:hi], true) })
		g.record(out, nil, x)
		return out
	}
	cdf := g.keep(len(xd))
	parFor(len(xd), minElems, func(lo, hi int) {
		o, cd := od[lo:hi], cdf[lo:hi]
		phiSlice(cd, xd[lo:hi], false)
		for i, v := range xd[lo:hi] {
			o[i] = v * cd[i]
		}
	})
	g.record(out, func() {
		gx, fresh := g.gradFresh(x)
		gy := out.Grad
		parFor(len(xd), minElems, func(lo, hi int) {
			gxs, gys, cd := gx[lo:hi], gy[lo:hi], cdf[lo:hi]
			if fresh {
				for i, v := range xd[lo:hi] {
					gxs[i] = gys[i] * (cd[i] + v*invSqrt2Pi*exp32(-0.5*v*v))
				}
				return
			}
			for i, v := range xd[lo:hi] {
				gxs[i] += gys[i] * (cd[i] + v*invSqrt2Pi*exp32(-0.5*v*v))
			}
		})
	}, x)
	return out
}

// LeakyReLU is x for x > 0 and slope*x otherwise (PyTorch's default slope
// is 0.01; as PyTorch, the gradient at 0 is slope).
func (g *Graph) LeakyReLU(x *Tensor, slope float32) *Tensor {
	return g.unary(x, func(v float32) float32 {
		if v > 0 {
			return v
		}
		return slope * v
	}, func(v, _ float32) float32 {
		if v > 0 {
			return 1
		}
		return slope
	})
}

// Softplus is log(1 + e^x), and x itself above 20 (PyTorch's beta = 1,
// threshold = 20).
func (g *Graph) Softplus(x *Tensor) *Tensor {
	return g.unary(x, func(v float32) float32 {
		if v > 20 {
			return v
		}
		return float32(math.Log1p(math.Exp(float64(v))))
	}, func(v, _ float32) float32 {
		if v > 20 {
			return 1
		}
		return float32(1 / (1 + math.Exp(-float64(v))))
	})
}

// Tanh is the hyperbolic tangent.
func (g *Graph) Tanh(x *Tensor) *Tensor {
	return g.unary(x, func(v float32) float32 {
		return float32(math.Tanh(float64(v)))
	}, func(_, y float32) float32 { return 1 - y*y })
}

// Sigmoid is 1 / (1 + e^-x).
func (g *Graph) Sigmoid(x *Tensor) *Tensor {
	return g.unary(x, func(v float32) float32 {
		return float32(1 / (1 + math.Exp(-float64(v))))
	}, func(_, y float32) float32 { return y * (1 - y) })
}

// Clamp limits x to [lo, hi]. The gradient is passed where lo <= x <= hi
// and is zero outside (as torch.clamp).
func (g *Graph) Clamp(x *Tensor, lo, hi float32) *Tensor {
	return g.unary(x, func(v float32) float32 {
		return min(max(v, lo), hi)
	}, func(v, _ float32) float32 {
		if v >= lo && v <= hi {
			return 1
		}
		return 0
	})
}

// Scale is c * x.
func (g *Graph) Scale(x *Tensor, c float32) *Tensor {
	return g.unary(x, func(v float32) float32 { return c * v }, func(_, _ float32) float32 { return c })
}

// Add is a + b (same shapes).
func (g *Graph) Add(a, b *Tensor) *Tensor {
	mustSameShape("Add", a, b)
	out := g.out(a.N, a.H, a.W, a.C)
	ad, bd, od := a.Data, b.Data, out.Data
	parFor(len(od), minElems, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			od[i] = ad[i] + bd[i]
		}
	})
	g.record(out, func() {
		gy := out.Grad
		for _, in := range []*Tensor{a, b} {
			if !in.needsGrad {
				continue
			}
			gi, fresh := g.gradFresh(in)
			if fresh {
				copy(gi, gy)
				continue
			}
			parFor(len(od), minElems, func(lo, hi int) {
				for i := lo; i < hi; i++ {
					gi[i] += gy[i]
				}
			})
		}
	}, a, b)
	return out
}

// Mul is a * b elementwise (same shapes).
func (g *Graph) Mul(a, b *Tensor) *Tensor {
	mustSameShape("Mul", a, b)
	out := g.out(a.N, a.H, a.W, a.C)
	ad, bd, od := a.Data, b.Data, out.Data
	parFor(len(od), minElems, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			od[i] = ad[i] * bd[i]
		}
	})
	g.record(out, func() {
		gy := out.Grad
		if a.needsGrad {
			ga := g.gradOf(a)
			parFor(len(od), minElems, func(lo, hi int) {
				for i := lo; i < hi; i++ {
					ga[i] += gy[i] * bd[i]
				}
			})
		}
		if b.needsGrad {
			gb := g.gradOf(b)
			parFor(len(od), minElems, func(lo, hi int) {
				for i := lo; i < hi; i++ {
					gb[i] += gy[i] * ad[i]
				}
			})
		}
	}, a, b)
	return out
}

// FiLM is (1 + gamma) * x + beta with per-sample, per-channel gamma and
// beta of shape N x 1 x 1 x C broadcast over the pixels of x (N x H x W x C).
func (g *Graph) FiLM(x, gamma, beta *Tensor) *Tensor {
	for _, p := range []*Tensor{gamma, beta} {
		if p.N != x.N || p.H != 1 || p.W != 1 || p.C != x.C {
			panic(fmt.Sprintf("nn: FiLM: modulation %v for input %v, want %dx1x1x%d", p, x, x.N, x.C))
		}
	}
	out := g.out(x.N, x.H, x.W, x.C)
	c, hw := x.C, x.H*x.W
	xd, od, gd, bd := x.Data, out.Data, gamma.Data, beta.Data
	parFor(x.Pixels(), minElems/max(c, 1), func(lo, hi int) {
		for p := lo; p < hi; p++ {
			n := p / hw
			gm, bt := gd[n*c:n*c+c], bd[n*c:n*c+c]
			xs, os := xd[p*c:p*c+c], od[p*c:p*c+c]
			for j := range os {
				os[j] = (1+gm[j])*xs[j] + bt[j]
			}
		}
	})
	g.record(out, func() {
		gy := out.Grad
		if x.needsGrad {
			gx := g.gradOf(x)
			parFor(x.Pixels(), minElems/max(c, 1), func(lo, hi int) {
				for p := lo; p < hi; p++ {
					n := p / hw
					gm := gd[n*c : n*c+c]
					for j := 0; j < c; j++ {
						gx[p*c+j] += (1 + gm[j]) * gy[p*c+j]
					}
				}
			})
		}
		if gamma.needsGrad || beta.needsGrad {
			for n := 0; n < x.N; n++ {
				base := n * hw
				acc := parReduce(hw, minElems/max(c, 1), 2*c, func(lo, hi int, acc []float64) {
					for p := base + lo; p < base+hi; p++ {
						for j := 0; j < c; j++ {
							acc[j] += float64(xd[p*c+j] * gy[p*c+j])
							acc[c+j] += float64(gy[p*c+j])
						}
					}
				})
				if gamma.needsGrad {
					gg := g.gradOf(gamma)
					for j := 0; j < c; j++ {
						gg[n*c+j] += float32(acc[j])
					}
				}
				if beta.needsGrad {
					gb := g.gradOf(beta)
					for j := 0; j < c; j++ {
						gb[n*c+j] += float32(acc[c+j])
					}
				}
			}
		}
	}, x, gamma, beta)
	return out
}

// Concat joins tensors of equal N, H, W along the channel axis.
func (g *Graph) Concat(ts ...*Tensor) *Tensor {
	if len(ts) == 0 {
		panic("nn: Concat of nothing")
	}
	c := 0
	for _, t := range ts {
		if t.N != ts[0].N || t.H != ts[0].H || t.W != ts[0].W {
			panic(fmt.Sprintf("nn: Concat: %v and %v differ in N, H or W", ts[0], t))
		}
		c += t.C
	}
	out := g.out(ts[0].N, ts[0].H, ts[0].W, c)
	np := out.Pixels()
	od := out.Data
	parFor(np, minElems/max(c, 1), func(lo, hi int) {
		for p := lo; p < hi; p++ {
			off := 0
			for _, t := range ts {
				copy(od[p*c+off:p*c+off+t.C], t.Data[p*t.C:(p+1)*t.C])
				off += t.C
			}
		}
	})
	g.record(out, func() {
		gy := out.Grad
		off := 0
		for _, t := range ts {
			if t.needsGrad {
				gt, tc, o := g.gradOf(t), t.C, off
				parFor(np, minElems/max(c, 1), func(lo, hi int) {
					for p := lo; p < hi; p++ {
						dst := gt[p*tc : (p+1)*tc]
						src := gy[p*c+o : p*c+o+tc]
						for j := range dst {
							dst[j] += src[j]
						}
					}
				})
			}
			off += t.C
		}
	}, ts...)
	return out
}

// Slice returns channels [lo, hi) of x.
func (g *Graph) Slice(x *Tensor, lo, hi int) *Tensor {
	if lo < 0 || hi > x.C || lo >= hi {
		panic(fmt.Sprintf("nn: Slice [%d, %d) of %v", lo, hi, x))
	}
	c, w := x.C, hi-lo
	out := g.out(x.N, x.H, x.W, w)
	np := x.Pixels()
	parFor(np, minElems/max(c, 1), func(a, b int) {
		for p := a; p < b; p++ {
			copy(out.Data[p*w:(p+1)*w], x.Data[p*c+lo:p*c+hi])
		}
	})
	g.record(out, func() {
		gx, gy := g.gradOf(x), out.Grad
		parFor(np, minElems/max(c, 1), func(a, b int) {
			for p := a; p < b; p++ {
				dst := gx[p*c+lo : p*c+hi]
				for j, v := range gy[p*w : (p+1)*w] {
					dst[j] += v
				}
			}
		})
	}, x)
	return out
}

// SubMean subtracts, at every pixel, the mean of channels [lo, hi) from
// those channels; the other channels pass through. OmniHSR uses it to make
// the 25 operator coefficients sum to zero.
func (g *Graph) SubMean(x *Tensor, lo, hi int) *Tensor {
	if lo < 0 || hi > x.C || lo >= hi {
		panic(fmt.Sprintf("nn: SubMean [%d, %d) of %v", lo, hi, x))
	}
	c := x.C
	inv := 1 / float32(hi-lo)
	out := g.out(x.N, x.H, x.W, x.C)
	np := x.Pixels()
	parFor(np, minElems/max(c, 1), func(a, b int) {
		for p := a; p < b; p++ {
			src, dst := x.Data[p*c:(p+1)*c], out.Data[p*c:(p+1)*c]
			copy(dst, src)
			var s float32
			for _, v := range src[lo:hi] {
				s += v
			}
			m := s * inv
			for j := lo; j < hi; j++ {
				dst[j] -= m
			}
		}
	})
	g.record(out, func() {
		gx, gy := g.gradOf(x), out.Grad
		parFor(np, minElems/max(c, 1), func(a, b int) {
			for p := a; p < b; p++ {
				src, dst := gy[p*c:(p+1)*c], gx[p*c:(p+1)*c]
				var s float32
				for _, v := range src[lo:hi] {
					s += v
				}
				m := s * inv
				for j := range dst {
					if j >= lo && j < hi {
						dst[j] += src[j] - m
					} else {
						dst[j] += src[j]
					}
				}
			}
		})
	}, x)
	return out
}
