package report

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"path/filepath"
	"sort"

	"github.com/omnihsr/omnihsr/internal/stat"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/png"
	"github.com/omnihsr/omnihsr/internal/cofr"
	"github.com/omnihsr/omnihsr/internal/eval"
	"github.com/omnihsr/omnihsr/internal/figure"
	"github.com/omnihsr/omnihsr/metrics"
	"github.com/omnihsr/omnihsr/resample"
)

// Figure rules (the paper's Appendix "breadth", applied to our scenes):
// every scene contributes the crop of the twelve-factor protocol (the
// largest centred square); the zoom window is the square of side
// max(minZoom, side/4) with the strongest gradients of the band-averaged
// ground truth; an edge pixel is one whose gradient magnitude is in the top
// 10 % of the crop; the spectrum is shown at the edge pixel with the median
// bicubic error; x24 is shown where its input keeps at least minLR24 pixels
// a side. No rule looks at a reconstruction.
const (
	minZoom    = 24
	panelSide  = 256 // target size of the enlarged panels, pixels
	minLR24    = 8
	edgeShare  = 0.10
	flatShare  = 0.50
	minRatio   = 1.2 // axis ratio below which a support counts as round
	alignedDeg = 30.0
)

// FigureStats are the numbers read off the figures.
type FigureStats struct {
	Scenes []SceneFigure `json:"scenes"`
}

// CropScores are PSNR / SAM of both methods on a figure's crop.
type CropScores struct {
	Factor     float64 `json:"factor"`
	LRH        int     `json:"lr_h"`
	LRW        int     `json:"lr_w"`
	BicPSNR    float64 `json:"bicubic_psnr"`
	OursPSNR   float64 `json:"omnihsr_psnr"`
	BicSAM     float64 `json:"bicubic_sam"`
	OursSAM    float64 `json:"omnihsr_sam"`
	EdgeY      int     `json:"edge_y"` // the spectrum's pixel
	EdgeX      int     `json:"edge_x"`
	EdgeBicRM  float64 `json:"edge_bicubic_rmse"`
	EdgeOursRM float64 `json:"edge_omnihsr_rmse"`
	// EdgeCloser: among the tenth of edge pixels where bicubic errs most,
	// the share where the OmniHSR spectrum is closer to the truth.
	EdgeCloser float64 `json:"edge_closer"`
	File       string  `json:"file"`
}

// PrimStats summarise the primitives predicted at x4 on a crop.
type PrimStats struct {
	EdgePrims  int     `json:"edge_primitives"`
	Elongated  int     `json:"elongated_edge_primitives"`
	Aligned    float64 `json:"aligned"` // share of elongated edge primitives within 30 degrees of the edge
	RatioEdge  float64 `json:"median_axis_ratio_edge"`
	RatioFlat  float64 `json:"median_axis_ratio_flat"`
	NormEdge   float64 `json:"median_operator_norm_edge"`
	NormFlat   float64 `json:"median_operator_norm_flat"`
	NormMedian float64 `json:"median_operator_norm"`
}

// SceneFigure is what one scene contributes to the figures.
type SceneFigure struct {
	Scene       string      `json:"scene"`
	Bands       int         `json:"bands"`
	Crop        eval.Region `json:"crop"`
	FalseColour [3]int      `json:"false_colour_bands"`
	Zoom        [4]int      `json:"zoom"` // y0, x0, h, w in the crop
	X4          CropScores  `json:"x4"`
	X24         *CropScores `json:"x24,omitempty"`
	// BandRMSE at x4 for bicubic and OmniHSR; BandsBetter counts the bands
	// where OmniHSR's RMSE is lower.
	BicBandRMSE  []float64 `json:"bicubic_band_rmse"`
	OursBandRMSE []float64 `json:"omnihsr_band_rmse"`
	BandsBetter  int       `json:"bands_better"`
	Prims        PrimStats `json:"primitives"`
}

// One colour per method in every line plot of the report (Okabe and Ito's
// palette, figure.Palette): the truth blue, bicubic vermillion (dashed),
// OmniHSR bluish green.
var (
	colourTruth   = figure.Palette[0]
	colourBicubic = figure.Palette[1]
	colourOmniHSR = figure.Palette[2]
)

// Figure file names under results/.
const (
	figRMSE  = "fig_band_rmse_x4.png"
	figPrims = "fig_primitives_x4.png"
)

func makeFigures(opt Options, dir string) (*FigureStats, error) {
	st := &FigureStats{}
	var rmsePanels []figure.Panel
	var primRows [][]figure.Panel
	for _, sc := range opt.Scenes {
		f, rp, pr, err := sceneFigures(opt, sc, dir)
		if err != nil {
			return nil, fmt.Errorf("report: figures of %s: %w", sc.Name, err)
		}
		st.Scenes = append(st.Scenes, *f)
		rmsePanels = append(rmsePanels, rp)
		primRows = append(primRows, pr)
	}
	var rows [][]figure.Panel
	for i := 0; i < len(rmsePanels); i += 3 {
		rows = append(rows, rmsePanels[i:min(i+3, len(rmsePanels))])
	}
	if err := figure.WritePNG(filepath.Join(dir, figRMSE), figure.Grid(rows, 8)); err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	primRows = append(primRows, primLegend())
	if err := figure.WritePNG(filepath.Join(dir, figPrims), figure.Grid(primRows, 8)); err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	return st, nil
}

// loadCrop loads a scene, normalises it as the evaluation does and returns
// the twelve-protocol crop.
func loadCrop(sc *eval.Scene) (*hsi.Cube, eval.Region, error) {
	c, err := sc.Load()
	if err != nil {
		return nil, eval.Region{}, err
	}
	if err := c.Validate(); err != nil {
		return nil, eval.Region{}, err
	}
	if err := c.CheckFinite(); err != nil {
		return nil, eval.Region{}, err
	}
	c.NormalizeMax()
	regs, err := eval.Regions(eval.ProtocolTwelve, c.H, c.W, sc.Sensor, eval.GeomAuto, 0, 0)
	if err != nil {
		return nil, eval.Region{}, err
	}
	r := regs[0]
	crop, err := c.Crop(r.Y0, r.X0, r.H, r.W)
	if err != nil {
		return nil, eval.Region{}, err
	}
	crop.Meta = c.Meta
	return crop, r, nil
}

// recon is one factor's reconstruction of a crop.
type recon struct {
	s          float64
	lr         *hsi.Cube
	bic, ours  *hsi.Cube
	prims      *cofr.Primitives
	bicS, ourS metrics.Scores
}

func reconstruct(opt Options, hr *hsi.Cube, s float64) (*recon, error) {
	lr, err := eval.Degradation{}.Input(hr, s, 0)
	if err != nil {
		return nil, err
	}
	r := &recon{s: s, lr: lr}
	if r.bic, err = resample.Upsample(lr, hr.H, hr.W); err != nil {
		return nil, err
	}
	enc, err := opt.Model.EncodeImage(lr)
	if err != nil {
		return nil, err
	}
	if r.ours, err = enc.Render(hr.H, hr.W); err != nil {
		return nil, err
	}
	if r.prims, err = enc.Primitives(hr.H, hr.W); err != nil {
		return nil, err
	}
	metrics.Clip01(r.bic)
	metrics.Clip01(r.ours)
	eff := 0.5 * (float64(hr.H)/float64(lr.H) + float64(hr.W)/float64(lr.W))
	if r.bicS, err = metrics.Compute(hr, r.bic, eff); err != nil {
		return nil, err
	}
	if r.ourS, err = metrics.Compute(hr, r.ours, eff); err != nil {
		return nil, err
	}
	return r, nil
}

// gradients returns the Sobel gradient of the band-averaged cube.
func gradients(c *hsi.Cube) (gy, gx, mag []float64) {
	mean := make([]float64, c.H*c.W)
	for i := range mean {
		var s float64
		for _, v := range c.Data[i*c.B : (i+1)*c.B] {
			s += float64(v)
		}
		mean[i] = s / float64(c.B)
	}
	at := func(y, x int) float64 {
		y = min(max(y, 0), c.H-1)
		x = min(max(x, 0), c.W-1)
		return mean[y*c.W+x]
	}
	gy, gx, mag = make([]float64, len(mean)), make([]float64, len(mean)), make([]float64, len(mean))
	for y := 0; y < c.H; y++ {
		for x := 0; x < c.W; x++ {
			dx := (at(y-1, x+1) + 2*at(y, x+1) + at(y+1, x+1)) - (at(y-1, x-1) + 2*at(y, x-1) + at(y+1, x-1))
			dy := (at(y+1, x-1) + 2*at(y+1, x) + at(y+1, x+1)) - (at(y-1, x-1) + 2*at(y-1, x) + at(y-1, x+1))
			i := y*c.W + x
			gy[i], gx[i], mag[i] = dy/8, dx/8, math.Hypot(dx, dy)/8
		}
	}
	return gy, gx, mag
}

// topIndices returns the indices of the share of largest values of v (at
// least one), ties broken by index so the choice is deterministic.
func topIndices(v []float64, share float64) []int {
	idx := make([]int, len(v))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return v[idx[a]] > v[idx[b]] })
	n := max(1, int(math.Round(share*float64(len(v)))))
	return idx[:n]
}

// zoomWindow returns the side x side window (stride 2) with the largest
// sum of gradient magnitude.
func zoomWindow(mag []float64, h, w, side int) image.Rectangle {
	// integral image
	ii := make([]float64, (h+1)*(w+1))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			ii[(y+1)*(w+1)+x+1] = mag[y*w+x] + ii[y*(w+1)+x+1] + ii[(y+1)*(w+1)+x] - ii[y*(w+1)+x]
		}
	}
	best, by, bx := -1.0, 0, 0
	for y := 0; y+side <= h; y += 2 {
		for x := 0; x+side <= w; x += 2 {
			s := ii[(y+side)*(w+1)+x+side] - ii[y*(w+1)+x+side] - ii[(y+side)*(w+1)+x] + ii[y*(w+1)+x]
			if s > best {
				best, by, bx = s, y, x
			}
		}
	}
	return image.Rect(bx, by, bx+side, by+side)
}

func spectralRMSE(a, b *hsi.Cube, i int) float64 {
	var s float64
	for k := 0; k < a.B; k++ {
		d := float64(a.Data[i*a.B+k]) - float64(b.Data[i*a.B+k])
		s += d * d
	}
	return math.Sqrt(s / float64(a.B))
}

// edgeSpectrum fills the edge fields of cs: the edge pixel inside win with
// the median bicubic spectral RMSE (all edge pixels when none is inside),
// and the share of the worst tenth of all edge pixels where OmniHSR is
// closer.
func edgeSpectrum(cs *CropScores, hr *hsi.Cube, r *recon, edges []int, win image.Rectangle) int {
	type pe struct {
		i        int
		bic, our float64
	}
	ps := make([]pe, len(edges))
	for k, i := range edges {
		ps[k] = pe{i, spectralRMSE(r.bic, hr, i), spectralRMSE(r.ours, hr, i)}
	}
	sort.SliceStable(ps, func(a, b int) bool {
		if ps[a].bic != ps[b].bic {
			return ps[a].bic < ps[b].bic
		}
		return ps[a].i < ps[b].i
	})
	var inWin []pe
	for _, p := range ps {
		if image.Pt(p.i%hr.W, p.i/hr.W).In(win) {
			inWin = append(inWin, p)
		}
	}
	if len(inWin) == 0 {
		inWin = ps
	}
	med := inWin[len(inWin)/2]
	cs.EdgeY, cs.EdgeX = med.i/hr.W, med.i%hr.W
	cs.EdgeBicRM, cs.EdgeOursRM = med.bic, med.our
	worst := ps[len(ps)-max(1, len(ps)/10):]
	closer := 0
	for _, p := range worst {
		if p.our < p.bic {
			closer++
		}
	}
	cs.EdgeCloser = float64(closer) / float64(len(worst))
	return med.i
}

func bandAxis(c *hsi.Cube) ([]float64, string) {
	x := make([]float64, c.B)
	if wl := c.Meta.Wavelengths; len(wl) == c.B {
		for i := range x {
			x[i] = wl[i]
		}
		u := c.Meta.WavelengthUnits
		if u == "" {
			u = "wavelength"
		}
		return x, u
	}
	for i := range x {
		x[i] = float64(i + 1)
	}
	return x, "band"
}

func spectrumPlot(hr *hsi.Cube, r *recon, i int, title string) (image.Image, error) {
	x, xl := bandAxis(hr)
	get := func(c *hsi.Cube) []float64 {
		y := make([]float64, c.B)
		for k := range y {
			y[k] = float64(c.Data[i*c.B+k])
		}
		return y
	}
	return figure.LinePlot(figure.PlotSpec{
		Title: title, XLabel: xl, YLabel: "value (scene max = 1)", Width: 640, Height: 300,
		Series: []figure.Series{
			{Name: "truth", X: x, Y: get(hr), Colour: colourTruth},
			{Name: fmt.Sprintf("bicubic (RMSE %.4f)", spectralRMSE(r.bic, hr, i)), X: x, Y: get(r.bic), Dashed: true, Colour: colourBicubic},
			{Name: fmt.Sprintf("OmniHSR (RMSE %.4f)", spectralRMSE(r.ours, hr, i)), X: x, Y: get(r.ours), Colour: colourOmniHSR},
		},
	})
}

// comparePanels lays out truth / bicubic / OmniHSR on the window win of the
// crop, with error maps on a shared scale, as two rows.
func comparePanels(hr *hsi.Cube, r *recon, bands [3]int, win image.Rectangle, showCrop bool, edge int) ([][]figure.Panel, error) {
	lo, hi := figure.StretchOf(hr, bands)
	fc := func(c *hsi.Cube) (*image.NRGBA, error) { return figure.FalseColour(c, bands, lo, hi) }
	truth, err := fc(hr)
	if err != nil {
		return nil, err
	}
	bic, err := fc(r.bic)
	if err != nil {
		return nil, err
	}
	ours, err := fc(r.ours)
	if err != nil {
		return nil, err
	}
	scale := max(1, int(math.Ceil(float64(panelSide)/float64(win.Dx()))))
	eb, err := figure.MeanAbsErr(r.bic, hr)
	if err != nil {
		return nil, err
	}
	eo, err := figure.MeanAbsErr(r.ours, hr)
	if err != nil {
		return nil, err
	}
	// One error scale for both maps: the 99th percentile of the bicubic
	// error inside the window.
	var inWin []float32
	for y := win.Min.Y; y < win.Max.Y; y++ {
		inWin = append(inWin, eb[y*hr.W+win.Min.X:y*hr.W+win.Max.X]...)
	}
	emax := figure.Percentile(inWin, 99)
	if !(emax > 0) {
		emax = 1e-6
	}
	mb, err := figure.HeatMap(eb, hr.W, hr.H, 1, emax)
	if err != nil {
		return nil, err
	}
	mo, err := figure.HeatMap(eo, hr.W, hr.H, 1, emax)
	if err != nil {
		return nil, err
	}
	mark := mulRect(image.Rect(edge%hr.W, edge/hr.W, edge%hr.W+1, edge/hr.W+1).Sub(win.Min), scale).Inset(-3)
	zoom := func(img image.Image, withMark bool) *image.NRGBA {
		z := figure.Zoom(img, win, scale)
		if withMark {
			figure.Outline(z, mark, color.NRGBA{255, 255, 255, 255}, 1)
		}
		return z
	}
	s := eval.FormatFactor(r.s)
	top := []figure.Panel{}
	bottom := []figure.Panel{}
	if showCrop {
		full := figure.Zoom(truth, truth.Bounds(), max(1, panelSide/hr.W))
		k := max(1, panelSide/hr.W)
		figure.Outline(full, mulRect(win, k), color.NRGBA{255, 255, 0, 255}, 2)
		top = append(top, figure.Panel{Title: fmt.Sprintf("crop %dx%d", hr.H, hr.W), Img: full})
		bottom = append(bottom, figure.Panel{Title: fmt.Sprintf("|error| 0..%.3f", emax), Img: figure.ColourBar(emax, panelSide, 20)})
	}
	top = append(top,
		figure.Panel{Title: "truth", Img: zoom(truth, true)},
		figure.Panel{Title: fmt.Sprintf("bicubic %s %.2f/%.2f", s, r.bicS.PSNR, r.bicS.SAM), Img: zoom(bic, true)},
		figure.Panel{Title: fmt.Sprintf("OmniHSR %s %.2f/%.2f", s, r.ourS.PSNR, r.ourS.SAM), Img: zoom(ours, true)})
	if !showCrop {
		bottom = append(bottom, figure.Panel{Title: fmt.Sprintf("|error| 0..%.3f", emax), Img: figure.ColourBar(emax, panelSide, 20)})
	}
	bottom = append(bottom,
		figure.Panel{Title: "bicubic |error|", Img: zoom(mb, false)},
		figure.Panel{Title: "OmniHSR |error|", Img: zoom(mo, false)})
	return [][]figure.Panel{top, bottom}, nil
}

func sceneFigures(opt Options, sc *eval.Scene, dir string) (*SceneFigure, figure.Panel, []figure.Panel, error) {
	hr, reg, err := loadCrop(sc)
	if err != nil {
		return nil, figure.Panel{}, nil, err
	}
	f := &SceneFigure{Scene: sc.Name, Bands: hr.B, Crop: reg}
	cb := png.ChooseBands(hr)
	if len(cb) == 1 {
		cb = []int{cb[0], cb[0], cb[0]}
	}
	copy(f.FalseColour[:], cb)
	gy, gx, mag := gradients(hr)
	edges := topIndices(mag, edgeShare)
	side := max(minZoom, hr.H/4)
	win := zoomWindow(mag, hr.H, hr.W, min(side, hr.H, hr.W))
	f.Zoom = [4]int{win.Min.Y, win.Min.X, win.Dy(), win.Dx()}

	// x4: zooms, error maps, edge spectrum, band RMSE, primitives.
	r4, err := reconstruct(opt, hr, 4)
	if err != nil {
		return nil, figure.Panel{}, nil, err
	}
	f.X4 = scores(r4)
	edge := edgeSpectrum(&f.X4, hr, r4, edges, win)
	rows, err := comparePanels(hr, r4, f.FalseColour, win, true, edge)
	if err != nil {
		return nil, figure.Panel{}, nil, err
	}
	sp, err := spectrumPlot(hr, r4, edge, fmt.Sprintf("edge pixel (%d, %d), x4", f.X4.EdgeY, f.X4.EdgeX))
	if err != nil {
		return nil, figure.Panel{}, nil, err
	}
	rows[0] = append(rows[0], figure.Panel{Title: "spectrum at the marked pixel", Img: sp})
	f.X4.File = "fig_" + sc.Name + "_x4.png"
	if err := figure.WritePNG(filepath.Join(dir, f.X4.File), figure.Grid(rows, 8)); err != nil {
		return nil, figure.Panel{}, nil, err
	}
	if f.BicBandRMSE, err = metrics.BandRMSE(hr, r4.bic); err != nil {
		return nil, figure.Panel{}, nil, err
	}
	if f.OursBandRMSE, err = metrics.BandRMSE(hr, r4.ours); err != nil {
		return nil, figure.Panel{}, nil, err
	}
	for b := range f.BicBandRMSE {
		if f.OursBandRMSE[b] < f.BicBandRMSE[b] {
			f.BandsBetter++
		}
	}
	x, xl := bandAxis(hr)
	rp, err := figure.LinePlot(figure.PlotSpec{
		Title: fmt.Sprintf("%s (%d bands), x4", sc.Name, hr.B), XLabel: xl, YLabel: "RMSE", Width: 560, Height: 300,
		Series: []figure.Series{
			{Name: "bicubic", X: x, Y: f.BicBandRMSE, Dashed: true, Colour: colourBicubic},
			{Name: "OmniHSR", X: x, Y: f.OursBandRMSE, Colour: colourOmniHSR},
		},
	})
	if err != nil {
		return nil, figure.Panel{}, nil, err
	}
	var edgePrims []int
	f.Prims, edgePrims = primStats(r4.prims, hr, gy, gx)
	pr, err := primPanels(r4, hr, win, edgePrims, sc.Name)
	if err != nil {
		return nil, figure.Panel{}, nil, err
	}

	// x24 where the input keeps enough pixels: the whole crop.
	if lh, err := eval.LRSide(min(hr.H, hr.W), 24); err == nil && lh >= minLR24 {
		r24, err := reconstruct(opt, hr, 24)
		if err != nil {
			return nil, figure.Panel{}, nil, err
		}
		cs := scores(r24)
		e24 := edgeSpectrum(&cs, hr, r24, edges, image.Rect(0, 0, hr.W, hr.H))
		rows, err := comparePanels(hr, r24, f.FalseColour, image.Rect(0, 0, hr.W, hr.H), false, e24)
		if err != nil {
			return nil, figure.Panel{}, nil, err
		}
		sp, err := spectrumPlot(hr, r24, e24, fmt.Sprintf("edge pixel (%d, %d), x24", cs.EdgeY, cs.EdgeX))
		if err != nil {
			return nil, figure.Panel{}, nil, err
		}
		rows[0] = append(rows[0], figure.Panel{Title: "spectrum at the marked pixel", Img: sp})
		cs.File = "fig_" + sc.Name + "_x24.png"
		if err := figure.WritePNG(filepath.Join(dir, cs.File), figure.Grid(rows, 8)); err != nil {
			return nil, figure.Panel{}, nil, err
		}
		f.X24 = &cs
	}
	return f, figure.Panel{Img: rp}, pr, nil
}

func scores(r *recon) CropScores {
	return CropScores{Factor: r.s, LRH: r.lr.H, LRW: r.lr.W,
		BicPSNR: r.bicS.PSNR, OursPSNR: r.ourS.PSNR, BicSAM: r.bicS.SAM, OursSAM: r.ourS.SAM}
}

// lrEdgeField returns, per low-res pixel of an lh x lw grid over the HR
// crop, the gradient magnitude (RMS over the pixel's HR block) and the
// direction of the edge (perpendicular to the dominant gradient of the
// block's structure tensor), radians in [0, pi).
func lrEdgeField(gy, gx []float64, H, W, lh, lw int) (mag, dir []float64) {
	mag, dir = make([]float64, lh*lw), make([]float64, lh*lw)
	for i := 0; i < lh; i++ {
		y0, y1 := i*H/lh, max((i+1)*H/lh, i*H/lh+1)
		for j := 0; j < lw; j++ {
			x0, x1 := j*W/lw, max((j+1)*W/lw, j*W/lw+1)
			var jxx, jxy, jyy float64
			n := 0
			for y := y0; y < min(y1, H); y++ {
				for x := x0; x < min(x1, W); x++ {
					a, b := gx[y*W+x], gy[y*W+x]
					jxx += a * a
					jxy += a * b
					jyy += b * b
					n++
				}
			}
			k := i*lw + j
			mag[k] = math.Sqrt((jxx + jyy) / float64(max(n, 1)))
			g := 0.5 * math.Atan2(2*jxy, jxx-jyy) // dominant gradient direction
			dir[k] = math.Mod(g+math.Pi/2+2*math.Pi, math.Pi)
		}
	}
	return mag, dir
}

// edgeFlat splits the primitives by the gradient at their low-res pixel:
// edge = top 10 %, flat = bottom half.
func edgeFlat(m []float64) (edge, flat []int) {
	edge = topIndices(m, edgeShare)
	neg := make([]float64, len(m))
	for i, v := range m {
		neg[i] = -v
	}
	flat = topIndices(neg, flatShare)
	return edge, flat
}

// primStats returns the statistics of the primitives and the indices of the
// edge primitives (which primPanels draws from).
func primStats(p *cofr.Primitives, hr *hsi.Cube, gy, gx []float64) (PrimStats, []int) {
	m, dir := lrEdgeField(gy, gx, hr.H, hr.W, p.H, p.W)
	edge, flat := edgeFlat(m)
	norms := figure.OperatorNorms(p)
	var st PrimStats
	var re, rf, ne, nf, all []float64
	aligned := 0
	for _, n := range edge {
		ratio := figure.AxisRatio(p, n)
		re = append(re, ratio)
		ne = append(ne, float64(norms[n]))
		if ratio >= minRatio {
			st.Elongated++
			d := math.Abs(figure.LongAxisAngle(p, n) - dir[n])
			d = math.Min(d, math.Pi-d)
			if d <= alignedDeg*math.Pi/180 {
				aligned++
			}
		}
	}
	for _, n := range flat {
		rf = append(rf, figure.AxisRatio(p, n))
		nf = append(nf, float64(norms[n]))
	}
	for _, v := range norms {
		all = append(all, float64(v))
	}
	st.EdgePrims = len(edge)
	if st.Elongated > 0 {
		st.Aligned = float64(aligned) / float64(st.Elongated)
	}
	st.RatioEdge, st.RatioFlat = stat.Median(re), stat.Median(rf)
	st.NormEdge, st.NormFlat, st.NormMedian = stat.Median(ne), stat.Median(nf), stat.Median(all)
	return st, edge
}

// greyLR is the band mean of the low-res input, stretched 2-98 %.
func greyLR(lr *hsi.Cube) *hsi.Cube {
	g := hsi.MustNew(lr.H, lr.W, 1)
	for i := range g.Data {
		var s float32
		for _, v := range lr.Data[i*lr.B : (i+1)*lr.B] {
			s += v
		}
		g.Data[i] = s / float32(lr.B)
	}
	return g
}

// primPanels draws the supports in the zoom window (on the low-res grid),
// the operator norm over the crop, and the three edge primitives' operators
// of largest norm in the window.
func primPanels(r *recon, hr *hsi.Cube, win image.Rectangle, edge []int, name string) ([]figure.Panel, error) {
	p := r.prims
	sy, sx := float64(p.H)/float64(hr.H), float64(p.W)/float64(hr.W)
	lwin := image.Rect(int(float64(win.Min.X)*sx), int(float64(win.Min.Y)*sy),
		int(math.Ceil(float64(win.Max.X)*sx)), int(math.Ceil(float64(win.Max.Y)*sy))).Intersect(image.Rect(0, 0, p.W, p.H))
	sub, err := figure.CropPrimitives(p, lwin)
	if err != nil {
		return nil, err
	}
	g := greyLR(r.lr)
	lo, hi := figure.StretchOf(g, [3]int{0, 0, 0})
	bgFull, err := figure.FalseColour(g, [3]int{0, 0, 0}, lo, hi)
	if err != nil {
		return nil, err
	}
	scale := max(4, panelSide/max(lwin.Dx(), 1))
	bg := figure.Zoom(bgFull, lwin, scale)
	sup, err := figure.Supports(sub, bg, scale, minRatio)
	if err != nil {
		return nil, err
	}
	norms := figure.OperatorNorms(p)
	nf := make([]float64, len(norms))
	for i, v := range norms {
		nf[i] = float64(v)
	}
	nmax := figure.Percentile(norms, 99)
	if !(nmax > 0) {
		nmax = 1
	}
	nscale := max(1, panelSide/max(p.W, 1))
	nm, err := figure.OperatorNorm(p, nscale, nmax)
	if err != nil {
		return nil, err
	}
	figure.Outline(nm, mulRect(lwin, nscale), color.NRGBA{255, 255, 255, 255}, 1)
	out := []figure.Panel{
		{Title: fmt.Sprintf("%s: supports (window)", name), Img: sup},
		{Title: fmt.Sprintf("operator norm 0..%.2f", nmax), Img: nm},
	}
	// Edge operators of largest norm inside the window.
	var cand []int
	for _, n := range edge {
		if image.Pt(n%p.W, n/p.W).In(lwin) {
			cand = append(cand, n)
		}
	}
	sort.SliceStable(cand, func(a, b int) bool { return nf[cand[a]] > nf[cand[b]] })
	for k := 0; k < min(3, len(cand)); k++ {
		n := cand[k]
		out = append(out, figure.Panel{Title: fmt.Sprintf("k at (%d,%d) |k|=%.2f", n/p.W, n%p.W, nf[n]),
			Img: figure.OperatorTile(p.K[n*cofr.Taps:(n+1)*cofr.Taps], 16)})
	}
	return out, nil
}

// primLegend is the legend row of the primitives figure: the colours of
// the supports (long-axis angle in degrees, round primitives grey), of the
// operator-norm map (each row's own 0..max) and of the operator tiles.
func primLegend() []figure.Panel {
	return []figure.Panel{
		{Title: "supports: long axis (deg)", Img: figure.OrientationKey(24)},
		{Title: "operator norm: 0..row max", Img: figure.ColourBar(1, 120, 12)},
		{Title: "operator taps k", Img: figure.DivergingBar(120, 12)},
	}
}

// mulRect scales a rectangle by k.
func mulRect(r image.Rectangle, k int) image.Rectangle {
	return image.Rectangle{Min: r.Min.Mul(k), Max: r.Max.Mul(k)}
}
