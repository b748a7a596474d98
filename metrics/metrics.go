package metrics

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"sync/atomic"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/internal/par"
	"github.com/omnihsr/omnihsr/internal/simd"
)

// Scores holds every figure of docs/CONVENTIONS.md section 7 for one image. PSNR is +Inf
// for identical cubes; SAM and ERGAS are NaN when no pixel or band
// qualifies (see the package documentation), so encode them with care
// (encoding/json rejects NaN and Inf).
type Scores struct {
	PSNR      float64   `json:"psnr"`       // dB
	SSIM      float64   `json:"ssim"`       // mean over bands
	SAM       float64   `json:"sam"`        // degrees
	ERGAS     float64   `json:"ergas"`      // with Scale
	RMSE      float64   `json:"rmse"`       // over all pixels and bands
	BandRMSE  []float64 `json:"band_rmse"`  // one per band
	BandSSIM  []float64 `json:"band_ssim"`  // one per band
	SAMPixels int       `json:"sam_pixels"` // pixels SAM averaged over
	Scale     float64   `json:"scale"`      // the s of ERGAS
}

// Compute returns every score of est against the reference ref, with scale
// the super-resolution factor used by ERGAS. Errors: nil or malformed
// cubes, different sizes, NaN or Inf values (named by position), a scale
// that is not a finite number > 0, images smaller than 11 x 11 (SSIM).
func Compute(ref, est *hsi.Cube, scale float64) (Scores, error) {
	if !(scale > 0) || math.IsInf(scale, 0) {
		return Scores{}, fmt.Errorf("metrics: scale %v must be a finite number > 0", scale)
	}
	if err := check(ref, est); err != nil {
		return Scores{}, err
	}
	if err := checkSSIMSize(ref); err != nil {
		return Scores{}, err
	}
	p := pixelStats(ref, est)
	s := Scores{Scale: scale, SAMPixels: p.samN}
	s.PSNR, s.RMSE = p.psnr(), p.rmse()
	s.BandRMSE = p.bandRMSE()
	s.SAM = p.sam()
	s.ERGAS = p.ergas(scale)
	s.SSIM, s.BandSSIM = ssim(ref, est)
	return s, nil
}

// PSNR returns 10 log10(1/MSE) over all pixels and bands (+Inf if equal).
func PSNR(ref, est *hsi.Cube) (float64, error) {
	if err := check(ref, est); err != nil {
		return 0, err
	}
	return pixelStats(ref, est).psnr(), nil
}

// SAM returns the mean spectral angle in degrees and the number of pixels
// it averages (those whose true spectrum is not all zero).
func SAM(ref, est *hsi.Cube) (float64, int, error) {
	if err := check(ref, est); err != nil {
		return 0, 0, err
	}
	p := pixelStats(ref, est)
	return p.sam(), p.samN, nil
}

// ERGAS returns 100/s * sqrt(mean_b (RMSE_b/mu_b)^2).
func ERGAS(ref, est *hsi.Cube, scale float64) (float64, error) {
	if !(scale > 0) || math.IsInf(scale, 0) {
		return 0, fmt.Errorf("metrics: ergas: scale %v must be a finite number > 0", scale)
	}
	if err := check(ref, est); err != nil {
		return 0, err
	}
	return pixelStats(ref, est).ergas(scale), nil
}

// BandRMSE returns the RMSE of every band.
func BandRMSE(ref, est *hsi.Cube) ([]float64, error) {
	if err := check(ref, est); err != nil {
		return nil, err
	}
	return pixelStats(ref, est).bandRMSE(), nil
}

// SSIM returns the SSIM averaged over bands and the SSIM of every band.
func SSIM(ref, est *hsi.Cube) (float64, []float64, error) {
	if err := check(ref, est); err != nil {
		return 0, nil, err
	}
	if err := checkSSIMSize(ref); err != nil {
		return 0, nil, err
	}
	m, per := ssim(ref, est)
	return m, per, nil
}

// Clip01 clamps every value of c to [0, 1] in place. NaN stays NaN, so
// that the scores report it instead of hiding it.
func Clip01(c *hsi.Cube) {
	for i, v := range c.Data {
		if v < 0 {
			c.Data[i] = 0
		} else if v > 1 {
			c.Data[i] = 1
		}
	}
}

func check(ref, est *hsi.Cube) error {
	if ref == nil || est == nil {
		return errors.New("metrics: nil cube")
	}
	if err := ref.Validate(); err != nil {
		return fmt.Errorf("metrics: reference: %w", err)
	}
	if err := est.Validate(); err != nil {
		return fmt.Errorf("metrics: estimate: %w", err)
	}
	if ref.H != est.H || ref.W != est.W || ref.B != est.B {
		return fmt.Errorf("metrics: reference is %dx%dx%d, estimate %dx%dx%d", ref.H, ref.W, ref.B, est.H, est.W, est.B)
	}
	if !allFinite(ref.Data) {
		return fmt.Errorf("metrics: reference: %w", ref.CheckFinite())
	}
	if !allFinite(est.Data) {
		return fmt.Errorf("metrics: estimate: %w", est.CheckFinite())
	}
	return nil
}

// allFinite reports whether d holds no NaN or Inf, scanning in parallel.
func allFinite(d []float32) bool {
	const chunk = 1 << 16
	n := (len(d) + chunk - 1) / chunk
	var bad atomic.Bool
	forEach(n, func(k int) {
		if !simd.Finite(d[k*chunk : min((k+1)*chunk, len(d))]) {
			bad.Store(true)
		}
	})
	return !bad.Load()
}

// stats holds the sums one pass over the pixels gathers.
type stats struct {
	n    int       // pixels
	sse  []float64 // per band sum of squared errors
	sref []float64 // per band sum of reference values
	samS float64   // sum of angles (degrees)
	samN int
}

func (p *stats) add(q *stats) {
	p.n += q.n
	for b := range p.sse {
		p.sse[b] += q.sse[b]
		p.sref[b] += q.sref[b]
	}
	p.samS += q.samS
	p.samN += q.samN
}

func (p *stats) mse() float64 {
	var s float64
	for _, v := range p.sse {
		s += v
	}
	return s / float64(p.n*len(p.sse))
}

func (p *stats) psnr() float64 { return 10 * math.Log10(1/p.mse()) }
func (p *stats) rmse() float64 { return math.Sqrt(p.mse()) }

func (p *stats) bandRMSE() []float64 {
	out := make([]float64, len(p.sse))
	for b, v := range p.sse {
		out[b] = math.Sqrt(v / float64(p.n))
	}
	return out
}

func (p *stats) sam() float64 {
	if p.samN == 0 {
		return math.NaN()
	}
	return p.samS / float64(p.samN)
}

func (p *stats) ergas(scale float64) float64 {
	var s float64
	k := 0
	for b, v := range p.sse {
		mu := p.sref[b] / float64(p.n)
		if mu == 0 {
			continue
		}
		r := math.Sqrt(v/float64(p.n)) / mu
		s += r * r
		k++
	}
	if k == 0 {
		return math.NaN()
	}
	return 100 / scale * math.Sqrt(s/float64(k))
}

const (
	samLo = -1 + 1e-6
	samHi = 1 - 1e-6
)

// pixelStats gathers the per-band and per-pixel sums in blocks of rows,
// reduced in block order (the result does not depend on the workers).
func pixelStats(ref, est *hsi.Cube) *stats {
	const rowsPerBlock = 8
	nb := ref.B
	blocks := (ref.H + rowsPerBlock - 1) / rowsPerBlock
	parts := make([]stats, blocks)
	forEach(blocks, func(k int) {
		p := &parts[k]
		p.sse = make([]float64, nb)
		p.sref = make([]float64, nb)
		y0, y1 := k*rowsPerBlock, min((k+1)*rowsPerBlock, ref.H)
		for i := y0 * ref.W; i < y1*ref.W; i++ {
			t := ref.Data[i*nb : (i+1)*nb]
			e := est.Data[i*nb : (i+1)*nb]
			var dot, tt, ee float64
			for b := range t {
				tv, ev := float64(t[b]), float64(e[b])
				d := tv - ev
				p.sse[b] += d * d
				p.sref[b] += tv
				dot += tv * ev
				tt += tv * tv
				ee += ev * ev
			}
			p.n++
			if tt == 0 {
				continue
			}
			cos := 0.0
			if den := math.Sqrt(tt) * math.Sqrt(ee); den > 0 {
				cos = dot / den
			}
			cos = min(max(cos, samLo), samHi)
			p.samS += math.Acos(cos) * (180 / math.Pi)
			p.samN++
		}
	})
	total := &stats{sse: make([]float64, nb), sref: make([]float64, nb)}
	for k := range parts {
		total.add(&parts[k])
	}
	return total
}

// forEach calls fn(k) for k in [0, n) on GOMAXPROCS workers.
func forEach(n int, fn func(k int)) { par.ForEach(n, runtime.GOMAXPROCS(0), fn) }
