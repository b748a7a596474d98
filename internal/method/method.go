package method

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/internal/model"
	"github.com/omnihsr/omnihsr/resample"
)

// Method is one method of the registry.
type Method struct {
	// Name is the name on the command line (-method, -methods).
	Name string
	// Doc is a one-line description for the command help.
	Doc string
	// Model reports whether the method runs the OmniHSR model (and so
	// takes a weight file).
	Model bool
	// Ensemble is the number of orientations of the self-ensemble (0 =
	// none); BackProject the number of back-projection steps (0 = none).
	Ensemble, BackProject int
}

// Default is the name of the method used when none is given.
const Default = "omnihsr"

// registry holds the methods, sorted by name.
var registry = []Method{
	{Name: "bicubic", Doc: "bicubic interpolation U_s, PyTorch F.interpolate(mode='bicubic', align_corners=False)"},
	{Name: "omnihsr", Model: true, Doc: "the OmniHSR model (CSM + COFR); -weights FILE or the embedded default model"},
	{Name: "omnihsr-bp", Model: true, BackProject: model.BackProjectSteps,
		Doc: "OmniHSR, then one back-projection step: adds the bicubic upsampling of LR - D(SR), D the antialiased bicubic downsampling; better than omnihsr on clean or blurred inputs, worse on noisy ones (output held in memory)"},
	{Name: "omnihsr-se", Model: true, Ensemble: 8,
		Doc: "OmniHSR with the self-ensemble: the mean over the 8 flips and rotations of the input (8x the time, output held in memory)"},
}

// All returns the methods of the registry, sorted by name.
func All() []Method { return slices.Clone(registry) }

// Names returns the names of the methods, sorted.
func Names() []string {
	out := make([]string, len(registry))
	for i, m := range registry {
		out[i] = m.Name
	}
	return out
}

// Lookup returns the method called name (case-insensitive, surrounding
// spaces ignored).
func Lookup(name string) (Method, error) {
	key := strings.ToLower(strings.TrimSpace(name))
	for _, m := range registry {
		if m.Name == key {
			return m, nil
		}
	}
	return Method{}, fmt.Errorf("unknown method %q (known: %s)", name, strings.Join(Names(), ", "))
}

// Renderer renders one prepared low-resolution image at any output size
// into a row sink (whole rows, in order).
type Renderer interface {
	RenderTo(outH, outW int, sink model.RowSink, progress func(done, total int)) error
}

// Prepare does the work that every output size of lr shares (for the
// model: the encoder, so several factors cost one encoding) and returns
// the renderer of the outputs. m is the model (nil for bicubic).
func (mt Method) Prepare(m *model.Model, lr *hsi.Cube) (Renderer, error) {
	return mt.PrepareContext(context.Background(), m, lr, model.EncodeOptions{})
}

// PrepareContext is Prepare with the encoder's settings opt (the noise,
// the noisy-band screen, the progress; unused by bicubic), stopping early
// when ctx is done: the encoder checks ctx between bands of rows
// (model.EncodeImageContext, model.EncodeEnsembleContext) and ctx's error
// is returned.
func (mt Method) PrepareContext(ctx context.Context, m *model.Model, lr *hsi.Cube, opt model.EncodeOptions) (Renderer, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if !mt.Model {
		return bicubic{lr}, nil
	}
	if m == nil {
		return nil, fmt.Errorf("method %s: no model", mt.Name)
	}
	if mt.Ensemble > 0 {
		e, err := m.EncodeEnsembleContext(ctx, lr, mt.Ensemble, opt)
		if err != nil {
			return nil, err
		}
		return e, nil
	}
	e, err := m.EncodeImageContext(ctx, lr, opt)
	if err != nil {
		return nil, err
	}
	if mt.BackProject > 0 {
		return model.BackProjected{E: e, Iters: mt.BackProject}, nil
	}
	return e, nil
}

type bicubic struct{ lr *hsi.Cube }

// RenderTo streams the bicubic upsampling a band of rows at a time
// (resample.Upsampler, model.StreamRows), with Upsample's values. As the
// model does, the no-data value never enters the interpolation.
func (b bicubic) RenderTo(h, w int, sink model.RowSink, progress func(done, total int)) error {
	lr, nd, err := hsi.FillNoData(b.lr)
	if err != nil {
		return err
	}
	up, err := resample.NewUpsampler(lr, h, w)
	if err != nil {
		return err
	}
	return model.StreamRows(h, w, lr.B, func(u0, u1 int, dst []float32) error {
		if err := up.RenderRows(u0, u1, dst); err != nil {
			return err
		}
		nd.Apply(u0, u1, h, w, lr.B, dst)
		return nil
	}, sink, progress)
}

// BicubicRows is the bicubic renderer of an H x W x B input that is read
// a band of rows at a time from read (resample.NewRowUpsampler), never held
// whole: the values of the bicubic method for an input without no-data.
// read must fail on a NaN, infinite or no-data sample (the caller scans
// the rows for them first: a no-data sample needs the whole image filled,
// hsi.FillNoData).
func BicubicRows(H, W, B int, read func(y0, y1 int, dst []float32) error) Renderer {
	return bicubicRows{H, W, B, read}
}

type bicubicRows struct {
	H, W, B int
	read    func(y0, y1 int, dst []float32) error
}

func (b bicubicRows) RenderTo(h, w int, sink model.RowSink, progress func(done, total int)) error {
	up, err := resample.NewRowUpsampler(b.H, b.W, b.B, h, w, b.read)
	if err != nil {
		return err
	}
	return model.StreamRows(h, w, b.B, up.RenderRows, sink, progress)
}
