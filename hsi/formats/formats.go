package formats

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/envi"
	"github.com/omnihsr/omnihsr/hsi/internal/raw"
	"github.com/omnihsr/omnihsr/hsi/matfile"
	"github.com/omnihsr/omnihsr/hsi/npy"
	"github.com/omnihsr/omnihsr/hsi/png"
	"github.com/omnihsr/omnihsr/hsi/products"
	"github.com/omnihsr/omnihsr/hsi/tiff"
	"github.com/omnihsr/omnihsr/internal/regfile"
)

// ReadFunc reads a cube from a file.
type ReadFunc func(path string, opt hsi.ReadOptions) (*hsi.Cube, hsi.SourceInfo, error)

// WriteFunc writes a cube to a file, atomically.
type WriteFunc func(path string, c *hsi.Cube, opt hsi.WriteOptions) error

// Format is one file format.
type Format struct {
	Name  string   // "ENVI", "NPY", ...
	Exts  []string // lower-case extensions, with the dot
	Read  ReadFunc
	Write WriteFunc // nil when the format cannot be written
	// Create streams rows to disk (see the package's Create); nil when the
	// format is written from a whole cube, which Create then assembles in
	// memory.
	Create CreateFunc
	// Interleave, Compression and Creation report whether the writer uses
	// WriteOptions.Interleave, WriteOptions.Compression and
	// WriteOptions.Driver and Creation.
	Interleave, Compression, Creation bool
	// Note says what the format keeps or how it writes, for help text.
	Note string
	// checksFinite is true when Read already reports NaN and infinite
	// samples with a *hsi.NonFiniteError.
	checksFinite bool
}

// table is the dispatch table: one line per format.
var table = []Format{
	{Name: "ENVI", Exts: []string{".hdr", ".img", ".dat", ".raw", ".bsq", ".bil", ".bip", ".bin"}, Read: envi.Read, Write: envi.Write, Create: createENVI, Interleave: true, checksFinite: true,
		Note: "keeps wavelengths, fwhm, bad bands, band names, data ignore value, scale, georeferencing, other header fields; AVIRIS-NG reflectance"},
	{Name: "NPY", Exts: []string{".npy"}, Read: npy.Read, Write: npy.Write, Create: createNPY, checksFinite: true,
		Note: "(H,W,B) or (H,W) array; no metadata (warned)"},
	{Name: "MAT", Exts: []string{".mat"}, Read: matfile.Read, Write: matfile.Write, Compression: true,
		Note: "reads v5 and v7.3 (-var, -layout), writes v5 with wavelengths and fwhm"},
	{Name: "TIFF", Exts: []string{".tif", ".tiff"}, Read: tiff.Read, Write: tiff.Write, Create: createTIFF, Compression: true, Creation: true,
		Note: "GeoTIFF; keeps what ENVI keeps (GDAL metadata); -of COG, -co COMPRESS=ZSTD etc. as GDAL"},
	{Name: "PNG", Exts: []string{".png"}, Read: png.Read, Write: png.Write, checksFinite: true,
		Note: "reads RGB/grey images; writes a false-colour preview (not lossless)"},
	{Name: "HDF5", Exts: []string{".h5", ".hdf5", ".he5", ".nc", ".nc4"}, Read: products.ReadHDF5,
		Note: "HDF5 and NetCDF-4 cubes (-var /group/dataset, -layout HWB|BHW|...); EMIT L2A RFL and RFLUNCERT (-ortho), PRISMA L2D, L2C, L2B and L1, NEON AOP reflectance"},
	{Name: "EnMAP", Exts: []string{".xml"}, Read: products.ReadProduct,
		Note: "EnMAP and DESIS L2A: the SPECTRAL_IMAGE.TIF or METADATA.XML gives the whole product (reflectance, wavelengths, bad bands)"},
}

// Formats returns the supported formats, in a stable order. The formats
// are copies: changing them changes nothing in the package.
func Formats() []Format {
	out := make([]Format, len(table))
	for i := range table {
		out[i] = *clone(&table[i])
	}
	return out
}

// clone returns a copy of f that shares nothing mutable with it.
func clone(f *Format) *Format {
	c := *f
	c.Exts = slices.Clone(f.Exts)
	return &c
}

// Extensions returns every supported extension.
func Extensions() []string {
	var out []string
	for _, f := range table {
		out = append(out, f.Exts...)
	}
	return out
}

// ErrUnknownFormat marks a path whose format cannot be told.
var ErrUnknownFormat = errors.New("unknown file format")

func byExt(path string) (*Format, bool) {
	ext := strings.ToLower(filepath.Ext(path))
	for i := range table {
		if slices.Contains(table[i].Exts, ext) {
			return &table[i], true
		}
	}
	return nil, false
}

func byName(name string) *Format {
	for i := range table {
		if table[i].Name == name {
			return &table[i]
		}
	}
	return nil
}

// ForRead returns the format of an existing file: a product that spans
// several files (an EnMAP spectral image or its metadata) as that product;
// else by its signature (see Sniff) when it has one, so that a file whose extension names another
// format is still read as what it is; else by extension, or ENVI when a
// header lies beside it. The format is a copy, as Formats returns.
func ForRead(path string) (*Format, error) {
	if products.IsProductFile(path) {
		return clone(byName("EnMAP")), nil
	}
	if f := byName(Sniff(path)); f != nil {
		return clone(f), nil
	}
	if f, ok := byExt(path); ok {
		return clone(f), nil
	}
	if envi.HeaderFor(path) != "" {
		return clone(&table[0]), nil
	}
	return nil, fmt.Errorf("%s: %w: extension %q (supported: %s; or any name with an ENVI .hdr beside it)",
		path, ErrUnknownFormat, filepath.Ext(path), strings.Join(Extensions(), " "))
}

// ForWrite returns the format a new file gets from its extension, a copy
// as Formats returns.
func ForWrite(path string) (*Format, error) {
	f, ok := byExt(path)
	if !ok {
		return nil, fmt.Errorf("%s: %w: extension %q (supported: %s)", path, ErrUnknownFormat, filepath.Ext(path), strings.Join(Extensions(), " "))
	}
	if f.Write == nil {
		return nil, fmt.Errorf("%s: writing %s files is not supported", path, f.Name)
	}
	return clone(f), nil
}

// Read reads a cube from path in the format its extension names. A NaN
// sample is no-data (kept in the cube) unless opt.RefuseNaN; an infinite
// sample, or a NaN with RefuseNaN, gives the cube together with a
// *hsi.NonFiniteError naming the first one's position.
func Read(path string, opt hsi.ReadOptions) (*hsi.Cube, hsi.SourceInfo, error) {
	c, info, err := read(path, opt)
	return c, info, nonFinite(opt, c, err)
}

// nonFinite applies hsi.ReadOptions' non-finite policy to what a reader returned:
// a cube c and its error err. A *NonFiniteError is kept when ro refuses
// NaN; otherwise it becomes one that names the first infinite sample of c
// (InfOnly), or nil when every non-finite sample is NaN. c is returned
// unchanged, with the error, for a caller that inspects such files.
func nonFinite(ro hsi.ReadOptions, c *hsi.Cube, err error) error {
	var nf *hsi.NonFiniteError
	if ro.RefuseNaN || c == nil || !errors.As(err, &nf) {
		return err
	}
	if inf := hsi.FirstInfinite(nf.Path, c.Data, c.W, c.B, 0); inf != nil {
		return inf
	}
	return nil
}

func read(path string, opt hsi.ReadOptions) (*hsi.Cube, hsi.SourceInfo, error) {
	if err := checkRegular(path); err != nil {
		return nil, hsi.SourceInfo{}, err
	}
	f, err := ForRead(path)
	if err != nil {
		return nil, hsi.SourceInfo{}, err
	}
	c, info, err := f.Read(path, opt)
	if err != nil {
		var nf *hsi.NonFiniteError
		if c != nil && !errors.As(err, &nf) {
			c = nil // only a non-finite error comes with a cube
		}
		return c, info, err
	}
	if c == nil {
		return nil, info, fmt.Errorf("%s: the %s reader returned no cube", path, f.Name)
	}
	if err := c.Validate(); err != nil {
		return nil, info, fmt.Errorf("%s: %w", path, err)
	}
	if !f.checksFinite {
		if err := raw.CheckFinite(path, c); err != nil {
			return c, info, err
		}
	}
	return c, info, nil
}

// checkRegular refuses a path that is missing, or that exists but is not
// a regular file (after symbolic links): a directory, a named pipe, a
// socket or a device, which a reader would misread or block on.
func checkRegular(path string) error { return regfile.CheckInput(path) }

// ErrNotRegular marks an input that is not a regular file.
var ErrNotRegular = regfile.ErrNotRegular

// Write writes c to path in the format its extension names, atomically.
func Write(path string, c *hsi.Cube, opt hsi.WriteOptions) error {
	f, err := forWrite(path, opt)
	if err != nil {
		return err
	}
	return f.Write(path, c, opt)
}

// forWrite is ForWrite that also refuses options the format does not use.
func forWrite(path string, opt hsi.WriteOptions) (*Format, error) {
	f, err := ForWrite(path)
	if err != nil {
		return nil, err
	}
	if opt.Interleave != "" && !f.Interleave {
		return nil, fmt.Errorf("%s: an interleave (%q) applies to ENVI output only", path, opt.Interleave)
	}
	if opt.Compression != "" && !strings.EqualFold(string(opt.Compression), string(hsi.NoCompression)) && !f.Compression {
		return nil, fmt.Errorf("%s: compression (%q) applies to MAT and TIFF output only", path, opt.Compression)
	}
	if (opt.Driver != "" || len(opt.Creation) > 0) && !f.Creation {
		return nil, fmt.Errorf("%s: an output driver or creation options (%q %q) apply to TIFF output only", path, opt.Driver, opt.Creation)
	}
	return f, nil
}
