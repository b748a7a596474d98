package adapt

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/internal/loss"
	"github.com/omnihsr/omnihsr/internal/model"
	"github.com/omnihsr/omnihsr/internal/nn"
	"github.com/omnihsr/omnihsr/noise"
	"github.com/omnihsr/omnihsr/resample"
)

// Auto is Options.Steps for `-adapt auto`: the step count of Settings.Auto.
const Auto = -1

// ErrSteps is wrapped by the error of a step count that is neither Auto
// nor in [0, MaxSteps].
var ErrSteps = errors.New("adapt: invalid step count")

// MaxSteps bounds an explicit step count.
const MaxSteps = 100000

// Settings are the constants of the adaptation, chosen on the training
// scenes (internal/model/weights/README.md, "Per-scene adaptation").
type Settings struct {
	// LR is Adam's learning rate (constant).
	LR float64
	// Layers are the trained parameters: "all", or "head" (FiLM, the head's
	// convolution and the geometry and operator layers; the encoder frozen).
	Layers string
	// Batch is the number of pairs a step.
	Batch int
	// PatchMin and PatchMax bound the side of a training crop, in input
	// pixels.
	PatchMin, PatchMax int
	// FactorMin and FactorMax bound the factor of a pair (uniform); the
	// upper bound is also at most the output's factor.
	FactorMin, FactorMax float64
	// MinLR is the smallest side of a pair's low-res input.
	MinLR int
	// MinCheck is the smallest side of the check's reduced input: the
	// check's factor is the output's, or less where the input is small,
	// but at least min(2, output's factor); an input too small for that is
	// not adapted.
	MinCheck int
	// Window is the largest side of the part of the input (its centre)
	// that the adaptation works on, so that its cost does not grow with
	// the scene.
	Window int
	// MarginPSNR (dB) and MarginSAM (degrees) are what a candidate must win
	// by in the check, on both scores, to replace the choice so far.
	MarginPSNR, MarginSAM float64
	// TuneMinCheck is the smallest side of the check's reduced input on
	// which a fine-tune may be kept: on smaller ones none is trained.
	TuneMinCheck int
	// TuneMinBands is the fewest bands the check scores (the input's
	// usable bands less those screened as noisy) on which a fine-tune may
	// be kept: on fewer none is trained.
	TuneMinBands int
	// TunePlain makes keeping a fine-tune (with Recorrupt) also need the
	// plain check (RoutePlain) to agree, by the same margins.
	TunePlain bool
	// TopUp adds white noise to the fine-tune's pairs' low-res inputs (and,
	// without Recorrupt, to the check's), band by band, to bring their
	// estimated noise back to the input's (the downsampling averages it
	// down).
	TopUp bool
	// Recorrupt makes the check unbiased on noisy inputs: with z drawn per
	// sample from the input's per-band noise, the check's reduced input is
	// made from x + z (its noise then topped up to the input's level) and
	// scored against x - z. For Gaussian noise the two carry independent
	// noise, so the expected squared error against x - z is that against
	// the clean scene plus a constant: a model that reproduces the input's
	// own noise is no longer rewarded, and the reduced input is as noisy
	// as the input.
	Recorrupt bool
	// AutoSteps is the step count of Auto.
	AutoSteps int
	// Route lets the check choose between the model for clean inputs and
	// the noise-aware companion.
	Route bool
	// RouteMinCheck is the smallest side of the check's reduced input on
	// which the check may route: on smaller ones the other member of the
	// pair is not scored and the shipped model's route stands.
	RouteMinCheck int
	// RouteMarginPSNR (dB) and RouteMarginSAM (degrees) are what the other
	// member of the pair must win by in the check, on both scores, to be
	// routed to (MarginPSNR and MarginSAM are the fine-tune's).
	RouteMarginPSNR, RouteMarginSAM float64
	// RoutePlain makes routing (with Recorrupt) also need the plain check:
	// the input reduced as it is (no z, no top-up) and scored against the
	// input, on which the other member must win by the same margins. The
	// two checks err in opposite directions: the recorrupted one adds the
	// estimated noise, which on a clean textured scene is texture counted
	// as noise, and so favours the noise-aware member; the plain one
	// reduces the noise with the input, and so favours the clean member.
	// A route both agree on is not the bias of either.
	RoutePlain bool
}

// Default are the settings of `-adapt`.
var Default = Settings{
	LR: 5e-5, Layers: "all", Batch: 2,
	PatchMin: 24, PatchMax: 48, FactorMin: 1.5, FactorMax: 4, MinLR: 4,
	MinCheck: 16, Window: 192,
	MarginPSNR: 0.02, MarginSAM: 0.0, TuneMinCheck: 24, TuneMinBands: 4,
	TopUp: false, Recorrupt: true, AutoSteps: 200, Route: true,
	RouteMinCheck: 20, RouteMarginPSNR: 0.05, RouteMarginSAM: 0.05, RoutePlain: true,
}

// Options configure Run.
type Options struct {
	// Steps is the number of fine-tuning steps, or Auto.
	Steps int
	// Factor is the output's factor (the effective factor of the largest
	// output).
	Factor float64
	// Settings; the zero value is Default.
	Settings Settings
	// Encode is the settings of the encodings (model.EncodeOptions: the
	// noise given per band, the noisy-band screen); its Progress is not
	// used.
	Encode model.EncodeOptions
	// Progress, if not nil, is called with the steps done (and the
	// check's renderings, counted as steps) of the total.
	Progress func(done, total int)
	// Tuned, if not nil, receives the model fine-tuned on the input
	// whether the check keeps it or not (it is then trained for the
	// callback: scripts/adaptsweep scores it on the whole scene).
	Tuned func(*model.Model)
}

// Score is a score of the check: PSNR (dB) and SAM (degrees).
type Score struct {
	PSNR, SAM float64
}

// Report says what Run did.
type Report struct {
	// Steps is the number of fine-tuning steps run on the input (0: none),
	// CheckSteps those run on the check's reduced input.
	Steps, CheckSteps int
	// Layers are the trained layers ("all", "head").
	Layers string
	// Check describes the check's reduced input ("" when there was none).
	Check string
	// Factor is the check's factor.
	Factor float64
	// Shipped is the check's score of the shipped model as it routes the
	// input; Other that of the other member of the pair (nil without a
	// pair, when routing is off, or on a check smaller than RouteMinCheck);
	// Adapted that of the model fine-tuned on the reduced input (nil when
	// none was trained).
	Shipped        Score
	Other, Adapted *Score
	// PlainShipped and PlainOther are the plain check's scores of the
	// members (Settings.RoutePlain; nil when it did not run).
	PlainShipped, PlainOther *Score
	// PlainAdapted and PlainBest are the plain check's scores of the model
	// fine-tuned on the reduced input and of the choice it competed with
	// (nil when the plain check did not run: it runs with TunePlain, and
	// for Options.Tuned).
	PlainAdapted, PlainBest *Score
	// ShippedRoute and OtherRoute name the members: "clean", "noise-aware".
	ShippedRoute, OtherRoute string
	// Choice is the model that renders: "shipped", "other" (the other
	// member of the pair) or "adapted".
	Choice string
	// Reason says why, in words.
	Reason string
	// TooSmall is set when the input is too small to check (Check is
	// empty), or the check's reduced input too small or with too few
	// bands to judge a fine-tune (Settings.TuneMinCheck, TuneMinBands).
	TooSmall bool
}

// String describes the report in one line, as `omnihsr upscale` prints it.
func (r Report) String() string {
	s := fmt.Sprintf("adapt: %d steps", r.Steps)
	if r.Check != "" {
		s += fmt.Sprintf("; checked on %s, rendered back (Wald's protocol on the input): shipped (%s) %.2f dB / %.3f deg", r.Check, r.ShippedRoute, r.Shipped.PSNR, r.Shipped.SAM)
		if r.Other != nil {
			s += fmt.Sprintf(", %s %.2f dB / %.3f deg", r.OtherRoute, r.Other.PSNR, r.Other.SAM)
		}
		if r.PlainShipped != nil && r.PlainOther != nil {
			s += fmt.Sprintf(" (plain check: %.2f dB / %.3f deg, %.2f dB / %.3f deg)", r.PlainShipped.PSNR, r.PlainShipped.SAM, r.PlainOther.PSNR, r.PlainOther.SAM)
		}
		if r.Adapted != nil {
			s += fmt.Sprintf(", adapted there (%d steps) %.2f dB / %.3f deg", r.CheckSteps, r.Adapted.PSNR, r.Adapted.SAM)
			if r.PlainAdapted != nil && r.PlainBest != nil {
				s += fmt.Sprintf(" (plain check: %.2f dB / %.3f deg against %.2f dB / %.3f deg)", r.PlainAdapted.PSNR, r.PlainAdapted.SAM, r.PlainBest.PSNR, r.PlainBest.SAM)
			}
		}
	}
	return s + "; " + r.Reason
}

func (s Settings) orDefault() Settings {
	if s == (Settings{}) {
		return Default
	}
	return s
}

// scene is the input as the adaptation sees it.
type scene struct {
	x      *hsi.Cube // the network's bands of the window, normalised, no-data filled
	ref    *hsi.Cube // the check's reference: x, or x - z (Settings.Recorrupt)
	sigmas []float64 // per-band noise of x
	keep   []int     // bands scored and in the loss (nil: all)
	small  *hsi.Cube // x reduced by s: the check's input
	plain  *hsi.Cube // x reduced by s without recorruption (nil: small is)
	s      float64   // the check's factor
	// keepNoisy turns off the noisy-band screen of the check's encodings
	// (model.EncodeOptions.KeepNoisyBands).
	keepNoisy bool
}

// Run adapts m to the input lr (as given to the model: no-data, bad bands
// and noise metadata included) for an output of factor o.Factor, and
// returns the model to render with (m itself, a member of its pair, or a
// fine-tuned copy, without m's progress callback) and what it did. m is not
// modified.
func Run(ctx context.Context, m *model.Model, lr *hsi.Cube, o Options) (*model.Model, Report, error) {
	st := o.Settings.orDefault()
	steps := o.Steps
	if steps == Auto {
		steps = st.AutoSteps
	}
	if steps < 0 || steps > MaxSteps {
		return nil, Report{}, fmt.Errorf("%w: %d (want auto, 0 or 1 to %d)", ErrSteps, o.Steps, MaxSteps)
	}
	if !(o.Factor > 0) || math.IsInf(o.Factor, 0) {
		return nil, Report{}, fmt.Errorf("adapt: factor %v", o.Factor)
	}
	rep := Report{Layers: st.Layers, Choice: "shipped"}
	if steps == 0 {
		rep.Reason = "adaptation off: the shipped model"
		return m, rep, nil
	}
	enc := model.EncodeOptions{Noise: o.Encode.Noise, KeepNoisyBands: o.Encode.KeepNoisyBands}
	nz, err := m.NoiseOf(lr, enc)
	if err != nil {
		return nil, rep, err
	}
	companion, _ := m.Noisy()
	rep.ShippedRoute = "clean"
	if nz.Routed {
		rep.ShippedRoute = "noise-aware"
	}
	sc, why, err := newScene(lr, o.Factor, st, enc)
	if err != nil {
		return nil, rep, err
	}
	if sc == nil {
		rep.Reason, rep.TooSmall = why.text+": the shipped model", why.tooSmall
		return m, rep, nil
	}
	rep.Factor = sc.s
	rep.Check = fmt.Sprintf("the input reduced by x%.3g to %d x %d pixels", sc.s, sc.small.H, sc.small.W)
	total := 2*steps + 3
	done := 0
	tick := func() {
		done++
		if o.Progress != nil {
			o.Progress(done, total)
		}
	}
	// The members of the pair as the shipped model would route the input.
	shipped := m
	var other *model.Model
	if companion != nil {
		if nz.Routed {
			shipped, other = m.AlwaysNoisy(), m.Alone()
			rep.OtherRoute = "clean"
		} else {
			shipped, other = m.Alone(), m.AlwaysNoisy()
			rep.OtherRoute = "noise-aware"
		}
	}
	if rep.Shipped, err = sc.score(ctx, shipped); err != nil {
		return nil, rep, err
	}
	tick()
	best, bestScore := shipped, rep.Shipped
	rep.Reason = "the shipped model"
	if other != nil && st.Route && min(sc.small.H, sc.small.W) >= st.RouteMinCheck {
		sco, err := sc.score(ctx, other)
		if err != nil {
			return nil, rep, err
		}
		rep.Other = &sco
		route, po, ps, err := sc.routes(ctx, st, other, shipped, sco, bestScore)
		if err != nil {
			return nil, rep, err
		}
		rep.PlainOther, rep.PlainShipped = po, ps
		if route {
			best, bestScore, rep.Choice = other, sco, "other"
			rep.Reason = fmt.Sprintf("the %s model of the pair, better in the check than the %s one the noise gate picks", rep.OtherRoute, rep.ShippedRoute)
		}
	}
	tick()
	bigEnough := min(sc.small.H, sc.small.W) >= st.TuneMinCheck && sc.bands() >= st.TuneMinBands
	rep.TooSmall = !bigEnough
	var tooSmall string // why a fine-tune is not judged here
	if !bigEnough {
		tooSmall = fmt.Sprintf("not adapted: the check's %d x %d pixels are too few to judge a fine-tune (at least %d a side): rendering with %s",
			sc.small.H, sc.small.W, st.TuneMinCheck, choiceName(rep))
		if sc.bands() < st.TuneMinBands {
			tooSmall = fmt.Sprintf("not adapted: the check's %d bands are too few to judge a fine-tune (at least %d): rendering with %s",
				sc.bands(), st.TuneMinBands, choiceName(rep))
		}
		if o.Tuned == nil {
			rep.Reason = tooSmall
			return best, rep, nil
		}
	}
	// The check: the whole procedure one scale down. A copy fine-tuned on
	// the reduced input alone renders it back to the input's size.
	small, err := tune(ctx, m, sc.small, sc, st, sc.s, nz.Feature, steps, 2, func() { rep.CheckSteps++; tick() })
	if err != nil {
		return nil, rep, err
	}
	sca, err := sc.score(ctx, small)
	if err != nil {
		return nil, rep, err
	}
	rep.Adapted = &sca
	if sc.plain != nil && (st.TunePlain || o.Tuned != nil) {
		pa, pb, err := sc.scorePlain(ctx, small, best)
		if err != nil {
			return nil, rep, err
		}
		rep.PlainAdapted, rep.PlainBest = &pa, &pb
	}
	tick()
	keep := st.wins(sca, bestScore)
	refused := fmt.Sprintf("not adapted: fine-tuning did not pay in the check (%+.2f dB, %+.3f degrees against %s; needed %+.2f dB and %+.3f degrees): rendering with %s",
		sca.PSNR-bestScore.PSNR, bestScore.SAM-sca.SAM, choiceName(rep), st.MarginPSNR, st.MarginSAM, choiceName(rep))
	switch {
	case !bigEnough:
		keep, refused = false, tooSmall
	case keep && !st.plainAgrees(rep.PlainAdapted, rep.PlainBest):
		keep = false
		refused = fmt.Sprintf("not adapted: fine-tuning paid in the check but not in the plain check (%+.2f dB, %+.3f degrees against %s; needed %+.2f dB and %+.3f degrees): rendering with %s",
			rep.PlainAdapted.PSNR-rep.PlainBest.PSNR, rep.PlainBest.SAM-rep.PlainAdapted.SAM, choiceName(rep), st.MarginPSNR, st.MarginSAM, choiceName(rep))
	}
	if !keep && o.Tuned == nil {
		rep.Reason = refused
		return best, rep, nil
	}
	ft, err := tune(ctx, m, sc.x, sc, st, o.Factor, nz.Feature, steps, 3, func() { rep.Steps++; tick() })
	if err != nil {
		return nil, rep, err
	}
	if o.Tuned != nil {
		o.Tuned(ft)
	}
	if !keep {
		rep.Steps = 0
		rep.Reason = refused
		return best, rep, nil
	}
	rep.Choice = "adapted"
	rep.Reason = fmt.Sprintf("adapted: fine-tuning paid in the check (%+.2f dB and %+.3f degrees against %s), so a copy fine-tuned on the input renders",
		sca.PSNR-bestScore.PSNR, bestScore.SAM-sca.SAM, choiceName(rep))
	return ft, rep, nil
}

// tune fine-tunes a copy of m's model for clean inputs on pairs made from
// src for an output of factor s, for steps steps (stream selects the
// random stream), calling tick after each.
func tune(ctx context.Context, m *model.Model, src *hsi.Cube, sc *scene, st Settings, s, nf float64, steps int, stream uint64, tick func()) (*model.Model, error) {
	ft, err := m.Alone().CopyWeights()
	if err != nil {
		return nil, err
	}
	tr, err := newTrainer(ft, src, sc, st, s, nf, stream)
	if err != nil {
		return nil, err
	}
	release := nn.FixedParts()
	defer release()
	for range steps {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err := tr.step(); err != nil {
			return nil, err
		}
		tick()
	}
	return ft, nil
}

// routes reports whether cand, scored a in the check, passes the routing
// conditions against cur, scored b: a check of at least RouteMinCheck
// pixels a side, the routing margins, and (RoutePlain) the margins in the
// plain check too, whose scores of cand and cur it returns when it ran.
func (sc *scene) routes(ctx context.Context, st Settings, cand, cur *model.Model, a, b Score) (bool, *Score, *Score, error) {
	if min(sc.small.H, sc.small.W) < st.RouteMinCheck || !st.beats(a, b, st.RouteMarginPSNR, st.RouteMarginSAM) {
		return false, nil, nil, nil
	}
	if !st.RoutePlain || sc.plain == nil {
		return true, nil, nil, nil
	}
	pa, pb, err := sc.scorePlain(ctx, cand, cur)
	if err != nil {
		return false, nil, nil, err
	}
	return st.beats(pa, pb, st.RouteMarginPSNR, st.RouteMarginSAM), &pa, &pb, nil
}

// scorePlain scores a and b in the plain check: the input reduced as it
// is (no recorruption), rendered back and scored against the input.
func (sc *scene) scorePlain(ctx context.Context, a, b *model.Model) (Score, Score, error) {
	sa, err := sc.scoreOn(ctx, a, sc.plain, sc.x)
	if err != nil {
		return Score{}, Score{}, err
	}
	sb, err := sc.scoreOn(ctx, b, sc.plain, sc.x)
	return sa, sb, err
}

func choiceName(r Report) string {
	if r.Choice == "other" {
		return "the pair's " + r.OtherRoute + " model"
	}
	return "the shipped model"
}

// wins reports whether a is better than b on both scores by the
// fine-tune's margins.
func (st Settings) wins(a, b Score) bool {
	return st.beats(a, b, st.MarginPSNR, st.MarginSAM)
}

// plainAgrees reports whether the plain check's scores of the fine-tuned
// copy (a) and of the choice so far (b) let the fine-tune be kept: always
// without TunePlain or when the plain check did not run, else when a wins
// by the fine-tune's margins.
func (st Settings) plainAgrees(a, b *Score) bool {
	if !st.TunePlain || a == nil || b == nil {
		return true
	}
	return st.wins(*a, *b)
}

// beats reports whether a is better than b by at least mp dB of PSNR and
// ms degrees of SAM.
func (Settings) beats(a, b Score, mp, ms float64) bool {
	return a.PSNR >= b.PSNR+mp && a.SAM <= b.SAM-ms &&
		!math.IsNaN(a.PSNR) && !math.IsNaN(a.SAM)
}

// refusal says why newScene made no scene.
type refusal struct {
	text     string
	tooSmall bool // the input is too small for the check
}

// newScene prepares the input; a nil scene and the reason when it cannot
// be checked (too small for the check, or constant).
func newScene(lr *hsi.Cube, s float64, st Settings, enc model.EncodeOptions) (*scene, refusal, error) {
	if err := lr.Validate(); err != nil {
		return nil, refusal{}, fmt.Errorf("adapt: %w", err)
	}
	filled, nd, err := hsi.FillNoData(lr)
	if err != nil {
		return nil, refusal{}, fmt.Errorf("adapt: %w", err)
	}
	usable := nd.Usable(filled.B)
	x := filled
	if len(usable) < filled.B {
		if x, err = filled.SelectBands(usable); err != nil {
			return nil, refusal{}, fmt.Errorf("adapt: %w", err)
		}
	}
	var given []float64
	if g := enc.Noise; len(g) == lr.B {
		for _, b := range usable {
			given = append(given, g[b])
		}
	}
	if h, w := min(x.H, st.Window), min(x.W, st.Window); h < x.H || w < x.W {
		if x, err = x.Crop((x.H-h)/2, (x.W-w)/2, h, w); err != nil {
			return nil, refusal{}, fmt.Errorf("adapt: %w", err)
		}
	} else {
		x = x.Clone()
	}
	x.Meta = hsi.Meta{}
	var mx float32
	flat := true // every band the same value everywhere: nothing to learn or score
	for i, v := range x.Data {
		mx = max(mx, v, -v)
		flat = flat && v == x.Data[i%x.B]
	}
	if !(mx > 0) || flat {
		return nil, refusal{text: "a constant input"}, nil
	}
	for i := range x.Data {
		x.Data[i] /= mx
	}
	sc := &scene{x: x, keepNoisy: enc.KeepNoisyBands}
	// The check's factor: the output's, or less where the input is too
	// small to reduce that far.
	sc.s = min(s, float64(min(x.H, x.W))/float64(st.MinCheck))
	lh, lw := resample.OutSize(x.H, sc.s), resample.OutSize(x.W, sc.s)
	if sc.s < min(s, 2) || lh < 3 || lw < 3 {
		return nil, refusal{fmt.Sprintf("input too small to check the adaptation one scale down at x%.3g (%d x %d pixels)", s, x.H, x.W), true}, nil
	}
	if given != nil {
		sc.sigmas = make([]float64, len(given))
		for i, v := range given {
			sc.sigmas[i] = v / float64(mx)
		}
	} else if sc.sigmas, err = noise.Bands(x, true); err != nil {
		return nil, refusal{}, fmt.Errorf("adapt: %w", err)
	}
	if out := noise.Outliers(x, sc.sigmas); len(out) > 0 && len(out) < x.B {
		skip := make([]bool, x.B)
		for _, o := range out {
			skip[o.Band] = true
		}
		for b := range x.B {
			if !skip[b] {
				sc.keep = append(sc.keep, b)
			}
		}
	}
	rng := rand.New(rand.NewPCG(seedOf(x, s), 1))
	src := x
	sc.ref = x
	if st.Recorrupt {
		src, sc.ref = sc.recorrupt(rng)
	}
	if sc.small, err = resample.Downsample(src, lh, lw); err != nil {
		return nil, refusal{}, fmt.Errorf("adapt: %w", err)
	}
	if st.Recorrupt && st.RoutePlain {
		if sc.plain, err = resample.Downsample(x, lh, lw); err != nil {
			return nil, refusal{}, fmt.Errorf("adapt: %w", err)
		}
	}
	switch {
	case st.Recorrupt:
		// x + z carries twice the input's noise variance before the
		// reduction.
		sc.topUp(sc.small, sc.s, 2, rng)
	case st.TopUp:
		sc.topUp(sc.small, sc.s, 1, rng)
	}
	return sc, refusal{}, nil
}

// bands is the number of bands the check scores.
func (sc *scene) bands() int {
	if sc.keep != nil {
		return len(sc.keep)
	}
	return sc.x.B
}

// recorrupt returns x + z and x - z for z drawn per sample from N(0,
// sigma_b^2), sigma_b the band's noise.
func (sc *scene) recorrupt(rng *rand.Rand) (plus, minus *hsi.Cube) {
	plus, minus = sc.x.Clone(), sc.x.Clone()
	for i := range plus.Data {
		s := sc.sigmas[i%plus.B]
		if !(s > 0) || math.IsInf(s, 0) {
			continue
		}
		z := float32(s * rng.NormFloat64())
		plus.Data[i] += z
		minus.Data[i] -= z
	}
	return plus, minus
}

// seedOf hashes the input and the factor.
func seedOf(x *hsi.Cube, s float64) uint64 {
	h := fnv.New64a()
	var b [4]byte
	for _, v := range x.Data {
		u := math.Float32bits(v)
		b[0], b[1], b[2], b[3] = byte(u), byte(u>>8), byte(u>>16), byte(u>>24)
		h.Write(b[:])
	}
	return h.Sum64() ^ math.Float64bits(s)
}

// topUp adds white noise to a low-res cube made at factor f from a cube
// whose noise variance is k times x's, so that each band's noise is back
// at x's: the antialiased bicubic downsampling scales white noise by about
// 0.6/f.
func (sc *scene) topUp(c *hsi.Cube, f, k float64, rng *rand.Rand) {
	keep := 1 - min(1, k*0.36/(f*f))
	add := make([]float64, c.B)
	for b, s := range sc.sigmas {
		if s > 0 && !math.IsInf(s, 0) {
			add[b] = s * math.Sqrt(keep)
		}
	}
	for i := range c.Data {
		if a := add[i%c.B]; a > 0 {
			c.Data[i] += float32(a * rng.NormFloat64())
		}
	}
}

// score renders the check's reduced input back to the window's size with
// m and scores it against the check's reference (the kept bands).
func (sc *scene) score(ctx context.Context, m *model.Model) (Score, error) {
	return sc.scoreOn(ctx, m, sc.small, sc.ref)
}

// scoreOn renders small back to the window's size with m and scores it
// against ref (the kept bands).
func (sc *scene) scoreOn(ctx context.Context, m *model.Model, small, ref *hsi.Cube) (Score, error) {
	e, err := m.EncodeImageContext(ctx, small, model.EncodeOptions{KeepNoisyBands: sc.keepNoisy})
	if err != nil {
		return Score{}, err
	}
	out, err := e.OutputContext(ctx, sc.x.H, sc.x.W)
	if err != nil {
		return Score{}, err
	}
	y, err := out.Render()
	if err != nil {
		return Score{}, err
	}
	yh := y
	if sc.keep != nil {
		if ref, err = ref.SelectBands(sc.keep); err != nil {
			return Score{}, err
		}
		if yh, err = yh.SelectBands(sc.keep); err != nil {
			return Score{}, err
		}
	}
	p, s, err := loss.Score(ref, yh)
	if err != nil {
		return Score{}, fmt.Errorf("adapt: %w", err)
	}
	return Score{PSNR: p, SAM: s}, nil
}

// trainer fine-tunes a model on pairs made from src.
type trainer struct {
	m      *model.Model
	src    *hsi.Cube
	sc     *scene
	st     Settings
	s      float64
	nf     float64
	params []nn.Param
	adam   *nn.Adam
	rng    *rand.Rand
	arena  *nn.Arena
	frozen bool // the encoder is not trained
}

func newTrainer(m *model.Model, src *hsi.Cube, sc *scene, st Settings, s, nf float64, stream uint64) (*trainer, error) {
	t := &trainer{m: m, src: src, sc: sc, st: st, s: s, nf: nf, arena: nn.NewArena(),
		rng: rand.New(rand.NewPCG(seedOf(sc.x, s), stream))}
	switch st.Layers {
	case "all":
		t.params = m.Params()
	case "head":
		t.frozen = true
		t.params = nn.Prefix("film", m.FiLM.Params())
		t.params = append(t.params, nn.Prefix("head", m.Head.Params())...)
		t.params = append(t.params, nn.Prefix("geometry", m.Geo.Params())...)
		t.params = append(t.params, nn.Prefix("operator", m.Op.Params())...)
	default:
		return nil, fmt.Errorf("adapt: layers %q: want all or head", st.Layers)
	}
	t.adam = nn.NewAdam(t.params)
	return t, nil
}

// pair draws one training pair: a crop of src, flipped or rotated, and
// its downsampling by a factor.
func (t *trainer) pair() (hr, lr, clean *hsi.Cube, f float64, err error) {
	x, sc, st := t.src, t.sc, t.st
	h, w := x.H, x.W
	hi := min(st.FactorMax, t.s)
	lo := min(st.FactorMin, hi)
	f = lo + (hi-lo)*t.rng.Float64()
	pmax := min(st.PatchMax, h, w)
	pmin := min(max(st.PatchMin, int(math.Ceil(f*float64(st.MinLR)))), pmax)
	if lo := resample.OutSize(pmax, f); lo < 2 {
		f = float64(pmax) / 2
	}
	p := pmin + t.rng.IntN(pmax-pmin+1)
	y0, x0 := t.rng.IntN(h-p+1), t.rng.IntN(w-p+1)
	crop, err := x.Crop(y0, x0, p, p)
	if err != nil {
		return nil, nil, nil, 0, err
	}
	if hr, err = model.Dihedral(t.rng.IntN(8)).Apply(crop); err != nil {
		return nil, nil, nil, 0, err
	}
	lh := max(1, resample.OutSize(p, f))
	if clean, err = resample.Downsample(hr, lh, lh); err != nil {
		return nil, nil, nil, 0, err
	}
	lr = clean
	if st.TopUp {
		lr = clean.Clone()
		sc.topUp(lr, f, 1, t.rng)
	}
	return hr, lr, clean, float64(p) / float64(lh), nil
}

// step takes one optimizer step on Batch pairs.
func (t *trainer) step() error {
	nn.ZeroGrads(t.params)
	for range t.st.Batch {
		hr, lr, clean, f, err := t.pair()
		if err != nil {
			return fmt.Errorf("adapt: %w", err)
		}
		if err := t.accumulate(hr, lr, clean, f, 1/float32(t.st.Batch)); err != nil {
			return err
		}
	}
	nn.ClipGradNorm(t.params, 1)
	t.adam.Step(t.st.LR)
	return nil
}

// accumulate adds scale * dLoss/dparams of one pair to the gradients.
func (t *trainer) accumulate(hr, lr, clean *hsi.Cube, f float64, scale float32) error {
	g := nn.NewGraph(true).WithArena(t.arena)
	defer g.Release()
	z, err := t.m.Input(lr)
	if err != nil {
		return err
	}
	var feat *nn.Tensor
	if t.frozen {
		feat = t.m.Encode(nn.NewGraph(false), z)
	} else {
		feat = t.m.Encode(g, z)
	}
	raw := t.m.HeadRaw(g, feat, f, t.nf)
	out, err := t.m.NewOutputWorkers(lr, raw.Data, hr.H, hr.W, nn.FixedWorkers)
	if err != nil {
		return err
	}
	y, err := out.Render()
	if err != nil {
		return err
	}
	ys, hs, cs := y, hr, clean
	if k := t.sc.keep; k != nil {
		if ys, err = y.SelectBands(k); err != nil {
			return err
		}
		if hs, err = hr.SelectBands(k); err != nil {
			return err
		}
		if cs, err = clean.SelectBands(k); err != nil {
			return err
		}
	}
	_, dys, err := loss.Compute(ys, hs, cs, loss.Paper)
	if err != nil {
		return err
	}
	dy := dys
	if k := t.sc.keep; k != nil {
		dy = make([]float32, len(y.Data))
		nb := len(k)
		for p := range y.H * y.W {
			for i, b := range k {
				dy[p*y.B+b] = dys[p*nb+i]
			}
		}
	}
	for i := range dy {
		dy[i] *= scale
	}
	draw, err := out.Backward(dy)
	if err != nil {
		return err
	}
	g.BackwardFrom(map[*nn.Tensor][]float32{raw: draw})
	return nil
}
