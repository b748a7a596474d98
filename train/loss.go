package train

import (
	"fmt"
	"sync"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/nn"
	"github.com/omnihsr/omnihsr/resample"
)

// LossWeights are the weights of the loss terms (SPEC section 5).
type LossWeights struct {
	Consistency float64 // antialiased bicubic downsample of the output against the input
	Angle       float64 // spectral angle (radians)
	Curvature   float64 // spectral curvature
}

// PaperLoss is Charbonnier + 0.1 consistency + 0.1 angle + 0.05 curvature.
var PaperLoss = LossWeights{Consistency: 0.1, Angle: 0.1, Curvature: 0.05}

// LossParts are the unweighted terms and the weighted total.
type LossParts struct {
	Total, Charbonnier, Consistency, Angle, Curvature float64
}

const charbEps2 = 1e-6

// Loss returns the training loss of a prediction y against the truth hr,
// with lr the low-res input, and dL/dy.
func Loss(y, hr, lr *hsi.Cube, w LossWeights) (LossParts, []float32, error) {
	if y.H != hr.H || y.W != hr.W || y.B != hr.B {
		return LossParts{}, nil, fmt.Errorf("train: loss of %dx%dx%d against %dx%dx%d", y.H, y.W, y.B, hr.H, hr.W, hr.B)
	}
	g := nn.NewGraph(true)
	yt := nn.FromData(1, y.H, y.W, y.B, y.Data).RequireGrad()
	tt := nn.FromData(1, hr.H, hr.W, hr.B, hr.Data)
	terms := []*nn.Tensor{g.Charbonnier(yt, tt, charbEps2)}
	ws := []float32{1}
	var parts LossParts
	var an, cu *nn.Tensor
	if w.Angle != 0 {
		an = g.SpectralAngle(yt, tt)
		terms = append(terms, an)
		ws = append(ws, float32(w.Angle))
	}
	if w.Curvature != 0 {
		cu = g.SpectralCurvature(yt, tt)
		terms = append(terms, cu)
		ws = append(ws, float32(w.Curvature))
	}
	total := g.WeightedSum(terms, ws)
	parts.Charbonnier = float64(terms[0].Data[0])
	if an != nil {
		parts.Angle = float64(an.Data[0])
	}
	if cu != nil {
		parts.Curvature = float64(cu.Data[0])
	}
	g.Backward(total)
	grad := append([]float32(nil), yt.Grad...)
	parts.Total = float64(total.Data[0])
	if w.Consistency != 0 {
		c, err := consistency(y, lr, grad, float32(w.Consistency))
		if err != nil {
			return LossParts{}, nil, err
		}
		parts.Consistency = c
		parts.Total += w.Consistency * c
	}
	return parts, grad, nil
}

// consistency is the Charbonnier loss of D(y) against lr, D the
// antialiased bicubic downsampling; it adds weight * dLoss/dy to grad.
func consistency(y, lr *hsi.Cube, grad []float32, weight float32) (float64, error) {
	d, err := resample.Downsample(y, lr.H, lr.W)
	if err != nil {
		return 0, fmt.Errorf("train: consistency: %w", err)
	}
	g := nn.NewGraph(true)
	dt := nn.FromData(1, d.H, d.W, d.B, d.Data).RequireGrad()
	l := g.Charbonnier(dt, nn.FromData(1, lr.H, lr.W, lr.B, lr.Data), charbEps2)
	g.Backward(l)
	rows, err := downMatrix(y.H, lr.H)
	if err != nil {
		return 0, err
	}
	cols, err := downMatrix(y.W, lr.W)
	if err != nil {
		return 0, err
	}
	adjointAdd(grad, dt.Grad, rows, cols, y.W, lr.W, y.B, weight)
	return float64(l.Data[0]), nil
}

// sparseRows is a 1-D linear map out x in stored as a contiguous run of
// nonzero weights per output.
type sparseRows struct {
	first []int
	w     [][]float32
}

var (
	downMu    sync.Mutex
	downCache = map[[2]int]*sparseRows{}
)

// downMatrix extracts the 1-D matrix of resample.Downsample from in to out
// samples by downsampling an identity (one band per input sample), so the
// adjoint is exact for whatever kernel resample implements.
func downMatrix(in, out int) (*sparseRows, error) {
	downMu.Lock()
	defer downMu.Unlock()
	if m, ok := downCache[[2]int{in, out}]; ok {
		return m, nil
	}
	id := hsi.MustNew(1, in, in)
	for j := 0; j < in; j++ {
		id.Data[j*in+j] = 1
	}
	d, err := resample.Downsample(id, 1, out)
	if err != nil {
		return nil, fmt.Errorf("train: downsampling matrix %d->%d: %w", in, out, err)
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
	downCache[[2]int{in, out}] = m
	return m, nil
}

// adjointAdd adds weight * D^T gd to grad, D = rows (x) cols acting on
// pixel-interleaved H x W x B data.
func adjointAdd(grad, gd []float32, rows, cols *sparseRows, W, w, b int, weight float32) {
	h := len(rows.first)
	// tmp = rows^T applied along y: (H x w x B).
	H := len(grad) / (W * b)
	tmp := make([]float32, H*w*b)
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
	for y := 0; y < H; y++ {
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
