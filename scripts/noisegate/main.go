// Command noisegate chooses the noise gate of the shipped model pair: the
// noise feature above which the noise-aware model renders instead of the
// model for clean inputs. It scores both models on the training run's
// validation samples (the held-out natural images and the held-out rows of
// the hsi/train scenes; never hsi/eval), clean and with the fixed noise of
// train.NoisyValSpecs (one noise per sample), or with -every each sample
// under every noise of gateSpecs, and prints, for candidate gates,
// the mean PSNR and SAM gains over bicubic on the clean and on the noisy
// samples; it recommends the gate with the highest sum of the two PSNR
// gains whose clean gain is within -tol dB of the clean model's alone. The
// gate table scores the companion's own output; when the noise-aware
// weights already carry a gate, the last lines score the pair as it
// renders, with the field gain it measures on every routed input
// (model.Model.WithNoisy), and count the samples it leaves below bicubic.
//
// With -rendered the gate table scores the companion as the pair renders
// it, with the field gain it measures on every input it is handed (the pair
// with gate 0), instead of its own output. With -scenes the clean samples
// also include the training scenes of ../shared/data/hsi/train whole, by
// Wald's protocol at x2, x4 and x8 (normalised to [0, 1] as eval does,
// degraded with the antialiased bicubic): images of the size and kind the
// tool is run on, where the validation's clean samples are 12-48-pixel
// patches of photographs and 3-13-pixel rows of those scenes.
//
// With -write FILE it also writes the noise-aware weights with the
// recommended gate in their configuration (model.Config.NoiseGate), ready to
// ship as internal/model/weights/noise.omw.
//
//	go run ./scripts/noisegate -clean internal/model/weights/default.omw -noisy runs/noise1/best.omw -write internal/model/weights/noise.omw
//
// The shipped gate:
//
//	go run ./scripts/noisegate -noisy internal/model/weights/noise.omw -every -rendered -scenes -write internal/model/weights/noise.omw
package main

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"

	"github.com/omnihsr/omnihsr/internal/eval"
	"github.com/omnihsr/omnihsr/internal/loss"
	"github.com/omnihsr/omnihsr/internal/model"
	"github.com/omnihsr/omnihsr/internal/nn"
	"github.com/omnihsr/omnihsr/internal/scenes"
	"github.com/omnihsr/omnihsr/internal/train"
	"github.com/omnihsr/omnihsr/noise"
	"github.com/omnihsr/omnihsr/resample"
)

type score struct {
	feature              float64
	bic, clean, noisy    float64 // PSNR (dB)
	sbic, sclean, snoisy float64 // SAM (degrees)
	pair, spair          float64 // the pair as it renders (with the field gain), PSNR and SAM
	isNoisy              bool
}

// at returns the PSNR and SAM of the pair at gate g without the field
// gain: the noise-aware model's above the gate, the clean model's else.
func (s score) at(g float64) (psnr, sam float64) {
	if s.feature > g {
		return s.noisy, s.snoisy
	}
	return s.clean, s.sclean
}

func main() {
	cleanPath := flag.String("clean", "internal/model/weights/default.omw", "weights for clean inputs")
	noisyPath := flag.String("noisy", "", "noise-aware weights")
	shared := flag.String("shared", "", "shared data directory (default ../shared)")
	tol := flag.Float64("tol", 0.02, "largest loss of clean validation gain (dB) the gate may cost")
	write := flag.String("write", "", "write the noise-aware weights with the recommended gate to this file")
	every := flag.Bool("every", false, "score every validation sample under every noise of the gate's list (360 noisy samples) instead of one noise per sample (40)")
	rendered := flag.Bool("rendered", false, "score the companion as the pair renders it (with its field gain) in the gate table")
	withScenes := flag.Bool("scenes", false, "add the training scenes, whole, at x2, x4 and x8 (Wald's protocol) to the clean samples")
	flag.Parse()
	if err := run(*cleanPath, *noisyPath, *shared, *tol, *write, *every, *rendered, *withScenes); err != nil {
		fmt.Fprintln(os.Stderr, "noisegate:", err)
		os.Exit(1)
	}
}

func run(cleanPath, noisyPath, shared string, tol float64, write string, every, rendered, withScenes bool) error {
	if noisyPath == "" {
		return fmt.Errorf("give -noisy")
	}
	if shared == "" {
		s, ok := scenes.SharedDir()
		if !ok {
			return fmt.Errorf("no ../shared directory; give -shared")
		}
		shared = s
	}
	cm, err := model.Load(cleanPath)
	if err != nil {
		return err
	}
	nm, err := model.Load(noisyPath)
	if err != nil {
		return err
	}
	// The pair as model.Default builds it, when the noise-aware weights
	// carry a gate: the field gain is part of its rendering.
	var pair *model.Model
	if nm.Cfg.NoiseGate > 0 {
		if pair, err = cm.WithNoisy(nm, nm.Cfg.NoiseGate); err != nil {
			return err
		}
	}
	opt := train.DefaultDataOptions(shared)
	opt.NoisyVal = !every
	ds, err := train.LoadDataset(opt)
	if err != nil {
		return err
	}
	noisy := ds.NoisyVal
	if every {
		if noisy, err = noisySamples(ds.Val); err != nil {
			return err
		}
	}
	// comp renders the companion's column of the gate table: its own
	// output, or with -rendered the pair's for every input it is handed.
	comp := nm
	if rendered {
		if comp, err = cm.WithNoisy(nm, 0); err != nil {
			return err
		}
	}
	clean := ds.Val
	if withScenes {
		sc, err := sceneSamples(shared)
		if err != nil {
			return err
		}
		clean = append(clean[:len(clean):len(clean)], sc...)
	}
	var all []score
	for _, set := range []struct {
		s     []*train.Sample
		noisy bool
	}{{clean, false}, {noisy, true}} {
		for _, smp := range set.s {
			sc, err := scoreSample(cm, comp, pair, smp)
			if err != nil {
				return fmt.Errorf("%s: %w", smp.Name, err)
			}
			sc.isNoisy = set.noisy
			all = append(all, sc)
		}
	}
	gates := []float64{math.Inf(1)}
	for _, s := range all {
		gates = append(gates, s.feature)
	}
	sort.Float64s(gates)
	ref := cleanRefOf(all)
	best, bestGate, bestClean, bestNoisy := math.Inf(-1), math.Inf(1), 0.0, 0.0
	fmt.Println("gate\tclean_gain\tnoisy_gain\tclean_sam_gain\tnoisy_sam_gain\tnoisy_routed\tnoisy_below")
	for i, g := range gates {
		var cg, ng, cs, ns float64
		var nc, nn, routed, below int
		for _, s := range all {
			p, sam := s.at(g)
			if s.feature > g && s.isNoisy {
				routed++
			}
			if s.isNoisy {
				if p < s.bic {
					below++
				}
				ng += p - s.bic
				ns += s.sbic - sam
				nn++
			} else {
				cg += p - s.bic
				cs += s.sbic - sam
				nc++
			}
		}
		cg, ng, cs, ns = cg/float64(nc), ng/float64(nn), cs/float64(nc), ns/float64(nn)
		if i%4 == 0 || math.IsInf(g, 1) {
			fmt.Printf("%.3f\t%+.4f\t%+.4f\t%+.4f\t%+.4f\t%d/%d\t%d\n", g, cg, ng, cs, ns, routed, nn, below)
		}
		if cg >= ref-tol-1e-9 && cg+ng > best {
			best, bestGate, bestClean, bestNoisy = cg+ng, g, cg, ng
		}
	}
	// The gate written is halfway to the next sample's feature: the same
	// split of the samples, with room for the last bits in which another
	// CPU's noise estimate may differ.
	for _, g := range gates {
		if g > bestGate && !math.IsInf(g, 1) {
			bestGate = (bestGate + g) / 2
			break
		}
	}
	fmt.Printf("recommended gate %.4f: clean gain %+.4f dB (clean model alone %+.4f), noisy gain %+.4f dB\n", bestGate, bestClean, ref, bestNoisy)
	if pair != nil {
		printPair(all, nm.Cfg.NoiseGate)
	}
	if write == "" {
		return nil
	}
	if math.IsInf(bestGate, 0) {
		return fmt.Errorf("no gate keeps the clean gain within %g dB: nothing written", tol)
	}
	f, err := nn.ReadCheckpoint(noisyPath)
	if err != nil {
		return err
	}
	nm.Cfg.NoiseGate = bestGate
	if err := nm.Save(write, f.Meta); err != nil {
		return err
	}
	fmt.Printf("wrote %s (noise gate %.4f)\n", write, bestGate)
	return nil
}

// gateSpecs are the noises every validation sample is scored under: those
// of train.NoisyValSpecs and the same families at the weaker level 0.01
// (white 0.005 too), the level given as the standard deviation at a value
// of 0.5 for signal-dependent noise.
func gateSpecs(bands int) []noise.Spec {
	return append(train.NoisyValSpecs(bands),
		noise.Spec{Kind: noise.White, Sigma: 0.005},
		noise.Spec{Kind: noise.Signal, Shot: 0.75 * 0.01 * 0.01 / 0.5, Read: 0.5 * 0.01},
		noise.Spec{Kind: noise.Profile, Sigma: 0.01, Band: noise.SensorProfile(nil, bands)},
	)
}

// noisySamples returns every validation sample under every noise of
// gateSpecs, each draw seeded by the sample and the noise.
func noisySamples(val []*train.Sample) ([]*train.Sample, error) {
	var out []*train.Sample
	for i, s := range val {
		for j, sp := range gateSpecs(s.LR.B) {
			n, err := s.WithNoise(sp, rand.New(rand.NewPCG(uint64(i), uint64(j))))
			if err != nil {
				return nil, fmt.Errorf("validation sample %s: %w", s.Name, err)
			}
			out = append(out, n)
		}
	}
	return out, nil
}

// sceneSamples returns the training scenes of shared's scenes.tsv, whole,
// as Wald's protocol makes its inputs at x2, x4 and x8: normalised as eval
// does (negatives clamped to 0, divided by the maximum), the input of side
// round(side/s) degraded with the antialiased bicubic.
func sceneSamples(shared string) ([]*train.Sample, error) {
	all, err := scenes.Parse(filepath.Join(shared, "data", "hsi", "scenes.tsv"))
	if err != nil {
		return nil, err
	}
	var out []*train.Sample
	for _, sc := range scenes.Filter(all, "train") {
		c, err := scenes.Load(sc)
		if err != nil {
			return nil, err
		}
		c.NormalizeMax() // as eval.Run normalises: the maximum becomes 1
		if slices.Max(c.Data) <= 0 {
			return nil, fmt.Errorf("%s: no positive sample", sc.Name())
		}
		for _, s := range []float64{2, 4, 8} {
			lr, err := eval.Degradation{}.Input(c, s, 0)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", sc.Name(), err)
			}
			out = append(out, &train.Sample{Name: fmt.Sprintf("%s x%g", sc.Name(), s), HR: c, LR: lr, Scale: s})
		}
	}
	return out, nil
}

// cleanRefOf is the mean clean-sample gain of the clean model alone.
func cleanRefOf(all []score) float64 {
	var s float64
	n := 0
	for _, x := range all {
		if !x.isNoisy {
			s += x.clean - x.bic
			n++
		}
	}
	return s / float64(n)
}

// printPair prints the mean gains over bicubic of the pair as it renders
// (its gate, the field gain on routed inputs) and how many samples it
// leaves below bicubic, clean and noisy.
func printPair(all []score, gate float64) {
	for _, gain := range []bool{false, true} {
		for _, noisy := range []bool{false, true} {
			var g, sg float64
			var n, below, sbelow int
			for _, s := range all {
				if s.isNoisy != noisy {
					continue
				}
				p, sam := s.at(gate)
				if gain {
					p, sam = s.pair, s.spair
				}
				g += p - s.bic
				sg += s.sbic - sam
				n++
				if p < s.bic {
					below++
				}
				if sam > s.sbic {
					sbelow++
				}
			}
			what := map[bool]string{false: "clean", true: "noisy"}[noisy]
			how := map[bool]string{false: "without the field gain", true: "as it renders, with the field gain"}[gain]
			fmt.Printf("pair at gate %.4f %s: %s samples %d, PSNR gain %+.4f dB (%d below bicubic), SAM gain %+.4f deg (%d below)\n",
				gate, how, what, n, g/float64(n), below, sg/float64(n), sbelow)
		}
	}
}

func scoreSample(cm, nm, pair *model.Model, smp *train.Sample) (score, error) {
	var sc score
	nz, err := cm.NoiseLevel(smp.LR, nil)
	if err != nil {
		return sc, err
	}
	sc.feature = nz.Feature
	b, err := resample.Upsample(smp.LR, smp.HR.H, smp.HR.W)
	if err != nil {
		return sc, err
	}
	if sc.bic, sc.sbic, err = loss.Score(smp.HR, b); err != nil {
		return sc, err
	}
	for _, m := range []struct {
		m      *model.Model
		p, sam *float64
	}{{cm, &sc.clean, &sc.sclean}, {nm, &sc.noisy, &sc.snoisy}} {
		y, err := m.m.Upscale(smp.LR, smp.HR.H, smp.HR.W)
		if err != nil {
			return sc, err
		}
		if *m.p, *m.sam, err = loss.Score(smp.HR, y); err != nil {
			return sc, err
		}
	}
	if pair != nil {
		y, err := pair.Upscale(smp.LR, smp.HR.H, smp.HR.W)
		if err != nil {
			return sc, err
		}
		if sc.pair, sc.spair, err = loss.Score(smp.HR, y); err != nil {
			return sc, err
		}
	}
	return sc, nil
}
