package products

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/crs"
	"github.com/omnihsr/omnihsr/hsi/internal/hdf5"
	"github.com/omnihsr/omnihsr/internal/memlimit"
)

const (
	prismaFields = "/HDFEOS/SWATHS/PRS_L2D_HCO/Data Fields/"
	// prismaFill marks no-data pixels of the reflectance cube.
	prismaFill = -9999
	// maxEPSG is the largest code of the EPSG registry's numbering.
	maxEPSG = 999999
)

func isPRISMA(f *file) bool { return prismaSwath(f) != "" }

// prismaSwath returns the data fields group of a PRISMA product's
// hyperspectral cubes: PRS_L2D_HCO (map-projected), PRS_L2C_HCO or
// PRS_L2B_HCO (swaths of the same layout; ASI names the levels' swaths so,
// as SNAP's expected content of real L2B/L2C/L2D products lists them),
// PRS_L1_HCO (L1's co-registered radiance cubes, the same layout; its
// PRS_L1_HRC cubes are read with -var), or "". SNAP prints the HDF-EOS
// groups with "_" for " "; both are accepted.
func prismaSwath(f *file) string {
	for _, lvl := range []string{"L2D", "L2C", "L2B", "L1"} {
		for _, fields := range []string{"Data Fields", "Data_Fields"} {
			d := "/HDFEOS/SWATHS/PRS_" + lvl + "_HCO/" + fields + "/"
			if f.get(d+"VNIR_Cube") != nil && f.get(d+"SWIR_Cube") != nil {
				return d
			}
		}
	}
	return ""
}

// prismaPart is one spectrometer's cube with its band lists and scaling:
// L2 reflectance = min + DN (max - min) / 65535, L1 radiance = DN / scale -
// offset.
type prismaPart struct {
	name          string // "Vnir", "Swir"
	o             *hdf5.Object
	cw, fwhm      []float64
	min, max      float64
	l1            bool
	scale, offset float64
}

// value is the physical value of a DN.
func (p *prismaPart) value(dn uint16) float32 {
	if p.l1 {
		return float32(float64(dn)/p.scale - p.offset)
	}
	return float32(p.min + float64(dn)*(p.max-p.min)/65535)
}

func (f *file) prismaPart(name, cube string) (*prismaPart, error) {
	p := &prismaPart{name: name, o: f.get(prismaSwath(f) + cube)}
	if len(p.o.Dims) != 3 || p.o.Type.String() != "uint16" {
		return nil, fmt.Errorf("%s: %s: %s %v, want uint16 (rows, bands, cols)", f.path, p.o.Path, p.o.Type, p.o.Dims)
	}
	nb := int(p.o.Dims[1])
	p.cw = f.root.AttrNums("List_Cw_" + name)
	p.fwhm = f.root.AttrNums("List_Fwhm_" + name)
	if p.cw == nil {
		return nil, fmt.Errorf("%s: PRISMA product without the List_Cw_%s wavelengths", f.path, name)
	}
	if len(p.cw) != nb {
		return nil, fmt.Errorf("%s: List_Cw_%s has %d wavelengths for the %d bands of %s", f.path, name, len(p.cw), nb, cube)
	}
	if p.fwhm != nil && len(p.fwhm) != nb {
		return nil, fmt.Errorf("%s: List_Fwhm_%s has %d values for the %d bands of %s", f.path, name, len(p.fwhm), nb, cube)
	}
	if fl := f.root.AttrNums("List_Cw_" + name + "_Flags"); fl != nil {
		if len(fl) != nb {
			return nil, fmt.Errorf("%s: List_Cw_%s_Flags has %d values for the %d bands of %s", f.path, name, len(fl), nb, cube)
		}
		for i, v := range fl {
			if v == 0 {
				p.cw[i] = 0 // a placeholder, whatever its listed wavelength
			}
		}
	}
	if strings.Contains(prismaSwath(f), "/PRS_L1_") {
		sc, of := f.root.AttrNums("ScaleFactor_"+name), f.root.AttrNums("Offset_"+name)
		if len(sc) != 1 || len(of) != 1 {
			return nil, fmt.Errorf("%s: PRISMA L1 product without ScaleFactor_%s and Offset_%s", f.path, name, name)
		}
		p.l1, p.scale, p.offset = true, sc[0], of[0]
		if !(p.scale > 0) || math.IsInf(p.scale, 0) || math.IsNaN(p.offset) || math.IsInf(p.offset, 0) {
			return nil, fmt.Errorf("%s: ScaleFactor_%s %v / Offset_%s %v: want a finite scale factor above 0 and a finite offset", f.path, name, p.scale, name, p.offset)
		}
		return p, nil
	}
	mn, mx := f.root.AttrNums("L2Scale"+name+"Min"), f.root.AttrNums("L2Scale"+name+"Max")
	if len(mn) != 1 || len(mx) != 1 {
		return nil, fmt.Errorf("%s: PRISMA product without L2Scale%sMin/Max", f.path, name)
	}
	p.min, p.max = mn[0], mx[0]
	if math.IsNaN(p.min) || math.IsNaN(p.max) || math.IsInf(p.min, 0) || math.IsInf(p.max, 0) {
		return nil, fmt.Errorf("%s: L2Scale%sMin %v / Max %v is not a finite number", f.path, name, p.min, p.max)
	}
	if !(p.min < p.max) {
		// Max < Min would invert the reflectance, Max == Min make it constant
		return nil, fmt.Errorf("%s: L2Scale%sMin %v is not below L2Scale%sMax %v: the DN scaling would invert or flatten the reflectance", f.path, name, p.min, name, p.max)
	}
	return p, nil
}

// readPRISMA reads a PRISMA L2D product: both spectrometers' cubes scaled to
// reflectance, placeholders dropped, bands sorted by wavelength; L2B and
// L2C likewise as swaths, and L1 as a swath of radiance.
func readPRISMA(f *file, opt hsi.ReadOptions) (*hsi.Cube, hsi.SourceInfo, error) {
	info := hsi.SourceInfo{Format: "HDF-EOS5", DataType: "uint16", Layout: "HBW",
		Variable: prismaSwath(f) + "VNIR_Cube + SWIR_Cube"}
	lvl := f.root.AttrString("Processing_Level")
	info.Product = "PRISMA L" + lvl
	if t := f.root.AttrString("Product_StartTime"); t != "" {
		info.Product += ", acquired " + t
	}
	if opt.Ortho {
		return nil, info, fmt.Errorf("%s: -ortho applies to EMIT granules; a PRISMA product is read as delivered (L2D map-projected, L1, L2B and L2C swaths)", f.path)
	}
	vn, err := f.prismaPart("Vnir", "VNIR_Cube")
	if err != nil {
		return nil, info, err
	}
	sw, err := f.prismaPart("Swir", "SWIR_Cube")
	if err != nil {
		return nil, info, err
	}
	if vn.o.Dims[0] != sw.o.Dims[0] || vn.o.Dims[2] != sw.o.Dims[2] {
		return nil, info, fmt.Errorf("%s: VNIR cube %v and SWIR cube %v differ in rows or columns", f.path, vn.o.Dims, sw.o.Dims)
	}
	// The merged band list: (part, band) sorted by wavelength, VNIR first
	// at equal wavelengths; both sides of the VNIR/SWIR overlap are kept.
	type band struct {
		p  *prismaPart
		i  int
		cw float64
	}
	var bands []band
	for _, p := range []*prismaPart{vn, sw} {
		for i, w := range p.cw {
			if w > 0 {
				bands = append(bands, band{p, i, w})
			}
		}
	}
	if len(bands) == 0 {
		return nil, info, fmt.Errorf("%s: every band of List_Cw_Vnir and List_Cw_Swir is a placeholder", f.path)
	}
	sort.SliceStable(bands, func(a, b int) bool { return bands[a].cw < bands[b].cw })
	if vn.o.Dims[0] > math.MaxInt32 || vn.o.Dims[2] > math.MaxInt32 {
		return nil, info, fmt.Errorf("%s: VNIR cube %v: too many rows or columns", f.path, vn.o.Dims)
	}
	h, w := int(vn.o.Dims[0]), int(vn.o.Dims[2])
	// The cube and the padding mask are sized from the declared
	// dimensions: the memory check comes before either is allocated.
	n, err := hsi.Elems(h, w, len(bands))
	if err != nil {
		return nil, info, fmt.Errorf("%s: %w", f.path, err)
	}
	if err := memlimit.Check(4*uint64(n)+uint64(h)*uint64(w), fmt.Sprintf("a %dx%dx%d float32 reflectance cube", h, w, len(bands))); err != nil {
		return nil, info, fmt.Errorf("%s: %w", f.path, err)
	}
	c, err := hsi.New(h, w, len(bands))
	if err != nil {
		return nil, info, fmt.Errorf("%s: %w", f.path, err)
	}
	c.Meta.Wavelengths = make([]float64, len(bands))
	c.Meta.WavelengthUnits = "Nanometers"
	haveFWHM := vn.fwhm != nil && sw.fwhm != nil
	if haveFWHM {
		c.Meta.FWHM = make([]float64, len(bands))
	}
	dst := map[*prismaPart][]int{vn: make([]int, len(vn.cw)), sw: make([]int, len(sw.cw))}
	for _, p := range []*prismaPart{vn, sw} {
		for i := range dst[p] {
			dst[p][i] = -1
		}
	}
	for k, b := range bands {
		c.Meta.Wavelengths[k] = short32(b.cw)
		if haveFWHM {
			c.Meta.FWHM[k] = short32(b.p.fwhm[b.i])
		}
		dst[b.p][b.i] = k
	}
	// A pixel is padding when every DN of both cubes is 0.
	nonzero := make([]bool, h*w)
	for _, p := range []*prismaPart{vn, sw} {
		nb := uint64(p.o.Dims[1])
		d2 := uint64(w)
		idx := dst[p]
		err := p.o.Read(func(start uint64, raw []byte) error {
			n := uint64(len(raw) / 2)
			total := uint64(h) * nb * d2
			if start > total || n > total-start {
				return fmt.Errorf("hdf5: dataset %s: run outside the dataset", p.o.Path)
			}
			for j := uint64(0); j < n; j++ {
				e := start + j
				y, r := e/(nb*d2), e%(nb*d2)
				bi, x := r/d2, r%d2
				dn := uint16(raw[2*j]) | uint16(raw[2*j+1])<<8
				if p.o.Type.BigEndian {
					dn = uint16(raw[2*j])<<8 | uint16(raw[2*j+1])
				}
				pix := int(y)*w + int(x)
				if dn != 0 {
					nonzero[pix] = true
				}
				if k := idx[bi]; k >= 0 {
					c.Data[pix*c.B+k] = p.value(dn)
				}
			}
			return nil
		})
		if err != nil {
			return nil, info, fmt.Errorf("%s: %w", f.path, err)
		}
	}
	for pix, ok := range nonzero {
		if !ok {
			s := c.Data[pix*c.B : (pix+1)*c.B]
			for i := range s {
				s[i] = prismaFill
			}
		}
	}
	c.Meta.DataIgnore, c.Meta.HasDataIgnore = prismaFill, true
	c.Meta.Description = info.Product
	geo, note, err := prismaGeo(f, h, w)
	if err != nil {
		return nil, info, err
	}
	if !strings.Contains(prismaSwath(f), "PRS_L2D_") {
		// L2B and L2C are swaths: their corner attributes do not make a grid
		geo, note = nil, "swath (L"+lvl+"), not georeferenced"
	}
	c.Meta.Geo = geo
	info.Detail = fmt.Sprintf("VNIR %d + SWIR %d bands, %d placeholders dropped, sorted by wavelength, VNIR/SWIR overlap kept; %s",
		vn.o.Dims[1], sw.o.Dims[1], int(vn.o.Dims[1]+sw.o.Dims[1])-len(bands), note)
	if vn.l1 {
		info.Detail += "; radiance W/(m2 sr um) = DN / ScaleFactor - Offset"
	}
	return c, info, nil
}

// prismaGeo georeferences the L2D grid from Epsg_Code and the corner
// attributes, which are pixel centres: prismaread (pr_setext_L2D) sets the
// extent from xmin - 15 m to xmin - 15 + cols * 30 m, half a 30 m pixel
// outside the corner coordinates. The pixel size is taken from the corners,
// (LR - UL) / (n - 1), which is 30 m in every L2D product.
func prismaGeo(f *file, h, w int) (*hsi.Geo, string, error) {
	get := func(n string) (float64, bool) {
		v := f.root.AttrNums(n)
		if len(v) != 1 || math.IsNaN(v[0]) || math.IsInf(v[0], 0) {
			return 0, false
		}
		return v[0], true
	}
	epsg, ok1 := get("Epsg_Code")
	ulx, ok2 := get("Product_ULcorner_easting")
	uly, ok3 := get("Product_ULcorner_northing")
	lrx, ok4 := get("Product_LRcorner_easting")
	lry, ok5 := get("Product_LRcorner_northing")
	if !(ok1 && ok2 && ok3 && ok4 && ok5) {
		return nil, "not georeferenced (Epsg_Code or corner attributes missing)", nil
	}
	if epsg != math.Trunc(epsg) || epsg < 1 || epsg > maxEPSG {
		return nil, "", fmt.Errorf("%s: Epsg_Code %v is not an EPSG code (an integer from 1 to %d)", f.path, epsg, maxEPSG)
	}
	c := crs.FromEPSG(int(epsg))
	if c.WKT == "" {
		return nil, "", fmt.Errorf("%s: Epsg_Code %d is not an EPSG coordinate reference system this reader knows", f.path, int(epsg))
	}
	px, py := 30.0, 30.0
	if w > 1 {
		px = (lrx - ulx) / float64(w-1)
	}
	if h > 1 {
		py = (uly - lry) / float64(h-1)
	}
	if !(px > 0) || !(py > 0) {
		return nil, "", fmt.Errorf("%s: corner attributes UL (%v, %v), LR (%v, %v) give no positive pixel size", f.path, ulx, uly, lrx, lry)
	}
	gt := [6]float64{ulx - px/2, px, 0, uly + py/2, 0, -py}
	if err := hsi.CheckGeoTransform(gt); err != nil {
		return nil, "", fmt.Errorf("%s: corner attributes: %w", f.path, err)
	}
	return geoOf(gt, c), fmt.Sprintf("EPSG:%d, corners taken as pixel centres", int(epsg)), nil
}
