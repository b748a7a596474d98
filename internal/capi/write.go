package capi

import (
	"context"
	"fmt"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/formats"
)

// writeOptions are the JSON options of omnihsr_write: the options `omnihsr
// convert` takes for its output.
type writeOptions struct {
	Type        string   `json:"type"`
	Interleave  string   `json:"interleave"`
	Compression string   `json:"compression"`
	Driver      string   `json:"driver"`
	Creation    []string `json:"creation"`
	Var         string   `json:"var"`
}

// writeResult is what omnihsr_write returns: the file written and the
// metadata its format could not hold.
type writeResult struct {
	Path    string   `json:"path"`
	Dropped []string `json:"dropped"`
}

// WriteArray writes the caller's h x w x b samples (C order) to path in the
// format its extension names, with the metadata metaStr (omnihsr_read's
// form: wavelengths, fwhm, bad_bands, band_names, nodata, scale, offset,
// reflectance_scale, description, extra, crs_wkt, transform) and the JSON
// options s, atomically.
func WriteArray(ctx context.Context, data []float32, h, w, b int, metaStr, path, s string) (any, error) {
	var m metaJSON
	if err := decodeStrict(metaStr, &m); err != nil {
		return nil, fmt.Errorf("libomnihsr: metadata: %w", err)
	}
	var o writeOptions
	if err := decodeStrict(s, &o); err != nil {
		return nil, err
	}
	n, err := hsi.Elems(h, w, b)
	if err != nil || n != len(data) {
		return nil, fmt.Errorf("libomnihsr: %w: shape %d x %d x %d does not match %d samples", ErrOption, h, w, b, len(data))
	}
	meta, err := m.cubeMeta(b)
	if err != nil {
		return nil, err
	}
	c := &hsi.Cube{H: h, W: w, B: b, Data: data, Meta: meta}
	if err := c.Validate(); err != nil {
		return nil, fmt.Errorf("libomnihsr: %w: %w", ErrOption, err)
	}
	wo := hsi.WriteOptions{Creation: o.Creation, Var: o.Var}
	if wo.DataType, _, err = hsi.ParseDataType(o.Type); err != nil {
		return nil, fmt.Errorf("libomnihsr: %w: type: %w", ErrOption, err)
	}
	if wo.Interleave, err = hsi.ParseInterleave(o.Interleave); err != nil {
		return nil, fmt.Errorf("libomnihsr: %w: interleave: %w", ErrOption, err)
	}
	if wo.Compression, err = hsi.ParseCompression(o.Compression); err != nil {
		return nil, fmt.Errorf("libomnihsr: %w: compression: %w", ErrOption, err)
	}
	if wo.Driver, err = hsi.ParseDriver(o.Driver); err != nil {
		return nil, fmt.Errorf("libomnihsr: %w: driver: %w", ErrOption, err)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := formats.Write(path, c, wo); err != nil {
		return nil, err
	}
	return writeResult{Path: path, Dropped: formats.Dropped(path, &c.Meta)}, nil
}
