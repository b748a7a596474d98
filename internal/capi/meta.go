package capi

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/omnihsr/omnihsr"
	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/crs"
	"github.com/omnihsr/omnihsr/noise"
)

// metaJSON is a cube's shape, source and metadata as omnihsr_read returns
// them.
type metaJSON struct {
	Shape [3]int `json:"shape"` // height, width, bands

	Format   string `json:"format"`
	DataType string `json:"data_type"`
	Layout   string `json:"layout"`
	Variable string `json:"variable"`
	Detail   string `json:"detail"`
	Product  string `json:"product"`

	Wavelengths      []num       `json:"wavelengths"`
	WavelengthUnits  string      `json:"wavelength_units"`
	FWHM             []num       `json:"fwhm"`
	BadBands         []bool      `json:"bad_bands"`
	BandNames        []string    `json:"band_names"`
	NoData           *num        `json:"nodata"`
	Scale            []num       `json:"scale"`
	Offset           []num       `json:"offset"`
	ReflectanceScale num         `json:"reflectance_scale"`
	Description      string      `json:"description"`
	Extra            []fieldJSON `json:"extra"`

	// CRSWKT is the coordinate reference system as WKT ("" when none),
	// CRSEPSG its EPSG code (0 when unknown), CRSNote why a CRS the file
	// describes could not be read.
	CRSWKT  string `json:"crs_wkt"`
	CRSEPSG int    `json:"crs_epsg"`
	CRSNote string `json:"crs_note"`
	// Transform is GDAL's geotransform of the grid (null when none).
	Transform *[6]num `json:"transform"`

	// BlockRows, in ReadRows's header only, is the rows the file's reader
	// decodes together (formats.Source's BlockRows: a TIFF's strip or tile
	// rows, an HDF5 dataset's chunk rows); absent when reading any range
	// of rows costs only those rows.
	BlockRows int `json:"block_rows,omitempty"`
}

type fieldJSON struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// MetaOf describes the cube c read with info.
func MetaOf(c *hsi.Cube, info hsi.SourceInfo) metaJSON {
	m := c.Meta
	j := metaJSON{Shape: [3]int{c.H, c.W, c.B},
		Format: info.Format, DataType: info.DataType, Layout: info.Layout, Variable: info.Variable,
		Detail: info.Detail, Product: info.Product,
		Wavelengths: nums(m.Wavelengths), WavelengthUnits: m.WavelengthUnits, FWHM: nums(m.FWHM),
		BadBands: m.BadBands, BandNames: m.BandNames, Scale: nums(m.Scale), Offset: nums(m.Offset),
		ReflectanceScale: num(m.ReflectanceScale), Description: m.Description}
	if m.HasDataIgnore {
		v := num(m.DataIgnore)
		j.NoData = &v
	}
	for _, f := range m.Extra {
		j.Extra = append(j.Extra, fieldJSON{f.Key, f.Value})
	}
	if m.Geo != nil {
		c, note := m.Geo.CRS()
		j.CRSWKT, j.CRSEPSG, j.CRSNote = c.WKT, c.EPSG, note
		if gt, ok := m.Geo.Transform(); ok {
			var t [6]num
			for i, v := range gt {
				t[i] = num(v)
			}
			j.Transform = &t
		}
	}
	return j
}

// cubeMeta is the metadata of a b-band cube that m describes (MetaOf's
// form; the shape and source fields are not read): every per-band list
// empty or of b values, a transform and its CRS together.
func (m metaJSON) cubeMeta(b int) (hsi.Meta, error) {
	for _, l := range []struct {
		name string
		n    int
	}{{"wavelengths", len(m.Wavelengths)}, {"fwhm", len(m.FWHM)}, {"bad_bands", len(m.BadBands)},
		{"band_names", len(m.BandNames)}, {"scale", len(m.Scale)}, {"offset", len(m.Offset)}} {
		if l.n != 0 && l.n != b {
			return hsi.Meta{}, fmt.Errorf("libomnihsr: %w: %s has %d values for %d bands", ErrOption, l.name, l.n, b)
		}
	}
	meta := hsi.Meta{Wavelengths: floats(m.Wavelengths), WavelengthUnits: m.WavelengthUnits, FWHM: floats(m.FWHM),
		BadBands: m.BadBands, BandNames: m.BandNames, Scale: floats(m.Scale), Offset: floats(m.Offset),
		ReflectanceScale: float64(m.ReflectanceScale), Description: m.Description}
	if m.NoData != nil {
		meta.DataIgnore, meta.HasDataIgnore = float64(*m.NoData), true
	}
	for _, f := range m.Extra {
		meta.Extra = append(meta.Extra, hsi.Field{Key: f.Key, Value: f.Value})
	}
	if m.Transform == nil {
		if m.CRSWKT != "" {
			return hsi.Meta{}, fmt.Errorf("libomnihsr: %w: a CRS without a transform cannot be written", ErrOption)
		}
		return meta, nil
	}
	var gt [6]float64
	for i, v := range m.Transform {
		gt[i] = float64(v)
	}
	if err := hsi.CheckGeoTransform(gt); err != nil {
		return hsi.Meta{}, fmt.Errorf("libomnihsr: %w: transform: %w", ErrOption, err)
	}
	var cr crs.CRS
	if m.CRSWKT != "" {
		var err error
		if cr, err = crs.FromWKT(m.CRSWKT); err != nil {
			return hsi.Meta{}, fmt.Errorf("libomnihsr: %w: crs_wkt: %w", ErrOption, err)
		}
	}
	meta.Geo = hsi.GeoFromTransform(gt, cr)
	return meta, nil
}

// resultJSON is an omnihsr.Result as the C functions return it.
type resultJSON struct {
	Height   int    `json:"height"`
	Width    int    `json:"width"`
	Bands    int    `json:"bands"`
	InHeight int    `json:"in_height"`
	InWidth  int    `json:"in_width"`
	Method   string `json:"method"`
	// NoData counts the no-data input samples, BadBands the bands left
	// out of the model's input.
	NoData   int       `json:"nodata_samples"`
	BadBands int       `json:"bad_bands"`
	Model    modelJSON `json:"model"`
	// Adapt is what per-scene adaptation did (null when it was off).
	Adapt *adaptJSON `json:"adapt"`
	// NoiseFile is the file the noise was read from ("" when none).
	NoiseFile string `json:"noise_file"`
	// InputClamped counts the samples clamp "input" moved into their
	// band's input range.
	InputClamped int64 `json:"input_clamped"`
	// File is what writing the output reported (the first, with scales),
	// Files all of them (upscale_file only; null for arrays).
	File  *fileJSON  `json:"file"`
	Files []fileJSON `json:"files"`
	// Warnings are the lines `omnihsr upscale` prints as warnings.
	Warnings []string `json:"warnings"`
}

type modelJSON struct {
	Used       bool          `json:"used"`
	NoiseInput bool          `json:"noise_input"`
	Pair       bool          `json:"pair"`
	Sigma      num           `json:"sigma"`
	Estimated  bool          `json:"estimated"`
	Net        num           `json:"net"`
	Feature    num           `json:"feature"`
	NoiseAware bool          `json:"noise_aware"`
	Gate       num           `json:"gate"`
	Gain       num           `json:"gain"`
	Screened   []outlierJSON `json:"screened"`
	// Summary is the plain line `omnihsr upscale` prints ("" for
	// bicubic), Detail the technical one of `omnihsr upscale -v`.
	Summary string `json:"summary"`
	Detail  string `json:"detail"`
}

type adaptJSON struct {
	Steps        int        `json:"steps"`
	CheckSteps   int        `json:"check_steps"`
	Check        string     `json:"check"`
	Factor       num        `json:"factor"`
	Shipped      *scoreJSON `json:"shipped"`
	Other        *scoreJSON `json:"other"`
	Adapted      *scoreJSON `json:"adapted"`
	ShippedRoute string     `json:"shipped_route"`
	OtherRoute   string     `json:"other_route"`
	Choice       string     `json:"choice"`
	Reason       string     `json:"reason"`
	// TooSmall: the input, or the check's, was too small to judge
	// (omnihsr.AdaptReport.TooSmall).
	TooSmall bool `json:"too_small"`
	// Summary is the line `omnihsr upscale` prints.
	Summary string `json:"summary"`
}

type scoreJSON struct {
	PSNR num `json:"psnr"`
	SAM  num `json:"sam"`
}

func scoreOf(s *omnihsr.AdaptScore) *scoreJSON {
	if s == nil {
		return nil
	}
	return &scoreJSON{num(s.PSNR), num(s.SAM)}
}

type outlierJSON struct {
	Band  int `json:"band"`
	Sigma num `json:"sigma"`
	Ref   num `json:"ref"`
	NSR   num `json:"nsr"`
}

type fileJSON struct {
	Path          string   `json:"path"`
	Height        int      `json:"height"`
	Width         int      `json:"width"`
	Type          string   `json:"type"`
	NoDataChanged bool     `json:"nodata_changed"`
	NoDataFrom    num      `json:"nodata_from"`
	NoDataTo      num      `json:"nodata_to"`
	Dropped       []string `json:"dropped"`
	GridFields    []string `json:"grid_fields"`
	Clamped       int64    `json:"clamped"`
	ClampRange    string   `json:"clamp_range"`
}

// ResultOf converts r; file is true for UpscaleFile's results.
func ResultOf(r omnihsr.Result, file bool) resultJSON {
	m := r.Model
	j := resultJSON{Height: r.Height, Width: r.Width, Bands: r.Bands, InHeight: r.InHeight, InWidth: r.InWidth,
		Method: string(r.Method), NoData: r.NoData, BadBands: r.BadBands,
		Model: modelJSON{Used: m.Used, NoiseInput: m.NoiseInput, Pair: m.Pair, Sigma: num(m.Sigma), Estimated: m.Estimated,
			Net: num(m.Net), Feature: num(m.Feature), NoiseAware: m.NoiseAware, Gate: num(m.Gate), Gain: num(m.Gain),
			Summary: m.String(), Detail: m.Detail()},
		Warnings: []string{}}
	for _, o := range m.Screened {
		j.Model.Screened = append(j.Model.Screened, outlierJSON{o.Band, num(o.Sigma), num(o.Ref), num(o.NSR)})
	}
	if len(m.Screened) > 0 {
		j.Warnings = append(j.Warnings, screenedWarning(len(m.Screened)))
	}
	if a := r.Adapt; a.Choice != "" {
		j.Adapt = &adaptJSON{Steps: a.Steps, CheckSteps: a.CheckSteps, Check: a.Check, Factor: num(a.Factor), Other: scoreOf(a.Other), Adapted: scoreOf(a.Adapted),
			ShippedRoute: a.ShippedRoute, OtherRoute: a.OtherRoute, Choice: a.Choice, Reason: a.Reason, TooSmall: a.TooSmall, Summary: a.String()}
		if a.Check != "" {
			j.Adapt.Shipped = scoreOf(&a.Shipped)
		}
	}
	j.NoiseFile = r.NoiseFile
	j.InputClamped = r.InputClamped
	if file {
		j.Files = []fileJSON{}
		for _, f := range r.Files {
			j.Files = append(j.Files, fileJSON{Path: f.Path, Height: f.Height, Width: f.Width, Type: f.Type,
				NoDataChanged: f.NoDataChanged, NoDataFrom: num(f.NoDataFrom), NoDataTo: num(f.NoDataTo),
				Dropped: f.Dropped, GridFields: f.GridFields, Clamped: f.Clamped, ClampRange: f.ClampRange})
			j.Warnings = append(j.Warnings, f.Warnings()...)
		}
		if len(j.Files) > 0 {
			j.File = &j.Files[0]
		}
	}
	return j
}

// screenedWarning says that n bands were screened out of the noise level.
func screenedWarning(n int) string {
	return fmt.Sprintf("upscale: %d band(s) judged unusable (estimated noise over %g times their spectral neighbours'): "+
		"left out of the noise estimate and the choice of model, rendered like every band (keep_noisy_bands keeps them in)", n, float64(noise.OutlierFactor))
}

// Marshal encodes v as JSON, with NaN and the infinities of its num
// values as NaN, Infinity and -Infinity.
func Marshal(v any) (string, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	r := strings.NewReplacer(nanWord, "NaN", posInfWord, "Infinity", negInfWord, "-Infinity")
	return r.Replace(string(b)), nil
}
