package main

import (
	"context"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"slices"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/envi"
	"github.com/omnihsr/omnihsr/hsi/formats"
	"github.com/omnihsr/omnihsr/internal/method"
	"github.com/omnihsr/omnihsr/internal/progress"
)

// bicubicRows runs upscale -method bicubic on an ENVI input read a band of
// rows at a time (method.BicubicRows), so that neither the input nor the
// output is ever held whole. It returns done = false, having written
// nothing, when the input cannot be read so: another format, read options
// given, bands flagged bad, or a no-data sample (NaN, or the declared data
// ignore value), which needs the whole image to fill; the caller then reads
// the input whole. An infinite sample is an error naming its position, as
// readNaNAsNoData's.
func (o *upscaleOpts) bicubicRows(ctx context.Context, e env, name string, factors []float64, paths []string, wo hsi.WriteOptions, ro hsi.ReadOptions) (done bool, err error) {
	if ro != (hsi.ReadOptions{}) {
		return false, nil
	}
	if f, err := formats.ForRead(o.in); err != nil || f.Name != "ENVI" {
		return false, nil
	}
	rr, err := envi.OpenRows(o.in)
	if err != nil {
		return false, nil // the whole-file reader gives the error
	}
	defer rr.Close()
	if slices.Contains(rr.Meta.BadBands, true) {
		return false, nil
	}
	if wo.DataType, err = sameType(o.typ, rr.Info, o.in); err != nil {
		return true, err
	}
	sizes, err := o.checkOutputs(rr.H, rr.W, rr.B, factors, paths, wo)
	if err != nil {
		return true, err
	}
	read := rowSource(rr)
	var written []string
	for i, sz := range sizes {
		bar := progress.NewTo(terminal(e.stderr), "upscale "+filepath.Base(paths[i]), int64(sz.h), terminal(e.stderr) != nil)
		rep, err := method.RenderFileRows(ctx, method.BicubicRows(rr.H, rr.W, rr.B, read), rr.H, rr.W, rr.B, rr.Meta, rr.Info,
			sz.h, sz.w, paths[i], wo, func(done, total int) { bar.Set(int64(done)) })
		if errors.Is(err, method.ErrNoDataSample) && len(written) == 0 {
			return false, nil // every output reads the whole input: the first meets it
		}
		if err != nil {
			return true, fmt.Errorf("%s: %w%s", o.in, err, removeOutputs(written))
		}
		bar.Done()
		for _, s := range rep.Warnings() {
			fmt.Fprintln(e.stderr, s)
		}
		written = append(written, paths[i])
		fmt.Fprintf(e.stdout, "wrote %s: %d x %d x %d (%s from %d x %d, factors %.4g x %.4g)\n",
			paths[i], sz.h, sz.w, rr.B, name, rr.H, rr.W, float64(sz.h)/float64(rr.H), float64(sz.w)/float64(rr.W))
		if o.sf.on {
			if err := o.writeSTAC(e.stdout, rr.Meta, rr.H, rr.W, sz, rr.Meta.DataIgnore, rr.Meta.HasDataIgnore, paths[i], wo, name, ""); err != nil {
				return true, fmt.Errorf("%s: %w%s", o.in, err, removeOutputs(written))
			}
		}
	}
	return true, nil
}

// rowSource reads rows of rr for method.BicubicRows: an infinite sample is
// an error naming its position, a NaN or data-ignore sample
// method.ErrNoDataSample.
func rowSource(rr *envi.RowReader) func(y0, y1 int, dst []float32) error {
	ign, hasIgn := rr.Meta.IgnoreValue()
	return func(y0, y1 int, dst []float32) error {
		err := rr.ReadRows(y0, y1, dst)
		var nf *hsi.NonFiniteError
		if errors.As(err, &nf) {
			for i, v := range dst {
				if math.IsInf(float64(v), 0) {
					p := i / rr.B
					return fmt.Errorf("infinite value %v at row %d, column %d, band %d (0-based): not accepted (NaN is read as no-data)", v, y0+p/rr.W, p%rr.W, i%rr.B)
				}
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
