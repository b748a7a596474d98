package nn

import (
	"encoding/json"
	"math"
	"os"
	"testing"
)

// golden.json is written by testdata/gen_golden.py (PyTorch, float64) and
// committed: forward values and gradients of L = sum(out * r).
type goldenCase struct {
	Name     string               `json:"name"`
	OutShape []int                `json:"out_shape"`
	Out      []float64            `json:"out"`
	R        []float64            `json:"r"`
	Inputs   map[string]goldenArr `json:"inputs"`
	Grads    map[string][]float64 `json:"grads"`
}

type goldenArr struct {
	Shape []int     `json:"shape"`
	Data  []float64 `json:"data"`
}

func (a goldenArr) tensor() *Tensor {
	s := append([]int(nil), a.Shape...)
	for len(s) < 4 {
		s = append([]int{1}, s...)
	}
	d := make([]float32, len(a.Data))
	for i, v := range a.Data {
		d[i] = float32(v)
	}
	return FromData(s[0], s[1], s[2], s[3], d).RequireGrad()
}

// closeTo reports the largest |got - want| relative to the largest |want|.
func relErr(got []float32, want []float64) float64 {
	var d, m float64
	for i, w := range want {
		d = math.Max(d, math.Abs(float64(got[i])-w))
		m = math.Max(m, math.Abs(w))
	}
	if len(got) != len(want) {
		return math.Inf(1)
	}
	return d / math.Max(m, 1e-30)
}

func TestGoldenPyTorch(t *testing.T) {
	raw, err := os.ReadFile("testdata/golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var gf struct {
		Cases []goldenCase `json:"cases"`
	}
	if err := json.Unmarshal(raw, &gf); err != nil {
		t.Fatal(err)
	}
	ops := map[string]func(g *Graph, in map[string]*Tensor) *Tensor{
		"conv3x3_zeros": func(g *Graph, in map[string]*Tensor) *Tensor { return g.Conv2D(in["x"], in["w"], in["b"], PadZero) },
		"conv3x3_replicate": func(g *Graph, in map[string]*Tensor) *Tensor {
			return g.Conv2D(in["x"], in["w"], in["b"], PadReplicate)
		},
		"conv5x5_replicate": func(g *Graph, in map[string]*Tensor) *Tensor {
			return g.Conv2D(in["x"], in["w"], in["b"], PadReplicate)
		},
		"conv1x1_zeros": func(g *Graph, in map[string]*Tensor) *Tensor { return g.Conv2D(in["x"], in["w"], in["b"], PadZero) },
		"layernorm": func(g *Graph, in map[string]*Tensor) *Tensor {
			return g.LayerNorm(in["x"], in["gamma"], in["beta"], 1e-5)
		},
		"gelu":      func(g *Graph, in map[string]*Tensor) *Tensor { return g.GELU(in["x"]) },
		"softplus":  func(g *Graph, in map[string]*Tensor) *Tensor { return g.Softplus(in["x"]) },
		"tanh":      func(g *Graph, in map[string]*Tensor) *Tensor { return g.Tanh(in["x"]) },
		"sigmoid":   func(g *Graph, in map[string]*Tensor) *Tensor { return g.Sigmoid(in["x"]) },
		"leakyrelu": func(g *Graph, in map[string]*Tensor) *Tensor { return g.LeakyReLU(in["x"], 0.1) },
		"essa_layer": func(g *Graph, in map[string]*Tensor) *Tensor {
			c := in["x"].C
			wq, wo := in["wqkv"], in["wo"]
			wq = FromData(3*c, 1, 1, c, wq.Data).RequireGrad()
			wo = FromData(c, 1, 1, c, wo.Data).RequireGrad()
			in["wqkv"], in["wo"] = wq, wo
			return g.Linear(g.ESSA(g.Linear(in["x"], wq, in["bqkv"])), wo, in["bo"])
		},
		"charbonnier":        func(g *Graph, in map[string]*Tensor) *Tensor { return g.Charbonnier(in["p"], in["t"], 1e-6) },
		"spectral_angle":     func(g *Graph, in map[string]*Tensor) *Tensor { return g.SpectralAngle(in["p"], in["t"]) },
		"spectral_curvature": func(g *Graph, in map[string]*Tensor) *Tensor { return g.SpectralCurvature(in["p"], in["t"]) },
	}
	if len(gf.Cases) != len(ops) {
		t.Fatalf("%d golden cases, %d ops", len(gf.Cases), len(ops))
	}
	for _, c := range gf.Cases {
		op := ops[c.Name]
		if op == nil {
			t.Errorf("no op for golden case %s", c.Name)
			continue
		}
		in := map[string]*Tensor{}
		for k, a := range c.Inputs {
			in[k] = a.tensor()
		}
		g := NewGraph(true)
		out := op(g, in)
		if e := relErr(out.Data, c.Out); !(e < 1e-5) {
			t.Errorf("%s: forward differs from PyTorch by %.3g (relative to max)", c.Name, e)
		}
		r := make([]float32, len(c.R))
		for i, v := range c.R {
			r[i] = float32(v)
		}
		g.BackwardFrom(map[*Tensor][]float32{out: r})
		for k, want := range c.Grads {
			if e := relErr(in[k].Grad, want); !(e < 1e-4) {
				t.Errorf("%s: gradient of %s differs from PyTorch by %.3g", c.Name, k, e)
			} else {
				t.Logf("%-18s d/d%-5s rel. diff %.1e", c.Name, k, e)
			}
		}
	}
}
