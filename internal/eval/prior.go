package eval

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime"
	"time"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/internal/par"
	"github.com/omnihsr/omnihsr/internal/progress"
	"github.com/omnihsr/omnihsr/resample"
)

// The band-shared operator prior test (paper, Appendix "Testing the
// band-shared operator prior", Table tab:prior).
//
// For every image of the seven-dataset protocol and every factor s, the LR
// image X is made by antialiased bicubic downsampling of the HR image Y.
// In every window of Window x Window LR pixels, Y_b is described as
// U_s((delta + k) * X_b) with a zero-sum 5x5 operator k (24 free
// coefficients, k_centre = -sum of the others, replicate padding). By
// linearity of U_s,
//
//	Y_b - U_s X_b ~= sum_{q != c} k_q [U_s(shift_q X_b) - U_s X_b]
//
// on the HR pixels of the window (the HR pixels whose centre falls in an LR
// cell of the window); shift_q X(i, j) = X(clamp(i+dy), clamp(j+dx)) over the
// whole image. The LR pixels of a window are split in a checkerboard:
// half A ((i + j) even, global LR indices) fits k, half B evaluates it, so
// no HR pixel serves both. The fit is ridge least squares through the 24x24
// normal equations, (G + lambda I) k = h with lambda = Ridge * trace(G)/24
// (Ridge = 1e-6 by default; k = 0 for a window without signal). The held-out
// gains depend on the ridge (24 coefficients fitted on 128 LR cells of
// strongly correlated features overfit), so the columns are also reported
// at the larger ridges of PriorConfig.Ridges.
//
// Columns:
//   - PerBand: an operator fitted per window and band on half A, evaluated on
//     half B of the same band, over all bands;
//   - OneBand: one operator per window fitted on the middle band (index
//     (B-1)/2) and applied to every other band, minus the per-band gain on
//     those same bands;
//   - FourBands: fitted jointly on the four interior bands round(j(B-1)/5),
//     j = 1..4, applied to the other bands, minus per-band on those bands;
//   - FirstHalf: fitted on bands 0..B/2-1, applied to the rest, minus
//     per-band on the rest.
//
// A gain is 10 log10(SSE_bicubic / SSE_operator) with the squared errors
// accumulated over all windows and evaluated bands of an image; gains are
// then averaged over the images of a scene. LR pixels beyond the last full
// window (when the LR side is not a multiple of Window) are not used.

// PriorConfig configures Prior.
type PriorConfig struct {
	Factors []float64 // nil = {2, 4}
	Window  int       // LR window side (0 = 16)
	Radius  int       // operator radius (0 = 2, a 5x5 operator)
	Ridge   float64   // relative ridge of the main table (0 = 1e-6)
	// Ridges are further ridges reported as a sensitivity table (nil =
	// 1e-4, 1e-2, 1e-1; the main Ridge is always included first).
	Ridges   []float64
	Geometry Geometry  // as Config.Geometry
	TileSize int       // 0 = 64
	CropSize int       // 0 = 256
	Workers  int       // bands processed at once (0 = min(2, GOMAXPROCS))
	Progress io.Writer // as Config.Progress
	Command  string
}

// PriorImage holds the gains of one image at one factor.
type PriorImage struct {
	Scene   string  `json:"scene"`
	Image   int     `json:"image"`
	Factor  float64 `json:"factor"`
	Windows int     `json:"windows"`
	// PerBand is the gain (dB) of per-band operators over bicubic, all bands.
	PerBand Num `json:"per_band"`
	// OneBand, FourBands, FirstHalf are the gains of the shared operators
	// minus the per-band gain on the same (evaluated) bands.
	OneBand   Num `json:"one_band"`
	FourBands Num `json:"four_bands"`
	FirstHalf Num `json:"first_half"`
	// The shared operators' own gains over bicubic on their evaluated bands.
	OneBandAbs   Num `json:"one_band_abs"`
	FourBandsAbs Num `json:"four_bands_abs"`
	FirstHalfAbs Num `json:"first_half_abs"`
	// ByRidge repeats the four columns for every ridge of the sensitivity
	// table (the first is the main ridge).
	ByRidge []RidgeGains `json:"by_ridge"`
}

// RidgeGains are the four columns of the table at one ridge.
type RidgeGains struct {
	Ridge     float64 `json:"ridge"`
	PerBand   Num     `json:"per_band"`
	OneBand   Num     `json:"one_band"`
	FourBands Num     `json:"four_bands"`
	FirstHalf Num     `json:"first_half"`
}

// PriorRow is the mean over the images of one scene at one factor.
type PriorRow struct {
	Scene        string  `json:"scene"`
	Bands        int     `json:"bands"`
	Factor       float64 `json:"factor"`
	Images       int     `json:"images"`
	Windows      int     `json:"windows"`
	PerBand      Num     `json:"per_band"`
	OneBand      Num     `json:"one_band"`
	FourBands    Num     `json:"four_bands"`
	FirstHalf    Num     `json:"first_half"`
	OneBandAbs   Num     `json:"one_band_abs"`
	FourBandsAbs Num     `json:"four_bands_abs"`
	FirstHalfAbs Num     `json:"first_half_abs"`
	// Band indices (0-based) used by the shared fits.
	MiddleBand int   `json:"middle_band"`
	FourBandIx []int `json:"four_bands_index"`
	// ByRidge is the mean over images of PriorImage.ByRidge.
	ByRidge []RidgeGains `json:"by_ridge"`
}

// PriorInfo is the configuration recorded with the results.
type PriorInfo struct {
	Command  string    `json:"command,omitempty"`
	Factors  []float64 `json:"factors"`
	Window   int       `json:"window"`
	Operator int       `json:"operator_side"`
	Ridge    float64   `json:"ridge"`
	Ridges   []float64 `json:"ridges"`
	TileSize int       `json:"tile_size"`
	CropSize int       `json:"crop_size"`
	Split    string    `json:"split"`
}

// PriorResult is the output of Prior.
type PriorResult struct {
	Config      PriorInfo    `json:"config"`
	Scenes      []SceneInfo  `json:"scenes"`
	Rows        []PriorRow   `json:"rows"`
	Images      []PriorImage `json:"images"`
	WallSeconds Num          `json:"wall_seconds"`
}

func (c *PriorConfig) normalise() error {
	if len(c.Factors) == 0 {
		c.Factors = []float64{2, 4}
	}
	for _, s := range c.Factors {
		if !(s > 0) || math.IsInf(s, 0) {
			return fmt.Errorf("eval: prior: factor %v is not a positive finite number", s)
		}
	}
	if c.Window <= 0 {
		c.Window = 16
	}
	if c.Radius <= 0 {
		c.Radius = 2
	}
	if c.Ridge <= 0 {
		c.Ridge = 1e-6
	}
	if c.Ridges == nil {
		c.Ridges = []float64{1e-4, 1e-2, 1e-1}
	}
	rs := []float64{c.Ridge}
	for _, r := range c.Ridges {
		if !(r > 0) || math.IsInf(r, 0) {
			return fmt.Errorf("eval: prior: ridge %v is not a positive finite number", r)
		}
		if r != c.Ridge {
			rs = append(rs, r)
		}
	}
	c.Ridges = rs
	if c.TileSize <= 0 {
		c.TileSize = DefaultTileSize
	}
	if c.CropSize <= 0 {
		c.CropSize = DefaultCropSize
	}
	if c.Workers <= 0 {
		c.Workers = min(2, runtime.GOMAXPROCS(0))
	}
	if c.Geometry == "" {
		c.Geometry = GeomAuto
	}
	return nil
}

// Prior runs the band-shared prior test on the images of the seven-dataset
// protocol of every scene.
func Prior(ctx context.Context, scenes []*Scene, cfg PriorConfig) (*PriorResult, error) {
	if err := cfg.normalise(); err != nil {
		return nil, err
	}
	if len(scenes) == 0 {
		return nil, errors.New("eval: prior: no scenes")
	}
	start := time.Now()
	side := 2*cfg.Radius + 1
	res := &PriorResult{Config: PriorInfo{Command: cfg.Command, Factors: cfg.Factors, Window: cfg.Window,
		Operator: side, Ridge: cfg.Ridge, Ridges: cfg.Ridges, TileSize: cfg.TileSize, CropSize: cfg.CropSize,
		Split: "checkerboard of LR pixels: fit on (i+j) even, evaluate on (i+j) odd"}}
	for si, sc := range scenes {
		p, err := prepareScene(sc, ProtocolSeven, cfg.Geometry, cfg.TileSize, cfg.CropSize)
		if err != nil {
			return nil, err
		}
		res.Scenes = append(res.Scenes, p.info)
		regs := p.info.Regions
		label := fmt.Sprintf("prior [%d/%d] %s", si+1, len(scenes), sc.Name)
		total := int64(len(cfg.Factors) * len(regs))
		bar := progress.NewTo(cfg.Progress, label, total, cfg.Progress != nil)
		for _, s := range cfg.Factors {
			var imgs []PriorImage
			for _, r := range regs {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
				hr, err := p.cube.Crop(r.Y0, r.X0, r.H, r.W)
				if err != nil {
					return nil, err
				}
				lh, err := LRSide(r.H, s)
				if err != nil {
					return nil, err
				}
				lw, err := LRSide(r.W, s)
				if err != nil {
					return nil, err
				}
				lr, err := resample.Downsample(hr, lh, lw)
				if err != nil {
					return nil, fmt.Errorf("eval: prior: scene %s image %d x%g: %w", sc.Name, r.Index, s, err)
				}
				st, err := accumulatePrior(hr, lr, cfg.Window, cfg.Radius, cfg.Workers)
				if err != nil {
					return nil, fmt.Errorf("eval: prior: scene %s image %d x%g: %w", sc.Name, r.Index, s, err)
				}
				im := st.gains(cfg.Ridge)
				for _, rd := range cfg.Ridges {
					g := im
					if rd != cfg.Ridge {
						g = st.gains(rd)
					}
					im.ByRidge = append(im.ByRidge, RidgeGains{Ridge: rd, PerBand: g.PerBand, OneBand: g.OneBand, FourBands: g.FourBands, FirstHalf: g.FirstHalf})
				}
				im.Scene, im.Image, im.Factor = sc.Name, r.Index, s
				imgs = append(imgs, im)
				bar.Add(1)
			}
			res.Images = append(res.Images, imgs...)
			res.Rows = append(res.Rows, priorRow(sc.Name, p.info.B, s, imgs))
		}
		bar.Done()
	}
	res.WallSeconds = Num(time.Since(start).Seconds())
	return res, nil
}

func priorRow(scene string, bands int, s float64, imgs []PriorImage) PriorRow {
	r := PriorRow{Scene: scene, Bands: bands, Factor: s, Images: len(imgs), MiddleBand: middleBand(bands), FourBandIx: fourBands(bands)}
	avg := func(get func(PriorImage) Num) Num {
		var sum float64
		n := 0
		for _, im := range imgs {
			v := float64(get(im))
			if math.IsNaN(v) || math.IsInf(v, 0) {
				continue
			}
			sum += v
			n++
		}
		if n == 0 {
			return Num(math.NaN())
		}
		return Num(sum / float64(n))
	}
	for _, im := range imgs {
		r.Windows += im.Windows
	}
	r.PerBand = avg(func(i PriorImage) Num { return i.PerBand })
	r.OneBand = avg(func(i PriorImage) Num { return i.OneBand })
	r.FourBands = avg(func(i PriorImage) Num { return i.FourBands })
	r.FirstHalf = avg(func(i PriorImage) Num { return i.FirstHalf })
	r.OneBandAbs = avg(func(i PriorImage) Num { return i.OneBandAbs })
	r.FourBandsAbs = avg(func(i PriorImage) Num { return i.FourBandsAbs })
	r.FirstHalfAbs = avg(func(i PriorImage) Num { return i.FirstHalfAbs })
	if len(imgs) > 0 {
		for j, g := range imgs[0].ByRidge {
			r.ByRidge = append(r.ByRidge, RidgeGains{Ridge: g.Ridge,
				PerBand:   avg(func(i PriorImage) Num { return i.ByRidge[j].PerBand }),
				OneBand:   avg(func(i PriorImage) Num { return i.ByRidge[j].OneBand }),
				FourBands: avg(func(i PriorImage) Num { return i.ByRidge[j].FourBands }),
				FirstHalf: avg(func(i PriorImage) Num { return i.ByRidge[j].FirstHalf }),
			})
		}
	}
	return r
}

// middleBand is the band the one-band operator is fitted on.
func middleBand(b int) int { return (b - 1) / 2 }

// fourBands are the four interior bands, evenly spaced, round(j(B-1)/5)
// for j = 1..4, without duplicates (fewer than four when B < 6).
func fourBands(b int) []int {
	var out []int
	for j := 1; j <= 4; j++ {
		v := int(math.Round(float64(j) * float64(b-1) / 5))
		if len(out) == 0 || out[len(out)-1] != v {
			out = append(out, v)
		}
	}
	return out
}

// halfStats are the normal equations of one window, band and half:
// G = F^T F (nq x nq), h = F^T t, tt = t^T t, F the features and t the
// bicubic residual of the half's HR pixels.
type halfStats struct {
	G  []float64
	h  []float64
	tt float64
}

// priorStats holds the statistics of every window, band and half of one image.
type priorStats struct {
	nq, windows, bands int
	st                 []halfStats // [(w*bands+b)*2+half]
}

func (p *priorStats) at(w, b, half int) *halfStats { return &p.st[(w*p.bands+b)*2+half] }

// offsets lists the operator's non-centre offsets, row-major.
func offsets(radius int) [][2]int {
	var out [][2]int
	for dy := -radius; dy <= radius; dy++ {
		for dx := -radius; dx <= radius; dx++ {
			if dy != 0 || dx != 0 {
				out = append(out, [2]int{dy, dx})
			}
		}
	}
	return out
}

// accumulatePrior builds the normal equations of every window, band and
// half for the HR image hr and its LR version lr.
func accumulatePrior(hr, lr *hsi.Cube, win, radius, workers int) (*priorStats, error) {
	if hr.B != lr.B {
		return nil, fmt.Errorf("HR has %d bands, LR %d", hr.B, lr.B)
	}
	nwy, nwx := lr.H/win, lr.W/win
	if nwy == 0 || nwx == 0 {
		return nil, fmt.Errorf("a %dx%d low-resolution image holds no %dx%d window", lr.H, lr.W, win, win)
	}
	offs := offsets(radius)
	nq := len(offs)
	ps := &priorStats{nq: nq, windows: nwy * nwx, bands: hr.B, st: make([]halfStats, nwy*nwx*hr.B*2)}
	for i := range ps.st {
		ps.st[i].G = make([]float64, nq*nq)
		ps.st[i].h = make([]float64, nq)
	}
	// LR cell of each HR row and column (the cell holding the pixel centre).
	cellY := make([]int, hr.H)
	for u := range cellY {
		cellY[u] = int(math.Floor((float64(u) + 0.5) * float64(lr.H) / float64(hr.H)))
	}
	cellX := make([]int, hr.W)
	for v := range cellX {
		cellX[v] = int(math.Floor((float64(v) + 0.5) * float64(lr.W) / float64(hr.W)))
	}
	// Each worker keeps its own LR band with the shifted copies, and f.
	scratch := make([]struct {
		shifted *hsi.Cube
		f       []float64
	}, max(1, min(workers, hr.B)))
	err := par.ForEachErr(hr.B, workers, func(w, b int) error {
		if scratch[w].shifted == nil {
			c, err := hsi.New(lr.H, lr.W, nq+1)
			if err != nil {
				return err
			}
			scratch[w].shifted, scratch[w].f = c, make([]float64, nq)
		}
		shifted, f := scratch[w].shifted, scratch[w].f
		// Channel 0: X_b; channel 1+q: shift_q X_b (replicate).
		for i := 0; i < lr.H; i++ {
			for j := 0; j < lr.W; j++ {
				d := shifted.Data[(i*lr.W+j)*(nq+1):]
				d[0] = lr.Data[(i*lr.W+j)*lr.B+b]
				for q, o := range offs {
					ii := min(max(i+o[0], 0), lr.H-1)
					jj := min(max(j+o[1], 0), lr.W-1)
					d[1+q] = lr.Data[(ii*lr.W+jj)*lr.B+b]
				}
			}
		}
		up, err := resample.Upsample(shifted, hr.H, hr.W)
		if err != nil {
			return err
		}
		for u := 0; u < hr.H; u++ {
			cy := cellY[u]
			wy := cy / win
			if wy >= nwy {
				continue
			}
			for v := 0; v < hr.W; v++ {
				cx := cellX[v]
				wx := cx / win
				if wx >= nwx {
					continue
				}
				half := (cy + cx) & 1
				s := ps.at(wy*nwx+wx, b, half)
				fu := up.Data[(u*hr.W+v)*(nq+1):]
				base := float64(fu[0])
				t := float64(hr.Data[(u*hr.W+v)*hr.B+b]) - base
				for q := 0; q < nq; q++ {
					f[q] = float64(fu[1+q]) - base
				}
				s.tt += t * t
				for q := 0; q < nq; q++ {
					fq := f[q]
					s.h[q] += fq * t
					row := s.G[q*nq:]
					for r := q; r < nq; r++ {
						row[r] += fq * f[r]
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	// Mirror the upper triangles.
	for i := range ps.st {
		G := ps.st[i].G
		for q := 0; q < nq; q++ {
			for r := q + 1; r < nq; r++ {
				G[r*nq+q] = G[q*nq+r]
			}
		}
	}
	return ps, nil
}

// ridgeSolve solves (G + lambda I) k = h, lambda = ridge*trace(G)/n, by
// Cholesky. A system without signal (trace 0) or one that is not positive
// definite in floating point gives k = 0 (bicubic).
func ridgeSolve(G, h []float64, n int, ridge float64) []float64 {
	k := make([]float64, n)
	var tr float64
	for i := 0; i < n; i++ {
		tr += G[i*n+i]
	}
	if !(tr > 0) {
		return k
	}
	lam := ridge * tr / float64(n)
	L := make([]float64, n*n)
	for i := 0; i < n; i++ {
		for j := 0; j <= i; j++ {
			s := G[i*n+j]
			if i == j {
				s += lam
			}
			for p := 0; p < j; p++ {
				s -= L[i*n+p] * L[j*n+p]
			}
			if i == j {
				if !(s > 0) {
					return make([]float64, n)
				}
				L[i*n+i] = math.Sqrt(s)
			} else {
				L[i*n+j] = s / L[j*n+j]
			}
		}
	}
	y := make([]float64, n)
	for i := 0; i < n; i++ {
		s := h[i]
		for p := 0; p < i; p++ {
			s -= L[i*n+p] * y[p]
		}
		y[i] = s / L[i*n+i]
	}
	for i := n - 1; i >= 0; i-- {
		s := y[i]
		for p := i + 1; p < n; p++ {
			s -= L[p*n+i] * k[p]
		}
		k[i] = s / L[i*n+i]
	}
	return k
}

// sse is the squared error of operator k on a half: tt - 2 k.h + k^T G k,
// clamped at 0 against rounding.
func sse(s *halfStats, k []float64, n int) float64 {
	v := s.tt
	for q := 0; q < n; q++ {
		v -= 2 * k[q] * s.h[q]
		var gk float64
		row := s.G[q*n:]
		for r := 0; r < n; r++ {
			gk += row[r] * k[r]
		}
		v += k[q] * gk
	}
	return max(v, 0)
}

// fitShared fits one operator per window on the given bands (half A).
func (p *priorStats) fitShared(w int, bands []int, ridge float64) []float64 {
	n := p.nq
	G := make([]float64, n*n)
	h := make([]float64, n)
	for _, b := range bands {
		s := p.at(w, b, 0)
		for i := range G {
			G[i] += s.G[i]
		}
		for i := range h {
			h[i] += s.h[i]
		}
	}
	return ridgeSolve(G, h, n, ridge)
}

func gainDB(bic, op float64) float64 {
	if !(bic > 0) {
		return math.NaN()
	}
	if !(op > 0) {
		return math.Inf(1)
	}
	return 10 * math.Log10(bic/op)
}

// gains computes the columns of one image.
func (p *priorStats) gains(ridge float64) PriorImage {
	B, n := p.bands, p.nq
	bic := make([]float64, B) // SSE of bicubic on half B, per band
	pb := make([]float64, B)  // SSE of the per-band operators on half B
	for w := 0; w < p.windows; w++ {
		for b := 0; b < B; b++ {
			a := p.at(w, b, 0)
			k := ridgeSolve(a.G, a.h, n, ridge)
			e := p.at(w, b, 1)
			bic[b] += e.tt
			pb[b] += sse(e, k, n)
		}
	}
	im := PriorImage{Windows: p.windows}
	im.PerBand = Num(gainDB(sumOver(bic, nil), sumOver(pb, nil)))
	shared := func(fit []int) (rel, abs Num) {
		in := map[int]bool{}
		for _, b := range fit {
			in[b] = true
		}
		var eval []int
		for b := 0; b < B; b++ {
			if !in[b] {
				eval = append(eval, b)
			}
		}
		if len(fit) == 0 || len(eval) == 0 {
			return Num(math.NaN()), Num(math.NaN())
		}
		var shSSE float64
		for w := 0; w < p.windows; w++ {
			k := p.fitShared(w, fit, ridge)
			for _, b := range eval {
				shSSE += sse(p.at(w, b, 1), k, n)
			}
		}
		bicE := sumOver(bic, eval)
		g := gainDB(bicE, shSSE)
		ref := gainDB(bicE, sumOver(pb, eval))
		return Num(g - ref), Num(g)
	}
	im.OneBand, im.OneBandAbs = shared([]int{middleBand(B)})
	if B >= 6 {
		im.FourBands, im.FourBandsAbs = shared(fourBands(B))
	} else {
		im.FourBands, im.FourBandsAbs = Num(math.NaN()), Num(math.NaN())
	}
	first := make([]int, B/2)
	for i := range first {
		first[i] = i
	}
	im.FirstHalf, im.FirstHalfAbs = shared(first)
	return im
}

func sumOver(v []float64, idx []int) float64 {
	var s float64
	if idx == nil {
		for _, x := range v {
			s += x
		}
		return s
	}
	for _, i := range idx {
		s += v[i]
	}
	return s
}
