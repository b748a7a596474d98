package loss

import (
	"fmt"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/internal/model"
	"github.com/omnihsr/omnihsr/internal/nn"
	"github.com/omnihsr/omnihsr/metrics"
	"github.com/omnihsr/omnihsr/resample"
)

// Weights are the weights of the loss terms (docs/CONVENTIONS.md section 8).
type Weights struct {
	Consistency float64 // antialiased bicubic downsample of the output against the input
	Angle       float64 // spectral angle (radians)
	Curvature   float64 // spectral curvature
}

// Paper is Charbonnier + 0.1 consistency + 0.1 angle + 0.05 curvature.
var Paper = Weights{Consistency: 0.1, Angle: 0.1, Curvature: 0.05}

// Parts are the unweighted terms and the weighted total.
type Parts struct {
	Total, Charbonnier, Consistency, Angle, Curvature float64
}

const charbEps2 = 1e-6

// Compute returns the training loss of a prediction y against the truth hr,
// with lr the low-res input, and dL/dy.
func Compute(y, hr, lr *hsi.Cube, w Weights) (Parts, []float32, error) {
	if y.H != hr.H || y.W != hr.W || y.B != hr.B {
		return Parts{}, nil, fmt.Errorf("loss: a %dx%dx%d prediction against a %dx%dx%d truth", y.H, y.W, y.B, hr.H, hr.W, hr.B)
	}
	g := nn.NewGraph(true)
	yt := nn.FromData(1, y.H, y.W, y.B, y.Data).RequireGrad()
	tt := nn.FromData(1, hr.H, hr.W, hr.B, hr.Data)
	terms := []*nn.Tensor{g.Charbonnier(yt, tt, charbEps2)}
	ws := []float32{1}
	var parts Parts
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
			return Parts{}, nil, err
		}
		parts.Consistency = c
		parts.Total += w.Consistency * c
	}
	return parts, grad, nil
}

// consistency is the Charbonnier loss of D(y) against lr, D the
// antialiased bicubic downsampling; it adds weight * dLoss/dy to grad
// (D^T by model.DownsampleAdjoint, exact for resample's kernel).
func consistency(y, lr *hsi.Cube, grad []float32, weight float32) (float64, error) {
	d, err := resample.Downsample(y, lr.H, lr.W)
	if err != nil {
		return 0, fmt.Errorf("loss: consistency: %w", err)
	}
	g := nn.NewGraph(true)
	dt := nn.FromData(1, d.H, d.W, d.B, d.Data).RequireGrad()
	l := g.Charbonnier(dt, nn.FromData(1, lr.H, lr.W, lr.B, lr.Data), charbEps2)
	g.Backward(l)
	if err := model.DownsampleAdjoint(grad, dt.Grad, y.H, y.W, lr.H, lr.W, y.B, weight); err != nil {
		return 0, fmt.Errorf("loss: consistency: %w", err)
	}
	return float64(l.Data[0]), nil
}

// Score is the validation metric of one output: PSNR (dB) and SAM
// (degrees) of est clipped to [0, 1] against ref.
func Score(ref, est *hsi.Cube) (psnr, sam float64, err error) {
	e := est.Clone()
	metrics.Clip01(e)
	p, err := metrics.PSNR(ref, e)
	if err != nil {
		return 0, 0, err
	}
	s, _, err := metrics.SAM(ref, e)
	if err != nil {
		return 0, 0, err
	}
	return p, s, nil
}
