package resample

import "math"

// CubicA is the Keys parameter of PyTorch's bicubic upsampling
// (F.interpolate(mode='bicubic', align_corners=False)).
const CubicA = -0.75

// AntialiasA is the Keys parameter of PyTorch's antialiased bicubic
// resampling (F.interpolate(mode='bicubic', antialias=True)), the kernel of
// PIL's BICUBIC filter.
const AntialiasA = -0.5

// cubic is the Keys cubic convolution kernel with parameter a. It is
// evaluated in float64 and the caller rounds the weight to float32 once:
// ATen's float32 weights (evaluated with float32 arithmetic, which GCC may
// contract into fused multiply-adds) differ from the exact kernel by a few
// float32 units in the last place in no reproducible pattern, and the
// correctly rounded weights were measured to be the closest to them (see
// TestGoldenPyTorch).
func cubic(x, a float64) float64 {
	x = math.Abs(x)
	switch {
	case x <= 1:
		return ((a+2)*x-(a+3))*x*x + 1
	case x < 2:
		return ((a*x-5*a)*x+8*a)*x - 4*a
	}
	return 0
}

// Taps4 holds, for every output index of a 1-D bicubic upsampling U_s, the
// four input indices (already clamped to the input, i.e. replicate border)
// and their weights, which sum to one.
type Taps4 struct {
	In, Out int
	Idx     [][4]int
	W       [][4]float32
	// First is the unclamped index of the first tap (floor(src) - 1).
	First []int
}

// CubicTaps returns the taps of PyTorch's bicubic interpolation
// (align_corners=False, a = -0.75, replicate border) from in to out samples.
// Output sample i has its centre at source coordinate (i+0.5)*in/out - 0.5.
//
// The source coordinate follows ATen's float32 path (area_pixel_compute_scale,
// area_pixel_compute_source_index, guard_index_and_lambda), so the indices
// are PyTorch's; the weights are the kernel at that coordinate correctly
// rounded to float32, within a few units in the last place of PyTorch's.
func CubicTaps(in, out int) Taps4 {
	t := Taps4{In: in, Out: out, Idx: make([][4]int, out), W: make([][4]float32, out), First: make([]int, out)}
	if in <= 0 || out <= 0 {
		return t
	}
	// scale = float(in) / out, in float32.
	sc := float32(in) / float32(out)
	for i := 0; i < out; i++ {
		// scale * (i + 0.5) - 0.5: ATen evaluates this with double
		// literals and rounds the result to float once.
		real := float32(float64(sc)*(float64(i)+0.5) - 0.5)
		i0 := int(math.Floor(float64(real)))
		if i0 > in-1 {
			i0 = in - 1
		}
		lambda := real - float32(i0)
		if lambda < 0 {
			lambda = 0
		}
		if lambda > 1 {
			lambda = 1
		}
		w := CubicWeights(float64(lambda))
		t.First[i] = i0 - 1
		for k := 0; k < 4; k++ {
			j := min(max(i0-1+k, 0), in-1)
			t.Idx[i][k] = j
			t.W[i][k] = w[k]
		}
	}
	return t
}

// CubicWeights returns the weights of the four samples floor(x)-1 to
// floor(x)+2 in the bicubic interpolation (Keys a = CubicA) at source
// coordinate x, where l = x - floor(x) in [0, 1]: the kernel at distances
// l+1, l, 1-l and 2-l, each rounded to float32 once, as CubicTaps weights
// its taps.
func CubicWeights(l float64) [4]float32 {
	return [4]float32{
		float32(cubic(l+1, CubicA)),
		float32(cubic(l, CubicA)),
		float32(cubic(1-l, CubicA)),
		float32(cubic(2-l, CubicA)),
	}
}

// taps is a 1-D resampling in compact form: output sample o is
// sum_k W[Off[o]+k] * in[Idx[Off[o]+k]] for k < Off[o+1]-Off[o], summed in
// that order (the order ATen sums in).
type taps struct {
	in, out int
	Off     []int // len out+1
	Idx     []int
	W       []float32
	maxN    int // largest number of taps of one output sample
}

// n returns the taps of output o.
func (t *taps) at(o int) ([]int, []float32) {
	a, b := t.Off[o], t.Off[o+1]
	return t.Idx[a:b], t.W[a:b]
}

// identity reports whether the resampling copies its input.
func (t *taps) identity() bool {
	if t.in != t.out {
		return false
	}
	for o := 0; o < t.out; o++ {
		idx, w := t.at(o)
		for k := range idx {
			if w[k] != 0 && !(idx[k] == o && w[k] == 1) {
				return false
			}
		}
	}
	return true
}

// sub returns the taps of output samples [o0, o1) as a resampling to
// o1-o0 samples of the same input.
func (t *taps) sub(o0, o1 int) *taps {
	a, e := t.Off[o0], t.Off[o1]
	s := &taps{in: t.in, out: o1 - o0, Off: make([]int, o1-o0+1), Idx: t.Idx[a:e], W: t.W[a:e], maxN: t.maxN}
	for o := range s.Off {
		s.Off[o] = t.Off[o0+o] - a
	}
	return s
}

// cubicTaps converts CubicTaps to the compact form.
func cubicTaps(in, out int) *taps {
	c := CubicTaps(in, out)
	t := &taps{in: in, out: out, Off: make([]int, out+1), Idx: make([]int, 0, 4*out), W: make([]float32, 0, 4*out), maxN: 4}
	for o := 0; o < out; o++ {
		t.Idx = append(t.Idx, c.Idx[o][:]...)
		t.W = append(t.W, c.W[o][:]...)
		t.Off[o+1] = len(t.Idx)
	}
	return t
}

// aaTaps returns the taps of ATen's antialiased bicubic resampling
// (HelperInterpBase::_compute_weights_aa with HelperInterpCubic::aa_filter)
// from in to out samples, align_corners=False: the PIL kernel a = -0.5,
// stretched by the factor when downsampling (support 2*in/out input
// samples on each side), weights renormalised to sum to one so that samples
// outside the input are simply dropped. When out >= in the kernel is the
// plain a = -0.5 cubic with support 2 and the same renormalisation (no
// replicate border). Supports and tap ranges follow ATen's float32
// arithmetic; the weights are evaluated as for CubicTaps.
func aaTaps(in, out int) *taps {
	t := &taps{in: in, out: out, Off: make([]int, out+1)}
	scale := float32(in) / float32(out)
	var support, invscale float32
	if scale >= 1 {
		support = float32(2 * float64(scale))
		invscale = float32(1 / float64(scale))
	} else {
		support = 2
		invscale = 1
	}
	var ws []float32
	for i := 0; i < out; i++ {
		center := float32(float64(scale) * (float64(i) + 0.5))
		xmin := max(int64(float64(center-support)+0.5), 0)
		xmax := min(int64(float64(center+support)+0.5), int64(in))
		n := int(xmax - xmin)
		if n < 0 {
			n = 0
		}
		ws = ws[:0]
		var total float32
		for j := 0; j < n; j++ {
			d := float32(float32(int64(j)+xmin) - center)
			x := float32((float64(d) + 0.5) * float64(invscale))
			w := float32(cubic(float64(x), AntialiasA))
			ws = append(ws, w)
			total += w
		}
		for j := 0; j < n; j++ {
			if total != 0 {
				ws[j] /= total
			}
			t.Idx = append(t.Idx, int(xmin)+j)
			t.W = append(t.W, ws[j])
		}
		t.Off[i+1] = len(t.Idx)
		t.maxN = max(t.maxN, n)
	}
	return t
}

// areaTaps returns the taps of PyTorch's mode='area' (adaptive average
// pooling): output o averages input samples floor(o*in/out) up to
// ceil((o+1)*in/out) (exclusive) with equal weights. The weights hold
// 1 for every sample; the caller divides by the count as ATen does.
func areaTaps(in, out int) *taps {
	t := &taps{in: in, out: out, Off: make([]int, out+1)}
	for o := 0; o < out; o++ {
		a := (o * in) / out
		b := ((o+1)*in + out - 1) / out
		for j := a; j < b; j++ {
			t.Idx = append(t.Idx, j)
			t.W = append(t.W, 1)
		}
		t.Off[o+1] = len(t.Idx)
		t.maxN = max(t.maxN, b-a)
	}
	return t
}
