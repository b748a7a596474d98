package nn

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tinyNet is a small model using most layer types, for optimizer and
// checkpoint tests.
type tinyNet struct {
	c1   *Conv2DLayer
	ln   *LayerNormLayer
	attn *ESSALayer
	c2   *Conv2DLayer
}

func newTinyNet(seed uint64) *tinyNet {
	r := rand.New(rand.NewPCG(seed, 1))
	return &tinyNet{
		c1:   NewConv2D(r, 3, 8, 3, PadReplicate),
		ln:   NewLayerNorm(8),
		attn: NewESSA(r, 8),
		c2:   NewConv2D(r, 8, 3, 3, PadZero),
	}
}

func (m *tinyNet) params() []Param {
	var ps []Param
	ps = append(ps, Prefix("c1", m.c1.Params())...)
	ps = append(ps, Prefix("ln", m.ln.Params())...)
	ps = append(ps, Prefix("attn", m.attn.Params())...)
	ps = append(ps, Prefix("c2", m.c2.Params())...)
	return ps
}

func (m *tinyNet) forward(g *Graph, x *Tensor) *Tensor {
	h := g.GELU(m.c1.Forward(g, x))
	h = g.Add(h, m.attn.Forward(g, m.ln.Forward(g, h)))
	return g.Add(m.c2.Forward(g, h), x)
}

// trainSteps runs steps [from, to) of a seeded training run: the batch of
// each step comes from data, whose state is part of the checkpoint.
func trainSteps(m *tinyNet, opt *Adam, data *rand.PCG, sched StepSchedule, from, to int) {
	r := rand.New(data)
	for step := from; step < to; step++ {
		x := New(2, 6, 5, 3).Randn(r, 1)
		y := New(2, 6, 5, 3).Randn(r, 0.5)
		g := NewGraph(true)
		out := m.forward(g, x)
		loss := g.WeightedSum([]*Tensor{
			g.Charbonnier(out, y, 1e-6),
			g.SpectralAngle(out, y),
			g.SpectralCurvature(out, y),
		}, []float32{1, 0.1, 0.05})
		opt.ZeroGrad()
		g.Backward(loss)
		ClipGradNorm(opt.Params, 10)
		opt.Step(sched.LR(step))
	}
}

// TestResumeEquivalence: N steps straight equal N/2 steps, save, load into a
// freshly (differently) initialised model, N/2 more steps — bit for bit.
func TestResumeEquivalence(t *testing.T) {
	const n = 10
	sched := PaperSchedule(n)
	sched.Base = 1e-2 // large enough that every step moves the weights

	a := newTinyNet(1)
	optA := NewAdam(a.params())
	dataA := rand.NewPCG(42, 43)
	trainSteps(a, optA, dataA, sched, 0, n)

	b := newTinyNet(1)
	optB := NewAdam(b.params())
	dataB := rand.NewPCG(42, 43)
	trainSteps(b, optB, dataB, sched, 0, n/2)
	extra, err := dataB.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "ck.omc")
	cfg := json.RawMessage(`{"width":8}`)
	meta := json.RawMessage(`{"step":5}`)
	if err := (&Checkpoint{Config: cfg, Meta: meta, Extra: extra, Params: b.params(), Opt: optB}).Save(path); err != nil {
		t.Fatal(err)
	}

	c := newTinyNet(99) // different initial weights: all must come from the file
	optC := NewAdam(c.params())
	f, err := ReadCheckpoint(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.LoadParams(c.params()); err != nil {
		t.Fatal(err)
	}
	if err := f.LoadAdam(optC); err != nil {
		t.Fatal(err)
	}
	if string(f.Config) != string(cfg) || string(f.Meta) != string(meta) || f.Step != n/2 || f.Kind != "checkpoint" {
		t.Fatalf("header: config %s meta %s step %d kind %s", f.Config, f.Meta, f.Step, f.Kind)
	}
	dataC := rand.NewPCG(0, 0)
	if err := dataC.UnmarshalBinary(f.Extra); err != nil {
		t.Fatal(err)
	}
	trainSteps(c, optC, dataC, sched, n/2, n)

	pa, pc := a.params(), c.params()
	moved := false
	init := newTinyNet(1).params()
	for i := range pa {
		for j := range pa[i].T.Data {
			if pa[i].T.Data[j] != pc[i].T.Data[j] {
				t.Fatalf("%s[%d]: straight %v, resumed %v", pa[i].Name, j, pa[i].T.Data[j], pc[i].T.Data[j])
			}
			if pa[i].T.Data[j] != init[i].T.Data[j] {
				moved = true
			}
		}
		for j := range optA.M[i] {
			if optA.M[i][j] != optC.M[i][j] || optA.V[i][j] != optC.V[i][j] {
				t.Fatalf("%s: Adam moments differ", pa[i].Name)
			}
		}
	}
	if !moved || optC.StepCount != n {
		t.Fatalf("training did not run (moved %v, steps %d)", moved, optC.StepCount)
	}
}

func saveBytes(t *testing.T, ck *Checkpoint) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := ck.Encode(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestCheckpointErrors(t *testing.T) {
	m := newTinyNet(1)
	ps := m.params()
	full := saveBytes(t, &Checkpoint{Params: ps, Opt: NewAdam(ps), Extra: []byte{1, 2, 3}})
	weights := saveBytes(t, &Checkpoint{Params: ps, Config: json.RawMessage(`{"c":8}`)})

	if f, err := DecodeCheckpoint(weights, "w.omw"); err != nil || f.Kind != "weights" || f.HasOptimizer() {
		t.Fatalf("weights file: %v %+v", err, f)
	} else if err := f.LoadAdam(NewAdam(ps)); err == nil || !strings.Contains(err.Error(), "no optimizer state") {
		t.Fatalf("LoadAdam on weights file: %v", err)
	}

	corrupt := func(mod func([]byte) []byte) []byte {
		return mod(append([]byte(nil), full...))
	}
	hlen := int(binary.LittleEndian.Uint32(full[12:]))
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "bad magic"},
		{"text", []byte("hello world, not a checkpoint"), "bad magic"},
		{"preamble only", full[:12], "truncated"},
		{"header cut", full[:16+hlen/2], "truncated"},
		{"payload cut", full[:len(full)-100], "truncated"},
		{"crc cut", full[:len(full)-2], "truncated"},
		{"trailing", append(append([]byte(nil), full...), 0), "unexpected bytes"},
		{"version", corrupt(func(b []byte) []byte { binary.LittleEndian.PutUint32(b[8:], 7); return b }), "version 7"},
		{"huge header", corrupt(func(b []byte) []byte { binary.LittleEndian.PutUint32(b[12:], 1<<31); return b }), "implausible"},
		{"flipped payload bit", corrupt(func(b []byte) []byte { b[len(b)-50] ^= 1; return b }), "checksum"},
		{"bad json", corrupt(func(b []byte) []byte { b[16] = '['; return b }), "bad header"},
	} {
		_, err := DecodeCheckpoint(tc.data, "ck.omc")
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "ck.omc") {
			t.Errorf("%s: error %v, want one naming the file and containing %q", tc.name, err, tc.want)
		}
	}

	f, err := DecodeCheckpoint(full, "ck.omc")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(f.Extra, []byte{1, 2, 3}) {
		t.Fatalf("extra %v", f.Extra)
	}
	// A model with one more parameter, one fewer, and one of another shape.
	r := rand.New(rand.NewPCG(5, 5))
	more := append(append([]Param(nil), ps...), Param{"head.weight", NewParam(1, 1, 1, 4)})
	if err := f.LoadParams(more); err == nil || !strings.Contains(err.Error(), "missing tensor(s) head.weight") {
		t.Errorf("missing: %v", err)
	}
	if err := f.LoadParams(ps[1:]); err == nil || !strings.Contains(err.Error(), "does not have: c1.weight") {
		t.Errorf("extra: %v", err)
	}
	wrong := append([]Param(nil), ps...)
	wrong[0] = Param{"c1.weight", NewConv2D(r, 3, 16, 3, PadZero).W}
	before := append([]float32(nil), ps[1].T.Data...)
	if err := f.LoadParams(wrong); err == nil || !strings.Contains(err.Error(), "shape mismatch: c1.weight") {
		t.Errorf("shape: %v", err)
	}
	for i := range before {
		if ps[1].T.Data[i] != before[i] {
			t.Fatal("a failed LoadParams modified the model")
		}
	}
	if err := f.LoadAdam(NewAdam(more)); err == nil || !strings.Contains(err.Error(), "adam.m/head.weight") {
		t.Errorf("adam missing: %v", err)
	}
	if err := (&Checkpoint{Params: append(ps, ps[0])}).Encode(&bytes.Buffer{}); err == nil {
		t.Error("duplicate names accepted")
	}
}

func TestCheckpointSaveAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "w.omw")
	ps := newTinyNet(1).params()
	if err := (&Checkpoint{Params: ps}).Save(path); err != nil {
		t.Fatal(err)
	}
	if err := (&Checkpoint{Params: ps}).Save(filepath.Join(dir, "missing", "w.omw")); err == nil {
		t.Fatal("save into a missing directory succeeded")
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Fatalf("directory holds %d entries, want only w.omw", len(ents))
	}
	f, err := ReadCheckpoint(path)
	if err != nil {
		t.Fatal(err)
	}
	ps2 := newTinyNet(2).params()
	if err := f.LoadParams(ps2); err != nil {
		t.Fatal(err)
	}
	for i := range ps {
		for j := range ps[i].T.Data {
			if ps[i].T.Data[j] != ps2[i].T.Data[j] {
				t.Fatal("weights differ after a round trip")
			}
		}
	}
	if _, err := ReadCheckpoint(filepath.Join(dir, "nope.omw")); err == nil || !strings.Contains(err.Error(), "nope.omw") {
		t.Fatalf("missing file: %v", err)
	}
}
