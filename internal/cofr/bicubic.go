package cofr

import (
	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/resample"
)

// This file holds the bicubic upsampling U_s that COFR adds its field to:
// PyTorch's F.interpolate(mode='bicubic', align_corners=False) (Keys a = -0.75,
// replicate border), built on resample.CubicTaps. It is evaluated row-windowed
// (only the output rows asked for) and fused with the field (see render.go),
// so the output is written once.
//
// Arithmetic order mirrors PyTorch's generic upsampling kernel: the four
// horizontal taps of each source row are summed first, left to right, then
// the four rows, top to bottom, each product rounded to float32 (no fused
// multiply-add).

// hrow writes the horizontal interpolation of low-res row i, output columns
// [vA, vB), into dst ((vB-vA)*B values).
func hrow(x *hsi.Cube, i int, tx *resample.Taps4, vA, vB int, dst []float32) {
	B := x.B
	row := x.Data[i*x.W*B : (i+1)*x.W*B]
	for v := vA; v < vB; v++ {
		idx := tx.Idx[v]
		sum4(dst[(v-vA)*B:(v-vA+1)*B], row[idx[0]*B:], row[idx[1]*B:], row[idx[2]*B:], row[idx[3]*B:], nil, &tx.W[v])
	}
}

// sum4 sets d[k] = ((s0[k]*w[0] + s1[k]*w[1]) + s2[k]*w[2]) + s3[k]*w[3],
// every product rounded to float32 (no fused multiply-add), then adds t[k]
// when t is not nil: the bicubic value is rounded first, so t = 0 leaves
// U_s exactly. The s slices and t must hold at least len(d) values.
func sum4(d, s0, s1, s2, s3, t []float32, w *[4]float32) {
	n := len(d)
	if n == 0 {
		return
	}
	s0, s1, s2, s3 = s0[:n], s1[:n], s2[:n], s3[:n]
	if useAVX && n >= 8 {
		var tp *float32
		if t != nil {
			tp = &t[:n][0]
		}
		sum4AVX(&d[0], n, &s0[0], &s1[0], &s2[0], &s3[0], w, tp)
		return
	}
	sum4Go(d, s0, s1, s2, s3, t, w)
}

func sum4Go(d, s0, s1, s2, s3, t []float32, w *[4]float32) {
	n := len(d)
	w0, w1, w2, w3 := w[0], w[1], w[2], w[3]
	s0, s1, s2, s3 = s0[:n], s1[:n], s2[:n], s3[:n]
	if t == nil {
		for k := range d {
			d[k] = float32(s0[k]*w0) + float32(s1[k]*w1) + float32(s2[k]*w2) + float32(s3[k]*w3)
		}
		return
	}
	t = t[:n]
	for k := range d {
		u := float32(s0[k]*w0) + float32(s1[k]*w1) + float32(s2[k]*w2) + float32(s3[k]*w3)
		d[k] = u + t[k]
	}
}

// hring caches horizontally interpolated low-res rows for one worker that
// walks down the image: slot i%len holds row i.
type hring struct {
	row  []int
	buf  [][]float32
	vA   int
	vB   int
	x    *hsi.Cube
	taps *resample.Taps4
}

func newHring(x *hsi.Cube, taps *resample.Taps4, slots, vA, vB int) *hring {
	r := &hring{row: make([]int, slots), buf: make([][]float32, slots), x: x, taps: taps, vA: vA, vB: vB}
	for k := range r.row {
		r.row[k] = -1
		r.buf[k] = make([]float32, (vB-vA)*x.B)
	}
	return r
}

// get returns row i interpolated over the ring's columns.
func (r *hring) get(i int) []float32 {
	k := i % len(r.row)
	if r.row[k] != i {
		hrow(r.x, i, r.taps, r.vA, r.vB, r.buf[k])
		r.row[k] = i
	}
	return r.buf[k]
}
