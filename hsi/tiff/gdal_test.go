package tiff

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/npy"
	"github.com/omnihsr/omnihsr/hsi/sample"
)

var gdalDir = flag.String("gdal-dir", "", "write every writer combination, its source values and manifest.json here for scripts/goldens/tiff.py")

// gdalRead is what GDAL saw in one file of ours (testdata/gdal_reads.json).
type gdalRead struct {
	SHA256      string   `json:"sha256"`
	Equal       bool     `json:"equal"`
	Checksums   []int    `json:"checksums"`
	Compression string   `json:"compression"`
	Predictor   int      `json:"predictor"`
	Block       []int    `json:"block"`
	Overviews   int      `json:"overviews"`
	COGErrors   []string `json:"cog_errors"`
}

// TestGDALReadsOurFiles writes every combination of writeCombos and checks
// that the bytes are those GDAL read back bit for bit when
// scripts/goldens/tiff.py ran (and, for COGs, validated), and that GDAL saw
// the compression, predictor, block size and overviews asked for. With
// -gdal-dir it writes the files for that script instead.
func TestGDALReadsOurFiles(t *testing.T) {
	dir := *gdalDir
	var reads struct {
		GDAL  string              `json:"gdal"`
		Files map[string]gdalRead `json:"files"`
	}
	if dir == "" {
		dir = t.TempDir()
		b, err := os.ReadFile(filepath.Join("testdata", "gdal_reads.json"))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &reads); err != nil {
			t.Fatal(err)
		}
	}
	type entry struct {
		Source string `json:"source"`
		COG    bool   `json:"cog"`
	}
	manifest := map[string]entry{}
	for _, cb := range writeCombos() {
		c := comboCube(cb.dt, cb.b)
		p := filepath.Join(dir, cb.name)
		if err := Write(p, c, cb.opt); err != nil {
			t.Fatalf("%s: %v", cb.name, err)
		}
		src := fmt.Sprintf("src_%s_%d.npy", cb.dt, cb.b)
		if *gdalDir != "" {
			manifest[cb.name] = entry{src, cb.opt.Driver == "COG"}
			if err := npy.Write(filepath.Join(dir, src), c, hsi.WriteOptions{DataType: sample.Float64}); err != nil {
				t.Fatal(err)
			}
			continue
		}
		g, ok := reads.Files[cb.name]
		if !ok {
			t.Errorf("%s: not in testdata/gdal_reads.json: run scripts/goldens/tiff.py", cb.name)
			continue
		}
		b, _ := os.ReadFile(p)
		sum := sha256.Sum256(b)
		if hex.EncodeToString(sum[:]) != g.SHA256 {
			t.Errorf("%s: the writer's bytes differ from those %s read: run scripts/goldens/tiff.py to have GDAL check them", cb.name, reads.GDAL)
		}
		o, _ := ParseOptions(cb.opt)
		wantComp := map[int]string{cNone: "NONE", cDeflate: "DEFLATE", cLZW: "LZW", cZSTD: "ZSTD"}[o.Compression]
		wantBlock := []int{comboW, max(1, min(comboH, stripTarget/(comboW*mustTIFFType(cb.dt).bits/8)))}
		switch {
		case o.COG:
			wantBlock = []int{16, 16}
		case o.Tiled:
			wantBlock = []int{16, 32}
		case o.BlockH != 0:
			wantBlock[1] = o.BlockH
		}
		wantOvr := 0
		if o.COG && o.Overviews {
			wantOvr = 2 // 37x23 in 16x16 tiles: 19x12, then 10x6
		}
		wantPred := o.Predictor
		if wantPred == 0 {
			wantPred = 2
			if strings.HasPrefix(cb.dt, "float") {
				wantPred = 3
			}
		}
		if !g.Equal || len(g.COGErrors) > 0 || g.Compression != wantComp || g.Predictor != wantPred ||
			fmt.Sprint(g.Block) != fmt.Sprint(wantBlock) || g.Overviews != wantOvr || len(g.Checksums) != cb.b {
			t.Errorf("%s: GDAL saw %+v; want values equal, %s, predictor %d, blocks %v, %d overviews", cb.name, g, wantComp, wantPred, wantBlock, wantOvr)
		}
	}
	if *gdalDir != "" {
		b, _ := json.Marshal(manifest)
		if err := os.WriteFile(filepath.Join(dir, "manifest.json"), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestGDALWrittenCodecs decodes every file GDAL wrote with ZSTD, LZW and
// deflate, predictors 1-3, strips and tiles, and compares the values bit
// for bit.
func TestGDALWrittenCodecs(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "gdal", "expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	var g struct {
		Sources map[string]goldenSource `json:"sources"`
		Files   map[string]struct {
			Source      string `json:"source"`
			Compression string `json:"compression"`
			Predictor   int    `json:"predictor"`
			Tiled       bool   `json:"tiled"`
			BigTIFF     bool   `json:"bigtiff"`
			BigEndian   bool   `json:"big_endian"`
		} `json:"files"`
	}
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatal(err)
	}
	if len(g.Files) < 40 {
		t.Fatalf("%d GDAL files", len(g.Files))
	}
	for name, f := range g.Files {
		c, info, err := Read(filepath.Join("testdata", "gdal", name), hsi.ReadOptions{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		s := g.Sources[f.Source]
		if c.H != s.Shape[0] || c.W != s.Shape[1] || c.B != s.Shape[2] {
			t.Fatalf("%s: cube %dx%dx%d, want %v", name, c.H, c.W, c.B, s.Shape)
		}
		for i, want := range s.Values {
			if math.Float32bits(c.Data[i]) != math.Float32bits(float32(want)) {
				t.Fatalf("%s: value %d = %v, want %v", name, i, c.Data[i], want)
			}
		}
		comp := map[string]string{"ZSTD": "ZSTD", "LZW": "LZW", "DEFLATE": "deflate"}[f.Compression]
		want := []string{comp}
		if f.Predictor > 1 {
			want = append(want, fmt.Sprintf("predictor %d", f.Predictor))
		}
		if f.Tiled {
			want = append(want, "tiles 16x16")
		}
		if f.BigTIFF {
			want = append(want, "BigTIFF")
		}
		if f.BigEndian {
			want = append(want, "big-endian")
		}
		for _, w := range want {
			if !strings.Contains(info.Detail, w) {
				t.Errorf("%s: detail %q lacks %q", name, info.Detail, w)
			}
		}
	}
}

// TestGDALLive runs GDAL itself, where it is installed: gdalinfo reads a
// ZSTD COG of ours and GDAL's COG validator accepts it.
func TestGDALLive(t *testing.T) {
	gi, err := exec.LookPath("gdalinfo")
	if err != nil {
		t.Skip("gdalinfo is not on the PATH (Debian: apt-get install gdal-bin python3-gdal)")
	}
	c := comboCube("float32", 3)
	p := filepath.Join(t.TempDir(), "live.tif")
	if err := Write(p, c, hsi.WriteOptions{Driver: "COG", Creation: []string{"BLOCKSIZE=16", "COMPRESS=ZSTD", "PREDICTOR=3"}}); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(gi, p).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "COMPRESSION=ZSTD") || !strings.Contains(string(out), "Overviews: 12x19, 6x10") {
		t.Fatalf("gdalinfo: %v\n%s", err, out)
	}
	py := "/usr/bin/python3"
	if exec.Command(py, "-c", "import osgeo_utils.samples.validate_cloud_optimized_geotiff").Run() != nil {
		t.Skip("python3-gdal's validate_cloud_optimized_geotiff is not installed")
	}
	out, err = exec.Command(py, "-m", "osgeo_utils.samples.validate_cloud_optimized_geotiff", "--full-check=yes", p).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "is a valid cloud optimized GeoTIFF") {
		t.Fatalf("validator: %v\n%s", err, out)
	}
}

func mustTIFFType(dt string) sampleType {
	st, ok := tiffType(parseType(dt))
	if !ok {
		panic("no TIFF type " + dt)
	}
	return st
}
