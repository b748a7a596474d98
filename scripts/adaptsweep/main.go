// Command adaptsweep chooses the settings of per-scene adaptation
// (internal/adapt) on the training data only: the scenes of
// ../shared/data/hsi/train, whole, and the natural images the training run
// holds out for validation (every 25th of ../shared/data/rgb, their centre
// up to -nat-side pixels), never hsi/eval. Each image is normalised to a
// maximum of 1 (negatives clamped) as eval does, degraded by each factor
// with the antialiased bicubic (Wald's protocol), super-resolved back with
// the shipped model pair and with adaptation, and scored against itself
// (PSNR, SAM, outputs clipped to [0, 1]). Per cell it prints bicubic, the
// shipped pair, adaptation as it renders (after the guard) and the
// fine-tuned model forced (whatever the guard says), the guard's choice and
// the time; then the means and the worst cells.
//
//	go run ./scripts/adaptsweep -factors 2,4,8 -steps 200 -lr 5e-5
//
// -noise clean,0.01,shot:0.02,profile:0.01,stripes:0.01 runs every cell
// under each of those degradations of the low-res input (eval.Degradation:
// white Gaussian noise of that sigma, or a sensor-like noise model of
// eval.NoiseModels at that level; "clean" the plain downsampling) and
// reports each apart; the seed of an image's noise derives from its name
// and the factor.
//
// -tile 64 cuts each image into its 64 x 64 tiles and -square keeps its
// largest centred square, as the seven and twelve protocols of the
// evaluation cut a scene. -members adds a line "M" per cell: the gate's
// route, the noise feature and level, the input's size, the check's
// factor, the other member of the pair minus the shipped one in the check
// and on the whole image (PSNR dB, SAM degrees, positive = the other is
// better), and the choice.
//
// -files a.mat,b.tif scores those files instead (e.g. the NEON crop or the
// bundled sample; -bands lo-hi,lo-hi scores only the bands outside those
// 1-based ranges, e.g. a sensor's water-vapour windows, and reports the
// bands inside apart).
package main

import (
	"context"
	"flag"
	"fmt"
	"hash/fnv"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/formats"
	"github.com/omnihsr/omnihsr/internal/adapt"
	"github.com/omnihsr/omnihsr/internal/eval"
	"github.com/omnihsr/omnihsr/internal/loss"
	"github.com/omnihsr/omnihsr/internal/model"
	"github.com/omnihsr/omnihsr/internal/scenes"
	"github.com/omnihsr/omnihsr/internal/train"
	"github.com/omnihsr/omnihsr/resample"
)

type image struct {
	name string
	c    *hsi.Cube
	wl   []float64 // wavelengths (nm), when the file has them
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "adaptsweep:", err)
		os.Exit(1)
	}
}

func run() error {
	st := adapt.Default
	factors := flag.String("factors", "2,4,8", "comma-separated factors")
	steps := flag.Int("steps", st.AutoSteps, "fine-tuning steps")
	flag.Float64Var(&st.LR, "lr", st.LR, "learning rate")
	flag.StringVar(&st.Layers, "layers", st.Layers, "trained layers: all, head")
	flag.IntVar(&st.Batch, "batch", st.Batch, "pairs a step")
	flag.IntVar(&st.PatchMin, "patch-min", st.PatchMin, "smallest crop side")
	flag.IntVar(&st.PatchMax, "patch-max", st.PatchMax, "largest crop side")
	flag.Float64Var(&st.FactorMin, "fmin", st.FactorMin, "smallest pair factor")
	flag.Float64Var(&st.FactorMax, "fmax", st.FactorMax, "largest pair factor")
	flag.IntVar(&st.MinCheck, "min-check", st.MinCheck, "smallest side of the check's reduced input")
	flag.IntVar(&st.Window, "window", st.Window, "window side")
	flag.Float64Var(&st.MarginPSNR, "margin-psnr", st.MarginPSNR, "guard margin, dB")
	flag.Float64Var(&st.MarginSAM, "margin-sam", st.MarginSAM, "guard margin, degrees")
	flag.IntVar(&st.TuneMinCheck, "tune-min-check", st.TuneMinCheck, "smallest side of the check's reduced input on which a fine-tune may be kept")
	flag.IntVar(&st.TuneMinBands, "tune-min-bands", st.TuneMinBands, "fewest scored bands on which a fine-tune may be kept")
	flag.BoolVar(&st.TunePlain, "tune-plain", st.TunePlain, "keeping a fine-tune also needs the plain check to agree")
	flag.BoolVar(&st.TopUp, "topup", st.TopUp, "top up the pairs' noise")
	flag.BoolVar(&st.Recorrupt, "recorrupt", st.Recorrupt, "the check on x + z against x - z")
	noises := flag.String("noise", "clean", "degradations of the input: clean, SIGMA (white) or MODEL:SIGMA (eval.NoiseModels), comma-separated")
	flag.BoolVar(&st.Route, "route", st.Route, "let the guard route between the pair's members")
	flag.IntVar(&st.RouteMinCheck, "route-min-check", st.RouteMinCheck, "smallest side of the check's reduced input on which the check may route")
	flag.Float64Var(&st.RouteMarginPSNR, "route-margin-psnr", st.RouteMarginPSNR, "routing margin, dB")
	flag.Float64Var(&st.RouteMarginSAM, "route-margin-sam", st.RouteMarginSAM, "routing margin, degrees")
	flag.BoolVar(&st.RoutePlain, "route-plain", st.RoutePlain, "routing also needs the plain check (no recorruption) to agree")
	set := flag.String("set", "hsi,nat", "image sets: hsi (training scenes), nat (held-out natural images)")
	only := flag.String("only", "", "comma-separated name substrings to keep")
	natSide := flag.Int("nat-side", 128, "centre crop side of the natural images")
	files := flag.String("files", "", "comma-separated files to score instead")
	windows := flag.String("bands", "", "1-based band ranges left out of the main score (lo-hi,lo-hi)")
	nmWindows := flag.String("nm", "", "wavelength ranges in nm left out of the main score (lo-hi,lo-hi; with -files)")
	split := flag.String("split", "train", "scenes.tsv split of -set hsi (eval: only to score frozen settings once)")
	forced := flag.Bool("forced", true, "also fine-tune on the input when the check says no, to score it")
	tile := flag.Int("tile", 0, "cut each image into its non-overlapping TILE x TILE tiles (the seven protocol's remote-sensing geometry, 64); 0: whole")
	square := flag.Bool("square", false, "score each image's largest centred square (the twelve protocol's crop)")
	every := flag.Int("every", 1, "keep every EVERY-th band of each image (a multispectral-like sensor made from a hyperspectral scene); 1: all")
	members := flag.Bool("members", false, "per cell, also print (line \"M\") the whole-image scores of both members of the pair and the check's scores of them")
	flag.Parse()
	st.AutoSteps = *steps
	var fs []float64
	for _, f := range strings.Split(*factors, ",") {
		v, err := strconv.ParseFloat(f, 64)
		if err != nil {
			return err
		}
		fs = append(fs, v)
	}
	degs, err := parseNoise(*noises)
	if err != nil {
		return err
	}
	imgs, err := load(*set, *files, *only, *split, *natSide)
	if err != nil {
		return err
	}
	if *every > 1 {
		for i := range imgs {
			var bs []int
			for b := 0; b < imgs[i].c.B; b += *every {
				bs = append(bs, b)
			}
			if imgs[i].c, err = imgs[i].c.SelectBands(bs); err != nil {
				return err
			}
			imgs[i].wl = nil
		}
	}
	if imgs, err = cut(imgs, *tile, *square); err != nil {
		return err
	}
	win, err := parseWindows(*windows)
	if err != nil {
		return err
	}
	if *nmWindows != "" {
		if win, err = nmBands(*nmWindows, imgs); err != nil {
			return err
		}
		fmt.Printf("# bands inside %s nm: %v\n", *nmWindows, win)
	}
	m, err := model.Default()
	if err != nil {
		return err
	}
	fmt.Printf("# settings %+v steps %d\n", st, *steps)
	fmt.Println("noise\timage\tx\tbicubic\tshipped\tadapt\tforced\tsam_bic\tsam_shipped\tsam_adapt\tsam_forced\tchoice\tseconds\treason")
	var all tally
	for _, dg := range degs {
		var t tally
		for _, im := range imgs {
			for _, s := range fs {
				h := fnv.New64a()
				fmt.Fprintf(h, "%s x%g", im.name, s)
				lr, err := dg.deg.Input(im.c, s, h.Sum64())
				if err != nil || lr.H < 2 || lr.W < 2 {
					continue
				}
				bic, err := resample.Upsample(lr, im.c.H, im.c.W)
				if err != nil {
					return err
				}
				ship, err := m.Upscale(lr, im.c.H, im.c.W)
				if err != nil {
					return err
				}
				t0 := time.Now()
				var tuned *model.Model
				ao := adapt.Options{Steps: adapt.Auto, Factor: s, Settings: st}
				if *forced {
					ao.Tuned = func(t *model.Model) { tuned = t }
				}
				am, rep, err := adapt.Run(context.Background(), m, lr, ao)
				if err != nil {
					return fmt.Errorf("%s x%g: %w", im.name, s, err)
				}
				ad, err := am.Upscale(lr, im.c.H, im.c.W)
				if err != nil {
					return err
				}
				secs := time.Since(t0).Seconds()
				forced := ad
				if tuned != nil {
					if forced, err = tuned.Upscale(lr, im.c.H, im.c.W); err != nil {
						return err
					}
				}
				pb, sb := scores(im.c, bic, win)
				ps, ss := scores(im.c, ship, win)
				pa, sa := scores(im.c, ad, win)
				pf, sf := scores(im.c, forced, win)
				fmt.Printf("%s\t%s\t%g\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%s\t%.1f\t%s\n", dg.name, im.name, s, pb[0], ps[0], pa[0], pf[0], sb[0], ss[0], sa[0], sf[0], rep.Choice, secs, rep.String())
				if *members {
					if err := printMembers(m, lr, im, s, rep, win); err != nil {
						return err
					}
				}
				if win != nil {
					fmt.Printf("  inside the windows: bicubic %.3f shipped %.3f adapt %.3f forced %.3f dB\n", pb[1], ps[1], pa[1], pf[1])
				}
				name := fmt.Sprintf("%s %s x%g", dg.name, im.name, s)
				c := cell{pb[0], ps[0], pa[0], pf[0], ss[0], sa[0]}
				t.add(c, name)
				all.add(c, name)
			}
		}
		if len(degs) > 1 {
			t.print(dg.name)
		}
	}
	all.print("all")
	return nil
}

type noiseCase struct {
	name string
	deg  eval.Degradation
}

// cut returns the images cut as the evaluation's geometries cut a scene:
// the tile x tile tiles of each (eval.Tiles; tile > 0), or its largest
// centred square (eval.CenterCrop; square).
func cut(imgs []image, tile int, square bool) ([]image, error) {
	if tile <= 0 && !square {
		return imgs, nil
	}
	var out []image
	for _, im := range imgs {
		var rs []eval.Region
		if tile > 0 {
			rs = eval.Tiles(im.c.H, im.c.W, tile)
		} else {
			rs = []eval.Region{eval.CenterCrop(im.c.H, im.c.W, 0)}
		}
		for _, r := range rs {
			c, err := im.c.Crop(r.Y0, r.X0, r.H, r.W)
			if err != nil {
				return nil, err
			}
			name := im.name
			if tile > 0 {
				name = fmt.Sprintf("%s#%d", im.name, r.Index)
			}
			out = append(out, image{name, c, im.wl})
		}
	}
	return out, nil
}

// printMembers prints one "M" line: the gate's route and the noise
// feature, the check's reduced input, the check's scores of the other
// member minus the shipped one (PSNR dB, SAM degrees shipped minus other:
// positive = the other is better), and the same difference on the whole
// image against the reference.
func printMembers(m *model.Model, lr *hsi.Cube, im image, s float64, rep adapt.Report, win [][2]int) error {
	nz, err := m.NoiseOf(lr, model.EncodeOptions{})
	if err != nil {
		return err
	}
	clean, err := m.Alone().Upscale(lr, im.c.H, im.c.W)
	if err != nil {
		return err
	}
	noisy, err := m.AlwaysNoisy().Upscale(lr, im.c.H, im.c.W)
	if err != nil {
		return err
	}
	pc, sc := scores(im.c, clean, win)
	pn, sn := scores(im.c, noisy, win)
	tp, ts := pc[0]-pn[0], sn[0]-sc[0] // clean minus noise-aware
	if nz.Routed {
		tp, ts = -tp, -ts
	}
	cp, cs := math.NaN(), math.NaN()
	if rep.Other != nil {
		cp, cs = rep.Other.PSNR-rep.Shipped.PSNR, rep.Shipped.SAM-rep.Other.SAM
	}
	fmt.Printf("M\t%s\t%g\t%s\t%.3f\t%.4g\t%dx%d\t%.3g\t%+.3f\t%+.3f\t%+.3f\t%+.3f\t%s\n", im.name, s, rep.ShippedRoute, nz.Feature, nz.Sigma,
		lr.H, lr.W, rep.Factor, cp, cs, tp, ts, rep.Choice)
	return nil
}

// parseNoise reads -noise.
func parseNoise(s string) ([]noiseCase, error) {
	var out []noiseCase
	for _, f := range strings.Split(s, ",") {
		if f == "clean" {
			out = append(out, noiseCase{f, eval.Degradation{}})
			continue
		}
		var d eval.Degradation
		v := f
		if mdl, lvl, ok := strings.Cut(f, ":"); ok {
			d.NoiseModel, v = mdl, lvl
		}
		x, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return nil, fmt.Errorf("-noise %q: want clean, SIGMA or MODEL:SIGMA", f)
		}
		d.Noise = x
		if err := d.Validate(); err != nil {
			return nil, err
		}
		out = append(out, noiseCase{f, d})
	}
	return out, nil
}

// cell holds one cell's PSNR (dB) of bicubic, the shipped pair, adaptation
// and the forced fine-tune, and SAM (degrees) of the shipped pair and
// adaptation.
type cell struct{ bic, ship, ad, forced, samShip, samAd float64 }

// tally sums the cells of a summary line.
type tally struct {
	n, losses               int
	ship, ad, forced, worst float64
	worstName               string
}

func (t *tally) add(c cell, name string) {
	if t.n == 0 {
		t.worst = math.Inf(1)
	}
	t.n++
	t.ship += c.ship - c.bic
	t.ad += c.ad - c.bic
	t.forced += c.forced - c.bic
	d := c.ad - c.ship
	if d < -0.02 || c.samAd-c.samShip > 0.02 {
		t.losses++
	}
	if d < t.worst {
		t.worst, t.worstName = d, name
	}
}

func (t tally) print(label string) {
	if t.n == 0 {
		return
	}
	k := float64(t.n)
	fmt.Printf("# %s: %d cells: mean gain over bicubic shipped %+.3f dB, adapt %+.3f dB (%+.3f over shipped), forced %+.3f dB (%+.3f); cells losing > 0.02 dB or 0.02 deg: %d; worst %+.3f dB (%s)\n",
		label, t.n, t.ship/k, t.ad/k, (t.ad-t.ship)/k, t.forced/k, (t.forced-t.ship)/k, t.losses, t.worst, t.worstName)
}

// scores returns PSNR and SAM of est against ref on the bands outside the
// windows ([0]) and PSNR inside them ([1]).
func scores(ref, est *hsi.Cube, win [][2]int) ([2]float64, [2]float64) {
	if win == nil {
		p, s, _ := loss.Score(ref, est)
		return [2]float64{p, 0}, [2]float64{s, 0}
	}
	var out, in []int
	for b := range ref.B {
		inside := false
		for _, w := range win {
			inside = inside || (b+1 >= w[0] && b+1 <= w[1])
		}
		if inside {
			in = append(in, b)
		} else {
			out = append(out, b)
		}
	}
	ro, _ := ref.SelectBands(out)
	eo, _ := est.SelectBands(out)
	ri, _ := ref.SelectBands(in)
	ei, _ := est.SelectBands(in)
	p, s, _ := loss.Score(ro, eo)
	pi, _, _ := loss.Score(ri, ei)
	return [2]float64{p, pi}, [2]float64{s, 0}
}

// nmBands turns wavelength ranges into 1-based band ranges of the first
// image (its wavelengths).
func nmBands(s string, imgs []image) ([][2]int, error) {
	if len(imgs) == 0 || len(imgs[0].wl) == 0 {
		return nil, fmt.Errorf("-nm: the first image has no wavelengths")
	}
	rs, err := parseWindows(strings.ReplaceAll(s, ".", ""))
	if err != nil {
		return nil, err
	}
	var out [][2]int
	for b, w := range imgs[0].wl {
		for _, r := range rs {
			if w >= float64(r[0]) && w <= float64(r[1]) {
				out = append(out, [2]int{b + 1, b + 1})
			}
		}
	}
	return out, nil
}

func parseWindows(s string) ([][2]int, error) {
	if s == "" {
		return nil, nil
	}
	var out [][2]int
	for _, r := range strings.Split(s, ",") {
		a, b, ok := strings.Cut(r, "-")
		lo, e1 := strconv.Atoi(a)
		hi, e2 := strconv.Atoi(b)
		if !ok || e1 != nil || e2 != nil {
			return nil, fmt.Errorf("-bands %q: want lo-hi,lo-hi", s)
		}
		out = append(out, [2]int{lo, hi})
	}
	return out, nil
}

func keep(name, only string) bool {
	if only == "" {
		return true
	}
	for _, o := range strings.Split(only, ",") {
		if strings.Contains(name, o) {
			return true
		}
	}
	return false
}

// load reads the images: normalised to a maximum of 1, negatives clamped.
func load(set, files, only, split string, natSide int) ([]image, error) {
	var out []image
	add := func(name string, c *hsi.Cube) {
		c.NormalizeMax()
		wl := c.Meta.Wavelengths
		c.Meta = hsi.Meta{}
		out = append(out, image{name, c, wl})
	}
	if files != "" {
		for _, f := range strings.Split(files, ",") {
			c, _, err := formats.Read(f, hsi.ReadOptions{})
			if err != nil {
				return nil, err
			}
			add(filepath.Base(f), c)
		}
		return out, nil
	}
	shared, ok := scenes.SharedDir()
	if !ok {
		return nil, fmt.Errorf("no ../shared data folder")
	}
	if strings.Contains(set, "hsi") {
		all, err := scenes.Parse(filepath.Join(shared, "data", "hsi", "scenes.tsv"))
		if err != nil {
			return nil, err
		}
		for _, sc := range scenes.Filter(all, split) {
			if !keep(sc.Name(), only) {
				continue
			}
			c, err := scenes.Load(sc)
			if err != nil {
				return nil, err
			}
			add(sc.Name(), c)
		}
	}
	if strings.Contains(set, "nat") {
		do := train.DefaultDataOptions(shared)
		paths, err := train.NaturalImages(do.RGBDir)
		if err != nil {
			return nil, err
		}
		for i, p := range paths {
			if !do.HeldOut(i) || !keep(p, only) {
				continue
			}
			c, _, err := formats.Read(p, hsi.ReadOptions{})
			if err != nil {
				return nil, err
			}
			h, w := min(c.H, natSide), min(c.W, natSide)
			if c, err = c.Crop((c.H-h)/2, (c.W-w)/2, h, w); err != nil {
				return nil, err
			}
			rel, _ := filepath.Rel(do.RGBDir, p)
			add(rel, c)
		}
	}
	return out, nil
}
