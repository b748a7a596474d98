package nn

import (
	"fmt"
	"math"

	"github.com/omnihsr/omnihsr/gemm"
)

// ESSA is the core of ESSAformer's efficient SCC-kernel attention. Its
// input qkv (N x H x W x 3C) holds q, k and v in channels [0,C), [C,2C)
// and [2C,3C) (the output of a Linear(C -> 3C)); per sample, with the
// T = H*W pixels as tokens:
//
//	q = q - mean_c(q);  k = k - mean_c(k)
//	q2 = q^2 / (sum_c q^2 + 1e-7);  q2 = q2 / max(||q2||_2 over channels, 1e-12)
//	k2 = k^2 / (sum_c k^2 + 1e-7);  k2 = k2 / max(||k2||_2 over tokens, 1e-12)
//	out = v + q2 (k2^T v) / sqrt(T)
//
// (k2^T v is C x C, so the cost is linear in T). The output is N x H x W x C;
// ESSAformer follows it with a Linear(C -> C). The backward pass is written
// by hand.
func (g *Graph) ESSA(qkv *Tensor) *Tensor {
	if qkv.C%3 != 0 || qkv.C == 0 {
		panic(fmt.Sprintf("nn: ESSA: input %v: channels must be 3C", qkv))
	}
	c := qkv.C / 3
	c3 := qkv.C
	t := qkv.H * qkv.W
	out := g.out(qkv.N, qkv.H, qkv.W, c)
	scale := float32(1 / math.Sqrt(float64(t)))
	type saved struct {
		qh, kh []float32 // T x C: normalised q2 and k2
		kn     []float32 // C: max(||k2 column||, 1e-12)
		a      []float32 // C x C: k2^T v
	}
	sv := make([]saved, qkv.N)
	for n := 0; n < qkv.N; n++ {
		in := qkv.Data[n*t*c3 : (n+1)*t*c3]
		qh := g.keep(t * c)
		kh := g.keep(t * c)
		// Per token: q2 fully normalised; k2 divided by its channel sum.
		parFor(t, minElems/max(c, 1), func(lo, hi int) {
			for i := lo; i < hi; i++ {
				row := in[i*c3 : (i+1)*c3]
				essaTokenQ(row[:c], qh[i*c:(i+1)*c])
				essaTokenK(row[c:2*c], kh[i*c:(i+1)*c])
			}
		})
		// Per channel: divide k2 by its norm over the tokens.
		ss := parReduce(t, minElems/max(c, 1), c, func(lo, hi int, acc []float64) {
			for i := lo; i < hi; i++ {
				for j, v := range kh[i*c : (i+1)*c] {
					acc[j] += float64(v) * float64(v)
				}
			}
		})
		kn := make([]float32, c)
		inv := make([]float32, c)
		for j := range kn {
			kn[j] = float32(max(math.Sqrt(ss[j]), 1e-12))
			inv[j] = 1 / kn[j]
		}
		parFor(t, minElems/max(c, 1), func(lo, hi int) {
			for i := lo; i < hi; i++ {
				for j := range inv {
					kh[i*c+j] *= inv[j]
				}
			}
		})
		v := in[2*c:]
		a := make([]float32, c*c)
		gemm.Sgemm(true, false, c, c, t, 1, kh, c, v, c3, 0, a, c)
		o := out.Data[n*t*c : (n+1)*t*c]
		for i := 0; i < t; i++ {
			copy(o[i*c:(i+1)*c], in[i*c3+2*c:i*c3+3*c])
		}
		gemm.Sgemm(false, false, t, c, c, scale, qh, c, a, c, 1, o, c)
		sv[n] = saved{qh, kh, kn, a}
	}
	g.record(out, func() {
		gq := g.gradOf(qkv)
		for n := 0; n < qkv.N; n++ {
			s := sv[n]
			in := qkv.Data[n*t*c3 : (n+1)*t*c3]
			gin := gq[n*t*c3 : (n+1)*t*c3]
			dy := out.Grad[n*t*c : (n+1)*t*c]
			// t2 = scale * qh a;  a = kh^T v
			da := make([]float32, c*c)
			gemm.Sgemm(true, false, c, c, t, scale, s.qh, c, dy, c, 0, da, c)
			dqh := g.tmp(t * c)
			gemm.Sgemm(false, true, t, c, c, scale, dy, c, s.a, c, 0, dqh, c)
			dkh := g.tmp(t * c)
			gemm.Sgemm(false, true, t, c, c, 1, in[2*c:], c3, da, c, 0, dkh, c)
			// dv = dy + kh da, straight into the v part of the gradient.
			parFor(t, minElems/max(c, 1), func(lo, hi int) {
				for i := lo; i < hi; i++ {
					dst := gin[i*c3+2*c : i*c3+3*c]
					for j, v := range dy[i*c : (i+1)*c] {
						dst[j] += v
					}
				}
			})
			gemm.Sgemm(false, false, t, c, c, 1, s.kh, c, da, c, 1, gin[2*c:], c3)
			// Column normalisation of k2: dK2n = (dkh - kh <kh, dkh>_col) / kn.
			dots := parReduce(t, minElems/max(c, 1), c, func(lo, hi int, acc []float64) {
				for i := lo; i < hi; i++ {
					for j := 0; j < c; j++ {
						acc[j] += float64(s.kh[i*c+j]) * float64(dkh[i*c+j])
					}
				}
			})
			// kn >= 1e-12; where it is the floor, kh = k2n / 1e-12 and the
			// norm's derivative term drops (dotk = 0).
			dotk, invk := make([]float32, c), make([]float32, c)
			for j := range dotk {
				invk[j] = 1 / s.kn[j]
				if s.kn[j] > 1e-12 {
					dotk[j] = float32(dots[j])
				}
			}
			parFor(t, minElems/max(c, 1), func(lo, hi int) {
				s1, s2 := make([]float32, c), make([]float32, c)
				for i := lo; i < hi; i++ {
					row := in[i*c3 : (i+1)*c3]
					dk := dkh[i*c : (i+1)*c]
					for j := range dk {
						dk[j] = (dk[j] - s.kh[i*c+j]*dotk[j]) * invk[j]
					}
					essaTokenBackK(row[c:2*c], dk, gin[i*c3+c:i*c3+2*c], s1)
					essaTokenBackQ(row[:c], s.qh[i*c:(i+1)*c], dqh[i*c:(i+1)*c], gin[i*c3:i*c3+c], s1, s2)
				}
			})
			g.free(dqh)
			g.free(dkh)
		}
	}, qkv)
	return out
}

// essaTokenQ writes the normalised q2 of one token: essaTokenK's
// q2 / (sum_c q2 + 1e-7), divided by its norm (at least 1e-12).
func essaTokenQ(q, dst []float32) {
	essaTokenK(q, dst)
	var p [8]float32
	for j, v := range dst {
		p[j&7] += v * v
	}
	sc := 1 / max(float32(math.Sqrt(float64(laneTotal(&p)))), 1e-12)
	for j := range dst {
		dst[j] *= sc
	}
}

// essaTokenK writes k2 / (sum_c k2 + 1e-7) of one token.
func essaTokenK(k, dst []float32) {
	inv := centred(k, dst)
	for j, d := range dst {
		dst[j] = d * d * inv
	}
}

// centred writes x - mean(x) into d and returns 1 / (sum d^2 + 1e-7).
// The sums are laneSum's.
func centred(x, d []float32) float32 {
	m := laneSum(x) / float32(len(x))
	var p [8]float32
	for j, v := range x {
		e := v - m
		d[j] = e
		p[j&7] += e * e
	}
	return 1 / (laneTotal(&p) + 1e-7)
}

// laneSum returns the sum of x in the order of the eight-lane vector
// kernel (essaTokensAVX): partial sum l, from zero, adds x[l], x[l+8], ...
// in turn, and laneTotal adds the eight partial sums.
func laneSum(x []float32) float32 {
	var p [8]float32
	for j, v := range x {
		p[j&7] += v
	}
	return laneTotal(&p)
}

// laneTotal is ((p0+p4) + (p2+p6)) + ((p1+p5) + (p3+p7)), the order in
// which the vector kernel folds its lanes.
func laneTotal(p *[8]float32) float32 {
	return ((p[0] + p[4]) + (p[2] + p[6])) + ((p[1] + p[5]) + (p[3] + p[7]))
}

// essaTokenBackK maps dL/d(k2 / sum) of one token (dk) to dL/dk, added to
// gk; d is scratch of C values.
func essaTokenBackK(k, dk, gk, d []float32) {
	inv := centred(k, d)
	addCentredSquareBack(d, dk, gk, d, inv)
}

// addCentredSquareBack adds to g the gradient of one token x through
// y = d^2 inv, d = x - mean(x) and inv = 1 / (sum d^2 + 1e-7) (centred's d
// and inv), given dy = dL/dy: dY = (dy - <dy, y>) inv; dd = 2 d dY; dx is
// dd minus its mean. out (len(d) values) receives dd and may be d or dy.
func addCentredSquareBack(d, dy, g, out []float32, inv float32) {
	var dot float32
	for j, v := range d {
		dot += dy[j] * v * v
	}
	dot *= inv
	var mean float32
	for j, v := range d {
		x := 2 * v * (dy[j] - dot) * inv
		out[j] = x
		mean += x
	}
	mean /= float32(len(d))
	for j := range g {
		g[j] += out[j] - mean
	}
}

// essaTokenBackQ maps dL/dqh of one token to dL/dq, added to gq; d and t
// are scratch of C values.
func essaTokenBackQ(q, qh, dqh, gq, d, t []float32) {
	inv := centred(q, d)
	// q2n = d^2 inv; nrm = ||q2n||; qh = q2n / max(nrm, 1e-12).
	var nn float32
	for _, v := range d {
		x := v * v * inv
		nn += x * x
	}
	nrm := float32(math.Sqrt(float64(nn)))
	// dq2n
	if nrm > 1e-12 {
		var dot float32
		for j := range qh {
			dot += qh[j] * dqh[j]
		}
		r := 1 / nrm
		for j := range t {
			t[j] = (dqh[j] - qh[j]*dot) * r
		}
	} else {
		for j := range t {
			t[j] = dqh[j] * 1e12
		}
	}
	// dQ2 = (dq2n - <dq2n, q2n>) inv; dqc = 2 d dQ2.
	addCentredSquareBack(d, t, gq, t, inv)
}
