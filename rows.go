package omnihsr

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/envi"
	"github.com/omnihsr/omnihsr/hsi/formats"
	"github.com/omnihsr/omnihsr/internal/method"
)

// bicubicRows renders the bicubic outputs of an ENVI input read a band of
// rows at a time (method.BicubicRows), so that neither the input nor an
// output is ever held whole. It returns done = false, having written
// nothing, when the input cannot be read so: another format, Read set,
// Clamp ClampInput (which needs the input's band ranges),
// bands flagged bad, or a no-data sample (NaN, or the declared data
// ignore value), which needs the whole image to fill; UpscaleFile then
// reads the input whole. An infinite sample is an error naming its
// position, as ReadFile's.
func (u *fileJob) bicubicRows(ctx context.Context, same bool) (res Result, done bool, err error) {
	if u.opt.Read != (hsi.ReadOptions{}) || u.opt.Clamp == ClampInput {
		return Result{}, false, nil // ClampInput needs the input's band ranges
	}
	if f, err := formats.ForRead(u.in); err != nil || f.Name != "ENVI" {
		return Result{}, false, nil
	}
	rr, err := envi.OpenRows(u.in)
	if err != nil {
		return Result{}, false, nil // the whole-file reader gives the error
	}
	defer rr.Close()
	if slices.Contains(rr.Meta.BadBands, true) {
		return Result{}, false, nil
	}
	if same {
		if u.wo.DataType, err = sameType(u.in, rr.Info); err != nil {
			return Result{}, true, err
		}
	}
	sizes, err := u.check(rr.H, rr.W, rr.B)
	if err != nil {
		return Result{}, true, err
	}
	res = Result{Method: Method(u.mt.Name), Bands: rr.B, InHeight: rr.H, InWidth: rr.W, InputMeta: rr.Meta}
	read := rowSource(rr)
	fellBack := false
	// Kept for the whole-read path when this one falls back, so that the
	// fraction reported never falls.
	u.comp = newCompletion(u.opt.Completion, u.mt, rr.H, rr.W, rr.B, sizes, 0)
	comp := u.comp
	err = u.render(sizes, &res, func(i int, path string) (method.FileReport, error) {
		rep, err := method.RenderFileRows(ctx, method.BicubicRows(rr.H, rr.W, rr.B, read), rr.H, rr.W, rr.B, rr.Meta, rr.Info,
			sizes[i][0], sizes[i][1], path, u.wo, comp.rows(i, u.opt.Progress))
		fellBack = i == 0 && errors.Is(err, method.ErrNoDataSample)
		return rep, err
	})
	if fellBack {
		return Result{}, false, nil // every output reads the whole input: the first meets it
	}
	if err == nil {
		comp.finish()
	}
	return res, true, err
}

// rowSource reads rows of rr for method.BicubicRows: an infinite sample is
// a *hsi.NonFiniteError naming its position (as formats.Read's, though it
// counts the infinite samples of the rows read so far only), a NaN or
// data-ignore sample method.ErrNoDataSample.
func rowSource(rr *envi.RowReader) func(y0, y1 int, dst []float32) error {
	ign, hasIgn := rr.Meta.IgnoreValue()
	return func(y0, y1 int, dst []float32) error {
		err := rr.ReadRows(y0, y1, dst)
		var nf *hsi.NonFiniteError
		if errors.As(err, &nf) {
			// The policy of hsi.ReadOptions: infinite is an error, NaN
			// no-data (which needs the whole image).
			if inf := hsi.FirstInfinite(nf.Path, dst[:(y1-y0)*rr.W*rr.B], rr.W, rr.B, y0); inf != nil {
				return inf
			}
			return fmt.Errorf("row %d: %w", nf.Row, method.ErrNoDataSample)
		}
		if err != nil {
			return err
		}
		if hasIgn && slices.Contains(dst, ign) {
			return method.ErrNoDataSample
		}
		return nil
	}
}
