// Package nn is OmniHSR's neural-network engine: float32 tensors in NHWC
// layout, ops with hand-written backward passes recorded on a tape, PyTorch-
// compatible layers and initialisation, Adam with a step schedule, and a
// versioned checkpoint container. It depends only on package gemm.
//
// # Tensors
//
// A *Tensor has four dimensions N x H x W x C with channels fastest
// (Data[((n*H+y)*W+x)*C+c]): a pixel's channel vector (a spectrum, a token)
// is contiguous, so 1x1 convolutions and linear maps are plain GEMMs,
// LayerNorm and ESSA work on contiguous rows, and a hsi.Cube's data (H x W x
// B, pixel-interleaved) is a 1 x H x W x B tensor without copying
// (FromData). Weights use the same four axes: a KxK convolution weight is
// Cout x K x K x Cin, a linear weight Cout x 1 x 1 x Cin, a bias or a
// LayerNorm affine 1 x 1 x 1 x C, FiLM's gamma/beta N x 1 x 1 x C.
//
// # Graphs and gradients
//
// Ops are methods of a *Graph:
//
//	g := nn.NewGraph(true)             // training: ops record their backward pass
//	y := g.Conv2D(x, w, b, nn.PadReplicate)
//	loss := g.Charbonnier(y, target, 1e-6)
//	g.Backward(loss)                   // dL/dparam accumulates into param.Grad
//
// Parameters (NewParam, or the layers' weights) and inputs marked with
// RequireGrad receive gradients in Grad; Adam.ZeroGrad / ZeroGrads clear
// them. BackwardFrom starts from given output gradients instead of a scalar
// loss, e.g. the gradient of a loss with respect to a network output
// computed outside nn (OmniHSR's COFR renderer):
//
//	g.BackwardFrom(map[*nn.Tensor][]float32{headOut: dLdHeadOut})
//
// Several seeds are summed; a graph runs backward once. An inference graph,
// NewGraph(false), records nothing, so intermediate tensors are garbage as
// soon as the caller drops them.
//
// Buffers: with g.WithArena(arena), op outputs, saved values and
// intermediate gradients come from an Arena, and g.Release() returns them
// after the step (tensors produced on g become unusable; Clone what must
// survive). Reusing buffers saves the zeroing, page faults and garbage
// collection of fresh allocations: 5-10% of a training step of the
// encoder at 2 x 64 x 64 (measured; internal/model/encoder_test.go benchmarks).
//
// Every op splits its work over GOMAXPROCS goroutines; results are
// deterministic for a given GOMAXPROCS and GEMM backend (partial sums are
// combined in a fixed order).
//
// # Ops
//
// Convolution and linear maps: Conv2D (stride 1, odd K, "same" output, zero
// or replicate padding; im2col + GEMM in chunks of about 1 MiB per core, so
// memory stays bounded for any image size), Linear (per-pixel, = 1x1 conv).
// Normalisation and attention: LayerNorm (over channels, affine), ESSA
// (ESSAformer's SCC attention core on a 3C-channel q|k|v tensor).
// Activations: GELU (erf form), LeakyReLU, Softplus, Tanh, Sigmoid, Clamp,
// Scale. Structure: Add, Mul, FiLM ((1+gamma)*x + beta), Concat and Slice
// over channels, SubMean (subtract the mean of a channel group: OmniHSR's
// zero-sum operator), Mean, WeightedSum. Losses (1-element outputs):
// Charbonnier, SpectralAngle (radians), SpectralCurvature.
//
// # Layers, training, checkpoints
//
// Conv2DLayer, LinearLayer, LayerNormLayer, ESSALayer and MLP hold their
// parameters (PyTorch's default initialisation from an explicit
// *rand.Rand) and list them with Params; Prefix composes names into a
// model's ("blocks.0.attn.qkv.weight").
//
// Adam (bias-corrected, beta1 0.9, beta2 0.999, eps 1e-8), StepSchedule /
// PaperSchedule (2e-4 halved at 30%, 60%, 80% of the steps) and
// ClipGradNorm train them. Checkpoint.Save writes weights, Adam's moments
// and step, the model configuration and training metadata (caller JSON)
// and opaque Extra bytes (RNG and sampler state) atomically to a versioned,
// checksummed container; ReadCheckpoint / DecodeCheckpoint read it back and
// LoadParams / LoadAdam restore a model and its optimizer, so that a
// resumed run continues bit for bit. A weights-only file (*.omw) is the
// same container without optimizer state.
package nn
