package resample

import "math"

// CubicA is the Keys parameter of PyTorch's bicubic upsampling
// (F.interpolate(mode='bicubic', align_corners=False)).
const CubicA = -0.75

// cubic is the Keys cubic convolution kernel with parameter a.
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
func CubicTaps(in, out int) Taps4 {
	t := Taps4{In: in, Out: out, Idx: make([][4]int, out), W: make([][4]float32, out), First: make([]int, out)}
	scale := float64(in) / float64(out)
	// PyTorch computes the source coordinate in the input's precision (float
	// for float32 tensors); mirror that so indices and weights match exactly.
	sc := float32(scale)
	for i := 0; i < out; i++ {
		real := float32(sc*(float32(i)+0.5) - 0.5)
		fl := float32(math.Floor(float64(real)))
		frac := float64(real - fl)
		i0 := int(fl)
		t.First[i] = i0 - 1
		w := [4]float64{cubic(frac+1, CubicA), cubic(frac, CubicA), cubic(1-frac, CubicA), cubic(2-frac, CubicA)}
		for k := 0; k < 4; k++ {
			j := i0 - 1 + k
			if j < 0 {
				j = 0
			}
			if j > in-1 {
				j = in - 1
			}
			t.Idx[i][k] = j
			t.W[i][k] = float32(w[k])
		}
	}
	return t
}
