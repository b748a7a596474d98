package omnihsr

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/formats"
	"github.com/omnihsr/omnihsr/hsi/sample"
	"github.com/omnihsr/omnihsr/internal/method"
)

// renderFileContext renders r (prepared from lr) at h x w into the file
// path, in the format its extension names, through a streaming writer
// where the format allows. The file is published only when every row is
// written (formats.Create writes a temporary and renames it), so a failed
// or interrupted render leaves no output. The output carries lr's
// metadata resized to the new grid and declares the no-data value the
// input has or needs (hsi.NoDataValue); an integer wo.DataType clamps as
// gdal_translate -ot does. wo.Var is taken from info. progress, if not
// nil, is called with the rows done.
//
// ctx is checked before the file is created and before each band of rows
// is written; when it is done the temporary is removed and ctx's error is
// returned (it matches context.Canceled or context.DeadlineExceeded). The
// report says what the user should know (FileReport.Warnings: a no-data
// value that the type cannot hold, metadata the format cannot hold,
// fields of the input grid left out, the count of clamped samples).
func renderFileContext(ctx context.Context, r method.Renderer, lr *hsi.Cube, info hsi.SourceInfo, h, w int, path string, wo hsi.WriteOptions, progress func(done, total int)) (FileReport, error) {
	nd, hasND := hsi.NoDataValue(lr)
	return renderFile(ctx, r, lr.H, lr.W, lr.B, lr.Meta, nd, hasND, info, h, w, path, wo, progress)
}

// Warnings returns the report as `omnihsr upscale` prints it, one line a
// warning ("warning: PATH: ..."), without a trailing newline.
func (rep FileReport) Warnings() []string {
	var out []string
	if rep.NoDataChanged {
		out = append(out, noDataWarning(rep.Path, rep.NoDataFrom, rep.Type, rep.ClampRange, rep.NoDataTo))
	}
	for _, d := range rep.Dropped {
		out = append(out, fmt.Sprintf("warning: %s: not written (the format cannot hold it): %s", rep.Path, d))
	}
	for _, k := range rep.GridFields {
		out = append(out, fmt.Sprintf("warning: %s: not written (it describes pixel positions of the input grid): ENVI field %q", rep.Path, k))
	}
	if rep.Clamped > 0 {
		out = append(out, fmt.Sprintf("warning: %s: %d sample(s) outside the %s range %v clamped to it (as gdal_translate -ot does)", rep.Path, rep.Clamped, rep.Type, rep.ClampRange))
	}
	return out
}

func noDataWarning(path string, from float64, typ, rng string, to float64) string {
	return fmt.Sprintf("warning: %s: the no-data value %v does not fit %s (%v): written as %v", path, from, typ, rng, to)
}

// renderFileRows is renderFileContext for a renderer of an H x W x B input that is
// not held in memory (method.BicubicRows), with the input's metadata meta; the
// output declares meta's no-data value, if any (the renderer fails on a
// sample that is no-data, so none needs declaring otherwise).
// ctx is checked as by renderFileContext.
func renderFileRows(ctx context.Context, r method.Renderer, H, W, B int, meta hsi.Meta, info hsi.SourceInfo, h, w int, path string, wo hsi.WriteOptions, progress func(done, total int)) (FileReport, error) {
	return renderFile(ctx, r, H, W, B, meta, meta.DataIgnore, meta.HasDataIgnore, info, h, w, path, wo, progress)
}

// outputMeta returns the metadata of an h x w output rendered from an H x W
// input with metadata inMeta (renderFileContext's output declares the no-data value
// nd when hasND, renderFileRows the input's), written as sample type typ:
// the grid rescaled, and a no-data value that typ cannot hold replaced as
// the clamp writes it (warning says so).
func outputMeta(inMeta hsi.Meta, H, W, h, w int, nd float64, hasND bool, typ sample.Type, path string) (meta hsi.Meta, clamp *formats.Clamp, warning string, err error) {
	meta, err = inMeta.Resized(H, W, h, w)
	if err != nil {
		return meta, nil, "", err
	}
	meta.DataIgnore, meta.HasDataIgnore = nd, hasND
	clamp, err = formats.NewClamp(typ, meta.DataIgnore, meta.HasDataIgnore)
	if err != nil {
		return meta, nil, "", fmt.Errorf("%s: %w", path, err)
	}
	if clamp != nil && meta.HasDataIgnore {
		if v, changed := clamp.NoData(); changed {
			warning = noDataWarning(path, meta.DataIgnore, typ.String(), clamp.String(), v)
			meta.DataIgnore = v
		}
	}
	return meta, clamp, warning, nil
}

func renderFile(ctx context.Context, r method.Renderer, H, W, B int, inMeta hsi.Meta, nd float64, hasND bool, info hsi.SourceInfo, h, w int, path string, wo hsi.WriteOptions, progress func(done, total int)) (FileReport, error) {
	rep := FileReport{Path: path, Height: h, Width: w}
	if wo.DataType != sample.Invalid {
		rep.Type = wo.DataType.String()
	}
	if err := ctx.Err(); err != nil {
		return rep, err
	}
	meta, clamp, warning, err := outputMeta(inMeta, H, W, h, w, nd, hasND, wo.DataType, path)
	if err != nil {
		return rep, err
	}
	if clamp != nil {
		rep.ClampRange = clamp.String()
	}
	if warning != "" {
		rep.NoDataChanged, rep.NoDataFrom, rep.NoDataTo = true, nd, meta.DataIgnore
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return rep, err
	}
	wo.Var = info.Variable
	wr, err := formats.Create(path, h, w, B, meta, wo)
	if err != nil {
		return rep, err
	}
	defer wr.Abort()
	if progress == nil {
		progress = func(int, int) {}
	}
	if err := r.RenderTo(h, w, ctxSink{ctx, clamp.Writer(wr)}, progress); err != nil {
		return rep, err
	}
	if err := ctx.Err(); err != nil {
		return rep, err
	}
	if err := wr.Commit(); err != nil {
		return rep, err
	}
	rep.Dropped = formats.Dropped(path, &meta)
	for _, f := range inMeta.Extra {
		if slices.Contains(hsi.GridFields(), f.Key) {
			rep.GridFields = append(rep.GridFields, f.Key)
		}
	}
	rep.Clamped = clamp.Clamped()
	rep.Meta = meta
	return rep, nil
}
