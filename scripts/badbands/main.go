// Command badbands chooses the rule of noise.Outliers on the training
// scenes of ../shared/data/hsi (never the evaluation scenes): for every
// factor and noise-to-signal ratio of a grid it counts the bands the rule
// flags on the scenes as they are (SalinasA keeps its water-absorption
// bands), with the synthetic sensor noises of training and evaluation
// added (false alarms), and with blocks of garbage bands injected where
// the water-vapour absorptions and the detector edges fall (recall).
//
//	go run ./scripts/badbands
package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/internal/scenes"
	"github.com/omnihsr/omnihsr/noise"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "badbands:", err)
		os.Exit(1)
	}
}

// garbage replaces the bands of the windows with mostly noise: a tenth of
// their signal plus Gaussian noise of alpha times the scene's mean value.
func garbage(c *hsi.Cube, bands []int, alpha float64, rng *rand.Rand) {
	var mean float64
	for _, v := range c.Data {
		mean += math.Abs(float64(v))
	}
	mean /= float64(len(c.Data))
	for p := 0; p < c.H*c.W; p++ {
		for _, b := range bands {
			i := p*c.B + b
			c.Data[i] = float32(0.1*float64(c.Data[i]) + alpha*mean*rng.NormFloat64())
		}
	}
}

// windows are the injected garbage bands: the two water-vapour windows of
// a 400-2500 nm sensor (1340-1445 and 1790-1955 nm) and three bands at
// each detector edge.
func windows(B int) []int {
	var out []int
	at := func(nm float64) int { return int(math.Round((nm - 400) / 2100 * float64(B-1))) }
	for _, w := range [][2]float64{{1340, 1445}, {1790, 1955}} {
		for b := at(w[0]); b <= at(w[1]); b++ {
			out = append(out, b)
		}
	}
	out = append(out, 0, 1, 2, B-3, B-2, B-1)
	slices.Sort(out)
	return slices.Compact(out)
}

type cell struct{ flagged, bands, cubes, anyCubes int }

func run() error {
	list, ok := scenes.DefaultList()
	if !ok {
		return fmt.Errorf("../shared/data/hsi/scenes.tsv not found")
	}
	all, err := scenes.Parse(list)
	if err != nil {
		return err
	}
	train := scenes.Filter(all, "train")
	factors := []float64{4, 6, 8, 10, 15}
	nsrs := []float64{0, 0.02, 0.05, 0.1}
	conds := []string{"as delivered", "white 0.01", "white 0.03", "shot+read 0.02", "sensor profile 0.01", "sensor profile 0.03", "stripes 0.02", "training draws (x4)",
		"garbage 0.02", "garbage 0.05", "garbage 0.1", "garbage 0.3"}
	res := map[string]map[[2]float64]*cell{}
	for _, cn := range conds {
		res[cn] = map[[2]float64]*cell{}
		for _, f := range factors {
			for _, r := range nsrs {
				res[cn][[2]float64{f, r}] = &cell{}
			}
		}
	}
	for si, s := range train {
		c0, err := scenes.Load(s)
		if err != nil {
			return err
		}
		c0.NormalizeMax()
		rng := rand.New(rand.NewPCG(uint64(si), 2026))
		type variant struct {
			cond   string
			c      *hsi.Cube
			target []int // injected garbage bands (nil: none expected)
		}
		var vs []variant
		add := func(cond string, spec *noise.Spec, target []int, alpha float64) error {
			c := c0.Clone()
			if spec != nil {
				if err := spec.Add(c, rng); err != nil {
					return err
				}
			}
			if target != nil {
				garbage(c, target, alpha, rng)
			}
			vs = append(vs, variant{cond, c, target})
			return nil
		}
		add("as delivered", nil, nil, 0)
		for _, x := range []struct {
			cond string
			spec noise.Spec
		}{
			{"white 0.01", noise.Spec{Kind: noise.White, Sigma: 0.01}},
			{"white 0.03", noise.Spec{Kind: noise.White, Sigma: 0.03}},
			{"shot+read 0.02", noise.Spec{Kind: noise.Signal, Shot: 0.5 * 0.02 * 0.02 / 0.5, Read: math.Sqrt(0.5) * 0.02}},
			{"sensor profile 0.01", noise.Spec{Kind: noise.Profile, Sigma: 0.01, Band: noise.SensorProfile(nil, c0.B)}},
			{"sensor profile 0.03", noise.Spec{Kind: noise.Profile, Sigma: 0.03, Band: noise.SensorProfile(nil, c0.B)}},
			{"stripes 0.02", noise.Spec{Kind: noise.Stripes, Sigma: 0.02, Stripe: 0.01}},
		} {
			if err := add(x.cond, &x.spec, nil, 0); err != nil {
				return err
			}
		}
		for range 4 {
			sp := noise.Draw(rng, c0.B, 0.005, 0.05)
			if err := add("training draws (x4)", &sp, nil, 0); err != nil {
				return err
			}
		}
		for _, a := range []float64{0.02, 0.05, 0.1, 0.3} {
			if err := add(fmt.Sprintf("garbage %g", a), nil, windows(c0.B), a); err != nil {
				return err
			}
		}
		for _, v := range vs {
			sig, err := noise.Bands(v.c, true)
			if err != nil {
				return err
			}
			for key, cl := range res[v.cond] {
				out := noise.OutliersWith(v.c, sig, key[0], key[1])
				n := 0
				for _, o := range out {
					if v.target == nil || slices.Contains(v.target, o.Band) {
						n++
					}
				}
				if v.target != nil {
					// recall: injected bands flagged; false alarms among the others are counted apart
					cl.flagged += n
					cl.bands += len(v.target)
					if len(out) > n {
						cl.anyCubes++
					}
				} else {
					cl.flagged += n
					cl.bands += v.c.B
					if n > 0 {
						cl.anyCubes++
					}
				}
				cl.cubes++
			}
			if v.cond == "as delivered" {
				out := noise.Outliers(v.c, sig)
				var bs []int
				for _, o := range out {
					bs = append(bs, o.Band+1)
				}
				fmt.Printf("%-40s %3d bands: flagged as delivered (1-based, shipped rule): %v\n", s.Name(), v.c.B, bs)
			}
		}
	}
	fmt.Println()
	fmt.Println("| condition | factor | NSR | bands flagged | cubes with a flag |")
	fmt.Println("|---|---:|---:|---:|---:|")
	for _, cn := range conds {
		for _, f := range factors {
			for _, r := range nsrs {
				cl := res[cn][[2]float64{f, r}]
				what := "cubes with a flag"
				if cn[:7] == "garbage" {
					what = "cubes with a false alarm"
				}
				_ = what
				fmt.Printf("| %s | %g | %g | %d of %d (%.1f %%) | %d of %d |\n", cn, f, r, cl.flagged, cl.bands, 100*float64(cl.flagged)/float64(max(cl.bands, 1)), cl.anyCubes, cl.cubes)
			}
		}
	}
	return nil
}
