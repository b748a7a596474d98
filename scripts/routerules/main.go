// Command routerules scores candidate rules for the model pair's choice
// between the model for clean inputs and the noise-aware companion (issue
// #32: satellite17's grain), none of them shipped. For every input it
// records the shipped pair's score and the statistics the candidates use;
// then it prints each candidate's mean gains over bicubic.
//
// The candidates:
//   - clean field with a self-validated gain: for a routed input, the clean
//     model's operator field is given a gain measured as the companion's is
//     (model.Model.WithNoisy's field gain, the same window, noise top-up and
//     seed), and it renders when its error on the window is below the
//     companion's;
//   - higher gates (2.23, 2.3, 2.5): the clean model renders every input
//     whose feature is at most the gate;
//   - a band-independent noise level: each band's 3 x 3 high-pass residual
//     less its least-squares prediction from the residuals of the 8 bands on
//     either side, whose median absolute value replaces the band's estimate;
//   - the lag-1 autocorrelation of that band-independent residual, which is
//     -2/3 for white noise: routing only inputs whose residual is white.
//
// The rules are judged on the training run's validation samples (-set val:
// the 40 clean ones and the same under the nine noises of
// scripts/noisegate -every); -set eval prints the same on the seven
// protocol's 64 x 64 tiles of the evaluation scenes (x2, x4, x8; clean,
// white noise 0.01 and 0.03, and the sensor noises at 0.01), for the model
// card, never for choosing.
//
//	go run ./scripts/routerules -set val
//	go run ./scripts/routerules -set eval
package main

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"sort"
	"strings"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/internal/eval"
	"github.com/omnihsr/omnihsr/internal/loss"
	"github.com/omnihsr/omnihsr/internal/model"
	"github.com/omnihsr/omnihsr/internal/scenes"
	"github.com/omnihsr/omnihsr/internal/train"
	"github.com/omnihsr/omnihsr/noise"
	"github.com/omnihsr/omnihsr/resample"
	"gonum.org/v1/gonum/mat"
)

// score is a PSNR (dB) and SAM (degrees) pair.
type score struct{ psnr, sam float64 }

// record is one input: its group, the shipped pair's statistics and the
// candidates'.
type record struct {
	group, name string
	feature     float64 // the shipped noise feature
	routed      bool
	bic, pair   score
	clean       score   // the clean model alone
	cleanGain   score   // the clean model's field times gc
	gc, ec, en  float64 // clean gain, self-validation errors (clean, companion)
	indep       float64 // noise feature of the band-independent level
	rho         float64 // lag-1 autocorrelation of the band-independent residual
}

func main() {
	set := flag.String("set", "val", "val (validation samples) or eval (evaluation tiles, for the model card only)")
	flag.Parse()
	if err := run(*set); err != nil {
		fmt.Fprintln(os.Stderr, "routerules:", err)
		os.Exit(1)
	}
}

func run(set string) error {
	shared, ok := scenes.SharedDir()
	if !ok {
		return fmt.Errorf("no ../shared directory")
	}
	pair, err := model.Default()
	if err != nil {
		return err
	}
	clean, err := model.Load("internal/model/weights/default.omw")
	if err != nil {
		return err
	}
	var recs []record
	add := func(group, name string, lr, hr *hsi.Cube) error {
		r, err := measure(pair, clean, lr, hr)
		if err != nil {
			return fmt.Errorf("%s %s: %w", group, name, err)
		}
		r.group, r.name = group, name
		recs = append(recs, r)
		return nil
	}
	switch set {
	case "val":
		ds, err := train.LoadDataset(train.DefaultDataOptions(shared))
		if err != nil {
			return err
		}
		for i, s := range ds.Val {
			if err := add("clean", s.Name, s.LR, s.HR); err != nil {
				return err
			}
			for j, sp := range gateSpecs(s.LR.B) {
				n, err := s.WithNoise(sp, rand.New(rand.NewPCG(uint64(i), uint64(j))))
				if err != nil {
					return err
				}
				if err := add("noisy", s.Name+" "+sp.String(), n.LR, n.HR); err != nil {
					return err
				}
			}
		}
	case "eval":
		if err := evalTiles(add); err != nil {
			return err
		}
	default:
		return fmt.Errorf("-set %q: want val or eval", set)
	}
	summarise(recs)
	return nil
}

// evalTiles calls add for every seven-protocol tile of the evaluation
// scenes at x2, x4 and x8 under each degradation.
func evalTiles(add func(group, name string, lr, hr *hsi.Cube) error) error {
	scs, err := eval.TSVScenes(eval.DefaultScenesTSV(), "eval")
	if err != nil {
		return err
	}
	degs := []eval.Degradation{{}, {Noise: 0.01, Seed: 1}, {Noise: 0.03, Seed: 1},
		{Noise: 0.01, NoiseModel: "shot", Seed: 1}, {Noise: 0.01, NoiseModel: "profile", Seed: 1}, {Noise: 0.01, NoiseModel: "stripes", Seed: 1}}
	for _, sc := range scs {
		c, err := sc.Load()
		if err != nil {
			return err
		}
		c.NormalizeMax() // as eval.Run normalises
		regs, err := eval.Regions(eval.ProtocolSeven, c.H, c.W, sc.Sensor, "", 0, 0)
		if err != nil {
			return err
		}
		for _, s := range []float64{2, 4, 8} {
			for _, d := range degs {
				for ri, r := range regs {
					hr, err := c.Crop(r.Y0, r.X0, r.H, r.W)
					if err != nil {
						return err
					}
					lr, err := d.Input(hr, s, uint64(ri))
					if err != nil {
						return err
					}
					what := "clean"
					if d.Noise > 0 {
						what = fmt.Sprintf("%s %g", map[string]string{"": "white"}[d.NoiseModel]+d.NoiseModel, d.Noise)
					}
					if err := add(fmt.Sprintf("%s x%g %s", sc.Name, s, what), fmt.Sprint(ri), lr, hr); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}

func measure(pair, clean *model.Model, lr, hr *hsi.Cube) (record, error) {
	var r record
	comp, gate := pair.Noisy()
	nz, err := pair.NoiseLevel(lr, nil)
	if err != nil {
		return r, err
	}
	r.feature = nz.Feature
	r.routed = nz.Feature > gate
	u, err := resample.Upsample(lr, hr.H, hr.W)
	if err != nil {
		return r, err
	}
	yp, err := pair.Upscale(lr, hr.H, hr.W)
	if err != nil {
		return r, err
	}
	yc, err := clean.Upscale(lr, hr.H, hr.W)
	if err != nil {
		return r, err
	}
	if r.bic, err = scoreOf(hr, u); err != nil {
		return r, err
	}
	if r.pair, err = scoreOf(hr, yp); err != nil {
		return r, err
	}
	if r.clean, err = scoreOf(hr, yc); err != nil {
		return r, err
	}
	sig, err := noise.Bands(lr, true)
	if err != nil {
		return r, err
	}
	var en float64
	r.gc, r.ec = selfValidate(clean, lr, sig)
	_, en = selfValidate(comp, lr, sig)
	r.en = en
	if r.cleanGain, err = scoreOf(hr, blend(u, yc, r.gc)); err != nil {
		return r, err
	}
	ind, rho := independent(lr, 8)
	r.indep = model.NoiseFeature(noise.Level(ind) * float64(model.InputScale(lr)))
	r.rho = rho
	return r, nil
}

func scoreOf(hr, y *hsi.Cube) (score, error) {
	p, s, err := loss.Score(hr, y)
	return score{p, s}, err
}

// selfValidate measures m's field gain on x as the pair measures its
// companion's (model.Model.WithNoisy): the centre window (at most
// model.GainWindow a side) halved, topped up with white noise to each
// band's level sigmas, super-resolved back; it returns the clamped
// least-squares gain and the mean squared error of U + g F on the window
// (NaN when the window halves to fewer than 3 pixels).
func selfValidate(m *model.Model, x *hsi.Cube, sigmas []float64) (g, e float64) {
	h, w := min(x.H, model.GainWindow), min(x.W, model.GainWindow)
	lh, lw := resample.OutSize(h, 2), resample.OutSize(w, 2)
	if lh < 3 || lw < 3 {
		return 1, math.NaN()
	}
	win, _ := x.Crop((x.H-h)/2, (x.W-w)/2, h, w)
	win.Meta = hsi.Meta{}
	d, _ := resample.Downsample(win, lh, lw)
	sd, _ := noise.Bands(d, true)
	rng := rand.New(rand.NewPCG(7, 9))
	for i := range d.Data {
		b := i % x.B
		if v := sigmas[b]*sigmas[b] - sd[b]*sd[b]; v > 0 {
			d.Data[i] += float32(math.Sqrt(v) * rng.NormFloat64())
		}
	}
	u, _ := resample.Upsample(d, h, w)
	p, err := m.Upscale(d, h, w)
	if err != nil {
		return 1, math.NaN()
	}
	var num, den float64
	for i, v := range u.Data {
		f := float64(p.Data[i] - v)
		num += f * float64(win.Data[i]-v)
		den += f * f
	}
	g = 1
	if den > 0 {
		g = max(0, min(1, num/den))
	}
	for i, v := range blend(u, p, g).Data {
		d := float64(v - win.Data[i])
		e += d * d
	}
	return g, e / float64(len(win.Data))
}

// blend returns u + g (p - u).
func blend(u, p *hsi.Cube, g float64) *hsi.Cube {
	y := u.Clone()
	for i, v := range u.Data {
		y.Data[i] = v + float32(g)*(p.Data[i]-v)
	}
	return y
}

// independent returns, per band, the noise estimate of the part of its
// 3 x 3 high-pass residual that the residuals of the win bands on either
// side do not predict (least squares over the pixels), and the pooled lag-1
// autocorrelation (mean of the horizontal and vertical) of that part.
func independent(c *hsi.Cube, win int) ([]float64, float64) {
	B, H, W := c.B, c.H, c.W
	out := make([]float64, B)
	if H < 5 || W < 5 {
		for b := range out {
			out[b] = math.NaN()
		}
		return out, math.NaN()
	}
	at := func(y, x, b int) float64 { return float64(c.Data[(y*W+x)*B+b]) }
	R := make([]float64, H*W*B)
	for y := 1; y < H-1; y++ {
		for x := 1; x < W-1; x++ {
			for b := 0; b < B; b++ {
				R[(y*W+x)*B+b] = 4*at(y, x, b) - 2*(at(y-1, x, b)+at(y+1, x, b)+at(y, x-1, b)+at(y, x+1, b)) +
					at(y-1, x-1, b) + at(y-1, x+1, b) + at(y+1, x-1, b) + at(y+1, x+1, b)
			}
		}
	}
	E := make([]float64, H*W*B)
	for b := 0; b < B; b++ {
		var idx []int
		for j := max(0, b-win); j <= min(B-1, b+win); j++ {
			if j != b {
				idx = append(idx, j)
			}
		}
		n := len(idx)
		G, h := make([]float64, n*n), make([]float64, n)
		for p := 0; p < H*W; p++ {
			r := R[p*B : (p+1)*B]
			for i, a := range idx {
				h[i] += r[a] * r[b]
				for k, bb := range idx {
					G[i*n+k] += r[a] * r[bb]
				}
			}
		}
		var tr float64
		for i := 0; i < n; i++ {
			tr += G[i*n+i]
		}
		for i := 0; i < n; i++ {
			G[i*n+i] += 1e-6*tr/float64(n) + 1e-30
		}
		coef := solve(G, h, n)
		var abs []float64
		for y := 1; y < H-1; y++ {
			for x := 1; x < W-1; x++ {
				p := y*W + x
				v := R[p*B+b]
				for i, a := range idx {
					v -= coef[i] * R[p*B+a]
				}
				E[p*B+b] = v
				abs = append(abs, math.Abs(v))
			}
		}
		sort.Float64s(abs)
		out[b] = abs[len(abs)/2] * 1.482602218505602 / 6
	}
	var s0, sh, sv float64
	for y := 1; y < H-2; y++ {
		for x := 1; x < W-2; x++ {
			for b := 0; b < B; b++ {
				e := E[(y*W+x)*B+b]
				s0 += e * e
				sh += e * E[(y*W+x+1)*B+b]
				sv += e * E[((y+1)*W+x)*B+b]
			}
		}
	}
	return out, (sh + sv) / (2 * s0)
}

// solve solves the n x n symmetric positive definite system G x = h by
// Cholesky (gonum); a system that does not factorise gives x = 0.
func solve(G, h []float64, n int) []float64 {
	if n == 0 {
		return nil
	}
	var ch mat.Cholesky
	x := mat.NewVecDense(n, nil)
	if !ch.Factorize(mat.NewSymDense(n, G)) || ch.SolveVecTo(x, mat.NewVecDense(n, h)) != nil {
		return make([]float64, n)
	}
	return x.RawVector().Data
}

// rule picks an input's score under a candidate rule.
type rule struct {
	name string
	pick func(r record) score
}

func summarise(recs []record) {
	gate := 0.0
	if p, err := model.Default(); err == nil {
		_, gate = p.Noisy()
	}
	rules := []rule{
		{"shipped pair", func(r record) score { return r.pair }},
		{"clean model alone", func(r record) score { return r.clean }},
		{"clean field with its self-validated gain where its error is lower", func(r record) score {
			if r.routed && r.ec < r.en {
				return r.cleanGain
			}
			return r.pair
		}},
	}
	for _, g := range []float64{2.23, 2.3, 2.5} {
		rules = append(rules, rule{fmt.Sprintf("gate %.4g as the pair renders", g), func(r record) score {
			if r.routed && r.feature <= g {
				return r.clean
			}
			return r.pair
		}})
	}
	rules = append(rules, rule{"band-independent level against the gate", func(r record) score {
		if r.routed && r.indep <= gate {
			return r.clean
		}
		return r.pair
	}})
	for _, t := range []float64{-0.5, -0.55, -0.6} {
		rules = append(rules, rule{fmt.Sprintf("route only a white band-independent residual (lag-1 below %g)", t), func(r record) score {
			if r.routed && r.rho > t {
				return r.clean
			}
			return r.pair
		}})
	}
	var groups []string
	seen := map[string]bool{}
	for _, r := range recs {
		if !seen[r.group] {
			seen[r.group] = true
			groups = append(groups, r.group)
		}
	}
	routed := map[string]int{}
	for _, r := range recs {
		if r.routed {
			routed[r.group]++
		}
	}
	for _, ru := range rules {
		fmt.Println(ru.name)
		for _, g := range groups {
			var dp, ds float64
			var n, below, worse int
			for _, r := range recs {
				if r.group != g {
					continue
				}
				s := ru.pick(r)
				dp += s.psnr - r.bic.psnr
				ds += r.bic.sam - s.sam
				n++
				if s.psnr < r.bic.psnr {
					below++
				}
				if s.sam > r.bic.sam {
					worse++
				}
			}
			fmt.Printf("  %-36s %3d inputs (%3d routed): PSNR %+.3f dB (%d below bicubic), SAM %+.3f deg (%d worse)\n",
				strings.TrimSpace(g), n, routed[g], dp/float64(n), below, ds/float64(n), worse)
		}
	}
}

// gateSpecs are scripts/noisegate's nine noises of -every.
func gateSpecs(bands int) []noise.Spec {
	return append(train.NoisyValSpecs(bands),
		noise.Spec{Kind: noise.White, Sigma: 0.005},
		noise.Spec{Kind: noise.Signal, Shot: 0.75 * 0.01 * 0.01 / 0.5, Read: 0.5 * 0.01},
		noise.Spec{Kind: noise.Profile, Sigma: 0.01, Band: noise.SensorProfile(nil, bands)},
	)
}
