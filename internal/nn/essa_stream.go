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
		sqSums(acc, k2[lo*c:hi*c], c)
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
// src[i*stride:][:c], its k2 goes to dst[i*c:][:c]. With AVX2 and c a
// multiple of 8 the vector kernel does it (the same bits).
func essaTokensK(src []float32, stride int, dst []float32, c, lo, hi int) {
	essaTokens(src, stride, dst, c, lo, hi, false)
}

// essaTokensQ is essaTokenQ on tokens [lo, hi), as essaTokensK.
func essaTokensQ(src []float32, stride int, dst []float32, c, lo, hi int) {
	essaTokens(src, stride, dst, c, lo, hi, true)
}

// essaTokens is essaTokensQ (q) or essaTokensK.
func essaTokens(src []float32, stride int, dst []float32, c, lo, hi int, q bool) {
	if hi <= lo {
		return
	}
	if useNormAVX && c%8 == 0 && c > 0 {
		_, _ = src[(hi-1)*stride+c-1], dst[hi*c-1]
		qi := 0
		if q {
			qi = 1
		}
		essaTokensAVX(&src[lo*stride], stride, &dst[lo*c], c, hi-lo, qi)
		return
	}
	for i := lo; i < hi; i++ {
		if q {
			essaTokenQ(src[i*stride:][:c], dst[i*c:][:c])
		} else {
			essaTokenK(src[i*stride:][:c], dst[i*c:][:c])
		}
	}
}

// sqSums adds float64(v)^2 of every value v of the rows of c values in x
// to acc[its column], row by row: with AVX2 and c a multiple of 4 the
// vector kernel does it (each column is a lane: the same bits).
func sqSums(acc []float64, x []float32, c int) {
	n := len(x) / c
	if n == 0 {
		return
	}
	if useNormAVX && c%4 == 0 {
		_ = acc[c-1]
		sqSumsAVX(&acc[0], &x[0], c, n)
		return
	}
	sqSumsGo(acc, x[:n*c], c)
}

func sqSumsGo(acc []float64, x []float32, c int) {
	acc = acc[:c]
	for i := 0; i+c <= len(x); i += c {
		for a, v := range x[i : i+c] {
			acc[a] += float64(v) * float64(v)
		}
	}
}
