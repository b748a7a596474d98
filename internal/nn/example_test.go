package nn_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"

	"github.com/omnihsr/omnihsr/internal/nn"
)

// Fit a 3x3 convolution to a fixed target with Adam and the paper's
// schedule.
func Example() {
	r := rand.New(rand.NewPCG(2026, 0))
	conv := nn.NewConv2D(r, 2, 2, 3, nn.PadReplicate)
	params := nn.Prefix("conv", conv.Params())
	opt := nn.NewAdam(params)
	sched := nn.PaperSchedule(200)
	sched.Base = 1e-2

	x := nn.New(1, 8, 8, 2).Randn(r, 1)
	target := nn.New(1, 8, 8, 2).Randn(r, 0.1)
	arena := nn.NewArena()
	var first, last float32
	for step := 0; step < 200; step++ {
		g := nn.NewGraph(true).WithArena(arena)
		loss := g.Charbonnier(conv.Forward(g, x), target, 1e-6)
		opt.ZeroGrad()
		g.Backward(loss)
		opt.Step(sched.LR(step))
		if step == 0 {
			first = loss.Data[0]
		}
		last = loss.Data[0]
		g.Release()
	}
	fmt.Println("parameters:", nn.CountParams(params))
	fmt.Println("loss fell by more than 2x:", last < first/2)
	// Output:
	// parameters: 38
	// loss fell by more than 2x: true
}

func ExampleCheckpoint() {
	r := rand.New(rand.NewPCG(1, 2))
	lin := nn.NewLinear(r, 4, 3)
	params := nn.Prefix("head", lin.Params())

	var buf bytes.Buffer
	ck := nn.Checkpoint{Config: []byte(`{"c":4}`), Params: params} // weights only
	if err := ck.Encode(&buf); err != nil {
		fmt.Println(err)
		return
	}
	f, err := nn.DecodeCheckpoint(buf.Bytes(), "head.omw")
	if err != nil {
		fmt.Println(err)
		return
	}
	fresh := nn.Prefix("head", nn.NewLinear(rand.New(rand.NewPCG(9, 9)), 4, 3).Params())
	fmt.Println(f.Kind, string(f.Config), f.Names(), f.LoadParams(fresh))
	fmt.Println(fresh[0].T.Data[0] == params[0].T.Data[0])
	// Output:
	// weights {"c":4} [head.weight head.bias] <nil>
	// true
}

// Start the backward pass from a gradient computed outside the graph.
func ExampleGraph_BackwardFrom() {
	w := nn.NewParam(2, 1, 1, 2) // Linear(2 -> 2)
	copy(w.Data, []float32{1, 2, 3, 4})
	x := nn.FromData(1, 1, 1, 2, []float32{1, 1})
	g := nn.NewGraph(true)
	y := g.Linear(x, w, nil) // y = [3, 7]
	g.BackwardFrom(map[*nn.Tensor][]float32{y: {1, 0.5}})
	fmt.Println(y.Data, w.Grad)
	// Output: [3 7] [1 1 0.5 0.5]
}
