package nn

import (
	"fmt"
	"math"
	"math/bits"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/omnihsr/omnihsr/internal/par"
)

// Graph records the operations of one forward pass so that Backward can
// run them in reverse. A training graph (NewGraph(true)) records a
// backward closure for every op that has an input requiring a gradient;
// an inference graph (NewGraph(false)) records nothing, so intermediate
// tensors are garbage as soon as the caller drops them.
//
// A Graph is used by one goroutine and for one forward/backward pass; the
// ops themselves use every core (see Workers).
type Graph struct {
	train bool
	tape  []step
	done  bool

	arena   *Arena
	outs    []*Tensor   // op outputs, recycled by Release
	scratch [][]float32 // saved buffers, recycled by Release
}

type step struct {
	out *Tensor
	fn  func()
}

// NewGraph returns an empty graph; train selects whether ops are recorded
// for Backward.
func NewGraph(train bool) *Graph { return &Graph{train: train} }

// Training reports whether g records ops for Backward.
func (g *Graph) Training() bool { return g.train }

// Len is the number of recorded backward steps.
func (g *Graph) Len() int { return len(g.tape) }

// record marks out as produced by an op and, on a training graph, records
// back when any input requires a gradient. back runs only if the output
// received a gradient, and must accumulate (+=) into g.gradOf(input).
func (g *Graph) record(out *Tensor, back func(), inputs ...*Tensor) {
	out.leaf = false
	if !g.train {
		return
	}
	for _, in := range inputs {
		if in != nil && in.needsGrad {
			out.needsGrad = true
			g.tape = append(g.tape, step{out, back})
			return
		}
	}
}

// out allocates an op's output. Its contents are unspecified (zero without
// an arena, recycled values with one): every op overwrites all of it.
func (g *Graph) out(n, h, w, c int) *Tensor {
	t := &Tensor{N: n, H: h, W: w, C: c}
	if g.arena == nil {
		t.Data = make([]float32, n*h*w*c)
		return t
	}
	t.Data = g.arena.get(n * h * w * c)
	g.outs = append(g.outs, t)
	return t
}

// keep returns a zeroed buffer that lives until Release (values an op saves
// for its backward pass).
func (g *Graph) keep(n int) []float32 {
	if g.arena == nil {
		return make([]float32, n)
	}
	s := g.arena.get(n)
	clear(s)
	g.scratch = append(g.scratch, s)
	return s
}

// tmp returns a zeroed temporary buffer; give it back with g.free.
func (g *Graph) tmp(n int) []float32 {
	if g.arena == nil {
		return make([]float32, n)
	}
	s := g.arena.get(n)
	clear(s)
	return s
}

func (g *Graph) free(s []float32) {
	if g.arena != nil {
		g.arena.put(s)
	}
}

// gradOf returns t.Grad, allocating a zero buffer on first use (from the
// arena for intermediate tensors; leaves keep theirs).
func (g *Graph) gradOf(t *Tensor) []float32 {
	if t.Grad == nil {
		if t.leaf || g.arena == nil {
			t.Grad = make([]float32, len(t.Data))
		} else {
			t.Grad = g.tmp(len(t.Data))
		}
	}
	return t.Grad
}

// gradIfNeeded is gradOf for a tensor that needs a gradient, nil for one
// that does not.
func (g *Graph) gradIfNeeded(t *Tensor) []float32 {
	if !t.needsGrad {
		return nil
	}
	return g.gradOf(t)
}

// gradFresh is gradOf for ops that overwrite: when t has no gradient yet
// it returns an uninitialised buffer and fresh = true, and the caller must
// write (=) every element instead of accumulating (+=). This saves
// clearing and re-reading the buffer for the many tensors with a single
// consumer.
func (g *Graph) gradFresh(t *Tensor) (grad []float32, fresh bool) {
	if t.Grad != nil {
		return t.Grad, false
	}
	if t.leaf || g.arena == nil {
		t.Grad = make([]float32, len(t.Data))
	} else {
		t.Grad = g.arena.get(len(t.Data))
	}
	return t.Grad, true
}

// WithArena makes g take its buffers from a (and give them back on
// Release) and returns g. Reusing buffers between training steps avoids
// the zeroing, page faults and garbage collection of fresh allocations.
func (g *Graph) WithArena(a *Arena) *Graph {
	g.arena = a
	return g
}

// Release ends the graph's life. With an arena, every buffer the graph
// allocated goes back to it and the tensors produced on g lose their data
// (Data = nil), so that a later use fails loudly: Clone what must outlive
// the graph first. Without an arena it only drops the recorded steps.
// Parameters, inputs and other leaves are never affected.
func (g *Graph) Release() {
	g.tape = nil
	g.done = true
	if g.arena == nil {
		return
	}
	for _, t := range g.outs {
		g.arena.put(t.Data)
		t.Data = nil
		if t.Grad != nil && !t.leaf {
			g.arena.put(t.Grad)
			t.Grad = nil
		}
	}
	for _, s := range g.scratch {
		g.arena.put(s)
	}
	g.outs, g.scratch = nil, nil
}

// Arena recycles float32 buffers between graphs (one training step after
// another). It is safe for concurrent use. Buffers are kept by size class
// (powers of two in quarter steps: at most 25% larger than asked for), so
// that passes of varying shapes (random patch sizes, band counts and
// factors) share them: its memory stays near the peak of the largest pass
// instead of growing with every new shape. Drop the arena to free it.
type Arena struct {
	mu    sync.Mutex
	free  map[int][][]float32
	bytes int64
}

// NewArena returns an empty arena.
func NewArena() *Arena { return &Arena{free: map[int][][]float32{}} }

// poisonArena makes recycled buffers NaN (tests: an op that reads its
// output before writing it shows up).
var poisonArena = false

// minClass is the smallest size class; smaller buffers are not kept.
const minClass = 64

// classCeil is the smallest size class >= n (n >= 1).
func classCeil(n int) int {
	if n <= minClass {
		return minClass
	}
	p := 1 << (bits.Len(uint(n)) - 1) // power of two <= n
	step := p / 4
	return p + (n-p+step-1)/step*step
}

// classFloor is the largest size class <= c, or 0 if c < minClass.
func classFloor(c int) int {
	if c < minClass {
		return 0
	}
	p := 1 << (bits.Len(uint(c)) - 1)
	step := p / 4
	return p + (c-p)/step*step
}

func (a *Arena) get(n int) []float32 {
	c := classCeil(n)
	a.mu.Lock()
	if l := a.free[c]; len(l) > 0 {
		s := l[len(l)-1]
		a.free[c] = l[:len(l)-1]
		a.bytes -= 4 * int64(cap(s))
		a.mu.Unlock()
		s = s[:n]
		if poisonArena {
			for i := range s {
				s[i] = float32(math.NaN())
			}
		}
		return s
	}
	a.mu.Unlock()
	return make([]float32, n, c)
}

func (a *Arena) put(s []float32) {
	c := classFloor(cap(s))
	if c == 0 {
		return
	}
	s = s[:cap(s)]
	a.mu.Lock()
	a.free[c] = append(a.free[c], s)
	a.bytes += 4 * int64(len(s))
	a.mu.Unlock()
}

// Bytes is the size of the buffers the arena holds for reuse.
func (a *Arena) Bytes() int64 {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.bytes
}

// Backward computes the gradient of the scalar loss (a 1-element tensor)
// with respect to every parameter and every leaf marked RequireGrad,
// accumulating into their Grad.
func (g *Graph) Backward(loss *Tensor) {
	if loss.Len() != 1 {
		panic(fmt.Sprintf("nn: Backward: loss has %d elements, want 1 (use BackwardFrom)", loss.Len()))
	}
	g.BackwardFrom(map[*Tensor][]float32{loss: {1}})
}

// BackwardFrom starts the backward pass from given output gradients:
// seeds[t] is dL/dt for a tensor t produced on g (for example the
// gradient of a loss computed outside nn with respect to a network
// output). Several seeds are summed. Gradients accumulate into the Grad of
// parameters and of leaves marked RequireGrad; intermediate gradients are
// released. A graph can run backward once.
func (g *Graph) BackwardFrom(seeds map[*Tensor][]float32) {
	if !g.train {
		panic("nn: Backward on an inference graph")
	}
	if g.done {
		panic("nn: Backward called twice on one graph")
	}
	g.done = true
	for t, s := range seeds {
		if len(s) != t.Len() {
			panic(fmt.Sprintf("nn: BackwardFrom: seed of %d values for %v", len(s), t))
		}
		if !t.needsGrad {
			continue
		}
		gr := g.gradOf(t)
		for i, v := range s {
			gr[i] += v
		}
	}
	for i := len(g.tape) - 1; i >= 0; i-- {
		st := g.tape[i]
		g.tape[i] = step{}
		if st.out.Grad == nil {
			continue // nothing flowed into this op's output
		}
		st.fn()
		if !st.out.leaf {
			g.free(st.out.Grad)
			st.out.Grad = nil
		}
	}
	g.tape = nil
}

// workers is the number of goroutines ops split their work over:
// GOMAXPROCS, or FixedWorkers while a FixedParts holds.
func workers() int {
	if fixedHolds.Load() > 0 {
		return FixedWorkers
	}
	return runtime.GOMAXPROCS(0)
}

// FixedWorkers is the number of parts ops split their work into while a
// FixedParts holds.
const FixedWorkers = 4

// fixedHolds counts the FixedParts not yet released.
var fixedHolds atomic.Int64

// FixedParts makes every op split its work into FixedWorkers parts
// whatever GOMAXPROCS is, until the returned release is called, so that
// training (whose gradient sums follow the split) gives the same bits on
// any thread count: per-scene adaptation trains under it. It is process
// wide; results of inference, which do not depend on the split, are
// unchanged, and several holds may overlap.
func FixedParts() (release func()) {
	fixedHolds.Add(1)
	var once sync.Once
	return func() { once.Do(func() { fixedHolds.Add(-1) }) }
}

// parts returns how many contiguous parts to split n items into, given
// that each part should hold at least minPer items.
func parts(n, minPer int) int { return par.Parts(n, minPer, workers()) }

// parFor runs fn on contiguous sub-ranges of [0, n), in parallel when n is
// at least 2*minPer. The split depends only on n, minPer and GOMAXPROCS,
// so results are reproducible on one machine.
func parFor(n, minPer int, fn func(lo, hi int)) {
	par.Ranges(n, parts(n, minPer), func(_, lo, hi int) { fn(lo, hi) })
}

// parForIdx is parFor that also passes the index of the part, in
// [0, parts(n, minPer)).
func parForIdx(n, minPer int, fn func(part, lo, hi int)) {
	par.Ranges(n, parts(n, minPer), fn)
}

// parReduce is parFor with a float64 accumulator of width values per part;
// the parts' accumulators are added in order into the returned slice.
func parReduce(n, minPer, width int, fn func(lo, hi int, acc []float64)) []float64 {
	return par.Reduce(n, parts(n, minPer), width, fn)
}

// minElems is the number of elements per goroutine below which elementwise
// ops do not split.
var minElems = 1 << 14
