package model

import (
	"fmt"
	"sync"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/resample"
)

// Adjoints of the project's resampling, for the backward passes that go
// through it: the bicubic upsampling U_s of the variant without COFR
// (Y = U_s(X + r)) and the antialiased downsampling D of the training
// loss's degradation-consistency term. Both are separable, so each is
// rows (x) cols with two 1-D matrices; the matrices are extracted by
// resampling an identity (one band per input sample), so the adjoint is
// exact for whatever kernel package resample implements.

// sparseRows is a 1-D linear map out x in stored as a contiguous run of
// weights per output.
type sparseRows struct {
	first []int
	w     [][]float32
}

// resampleKind selects the resampling whose matrix is extracted.
type resampleKind int

const (
	kindDown resampleKind = iota // resample.Downsample (antialiased bicubic)
	kindUp                       // resample.Upsample (bicubic U_s)
)

var (
	matMu    sync.Mutex
	matCache = map[[3]int]*sparseRows{}
)

// resampleMatrix extracts the 1-D matrix of the resampling from in to out
// samples.
func resampleMatrix(kind resampleKind, in, out int) (*sparseRows, error) {
	matMu.Lock()
	defer matMu.Unlock()
	key := [3]int{int(kind), in, out}
	if m, ok := matCache[key]; ok {
		return m, nil
	}
	id, err := hsi.New(1, in, in)
	if err != nil {
		return nil, fmt.Errorf("model: resampling matrix %d->%d: %w", in, out, err)
	}
	for j := 0; j < in; j++ {
		id.Data[j*in+j] = 1
	}
	var d *hsi.Cube
	if kind == kindUp {
		d, err = resample.Upsample(id, 1, out)
	} else {
		d, err = resample.Downsample(id, 1, out)
	}
	if err != nil {
		return nil, fmt.Errorf("model: resampling matrix %d->%d: %w", in, out, err)
	}
	m := &sparseRows{first: make([]int, out), w: make([][]float32, out)}
	for i := 0; i < out; i++ {
		row := d.Data[i*in : (i+1)*in]
		lo, hi := 0, in-1
		for lo < in && row[lo] == 0 {
			lo++
		}
		for hi > lo && row[hi] == 0 {
			hi--
		}
		m.first[i] = lo
		if lo < in {
			m.w[i] = append([]float32(nil), row[lo:hi+1]...)
		}
	}
	matCache[key] = m
	return m, nil
}

// adjointAdd adds weight * M^T gd to grad, M = rows (x) cols mapping
// pixel-interleaved inH x W x b data (grad) to len(rows.first) x w x b
// data (gd).
func adjointAdd(grad, gd []float32, rows, cols *sparseRows, W, w, b int, weight float32) {
	h := len(rows.first)
	inH := len(grad) / (W * b)
	// tmp = rows^T applied along y: (inH x w x b).
	tmp := make([]float32, inH*w*b)
	for i := 0; i < h; i++ {
		src := gd[i*w*b : (i+1)*w*b]
		for k, wt := range rows.w[i] {
			y := rows.first[i] + k
			dst := tmp[y*w*b : (y+1)*w*b]
			for j, v := range src {
				dst[j] += wt * v
			}
		}
	}
	for y := 0; y < inH; y++ {
		for j := 0; j < w; j++ {
			src := tmp[(y*w+j)*b : (y*w+j+1)*b]
			for k, wt := range cols.w[j] {
				x := cols.first[j] + k
				dst := grad[(y*W+x)*b : (y*W+x+1)*b]
				s := weight * wt
				for c, v := range src {
					dst[c] += s * v
				}
			}
		}
	}
}

func resampleAdjoint(kind resampleKind, dst, g []float32, inH, inW, outH, outW, b int, weight float32) error {
	if inH < 1 || inW < 1 || outH < 1 || outW < 1 || b < 1 {
		return fmt.Errorf("model: adjoint of resampling %dx%d -> %dx%d with %d bands", inH, inW, outH, outW, b)
	}
	if len(dst) != inH*inW*b || len(g) != outH*outW*b {
		return fmt.Errorf("model: adjoint of resampling %dx%dx%d -> %dx%d: %d and %d values", inH, inW, b, outH, outW, len(dst), len(g))
	}
	rows, err := resampleMatrix(kind, inH, outH)
	if err != nil {
		return err
	}
	cols, err := resampleMatrix(kind, inW, outW)
	if err != nil {
		return err
	}
	adjointAdd(dst, g, rows, cols, inW, outW, b, weight)
	return nil
}

// UpsampleAdjoint adds weight * U^T g to dst, U = resample.Upsample from
// h x w to outH x outW (b bands, pixel-interleaved): dst holds h*w*b
// values, g outH*outW*b.
func UpsampleAdjoint(dst, g []float32, h, w, outH, outW, b int, weight float32) error {
	return resampleAdjoint(kindUp, dst, g, h, w, outH, outW, b, weight)
}

// DownsampleAdjoint adds weight * D^T g to dst, D = resample.Downsample
// from H x W to outH x outW (b bands): dst holds H*W*b values, g
// outH*outW*b.
func DownsampleAdjoint(dst, g []float32, H, W, outH, outW, b int, weight float32) error {
	return resampleAdjoint(kindDown, dst, g, H, W, outH, outW, b, weight)
}
