package eval

import (
	"context"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/resample"
)

// Method is a super-resolution method under evaluation.
type Method interface {
	// Name is the label of the method in tables and JSON (e.g. "Bicubic").
	Name() string
	// Upscale returns an outH x outW cube with the bands of lr. It must not
	// modify lr, and it may be called from several goroutines at once.
	Upscale(lr *hsi.Cube, outH, outW int) (*hsi.Cube, error)
}

// Noter is a Method that also says what it did on each image (Record.Note):
// the runner calls UpscaleNote instead of Upscale, with the run's context.
type Noter interface {
	Method
	UpscaleNote(ctx context.Context, lr *hsi.Cube, outH, outW int) (*hsi.Cube, string, error)
}

// BicubicName is the name of the bicubic baseline, which every evaluation
// runs next to the other methods (docs/CONVENTIONS.md section 6).
const BicubicName = "Bicubic"

// Bicubic is the baseline: PyTorch's bicubic interpolation U_s
// (align_corners=False, a = -0.75, replicate border).
type Bicubic struct{}

// Name returns "Bicubic".
func (Bicubic) Name() string { return BicubicName }

// Upscale is resample.Upsample.
func (Bicubic) Upscale(lr *hsi.Cube, outH, outW int) (*hsi.Cube, error) {
	return resample.Upsample(lr, outH, outW)
}

// MethodFunc adapts a function to the Method interface (tests, ablations).
type MethodFunc struct {
	Label string
	Fn    func(lr *hsi.Cube, outH, outW int) (*hsi.Cube, error)
}

// Name returns m.Label.
func (m MethodFunc) Name() string { return m.Label }

// Upscale calls m.Fn.
func (m MethodFunc) Upscale(lr *hsi.Cube, outH, outW int) (*hsi.Cube, error) {
	return m.Fn(lr, outH, outW)
}
