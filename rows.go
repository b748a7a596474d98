package omnihsr

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync/atomic"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/formats"
	"github.com/omnihsr/omnihsr/internal/method"
)

// rowScan is what a pass over an input's rows (scanRows) finds before the
// bicubic method renders it a band of rows at a time.
type rowScan struct {
	// streams is false when the input needs the whole image: a no-data
	// sample in a band not flagged bad (hsi.FillNoData fills it from its
	// neighbours, which needs the image), an infinite sample (the whole
	// read reports it as formats.Read does), or every band flagged bad.
	streams bool
	// noData counts the no-data samples (all in bands flagged bad), bad
	// the bands flagged bad: Result.NoData and Result.BadBands.
	noData, bad int
	// lo and hi are each band's range for ClampInput (bandRanges).
	lo, hi []float32
}

// scanRows reads the rows of src a band at a time, so that the memory
// held is one band of rows whatever the image, and tells whether the
// bicubic method can render them streaming (rowScan). It stops at the
// first sample that rules streaming out.
func scanRows(ctx context.Context, src formats.Source) (rowScan, error) {
	hd := src.Header()
	H, W, B := hd.H, hd.W, hd.B
	bad := badBands(hd.Meta, B)
	s := rowScan{lo: make([]float32, B), hi: make([]float32, B)}
	for b := range s.lo {
		s.lo[b], s.hi[b] = float32(math.Inf(1)), float32(math.Inf(-1))
		if bad[b] {
			s.bad++
		}
	}
	if s.bad == B {
		return rowScan{}, nil // hsi.ErrAllNoData, from the whole read
	}
	nd := hd.Meta.NoData()
	step := rowBand(W, B)
	buf := make([]float32, min(step, H)*W*B)
	for y0 := 0; y0 < H; y0 += step {
		if err := ctx.Err(); err != nil {
			return rowScan{}, err
		}
		y1 := min(H, y0+step)
		dst := buf[:(y1-y0)*W*B]
		var nf *hsi.NonFiniteError
		if err := src.ReadRows(y0, y1, dst); errors.As(err, &nf) {
			return rowScan{}, nil
		} else if err != nil {
			return rowScan{}, err
		}
		for i, v := range dst {
			b := i % B
			switch {
			case nd.Is(v):
				if !bad[b] {
					return rowScan{}, nil
				}
				s.noData++
			case !bad[b]:
				s.lo[b], s.hi[b] = min(s.lo[b], v), max(s.hi[b], v)
			}
		}
	}
	s.streams = true
	return s, nil
}

// rowBand is the number of rows of W pixels of B bands scanRows reads at
// a time: about 4 MiB of float32, at least one row.
func rowBand(W, B int) int { return max(1, (1<<20)/max(1, W*B)) }

// badBands returns which of the B bands m flags bad.
func badBands(m hsi.Meta, B int) []bool {
	bad := make([]bool, B)
	for b, v := range m.BadBands {
		if b < B {
			bad[b] = v
		}
	}
	return bad
}

// bicubicRows renders the bicubic outputs of the input src a band of rows
// at a time (method.BicubicRows), so that neither the input nor an output
// is held whole beyond what src holds (a streamed Source holds a band of
// rows; one that Open read whole, its cube). A pass over the rows
// (scanRows) decides first whether the input can be rendered so; it
// returns done = false, having written nothing, when it cannot (a no-data
// sample outside the bands flagged bad, an infinite sample), and
// UpscaleFile then reads the input whole. The values are those of the
// whole-image bicubic method: a band flagged bad is rendered as no-data,
// as hsi.NoDataMask.Apply writes it, and ClampInput clamps to the band
// ranges of the scan.
func (u *fileJob) bicubicRows(ctx context.Context, src formats.Source, same bool) (res Result, done bool, err error) {
	sc, err := scanRows(ctx, src)
	if err != nil || !sc.streams {
		return Result{}, err != nil, err
	}
	hd := src.Header()
	if same {
		if u.wo.DataType, err = sameType(u.in, hd.Info); err != nil {
			return Result{}, true, err
		}
	}
	sizes, err := u.check(hd.H, hd.W, hd.B)
	if err != nil {
		return Result{}, true, err
	}
	res = Result{Method: Method(u.mt.Name), Bands: hd.B, InHeight: hd.H, InWidth: hd.W, InputMeta: hd.Meta, NoData: sc.noData, BadBands: sc.bad}
	// The output declares the no-data value the whole-image path declares
	// (hsi.NoDataValue): the input's, or NaN for bands flagged bad.
	meta := hd.Meta
	if !meta.HasDataIgnore && sc.bad > 0 {
		meta.DataIgnore, meta.HasDataIgnore = math.NaN(), true
	}
	var r method.Renderer = method.BicubicRows(hd.H, hd.W, hd.B, rowSource(u.in, src))
	if sc.bad > 0 {
		r = badBandFill(r, badBands(hd.Meta, hd.B), noDataFill(meta))
	}
	var clamped atomic.Int64
	if u.opt.Clamp == ClampInput {
		nd, hasND := meta.DataIgnore, meta.HasDataIgnore
		r = newInputClamp(r, sc.lo, sc.hi, nd, hasND, &clamped)
	}
	comp := newCompletion(u.opt.Completion, u.mt, hd.H, hd.W, hd.B, sizes, 0)
	err = u.render(sizes, &res, func(i int, path string) (FileReport, error) {
		return renderFileRows(ctx, r, hd.H, hd.W, hd.B, meta, hd.Info,
			sizes[i][0], sizes[i][1], path, u.wo, comp.rows(i, u.opt.Progress))
	})
	if err == nil {
		comp.finish()
		res.InputClamped = clamped.Load()
	}
	return res, true, err
}

// noDataFill is the value written for no-data in an output with metadata
// m: the data ignore value as a float32 holds it, or NaN.
func noDataFill(m hsi.Meta) float32 {
	if ign, ok := m.IgnoreValue(); ok {
		return ign
	}
	return float32(math.NaN())
}

// rowSource reads rows of src for method.BicubicRows. The samples of bands
// flagged bad that are no-data are read as 0, as hsi.FillNoData sets them
// (their output is no-data all the same: badBandFill). Another no-data
// sample, which scanRows has ruled out, or an infinite one means that the
// file changed between the passes: an error naming it.
func rowSource(path string, src formats.Source) func(y0, y1 int, dst []float32) error {
	hd := src.Header()
	nd, bad := hd.Meta.NoData(), badBands(hd.Meta, hd.B)
	return func(y0, y1 int, dst []float32) error {
		var nf *hsi.NonFiniteError
		if err := src.ReadRows(y0, y1, dst); errors.As(err, &nf) {
			return fmt.Errorf("%w (not seen by the first pass: the file changed while it was read)", err)
		} else if err != nil {
			return err
		}
		for i, v := range dst {
			if !nd.Is(v) {
				continue
			}
			if !bad[i%hd.B] {
				return fmt.Errorf("%s: row %d: a no-data sample that the first pass did not see: the file changed while it was read", path, y0+i/(hd.W*hd.B))
			}
			dst[i] = 0
		}
		return nil
	}
}

// badBandFill writes fill into every sample of the bands flagged bad in
// what r renders, as hsi.NoDataMask.Apply does.
func badBandFill(r method.Renderer, bad []bool, fill float32) method.Renderer {
	B := len(bad)
	return mapRows{r, func(d []float32) {
		for b, isBad := range bad {
			if isBad {
				for i := b; i < len(d); i += B {
					d[i] = fill
				}
			}
		}
	}}
}
