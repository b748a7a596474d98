package eval

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/omnihsr/omnihsr/internal/paper"
	"github.com/omnihsr/omnihsr/internal/stat"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/resample"
)

// The band-redefinition test of the paper (Appendix "Redefining the
// bands", Table tab:banddef). For a given reconstruction operator W_s the
// output commutes with any affine per-pixel spectral map T (Eq. 11), so
// f(TX) = T f(X) whenever the predicted W_s does not change with T. The
// test measures how much it changes: r = ||f(TX) - T f(X)|| /
// ||T f(X) - U_s TX|| (the relative change of the operator field's
// contribution) and Delta = PSNR(f(TX), TY) - PSNR(T f(X), TY), both
// without clipping.

// BandTransforms are the four redefinitions of the paper's table.
var BandTransforms = []string{"subset", "merge", "gain", "offset"}

// BandDefConfig configures BandRedefinition.
type BandDefConfig struct {
	Factor   float64  // the factor (the paper's table: x4)
	Seed     uint64   // seed of the random gains and offsets
	Geometry Geometry // seven-protocol geometry ("" = by sensor)
	Tile     int      // tile side (0 = DefaultTileSize)
	Crop     int      // close-range crop side (0 = DefaultCropSize)
}

// BandDefRow holds one scene's figures for one transform.
type BandDefRow struct {
	Scene     string    `json:"scene"`
	Bands     int       `json:"bands"`
	Transform string    `json:"transform"`
	R         []float64 `json:"r"`     // per image
	Delta     []float64 `json:"delta"` // per image, dB
	MedianR   float64   `json:"median_r"`
	MeanDelta float64   `json:"mean_delta"`
	// RUndefined counts the images left out of R because f(X) has no
	// operator field (T f(X) = U_s TX, a noisy input whose measured field
	// gain is 0) while f(TX) has one: the relative change is unbounded.
	// MedianR is 0 when R is empty.
	RUndefined int `json:"r_undefined,omitempty"`
}

// BandDefResult is the whole table.
type BandDefResult struct {
	Factor float64      `json:"factor"`
	Method string       `json:"method"`
	Seed   uint64       `json:"seed"`
	Rows   []BandDefRow `json:"rows"`
}

// bandMap is an affine per-pixel spectral map: out_j = sum_i P[j][i] x_i + c_j.
type bandMap struct {
	p   [][]float64 // out x in (sparse in practice)
	c   []float64
	out int
}

func newBandMap(kind string, b int, r *rand.Rand) (*bandMap, error) {
	m := &bandMap{}
	switch kind {
	case "subset": // every other band
		for i := 0; i < b; i += 2 {
			row := make([]float64, b)
			row[i] = 1
			m.p = append(m.p, row)
		}
	case "merge": // means of neighbouring pairs
		if b < 2 {
			return nil, fmt.Errorf("eval: merge needs two bands")
		}
		for i := 0; i+1 < b; i += 2 {
			row := make([]float64, b)
			row[i], row[i+1] = 0.5, 0.5
			m.p = append(m.p, row)
		}
	case "gain": // a random gain in [0.8, 1.25] per band
		for i := 0; i < b; i++ {
			row := make([]float64, b)
			row[i] = 0.8 + 0.45*r.Float64()
			m.p = append(m.p, row)
		}
	case "offset": // a random offset in [0, 0.05] per band
		for i := 0; i < b; i++ {
			row := make([]float64, b)
			row[i] = 1
			m.p = append(m.p, row)
		}
		m.c = make([]float64, b)
		for i := range m.c {
			m.c[i] = 0.05 * r.Float64()
		}
	default:
		return nil, fmt.Errorf("eval: unknown band transform %q", kind)
	}
	m.out = len(m.p)
	if m.c == nil {
		m.c = make([]float64, m.out)
	}
	return m, nil
}

func (m *bandMap) apply(x *hsi.Cube) *hsi.Cube {
	out := hsi.MustNew(x.H, x.W, m.out)
	for px := 0; px < x.H*x.W; px++ {
		src := x.Data[px*x.B : (px+1)*x.B]
		dst := out.Data[px*m.out : (px+1)*m.out]
		for j, row := range m.p {
			s := m.c[j]
			for i, w := range row {
				if w != 0 {
					s += w * float64(src[i])
				}
			}
			dst[j] = float32(s)
		}
	}
	return out
}

func sqDist(a, b *hsi.Cube) float64 {
	var s float64
	for i, v := range a.Data {
		d := float64(v) - float64(b.Data[i])
		s += d * d
	}
	return s
}

// psnrRaw is 10 log10(1/MSE) without clipping.
func psnrRaw(ref, est *hsi.Cube) float64 {
	return 10 * math.Log10(float64(len(ref.Data))/sqDist(ref, est))
}

// BandRedefinition runs the test on the seven-protocol images of every scene.
func BandRedefinition(ctx context.Context, scenes []*Scene, m Method, cfg BandDefConfig) (*BandDefResult, error) {
	if !(cfg.Factor > 0) {
		return nil, fmt.Errorf("eval: band redefinition at factor %v", cfg.Factor)
	}
	res := &BandDefResult{Factor: cfg.Factor, Method: m.Name(), Seed: cfg.Seed}
	for si, sc := range scenes {
		cube, err := sc.Load()
		if err != nil {
			return nil, fmt.Errorf("eval: %s: %w", sc.Name, err)
		}
		cube.NormalizeMax()
		regs, err := Regions(ProtocolSeven, cube.H, cube.W, sc.Sensor, cfg.Geometry, cfg.Tile, cfg.Crop)
		if err != nil {
			return nil, fmt.Errorf("eval: %s: %w", sc.Name, err)
		}
		rows := make([]BandDefRow, len(BandTransforms))
		maps := make([]*bandMap, len(BandTransforms))
		r := rand.New(rand.NewPCG(cfg.Seed, uint64(si)))
		for k, kind := range BandTransforms {
			rows[k] = BandDefRow{Scene: sc.Name, Bands: cube.B, Transform: kind}
			if maps[k], err = newBandMap(kind, cube.B, r); err != nil {
				return nil, fmt.Errorf("eval: %s: %w", sc.Name, err)
			}
		}
		for _, reg := range regs {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			y, err := cube.Crop(reg.Y0, reg.X0, reg.H, reg.W)
			if err != nil {
				return nil, err
			}
			lh, err := LRSide(reg.H, cfg.Factor)
			if err != nil {
				return nil, err
			}
			lw, err := LRSide(reg.W, cfg.Factor)
			if err != nil {
				return nil, err
			}
			x, err := resample.Downsample(y, lh, lw)
			if err != nil {
				return nil, err
			}
			fx, err := m.Upscale(x, reg.H, reg.W)
			if err != nil {
				return nil, fmt.Errorf("eval: %s: %w", sc.Name, err)
			}
			for k, bm := range maps {
				tx, ty, tfx := bm.apply(x), bm.apply(y), bm.apply(fx)
				ftx, err := m.Upscale(tx, reg.H, reg.W)
				if err != nil {
					return nil, fmt.Errorf("eval: %s %s: %w", sc.Name, BandTransforms[k], err)
				}
				us, err := resample.Upsample(tx, reg.H, reg.W)
				if err != nil {
					return nil, err
				}
				// r is 0 when f(TX) = T f(X) exactly, also when the field
				// is zero both ways (a noisy input whose measured field
				// gain is 0: f = U_s), where the ratio would be 0/0.
				var rr float64
				if num := sqDist(ftx, tfx); num > 0 {
					den := sqDist(tfx, us)
					if den == 0 {
						rows[k].RUndefined++
						rr = math.NaN()
					} else {
						rr = math.Sqrt(num / den)
					}
				}
				if !math.IsNaN(rr) {
					rows[k].R = append(rows[k].R, rr)
				}
				rows[k].Delta = append(rows[k].Delta, psnrRaw(ty, ftx)-psnrRaw(ty, tfx))
			}
		}
		for k := range rows {
			if len(rows[k].R) > 0 {
				rows[k].MedianR = stat.Median(rows[k].R)
			}
			var s float64
			for _, d := range rows[k].Delta {
				s += d
			}
			rows[k].MeanDelta = s / float64(len(rows[k].Delta))
		}
		res.Rows = append(res.Rows, rows...)
	}
	return res, nil
}

// signed2 prints a dB difference with two decimals and a sign, and zero
// (at that precision) as 0.00, as the paper's tables do.
func signed2(v float64) string {
	if math.Abs(v) < 0.005 {
		return "0.00"
	}
	return fmt.Sprintf("%+.2f", v)
}

// WriteBandDefJSON writes the result as JSON.
func WriteBandDefJSON(path string, res *BandDefResult) error { return writeJSON(path, res) }

// WriteBandDefMarkdown writes the table shaped like the paper's.
func WriteBandDefMarkdown(path string, res *BandDefResult) error {
	return writeFile(path, BandDefMarkdown(res))
}

// BandDefMarkdown renders the table and the paper's figures next to it.
func BandDefMarkdown(res *BandDefResult) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# Redefining the input bands (%s)\n\n", FormatFactor(res.Factor))
	fmt.Fprintf(&b, "<!-- Generated by `omnihsr banddef`; edit the code, not this file. -->\n\n")
	fmt.Fprintf(&b, "Method: %s. Images: the seven-protocol images (64x64 tiles of remote-sensing scenes, the centred 256x256 crop of close-range scenes), LR by antialiased bicubic downsampling at %s. ", res.Method, FormatFactor(res.Factor))
	fmt.Fprintf(&b, "Transforms T: subset = every other band; merge = means of neighbouring pairs; gain = a random per-band gain in [0.8, 1.25]; offset = a random per-band offset in [0, 0.05] (seed %d). ", res.Seed)
	fmt.Fprintf(&b, "r = ||f(TX) - T f(X)|| / ||T f(X) - U_s TX||, median over images; Delta = PSNR(f(TX), TY) - PSNR(T f(X), TY) in dB without clipping, mean over images. ")
	fmt.Fprintf(&b, "For a fixed predicted W_s both are zero (Eq. 11); they measure how much redefining the bands changes the predicted operators.\n\n")
	b.WriteString("| Scene | Subset r | Subset Delta | Merge r | Merge Delta | Gain r | Gain Delta | Offset r | Offset Delta |\n")
	b.WriteString("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n")
	undefined := 0
	for i := 0; i+len(BandTransforms) <= len(res.Rows); i += len(BandTransforms) {
		fmt.Fprintf(&b, "| %s (%d) ", res.Rows[i].Scene, res.Rows[i].Bands)
		for k := range BandTransforms {
			row := res.Rows[i+k]
			undefined += row.RUndefined
			r := fmt.Sprintf("%.3f", row.MedianR)
			if len(row.R) == 0 {
				r = "-"
			}
			fmt.Fprintf(&b, "| %s | %s ", r, signed2(row.MeanDelta))
		}
		b.WriteString("|\n")
	}
	if undefined > 0 {
		fmt.Fprintf(&b, "\nr leaves out %d image(s) where f(X) has no operator field (a noisy input whose measured field gain is 0) and f(TX) has one: the relative change is unbounded there (- where no image is left).\n", undefined)
	}
	b.WriteString("\nThe paper's Table \"Redefining the input bands\" (x4, its ARAD-trained model, its seven datasets):\n\n")
	b.WriteString("| Dataset | Subset r | Subset Delta | Merge r | Merge Delta | Gain r | Gain Delta | Offset r | Offset Delta |\n")
	b.WriteString("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n")
	for _, p := range paper.BandDef {
		fmt.Fprintf(&b, "| %s ", p.Dataset)
		for k := range p.R {
			fmt.Fprintf(&b, "| %.3f | %s ", p.R[k], signed2(p.D[k]))
		}
		b.WriteString("|\n")
	}
	return b.Bytes()
}
