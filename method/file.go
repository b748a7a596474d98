package method

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/formats"
)

// RenderFile renders r (prepared from lr) at h x w into the file path, in
// the format its extension names, through a streaming writer where the
// format allows. The file is published only when every row is written
// (formats.Create writes a temporary and renames it), so a failed or
// interrupted render leaves no output. The output carries lr's metadata
// resized to the new grid and declares the no-data value the input has or
// needs (hsi.NoDataValue); an integer wo.DataType clamps as gdal_translate
// -ot does. wo.Var is taken from info. progress, if not nil, is called
// with the rows done.
//
// The returned warnings are for the user, one line each without a
// trailing newline: a no-data value that the type cannot hold, metadata
// the format cannot hold, fields of the input grid left out, and the count
// of clamped samples.
func RenderFile(r Renderer, lr *hsi.Cube, info hsi.SourceInfo, h, w int, path string, wo hsi.WriteOptions, progress func(done, total int)) (warnings []string, err error) {
	nd, hasND := hsi.NoDataValue(lr)
	return renderFile(r, lr.H, lr.W, lr.B, lr.Meta, nd, hasND, info, h, w, path, wo, progress)
}

// RenderFileRows is RenderFile for a renderer of an H x W x B input that is
// not held in memory (BicubicRows), with the input's metadata meta; the
// output declares meta's no-data value, if any (the renderer fails on a
// sample that is no-data, so none needs declaring otherwise).
func RenderFileRows(r Renderer, H, W, B int, meta hsi.Meta, info hsi.SourceInfo, h, w int, path string, wo hsi.WriteOptions, progress func(done, total int)) (warnings []string, err error) {
	return renderFile(r, H, W, B, meta, meta.DataIgnore, meta.HasDataIgnore, info, h, w, path, wo, progress)
}

// OutputMeta returns the metadata of an h x w output rendered from an H x W
// input with metadata inMeta (RenderFile's output declares the no-data value
// nd when hasND, RenderFileRows the input's), written as sample type typ:
// the grid rescaled, and a no-data value that typ cannot hold replaced as
// the clamp writes it (warning says so).
func OutputMeta(inMeta hsi.Meta, H, W, h, w int, nd float64, hasND bool, typ, path string) (meta hsi.Meta, clamp *formats.Clamp, warning string, err error) {
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
			warning = fmt.Sprintf("warning: %s: the no-data value %v does not fit %s (%v): written as %v", path, meta.DataIgnore, typ, clamp, v)
			meta.DataIgnore = v
		}
	}
	return meta, clamp, warning, nil
}

func renderFile(r Renderer, H, W, B int, inMeta hsi.Meta, nd float64, hasND bool, info hsi.SourceInfo, h, w int, path string, wo hsi.WriteOptions, progress func(done, total int)) (warnings []string, err error) {
	typ := wo.DataType
	meta, clamp, warning, err := OutputMeta(inMeta, H, W, h, w, nd, hasND, typ, path)
	if err != nil {
		return nil, err
	}
	if warning != "" {
		warnings = append(warnings, warning)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	wo.Var = info.Variable
	wr, err := formats.Create(path, h, w, B, meta, wo)
	if err != nil {
		return nil, err
	}
	defer wr.Abort()
	if progress == nil {
		progress = func(int, int) {}
	}
	if err := r.RenderTo(h, w, clamp.Writer(wr), progress); err != nil {
		return nil, err
	}
	if err := wr.Commit(); err != nil {
		return nil, err
	}
	for _, d := range formats.Dropped(path, &meta) {
		warnings = append(warnings, fmt.Sprintf("warning: %s: not written (the format cannot hold it): %s", path, d))
	}
	for _, f := range inMeta.Extra {
		if slices.Contains(hsi.GridFields, f.Key) {
			warnings = append(warnings, fmt.Sprintf("warning: %s: not written (it describes pixel positions of the input grid): ENVI field %q", path, f.Key))
		}
	}
	if n := clamp.Clamped(); n > 0 {
		warnings = append(warnings, fmt.Sprintf("warning: %s: %d sample(s) outside the %s range %v clamped to it (as gdal_translate -ot does)", path, n, typ, clamp))
	}
	return warnings, nil
}
