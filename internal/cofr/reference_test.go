package cofr

import (
	"math"
	"math/rand/v2"

	"github.com/omnihsr/omnihsr/hsi"
)

// This file holds a slow, direct float64 implementation of COFR written
// from the definitions (docs/CONVENTIONS.md section 3, paper Appendix A), independent of
// the fast path's recurrences, neighbour blocks and GEMMs, plus the random
// inputs the tests share.

// refKeys is the Keys cubic kernel, a = -0.75.
func refKeys(t float64) float64 {
	const a = -0.75
	t = math.Abs(t)
	switch {
	case t <= 1:
		return ((a+2)*t-(a+3))*t*t + 1
	case t < 2:
		return a*t*t*t - 5*a*t*t + 8*a*t - 4*a
	}
	return 0
}

// refBicubic is PyTorch's bicubic (align_corners=False, replicate border)
// at target pixel (u, v), band b, evaluated as a direct 4x4 sum.
func refBicubic(x *hsi.Cube, H, W, u, v, b int) float64 {
	sy := (float64(u)+0.5)*float64(x.H)/float64(H) - 0.5
	sx := (float64(v)+0.5)*float64(x.W)/float64(W) - 0.5
	fy, fx := math.Floor(sy), math.Floor(sx)
	var out float64
	for ky := -1; ky <= 2; ky++ {
		wy := refKeys(sy - (fy + float64(ky)))
		yy := min(max(int(fy)+ky, 0), x.H-1)
		for kx := -1; kx <= 2; kx++ {
			wx := refKeys(sx - (fx + float64(kx)))
			xx := min(max(int(fx)+kx, 0), x.W-1)
			out += wy * wx * float64(x.At(yy, xx, b))
		}
	}
	return out
}

// refResult is the reference output and, for finite-difference tests, a
// signature of which (pixel, primitive) pairs were considered.
type refResult struct {
	Y     []float64 // H*W*B
	Field []float64 // the field alone
	sig   uint64
}

// refRender renders Y = U_s X + sum_n w_n(p) r_n directly. It uses the
// parameters in float64 form (so finite differences can perturb them).
func refRender(x *hsi.Cube, p *refPrims, H, W int, opt Options) refResult {
	opt, _ = opt.resolve()
	h, w, B := x.H, x.W, x.B
	// r_n, direct 5x5 sums with replicate padding.
	r := make([]float64, h*w*B)
	for i := 0; i < h; i++ {
		for j := 0; j < w; j++ {
			n := i*w + j
			for dy := -2; dy <= 2; dy++ {
				for dx := -2; dx <= 2; dx++ {
					k := p.K[n*Taps+(dy+2)*5+(dx+2)]
					yy := min(max(i+dy, 0), h-1)
					xx := min(max(j+dx, 0), w-1)
					for b := 0; b < B; b++ {
						r[n*B+b] += k * float64(x.At(yy, xx, b))
					}
				}
			}
		}
	}
	sy, sx := float64(H)/float64(h), float64(W)/float64(w)
	s := (sy + sx) / 2
	a2 := (opt.A / s) * (opt.A / s)
	// Sigma^{-1} of every primitive, built as R diag R^T in (x, y) and
	// inverted as a 2x2 matrix.
	type prim struct{ muY, muX, ixx, ixy, iyy, alpha float64 }
	prims := make([]prim, h*w)
	var sigMax float64
	for i := 0; i < h; i++ {
		for j := 0; j < w; j++ {
			n := i*w + j
			v1 := p.Sigma1[n]*p.Sigma1[n] + a2
			v2 := p.Sigma2[n]*p.Sigma2[n] + a2
			sigMax = math.Max(sigMax, math.Sqrt(math.Max(v1, v2)))
			c, sn := math.Cos(p.Theta[n]), math.Sin(p.Theta[n])
			R := [2][2]float64{{c, -sn}, {sn, c}} // acts on (x, y)
			D := [2]float64{v1, v2}
			var S [2][2]float64
			for a := 0; a < 2; a++ {
				for b := 0; b < 2; b++ {
					for k := 0; k < 2; k++ {
						S[a][b] += R[a][k] * D[k] * R[b][k]
					}
				}
			}
			det := S[0][0]*S[1][1] - S[0][1]*S[1][0]
			prims[n] = prim{
				muY: float64(i) + 0.5 + p.OffY[n], muX: float64(j) + 0.5 + p.OffX[n],
				ixx: S[1][1] / det, ixy: -S[0][1] / det, iyy: S[0][0] / det,
				alpha: p.Alpha[n],
			}
		}
	}
	radius := math.Ceil(3 * sigMax * s)
	res := refResult{Y: make([]float64, H*W*B), Field: make([]float64, H*W*B)}
	hy, hx := float64(h)/float64(H), float64(w)/float64(W)
	var considered []int
	var aw []float64
	for u := 0; u < H; u++ {
		for v := 0; v < W; v++ {
			py := (float64(u) + 0.5) * hy
			px := (float64(v) + 0.5) * hx
			considered = considered[:0]
			if opt.PaperRule {
				for n := range prims {
					if math.Abs(py-prims[n].muY)*sy <= radius && math.Abs(px-prims[n].muX)*sx <= radius {
						considered = append(considered, n)
					}
				}
			} else {
				ci := min(int(math.Floor(float64(2*u+1)*float64(h)/float64(2*H))), h-1)
				cj := min(int(math.Floor(float64(2*v+1)*float64(w)/float64(2*W))), w-1)
				rad := opt.Neighbourhood / 2
				for i := ci - rad; i <= ci+rad; i++ {
					for j := cj - rad; j <= cj+rad; j++ {
						if i >= 0 && i < h && j >= 0 && j < w {
							considered = append(considered, i*w+j)
						}
					}
				}
			}
			aw = aw[:0]
			var sum float64
			for _, n := range considered {
				q := prims[n]
				dx, dy := px-q.muX, py-q.muY
				e := -0.5 * (q.ixx*dx*dx + 2*q.ixy*dx*dy + q.iyy*dy*dy)
				a := q.alpha * math.Exp(e)
				aw = append(aw, a)
				sum += a
				res.sig = res.sig*1000003 + uint64(n+1)
			}
			res.sig = res.sig*31 + uint64(len(considered))
			for b := 0; b < B; b++ {
				var f float64
				for k, n := range considered {
					f += aw[k] / (sum + Eps) * r[n*B+b]
				}
				o := (u*W+v)*B + b
				res.Field[o] = f
				res.Y[o] = refBicubic(x, H, W, u, v, b) + f
			}
		}
	}
	return res
}

// refPrims is Primitives in float64.
type refPrims struct {
	OffY, OffX, Sigma1, Sigma2, Theta, Alpha, K []float64
}

func toRef(p *Primitives) *refPrims {
	c := func(v []float32) []float64 {
		o := make([]float64, len(v))
		for i, x := range v {
			o[i] = float64(x)
		}
		return o
	}
	return &refPrims{c(p.OffY), c(p.OffX), c(p.Sigma1), c(p.Sigma2), c(p.Theta), c(p.Alpha), c(p.K)}
}

// groups lists the parameter groups of refPrims and Grads in the same order.
func (p *refPrims) groups() [][]float64 {
	return [][]float64{p.OffY, p.OffX, p.Sigma1, p.Sigma2, p.Theta, p.Alpha, p.K}
}

func (g *Grads) groups() [][]float32 {
	return [][]float32{g.OffY, g.OffX, g.Sigma1, g.Sigma2, g.Theta, g.Alpha, g.K}
}

var groupNames = []string{"OffY", "OffX", "Sigma1", "Sigma2", "Theta", "Alpha", "K"}

// primSpec describes how random primitives are drawn.
type primSpec struct {
	sigLo, sigHi float64 // widths, uniform
	alphaLo      float64 // opacities uniform in [alphaLo, 1)
	kScale       float64 // operator entries ~ N(0, kScale), then zero-sum
}

// trained draws primitives like a trained model's: widths 0.3..1.5 low-res
// pixels, random angles, opacities 0.2..1, offsets within +-0.5.
var trained = primSpec{0.3, 1.5, 0.2, 0.2}

// wide covers the whole range the model can output, narrow widths included.
var wide = primSpec{0.05, 2.5, 0.01, 0.3}

func randPrims(rng *rand.Rand, h, w int, sp primSpec) *Primitives {
	p, err := NewPrimitives(h, w)
	if err != nil {
		panic(err)
	}
	for n := 0; n < h*w; n++ {
		p.OffY[n] = float32(0.5 * math.Tanh(rng.NormFloat64()))
		p.OffX[n] = float32(0.5 * math.Tanh(rng.NormFloat64()))
		p.Sigma1[n] = float32(sp.sigLo + (sp.sigHi-sp.sigLo)*rng.Float64())
		p.Sigma2[n] = float32(sp.sigLo + (sp.sigHi-sp.sigLo)*rng.Float64())
		p.Theta[n] = float32(math.Pi * (2*rng.Float64() - 1))
		p.Alpha[n] = float32(sp.alphaLo + (1-sp.alphaLo)*rng.Float64())
		var k [Taps]float64
		var mean float64
		for t := range k {
			k[t] = sp.kScale * rng.NormFloat64()
			mean += k[t] / Taps
		}
		for t := range k {
			p.K[n*Taps+t] = float32(k[t] - mean)
		}
	}
	return p
}
