package products

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// realDir is ../shared/data/products-real: the structure of real mission
// products (never committed; the tests skip without it).
func realDir(t *testing.T, sub string) string {
	t.Helper()
	d := filepath.Join("..", "..", "..", "shared", "data", "products-real", sub)
	if _, err := os.Stat(d); err != nil {
		t.Skipf("%s absent (../shared is for development only): %v", d, err)
	}
	return d
}

// The reader's XML mapping reads a real EnMAP L2A METADATA.XML of the
// pre-launch schema 00-02-00: 218 bands (88 VNIR + 130 SWIR) with centre,
// FWHM, gain 0.0001 and offset 0, in band number order, and its background
// value 0.
func TestRealEnMAPMetadata(t *testing.T) {
	d := realDir(t, "enmap")
	var m enmapMeta
	if err := readXML(filepath.Join(d, "ENMAP01-____L2A-DT0000326721_20170626T102020Z_001_V000204_20200406T201930Z-METADATA.XML"), "EnMAP", &m); err != nil {
		t.Fatal(err)
	}
	if m.Level != "L2A" || len(m.Bands) != 218 || m.Start != "2017-06-26T10:20:20.999936Z" {
		t.Fatalf("level %q, %d bands, start %q", m.Level, len(m.Bands), m.Start)
	}
	first, last := m.Bands[0], m.Bands[217]
	if first.Number != "1" || first.Wavelength != "423.03" || first.Gain != "0.0001" || first.Offset != "0" || last.Number != "218" || last.Wavelength != "2438.6" {
		t.Errorf("first band %+v, last %+v", first, last)
	}
	for i, b := range m.Bands {
		if b.Number != strings.TrimSpace(b.Number) || b.FWHM == "" || b.Gain == "" {
			t.Fatalf("band %d: %+v", i+1, b)
		}
	}
	// specific/backgroundValue 0: read as no-data (TestEnMAPBackground).
	if v, ok, err := backgroundValue(filepath.Join(d, "ENMAP01-____L2A-DT0000326721_20170626T102020Z_001_V000204_20200406T201930Z-METADATA.XML"), "EnMAP"); err != nil || !ok || v != 0 {
		t.Errorf("backgroundValue %v %v %v, want 0", v, ok, err)
	}
}

// Our EMIT miniature has every global attribute, group, variable and
// dimension order of the real granule EMIT_L2A_RFL_001_20220903T163129_
// 2224611_012.nc (its structure as NASA's notebooks print it).
func TestRealEMITStructure(t *testing.T) {
	d := realDir(t, "emit")
	fh, err := os.Open(filepath.Join(d, "EMIT_L2A_RFL_structure_from_notebook_outputs.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	f, err := open(filepath.Join("testdata", "EMIT_L2A_RFL_001_20230801T101112_2321307_002.nc"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.close()
	varLine := regexp.MustCompile(`^  VAR (\w+) \(([^)]*)\)`)
	group, inGlobals, nattr, nvar := "", false, 0, 0
	sc := bufio.NewScanner(fh)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "### "):
			inGlobals, group = false, ""
			if _, g, ok := strings.Cut(line, "group='"); ok {
				group = "/" + strings.TrimSuffix(strings.SplitN(g, "'", 2)[0], "/")
			}
		case strings.HasPrefix(line, "  FULL GLOBAL ATTRIBUTES"):
			inGlobals = true
		case inGlobals && strings.HasPrefix(line, "    ") && strings.Contains(line, " = "):
			name := strings.TrimSpace(strings.SplitN(line, " = ", 2)[0])
			nattr++
			if _, ok := f.root.Attrs[name]; !ok {
				t.Errorf("global attribute %s is missing from the miniature", name)
			}
		case varLine.MatchString(line):
			inGlobals = false
			m := varLine.FindStringSubmatch(line)
			nvar++
			o := f.get(group + "/" + m[1])
			if o == nil {
				t.Errorf("variable %s/%s is missing from the miniature", group, m[1])
				continue
			}
			dims := strings.Split(m[2], ", ")
			if got := f.dimNames(o); strings.Join(got, ", ") != strings.Join(dims, ", ") {
				t.Errorf("%s: dimensions %v, the real granule has %v", o.Path, got, dims)
			}
		}
	}
	if nattr != 38 || nvar != 9 {
		t.Errorf("parsed %d global attributes and %d variables of the real granule, want 38 and 9", nattr, nvar)
	}
}

// The placeholders of our PRISMA miniature sit where real products have
// them: the first three VNIR bands and the last two SWIR bands
// (List_Cw_Swir_Flags of the real L2B and L2D products ends 0, 0; their
// List_Fwhm_Vnir starts 0, 0, 0).
func TestRealPRISMAPlaceholders(t *testing.T) {
	d := realDir(t, "prisma")
	var real struct {
		Expected struct {
			Metadata []struct{ Path, Value string } `json:"metadata"`
		} `json:"expectedContent"`
	}
	zero := func(s string) bool { s = strings.TrimSpace(s); return s == "0" || s == "0.0" }
	zeros := func(v []string) (lead, trail int) {
		for lead < len(v) && zero(v[lead]) {
			lead++
		}
		for trail < len(v) && zero(v[len(v)-1-trail]) {
			trail++
		}
		return
	}
	want := map[string][2]int{}
	for _, name := range []string{"PRS_L2D_STD_20240402102837_20240402102842_0001_he5.json", "PRS_L2C_STD_20240402102837_20240402102842_0001_he5.json"} {
		b, err := os.ReadFile(filepath.Join(d, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &real); err != nil {
			t.Fatal(err)
		}
		for _, m := range real.Expected.Metadata {
			for _, attr := range []string{"List_Cw_Swir_Flags", "List_Fwhm_Vnir"} {
				if strings.HasSuffix(m.Path, "/"+attr) {
					l, r := zeros(strings.Split(m.Value, ","))
					want[attr] = [2]int{l, r}
				}
			}
		}
	}
	if want["List_Cw_Swir_Flags"] != [2]int{0, 2} || want["List_Fwhm_Vnir"] != [2]int{3, 0} {
		t.Fatalf("real placeholders %v", want)
	}
	f, err := open(filepath.Join("testdata", "PRS_L2D_STD_20210615102030_20210615102034_0001.he5"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.close()
	for attr, w := range map[string][2]int{"List_Cw_Swir_Flags": want["List_Cw_Swir_Flags"], "List_Fwhm_Vnir": want["List_Fwhm_Vnir"]} {
		var s []string
		for _, v := range f.root.AttrNums(attr) {
			if v == 0 {
				s = append(s, "0")
			} else {
				s = append(s, "1")
			}
		}
		if l, r := zeros(s); [2]int{l, r} != w {
			t.Errorf("miniature %s has %d leading and %d trailing placeholders, real products %v", attr, l, r, w)
		}
	}
}

// Our PRISMA L1 miniature has the real L1 product's structure as SNAP's
// expected content lists it: the swaths PRS_L1_HCO, PRS_L1_HRC, PRS_L1_PCO
// and PRS_L1_PRC (SNAP's band name prefixes; its metadata paths name their
// FrameNumber datasets), hyperspectral bands numbered VNIR 04-66 and SWIR
// 001-171 (the first three VNIR and the last two SWIR bands are
// placeholders), in decreasing wavelength within each cube, and
// List_Fwhm_Swir ending 0, 0.
func TestRealPRISMAL1Structure(t *testing.T) {
	d := realDir(t, "prisma")
	var real struct {
		Expected struct {
			Bands []struct {
				Name       string `json:"name"`
				Wavelength string `json:"spectralWavelength"`
			} `json:"bands"`
			Metadata []struct{ Path, Value string } `json:"metadata"`
		} `json:"expectedContent"`
	}
	b, err := os.ReadFile(filepath.Join(d, "PRS_L1_STD_OFFL_20240402102837_20240402102842_0001_he5.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &real); err != nil {
		t.Fatal(err)
	}
	swaths := map[string]bool{}
	for _, m := range real.Expected.Metadata {
		if p := strings.Split(m.Path, "/"); len(p) > 2 && p[0] == "HDFEOS" && p[1] == "SWATHS" {
			swaths[p[2]] = true
		}
		if strings.HasSuffix(m.Path, "/List_Fwhm_Swir") && !strings.HasSuffix(m.Value, ",0.0,0.0") {
			t.Errorf("real List_Fwhm_Swir ends %q", m.Value[len(m.Value)-12:])
		}
	}
	for _, s := range []string{"PRS_L1_HCO", "PRS_L1_HRC", "PRS_L1_PCO", "PRS_L1_PRC"} {
		if !swaths[s] {
			t.Errorf("real product: no swath %s (have %v)", s, swaths)
		}
	}
	num := map[string][]int{}
	prev := map[string]float64{}
	for _, bd := range real.Expected.Bands {
		for _, k := range []string{"HCO_Vnir_Ltoa_", "HCO_Swir_Ltoa_"} {
			if !strings.HasPrefix(bd.Name, k) {
				continue
			}
			n, err := strconv.Atoi(strings.TrimPrefix(bd.Name, k))
			wl, err2 := strconv.ParseFloat(bd.Wavelength, 64)
			if err != nil || err2 != nil {
				t.Fatalf("%s: %v %v", bd.Name, err, err2)
			}
			if p, ok := prev[k]; ok && !(wl < p) {
				t.Errorf("%s at %v nm after %v nm: not decreasing", bd.Name, wl, p)
			}
			prev[k] = wl
			num[k] = append(num[k], n)
		}
	}
	v, s := num["HCO_Vnir_Ltoa_"], num["HCO_Swir_Ltoa_"]
	if len(v) != 63 || v[0] != 4 || v[62] != 66 || len(s) != 171 || s[0] != 1 || s[170] != 171 {
		t.Fatalf("real bands: VNIR %d (%v..), SWIR %d", len(v), v[:1], len(s))
	}
	f, err := open(filepath.Join("testdata", "PRS_L1_STD_OFFL_20240402102837_20240402102842_0001.he5"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.close()
	for _, s := range []string{"PRS_L1_HCO", "PRS_L1_HRC", "PRS_L1_PCO", "PRS_L1_PRC"} {
		if f.get("/HDFEOS/SWATHS/"+s+"/Data Fields/FrameNumber") == nil && f.get("/HDFEOS/SWATHS/"+s+"/Data Fields/Cube") == nil {
			t.Errorf("miniature: no swath %s", s)
		}
	}
	for name, w := range map[string][2]int{"Vnir": {3, 0}, "Swir": {0, 2}} {
		cw := f.root.AttrNums("List_Cw_" + name)
		lead, trail := 0, 0
		for lead < len(cw) && cw[lead] == 0 {
			lead++
		}
		for trail < len(cw) && cw[len(cw)-1-trail] == 0 {
			trail++
		}
		if [2]int{lead, trail} != w {
			t.Errorf("miniature List_Cw_%s placeholders %d first, %d last; want %v", name, lead, trail, w)
		}
		for i := lead + 1; i < len(cw)-trail; i++ {
			if !(cw[i] < cw[i-1]) {
				t.Errorf("miniature List_Cw_%s not decreasing at %d", name, i)
			}
		}
	}
}
