// Command torchgolden writes the equivalence goldens of the PyTorch port
// (internal/train/torch): the Go forward pass of the shipped weights on small fixed
// inputs, with its intermediate results, so that the Python tests can check
// that internal/train/torch/model.py computes the same thing (within 1e-5), and the
// Go test beside this file keeps the files true without Python.
//
// For every case it writes, as raw little-endian float32 in the cube's
// pixel-interleaved order (height, width, channels):
//
//	NAME.lr.f32       the low-res input (h x w x B)
//	NAME.z.f32        the network input: C_B onto M positions times the input scale (h x w x M)
//	NAME.feat.f32     the encoder's features (h x w x C)
//	NAME.raw.f32      the raw head output at the case's factor (h x w x 31)
//	NAME.bicubic.f32  U_s X, PyTorch's bicubic interpolation (H x W x B)
//	NAME.out.f32      the model's output, the inference path (model.Model.Upscale) (H x W x B)
//
// and manifest.json, which lists the cases with their sizes, the weight file,
// the effective factor, the input scale, the noise feature given to FiLM and
// the training loss terms (loss.Compute) of the output against bicubic.
//
//	go run ./scripts/torchgolden            # rewrites internal/train/torch/testdata
//	go run ./scripts/torchgolden -out DIR
package main

import (
	"encoding/binary"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/internal/atomicfile"
	"github.com/omnihsr/omnihsr/internal/loss"
	"github.com/omnihsr/omnihsr/internal/model"
	"github.com/omnihsr/omnihsr/internal/nn"
	"github.com/omnihsr/omnihsr/internal/testrand"
	"github.com/omnihsr/omnihsr/resample"
)

// Case is one golden input: a weight file, an input size and band count,
// and an output size (fractional and unequal axis factors included).
type Case struct {
	Name    string `json:"name"`
	Weights string `json:"weights"` // relative to the repository root
	H       int    `json:"h"`
	W       int    `json:"w"`
	B       int    `json:"b"`
	OutH    int    `json:"out_h"`
	OutW    int    `json:"out_w"`
	Seed    uint64 `json:"seed"`
	// Noise, when positive, adds white noise of this standard deviation to
	// the input (for the noise-aware weights, whose FiLM takes the noise
	// feature).
	Noise float64 `json:"noise,omitempty"`
}

// Result is a case with what the Go model computed for it.
type Result struct {
	Case
	Factor       float64 `json:"factor"`        // the effective factor FiLM receives
	InputScale   float32 `json:"input_scale"`   // model.InputScale of the input
	NoiseFeature float64 `json:"noise_feature"` // 0 for a model without noise input
	M            int     `json:"m"`
	C            int     `json:"c"`
	// Loss is loss.Compute (the paper's weights) of the output against the
	// bicubic image as the target, with the input as the low-res image:
	// the training loss terms on golden arrays.
	Loss loss.Parts `json:"loss"`
	// arrays holds the files' contents by suffix (lr, z, feat, raw, bicubic, out).
	arrays map[string][]float32
}

// Suffixes are the arrays of a case, in the order written.
var Suffixes = []string{"lr", "z", "feat", "raw", "bicubic", "out"}

// Cases are the committed goldens: band counts 1, 3, 5, 8 and 16, factors
// from x1.5 to x8, fractional and unequal per axis, an input smaller than
// the 7 x 7 neighbourhood, and the noise-aware weights on a noisy input.
var Cases = []Case{
	{Name: "b5_frac", Weights: "internal/model/weights/default.omw", H: 9, W: 11, B: 5, OutH: 23, OutW: 27, Seed: 1},
	{Name: "b1_x4", Weights: "internal/model/weights/default.omw", H: 8, W: 8, B: 1, OutH: 32, OutW: 32, Seed: 2},
	{Name: "b16_x3p7", Weights: "internal/model/weights/default.omw", H: 7, W: 6, B: 16, OutH: 26, OutW: 22, Seed: 3},
	{Name: "b3_x8_small", Weights: "internal/model/weights/default.omw", H: 5, W: 5, B: 3, OutH: 40, OutW: 40, Seed: 4},
	{Name: "b8_noise_x1p5", Weights: "internal/model/weights/noise.omw", H: 10, W: 10, B: 8, OutH: 15, OutW: 15, Seed: 5, Noise: 0.02},
}

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("torchgolden", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "internal/train/torch/testdata", "output directory")
	root := fs.String("root", ".", "repository root (weight files are read relative to it)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	var manifest []Result
	for _, c := range Cases {
		r, err := Compute(*root, c)
		if err != nil {
			fmt.Fprintf(stderr, "torchgolden: %v\n", err)
			return 1
		}
		manifest = append(manifest, r)
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fmt.Fprintf(stderr, "torchgolden: %v\n", err)
		return 1
	}
	total := 0
	for _, r := range manifest {
		for _, s := range Suffixes {
			p := filepath.Join(*out, r.Name+"."+s+".f32")
			if err := writeF32(p, r.arrays[s]); err != nil {
				fmt.Fprintf(stderr, "torchgolden: %v\n", err)
				return 1
			}
			total += 4 * len(r.arrays[s])
		}
	}
	b, err := json.MarshalIndent(manifest, "", "  ")
	if err != nil {
		fmt.Fprintf(stderr, "torchgolden: %v\n", err)
		return 1
	}
	if err := atomicfile.Write(filepath.Join(*out, "manifest.json"), func(w io.Writer) error {
		_, err := w.Write(append(b, '\n'))
		return err
	}); err != nil {
		fmt.Fprintf(stderr, "torchgolden: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "torchgolden: %d cases, %d bytes of arrays in %s\n", len(manifest), total, *out)
	return 0
}

// Input returns the low-res input of c: values in [0.05, 1) drawn from a
// PCG seeded by c.Seed, plus white noise of c.Noise when set.
func Input(c Case) *hsi.Cube {
	r := testrand.New(c.Seed, 0x70c4)
	lr := testrand.Uniform(r, c.H, c.W, c.B, 0.05, 1)
	if c.Noise > 0 {
		for i := range lr.Data {
			lr.Data[i] += float32(c.Noise * r.NormFloat64())
		}
	}
	return lr
}

// Compute runs the Go model of c's weights on c's input.
func Compute(root string, c Case) (Result, error) {
	m, err := model.Load(filepath.Join(root, c.Weights))
	if err != nil {
		return Result{}, fmt.Errorf("case %s: %w", c.Name, err)
	}
	lr := Input(c)
	res := Result{Case: c, M: m.Cfg.M, C: m.Cfg.Encoder.C, InputScale: model.InputScale(lr), arrays: map[string][]float32{}}
	res.Factor = model.EffectiveFactor(c.H, c.W, c.OutH, c.OutW)
	if m.Cfg.NoiseInput {
		nz, err := m.NoiseLevel(lr, nil)
		if err != nil {
			return Result{}, fmt.Errorf("case %s: %w", c.Name, err)
		}
		res.NoiseFeature = nz.Feature
	}
	z, err := m.Input(lr)
	if err != nil {
		return Result{}, fmt.Errorf("case %s: %w", c.Name, err)
	}
	g := nn.NewGraph(false)
	feat := m.Encode(g, z)
	raw := m.HeadRaw(g, feat, res.Factor, res.NoiseFeature)
	bic, err := resample.Upsample(lr, c.OutH, c.OutW)
	if err != nil {
		return Result{}, fmt.Errorf("case %s: %w", c.Name, err)
	}
	y, err := m.Upscale(lr, c.OutH, c.OutW)
	if err != nil {
		return Result{}, fmt.Errorf("case %s: %w", c.Name, err)
	}
	if res.Loss, _, err = loss.Compute(y, bic, lr, loss.Paper); err != nil {
		return Result{}, fmt.Errorf("case %s: loss: %w", c.Name, err)
	}
	for k, v := range map[string][]float32{"lr": lr.Data, "z": z.Data, "feat": feat.Data, "raw": raw.Data, "bicubic": bic.Data, "out": y.Data} {
		for i, x := range v {
			if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
				return Result{}, fmt.Errorf("case %s: %s[%d] is %v", c.Name, k, i, x)
			}
		}
		res.arrays[k] = append([]float32(nil), v...)
	}
	return res, nil
}

// Array returns the array of r with the given suffix.
func (r Result) Array(suffix string) []float32 { return r.arrays[suffix] }

func writeF32(path string, v []float32) error {
	return atomicfile.Write(path, func(w io.Writer) error {
		buf := make([]byte, 4*len(v))
		for i, x := range v {
			binary.LittleEndian.PutUint32(buf[4*i:], math.Float32bits(x))
		}
		_, err := w.Write(buf)
		return err
	})
}

// ReadF32 reads a raw little-endian float32 file of n values.
func ReadF32(path string, n int) ([]float32, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if len(b) != 4*n {
		return nil, fmt.Errorf("%s: %d bytes, want %d (%d float32 values)", path, len(b), 4*n, n)
	}
	v := make([]float32, n)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v, nil
}
