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
	if s.a != nil {
		return fmt.Errorf("nn: ESSAStream.Add after Finish")
	}
	t := qkv.H * qkv.W
	k2 := make([]float32, t*c)
	parFor(t, minElems/max(c, 1), func(lo, hi int) {
		for i := lo; i < hi; i++ {
			essaTokenK(qkv.Data[i*3*c+c:i*3*c+2*c], k2[i*c:(i+1)*c])
		}
	})
	for i := 0; i < t; i++ {
		for a, v := range k2[i*c : (i+1)*c] {
			s.kk[a] += float64(v) * float64(v)
		}
	}
	// k2^T v for this chunk (C x C), one GEMM; accumulated in float64.
	kv := make([]float32, c*c)
	gemm.Sgemm(true, false, c, c, t, 1, k2, c, qkv.Data[2*c:], 3*c, 0, kv, c)
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
// k2^T v / sqrt(T) of the whole image. Call Finish first.
func (s *ESSAStream) Apply(qkv *Tensor) (*Tensor, error) {
	c := s.C
	if s.a == nil {
		return nil, fmt.Errorf("nn: ESSAStream.Apply before Finish")
	}
	if qkv.C != 3*c || qkv.N != 1 {
		return nil, fmt.Errorf("nn: ESSAStream.Apply: chunk %v, want 1 x H x W x %d", qkv, 3*c)
	}
	t := qkv.H * qkv.W
	out := New(1, qkv.H, qkv.W, c)
	q2 := make([]float32, t*c)
	parFor(t, minElems/max(c, 1), func(lo, hi int) {
		for i := lo; i < hi; i++ {
			row := qkv.Data[i*3*c : (i+1)*3*c]
			essaTokenQ(row[:c], q2[i*c:(i+1)*c])
			copy(out.Data[i*c:(i+1)*c], row[2*c:])
		}
	})
	gemm.Sgemm(false, false, t, c, c, 1, q2, c, s.a, c, 1, out.Data, c)
	return out, nil
}
