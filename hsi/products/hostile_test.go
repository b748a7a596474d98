package products

import (
	"errors"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/internal/memlimit"
)

// The hostile files of issue 29 are written by
// scripts/miniatures/hostile_hdf5.py (a few KB each).
func hostile(name string) string { return filepath.Join("testdata", "hostile", name) }

// TestDeclaredSizes: a file that declares a cube far larger than memory
// (and far larger than itself) is refused by the memory check before
// anything is allocated, with an error naming the file and matching
// memlimit.ErrTooLarge.
func TestDeclaredSizes(t *testing.T) {
	t.Setenv(memlimit.Env, "256M")
	for _, tc := range []struct {
		name string
		opt  hsi.ReadOptions
	}{
		{"huge.h5", hsi.ReadOptions{}},
		{"huge_gzip.h5", hsi.ReadOptions{}},
		{"huge2.h5", hsi.ReadOptions{}},
		{"huge.h5", hsi.ReadOptions{Var: "/cube"}},
		{"emit_huge_glt.nc", hsi.ReadOptions{Ortho: true}},
		{"prisma_huge.he5", hsi.ReadOptions{}},
		{"prisma_huge.he5", hsi.ReadOptions{Var: prismaFields + "VNIR_Cube", Layout: "HBW"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := hostile(tc.name)
			c, _, err := ReadHDF5(p, tc.opt)
			if c != nil || !errors.Is(err, memlimit.ErrTooLarge) {
				t.Fatalf("got cube %v, error %v; want memlimit.ErrTooLarge", c != nil, err)
			}
			if !strings.Contains(err.Error(), p) {
				t.Errorf("error %q does not name %s", err, p)
			}
		})
	}
	// Issue 39: under the machine's own limit the GLT's tables were read
	// (7.0 GB, 21 s); they were never written, which is found first.
	t.Setenv(memlimit.Env, "")
	if memlimit.Limit() >= 11<<30 {
		if _, _, err := ReadHDF5(hostile("emit_huge_glt.nc"), hsi.ReadOptions{Ortho: true}); err == nil || !strings.Contains(err.Error(), "GLT (location/glt_x and glt_y) was never written") {
			t.Errorf("emit_huge_glt.nc -ortho: %v", err)
		}
	}
	// The EMIT swath itself is small: without -ortho the GLT is not read.
	if _, _, err := ReadHDF5(hostile("emit_huge_glt.nc"), hsi.ReadOptions{}); err != nil {
		t.Errorf("emit_huge_glt.nc swath: %v", err)
	}
}

// TestHostileStructure: files that are valid but built to make a reader
// work hard or give up.
func TestHostileStructure(t *testing.T) {
	t.Run("nested100", func(t *testing.T) {
		// groups nested 100 deep: the file reads, the deep dataset by path
		for _, v := range []string{"", "/cube", "/" + strings.Repeat("g/", 100) + "deep"} {
			c, _, err := ReadHDF5(hostile("nested100.h5"), hsi.ReadOptions{Var: v})
			if err != nil {
				t.Fatalf("-var %q: %v", v, err)
			}
			if v == "" && (c.H != 2 || c.W != 3 || c.B != 4 || c.Data[23] != 23) {
				t.Errorf("-var %q: cube %dx%dx%d, last %v", v, c.H, c.W, c.B, c.Data[len(c.Data)-1])
			}
		}
	})
	t.Run("float16", func(t *testing.T) {
		c, info, err := ReadHDF5(hostile("float16.h5"), hsi.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if info.DataType != "float16" || c.H != 2 || c.W != 3 || c.B != 4 {
			t.Fatalf("type %s, cube %dx%dx%d", info.DataType, c.H, c.W, c.B)
		}
		for i, v := range c.Data {
			if want := float32(i)/8 - 1; v != want {
				t.Fatalf("sample %d = %v, want %v", i, v, want)
			}
		}
	})
	t.Run("hardlinks", func(t *testing.T) {
		// 500 hard links to one group of 200 attributes: one parse
		f, err := open(hostile("hardlinks.h5"))
		if err != nil {
			t.Fatal(err)
		}
		defer f.close()
		if g := f.get("/links/l499"); g == nil || len(g.Attrs) != 200 || g.Path != "/links/l499" {
			t.Fatalf("/links/l499: %+v", g)
		}
	})
	t.Run("huge_attr", func(t *testing.T) {
		// an 80 KB attribute stored as a huge fractal-heap object
		f, err := open(hostile("huge_attr.h5"))
		if err != nil {
			t.Fatal(err)
		}
		defer f.close()
		o := f.get("/cube")
		if o == nil || o.Attrs["small9"].Num != 9 {
			t.Fatalf("/cube or its attribute small9 missing: %+v", o)
		}
		if s := o.AttrString("spatial_ref"); len(s) != 80<<10+len("PROJCS[]") || !strings.HasPrefix(s, "PROJCS[xxx") {
			t.Errorf("spatial_ref: %d bytes", len(s))
		}
	})
	t.Run("vlen_attr", func(t *testing.T) {
		f, err := open(hostile("vlen_attr.h5"))
		if err != nil {
			t.Fatal(err)
		}
		defer f.close()
		if a := f.get("/cube").Attrs["names"]; len(a.Strs) != 1000 || a.Strs[999] != "n999" {
			t.Fatalf("names: %d strings", len(a.Strs))
		}
	})
}

// TestBadScaling: PRISMA scaling and CRS attributes and EMIT georeferencing
// and wavelengths that cannot be right are refused on read.
func TestBadScaling(t *testing.T) {
	for _, tc := range []struct {
		name string
		opt  hsi.ReadOptions
		want string
	}{
		{"prisma_minmax.he5", hsi.ReadOptions{}, "L2ScaleVnirMin 1 is not below L2ScaleVnirMax 0"},
		{"prisma_flat.he5", hsi.ReadOptions{}, "L2ScaleVnirMin 0 is not below L2ScaleVnirMax 0"},
		{"prisma_epsg_huge.he5", hsi.ReadOptions{}, "Epsg_Code 1e+20 is not an EPSG code"},
		{"prisma_epsg_neg.he5", hsi.ReadOptions{}, "Epsg_Code -4326 is not an EPSG code"},
		{"prisma_epsg_unknown.he5", hsi.ReadOptions{}, "Epsg_Code 99999"},
		{"emit_gt_nan.nc", hsi.ReadOptions{Ortho: true}, "geotransform"},
		{"emit_gt_zero.nc", hsi.ReadOptions{Ortho: true}, "geotransform"},
		{"emit_wl_nan.nc", hsi.ReadOptions{}, "wavelength"},
		{"emit_wl_unsorted.nc", hsi.ReadOptions{}, "wavelengths are not increasing"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := hostile(tc.name)
			c, _, err := ReadHDF5(p, tc.opt)
			if err == nil {
				g := c.Meta.Geo
				t.Fatalf("no error (wavelengths %v, geo %+v)", c.Meta.Wavelengths[:2], g)
			}
			if !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), p) {
				t.Errorf("error %q: want it to name %s and say %q", err, p, tc.want)
			}
		})
	}
	_ = math.NaN
}
