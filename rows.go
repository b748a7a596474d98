package omnihsr

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/formats"
	"github.com/omnihsr/omnihsr/internal/method"
)

// bicubicRows renders the bicubic outputs of an input that streams (an
// ENVI image, or a PNG image formats.Open reads a row at a time) a band of
// rows at a time (method.BicubicRows), so that neither the input nor an
// output is ever held whole. It returns done = false, having written
// nothing, when the input cannot be read so: another format, Read set,
// Clamp ClampInput (which needs the input's band ranges),
// bands flagged bad, or a no-data sample (NaN, or the declared data
// ignore value: hsi.Meta.NoData), which needs the whole image to fill;
// UpscaleFile then reads the input whole. An infinite sample is an error
// naming its position, as ReadFile's.
func (u *fileJob) bicubicRows(ctx context.Context, same bool) (res Result, done bool, err error) {
	if u.opt.Read != (hsi.ReadOptions{}) || u.opt.Clamp == ClampInput {
		return Result{}, false, nil // ClampInput needs the input's band ranges
	}
	if f, err := formats.ForRead(u.in); err != nil || (f.Name != "ENVI" && f.Name != "PNG") {
		return Result{}, false, nil
	}
	src, err := formats.Open(u.in, hsi.ReadOptions{})
	if err != nil {
		return Result{}, false, nil // the whole-file reader gives the error
	}
	defer src.Close()
	hd := src.Header()
	if slices.Contains(hd.Meta.BadBands, true) {
		return Result{}, false, nil
	}
	if same {
		if u.wo.DataType, err = sameType(u.in, hd.Info); err != nil {
			return Result{}, true, err
		}
	}
	sizes, err := u.check(hd.H, hd.W, hd.B)
	if err != nil {
		return Result{}, true, err
	}
	res = Result{Method: Method(u.mt.Name), Bands: hd.B, InHeight: hd.H, InWidth: hd.W, InputMeta: hd.Meta}
	read := rowSource(src)
	fellBack := false
	// Kept for the whole-read path when this one falls back, so that the
	// fraction reported never falls.
	u.comp = newCompletion(u.opt.Completion, u.mt, hd.H, hd.W, hd.B, sizes, 0)
	comp := u.comp
	err = u.render(sizes, &res, func(i int, path string) (FileReport, error) {
		rep, err := renderFileRows(ctx, method.BicubicRows(hd.H, hd.W, hd.B, read), hd.H, hd.W, hd.B, hd.Meta, hd.Info,
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

// rowSource reads rows of src for method.BicubicRows: an infinite sample
// is the source's *hsi.NonFiniteError naming its position (as
// formats.Read's, though it counts the infinite samples of the rows read
// so far only), a no-data sample (hsi.Meta.NoData: NaN or the data ignore
// value) method.ErrNoDataSample.
func rowSource(src formats.Source) func(y0, y1 int, dst []float32) error {
	nd := src.Header().Meta.NoData()
	return func(y0, y1 int, dst []float32) error {
		if err := src.ReadRows(y0, y1, dst); err != nil {
			return err
		}
		for i, v := range dst {
			if nd.Is(v) {
				return fmt.Errorf("row %d: %w", y0+i/(len(dst)/(y1-y0)), method.ErrNoDataSample)
			}
		}
		return nil
	}
}
