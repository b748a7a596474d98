package nn

import (
	"fmt"
	"math"

	"github.com/omnihsr/omnihsr/gemm"
)

// ESSAStream evaluates ESSA (see Graph.ESSA) on an image given in chunks of
// tokens, exactly: the only quantities that couple tokens are, per
// channel, the norm of k2 over all tokens and the C x C product k2^T v,
// and both are sums over tokens. Pass 1 (Add) accumulates them over every
// chunk; pass 2 (Apply) then produces the output of any chunk. It is for
// inference only (no gradient), so that an encoder can run on an image
// too large for whole-image activations with the same result.
type ESSAStream struct {
	C      int
	tokens int
	kk     []float64 // C: sum over tokens of k2^2
	kv     []float64 // C x C: sum over tokens of k2 v^T
	a      []float32 // C x C: normalised k2^T v / sqrt(T), after Finish
	// scratch holds a chunk's k2 (Add) or q2 (Apply), kvc a chunk's
	// k2^T v; both are kept from one chunk to the next.
	scratch, kvc []float32
}

// chunkScratch returns s.scratch with n values (contents unspecified).
func (s *ESSAStream) chunkScratch(n int) []float32 {
	if cap(s.scratch) < n {
		s.scratch = make([]float32, n)
	}
	return s.scratch[:n]
}

// NewESSAStream starts pass 1 for C channels (the input has 3C).
func NewESSAStream(c int) *ESSAStream {
	return &ESSAStream{C: c, kk: make([]float64, c), kv: make([]float64, c*c)}
}

// Add accumulates a chunk of tokens (N = 1, any H x W, 3C channels).
func (s *ESSAStream) Add(qkv *Tensor) error {
	c := s.C
	if qkv.C != 3*c || qkv.N != 1 {
		return fmt.Errorf("nn: ESSAStream.Add: chunk %v, want 1 x H x W x %d", qkv, 3*c)
	}
	return s.add(qkv.H*qkv.W, qkv.Data[c:], 3*c, qkv.Data[2*c:], 3*c)
}

// AddK is Add on a chunk given as its k (1 x H x W x C) and its q and v
// (1 x H x W x 2C, as ApplyQV takes them), with the same result: a caller
// can compute q and v straight into the buffer it keeps for pass 2.
func (s *ESSAStream) AddK(k, qv *Tensor) error {
	c := s.C
	if k.C != c || k.N != 1 || qv.C != 2*c || qv.N != 1 || qv.H != k.H || qv.W != k.W {
		return fmt.Errorf("nn: ESSAStream.AddK: chunks %v and %v, want 1 x H x W x %d and 1 x H x W x %d", k, qv, c, 2*c)
	}
	return s.add(k.H*k.W, k.Data, c, qv.Data[c:], 2*c)
}

// add accumulates t tokens whose k and v are the first C values of every
// kStride and vStride values of k and v.
func (s *ESSAStream) add(t int, k []float32, kStride int, v []float32, vStride int) error {
	c := s.C
	if s.a != nil {
		return fmt.Errorf("nn: ESSAStream.Add after Finish")
	}
	k2 := s.chunkScratch(t * c)
	kk := parReduce(t, minElems/max(c, 1), c, func(lo, hi int, acc []float64) {
		essaTokensK(k, kStride, k2, c, lo, hi)
		for i := lo; i < hi; i++ {
			for a, v := range k2[i*c : (i+1)*c] {
				acc[a] += float64(v) * float64(v)
			}
		}
	})
	for a, v := range kk {
		s.kk[a] += v
	}
	// k2^T v for this chunk (C x C), one GEMM; accumulated in float64.
	if s.kvc == nil {
		s.kvc = make([]float32, c*c)
	}
	kv := s.kvc
	gemm.Sgemm(true, false, c, c, t, 1, k2, c, v, vStride, 0, kv, c)
	for i, v := range kv {
		s.kv[i] += float64(v)
	}
	s.tokens += t
	return nil
}

// Finish ends pass 1.
func (s *ESSAStream) Finish() {
	c := s.C
	s.a = make([]float32, c*c)
	scale := 1 / math.Sqrt(float64(max(s.tokens, 1)))
	for a := 0; a < c; a++ {
		inv := scale / max(math.Sqrt(s.kk[a]), 1e-12)
		for b := 0; b < c; b++ {
			s.a[a*c+b] = float32(s.kv[a*c+b] * inv)
		}
	}
}

// Apply returns v + q2 A for a chunk (1 x H x W x C), A the normalised
// k2^T v / sqrt(T) of the whole image, as an output of g (from g's arena,
// if it has one; g may be nil). Call Finish first.
func (s *ESSAStream) Apply(g *Graph, qkv *Tensor) (*Tensor, error) {
	if qkv.C != 3*s.C || qkv.N != 1 {
		return nil, fmt.Errorf("nn: ESSAStream.Apply: chunk %v, want 1 x H x W x %d", qkv, 3*s.C)
	}
	return s.apply(g, qkv)
}

// ApplyQV is Apply on a chunk that holds only q and v (1 x H x W x 2C: q
// then v, as in the chunk of q, k and v with k left out), which is all
// pass 2 reads: a caller can keep them from pass 1 instead of computing
// the chunk again.
func (s *ESSAStream) ApplyQV(g *Graph, qv *Tensor) (*Tensor, error) {
	if qv.C != 2*s.C || qv.N != 1 {
		return nil, fmt.Errorf("nn: ESSAStream.ApplyQV: chunk %v, want 1 x H x W x %d", qv, 2*s.C)
	}
	return s.apply(g, qv)
}

// apply is Apply on a chunk whose tokens hold q first and v last.
func (s *ESSAStream) apply(g *Graph, in *Tensor) (*Tensor, error) {
	c := s.C
	if s.a == nil {
		return nil, fmt.Errorf("nn: ESSAStream.Apply before Finish")
	}
	t := in.H * in.W
	var out *Tensor
	if g != nil {
		out = g.out(1, in.H, in.W, c)
		g.record(out, nil)
	} else {
		out = New(1, in.H, in.W, c)
	}
	stride := in.C
	q2 := s.chunkScratch(t * c)
	parFor(t, minElems/max(c, 1), func(lo, hi int) {
		essaTokensQ(in.Data, stride, q2, c, lo, hi)
		for i := lo; i < hi; i++ {
			copy(out.Data[i*c:(i+1)*c], in.Data[(i+1)*stride-c:(i+1)*stride])
		}
	})
	gemm.Sgemm(false, false, t, c, c, 1, q2, c, s.a, c, 1, out.Data, c)
	return out, nil
}

// essaTokensK is essaTokenK on tokens [lo, hi) of a chunk: token i's k is
// src[i*stride:][:c], its k2 goes to dst[i*c:][:c]. Four tokens are taken
// side by side (each token's sums stay in their own order, so the bits are
// those of essaTokenK) to overlap the chains of dependent adds.
func essaTokensK(src []float32, stride int, dst []float32, c, lo, hi int) {
	i := lo
	for ; i+4 <= hi; i += 4 {
		essaTokenK4(src[i*stride:][:c], src[(i+1)*stride:][:c], src[(i+2)*stride:][:c], src[(i+3)*stride:][:c],
			dst[i*c:][:c], dst[(i+1)*c:][:c], dst[(i+2)*c:][:c], dst[(i+3)*c:][:c])
	}
	for ; i < hi; i++ {
		essaTokenK(src[i*stride:][:c], dst[i*c:][:c])
	}
}

// essaTokensQ is essaTokenQ on tokens [lo, hi), as essaTokensK.
func essaTokensQ(src []float32, stride int, dst []float32, c, lo, hi int) {
	i := lo
	for ; i+4 <= hi; i += 4 {
		d0, d1, d2, d3 := dst[i*c:][:c], dst[(i+1)*c:][:c], dst[(i+2)*c:][:c], dst[(i+3)*c:][:c]
		essaTokenK4(src[i*stride:][:c], src[(i+1)*stride:][:c], src[(i+2)*stride:][:c], src[(i+3)*stride:][:c], d0, d1, d2, d3)
		var n0, n1, n2, n3 float32
		for j, v := range d0 {
			n0 += v * v
			n1 += d1[j] * d1[j]
			n2 += d2[j] * d2[j]
			n3 += d3[j] * d3[j]
		}
		s0 := 1 / max(float32(math.Sqrt(float64(n0))), 1e-12)
		s1 := 1 / max(float32(math.Sqrt(float64(n1))), 1e-12)
		s2 := 1 / max(float32(math.Sqrt(float64(n2))), 1e-12)
		s3 := 1 / max(float32(math.Sqrt(float64(n3))), 1e-12)
		for j := range d0 {
			d0[j] *= s0
			d1[j] *= s1
			d2[j] *= s2
			d3[j] *= s3
		}
	}
	for ; i < hi; i++ {
		essaTokenQ(src[i*stride:][:c], dst[i*c:][:c])
	}
}

// essaTokenK4 is essaTokenK on four tokens at once (the same bits).
func essaTokenK4(k0, k1, k2, k3, d0, d1, d2, d3 []float32) {
	n := len(k0)
	k1, k2, k3 = k1[:n], k2[:n], k3[:n]
	d0, d1, d2, d3 = d0[:n], d1[:n], d2[:n], d3[:n]
	var m0, m1, m2, m3 float32
	for j, v := range k0 {
		m0 += v
		m1 += k1[j]
		m2 += k2[j]
		m3 += k3[j]
	}
	fn := float32(n)
	m0 /= fn
	m1 /= fn
	m2 /= fn
	m3 /= fn
	var s0, s1, s2, s3 float32
	for j, v := range k0 {
		e0, e1, e2, e3 := v-m0, k1[j]-m1, k2[j]-m2, k3[j]-m3
		d0[j], d1[j], d2[j], d3[j] = e0, e1, e2, e3
		s0 += e0 * e0
		s1 += e1 * e1
		s2 += e2 * e2
		s3 += e3 * e3
	}
	i0, i1, i2, i3 := 1/(s0+1e-7), 1/(s1+1e-7), 1/(s2+1e-7), 1/(s3+1e-7)
	for j, e := range d0 {
		d0[j] = e * e * i0
		d1[j] = d1[j] * d1[j] * i1
		d2[j] = d2[j] * d2[j] * i2
		d3[j] = d3[j] * d3[j] * i3
	}
}
