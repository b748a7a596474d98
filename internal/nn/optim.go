package nn

import (
	"fmt"
	"math"
)

// Adam is the Adam optimizer with bias correction (Kingma & Ba; PyTorch's
// torch.optim.Adam without weight decay or amsgrad). Moments are float32,
// one pair per parameter, in the order of Params.
type Adam struct {
	Params            []Param
	Beta1, Beta2, Eps float64
	M, V              [][]float32
	StepCount         int // updates taken
}

// NewAdam returns Adam over ps with beta1 0.9, beta2 0.999, eps 1e-8 and
// zero moments.
func NewAdam(ps []Param) *Adam {
	a := &Adam{Params: ps, Beta1: 0.9, Beta2: 0.999, Eps: 1e-8}
	a.M = make([][]float32, len(ps))
	a.V = make([][]float32, len(ps))
	for i, p := range ps {
		a.M[i] = make([]float32, p.T.Len())
		a.V[i] = make([]float32, p.T.Len())
	}
	return a
}

// Step applies one update with learning rate lr from the parameters' Grad
// (a nil Grad counts as zero):
//
//	m = b1 m + (1-b1) g;  v = b2 v + (1-b2) g^2
//	p -= lr/(1-b1^t) * m / (sqrt(v)/sqrt(1-b2^t) + eps)
func (a *Adam) Step(lr float64) {
	a.StepCount++
	t := float64(a.StepCount)
	bc1 := 1 - math.Pow(a.Beta1, t)
	bc2 := 1 - math.Pow(a.Beta2, t)
	stepSize := float32(lr / bc1)
	invBC2 := float32(1 / math.Sqrt(bc2))
	b1, b2 := float32(a.Beta1), float32(a.Beta2)
	eps := float32(a.Eps)
	for i, p := range a.Params {
		m, v, w, gr := a.M[i], a.V[i], p.T.Data, p.T.Grad
		parFor(len(w), minElems, func(lo, hi int) {
			for j := lo; j < hi; j++ {
				var gj float32
				if gr != nil {
					gj = gr[j]
				}
				m[j] = b1*m[j] + (1-b1)*gj
				v[j] = b2*v[j] + (1-b2)*gj*gj
				den := float32(math.Sqrt(float64(v[j])))*invBC2 + eps
				w[j] -= stepSize * m[j] / den
			}
		})
	}
}

// ZeroGrad clears the gradients of the optimizer's parameters.
func (a *Adam) ZeroGrad() { ZeroGrads(a.Params) }

// ClipGradNorm scales the gradients of ps so that their global L2 norm is
// at most maxNorm, and returns the norm before clipping. maxNorm <= 0 only
// measures. A non-finite norm is returned without scaling.
func ClipGradNorm(ps []Param, maxNorm float64) float64 {
	var s float64
	for _, p := range ps {
		for _, v := range p.T.Grad {
			s += float64(v) * float64(v)
		}
	}
	n := math.Sqrt(s)
	if maxNorm > 0 && n > maxNorm && !math.IsInf(n, 0) && !math.IsNaN(n) {
		f := float32(maxNorm / (n + 1e-6))
		for _, p := range ps {
			for j := range p.T.Grad {
				p.T.Grad[j] *= f
			}
		}
	}
	return n
}

// StepSchedule is a step learning-rate schedule: Base, multiplied by Gamma
// at each milestone (a fraction of Total steps) that the step has reached.
type StepSchedule struct {
	Base       float64
	Total      int
	Milestones []float64 // fractions of Total, increasing
	Gamma      float64
}

// PaperSchedule is OmniHSR's schedule: 2e-4, halved at 30%, 60% and 80% of
// the total number of steps.
func PaperSchedule(total int) StepSchedule {
	return StepSchedule{Base: 2e-4, Total: total, Milestones: []float64{0.3, 0.6, 0.8}, Gamma: 0.5}
}

// LR is the learning rate for step (0-based: the step about to be taken).
// Milestone f takes effect from step floor(f*Total), as PyTorch's
// MultiStepLR stepped once per iteration.
func (s StepSchedule) LR(step int) float64 {
	lr := s.Base
	for _, f := range s.Milestones {
		if step >= int(math.Floor(f*float64(s.Total))) {
			lr *= s.Gamma
		}
	}
	return lr
}

func (s StepSchedule) String() string {
	return fmt.Sprintf("lr %g x %g at %v of %d steps", s.Base, s.Gamma, s.Milestones, s.Total)
}
