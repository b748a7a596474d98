package products

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
)

// FuzzProductXML reads the EnMAP and DESIS miniatures with arbitrary bytes
// as their METADATA.XML, seeded with the miniatures' own XML: the readers
// must return a cube or an error, never panic, and a cube they return has
// one wavelength per band.
func FuzzProductXML(f *testing.F) {
	type product struct{ dir, tif, xml string }
	const enmap = "ENMAP01-____L2A-DT0000004950_20221103T102316Z_001_V010303_20221104T083010Z"
	products := []product{
		{"testdata", enmap + "-SPECTRAL_IMAGE.TIF", enmap + "-METADATA.XML"},
		{filepath.Join("testdata", "desis_xml"), desisName + "-SPECTRAL_IMAGE.tif", desisName + "-METADATA.xml"},
	}
	tifs := make([][]byte, len(products))
	for i, p := range products {
		b, err := os.ReadFile(filepath.Join(p.dir, p.tif))
		if err != nil {
			f.Fatal(err)
		}
		tifs[i] = b
		x, err := os.ReadFile(filepath.Join(p.dir, p.xml))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(uint8(i), x)
	}
	f.Add(uint8(1), []byte(`<a><specific><bandCharacterisation><band><bandNumber>1</bandNumber></band></bandCharacterisation></specific></a>`))
	f.Fuzz(func(t *testing.T, which uint8, x []byte) {
		i := int(which) % len(products)
		p := products[i]
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, p.tif), tifs[i], 0o644); err != nil {
			t.Fatal(err)
		}
		xmlPath := filepath.Join(dir, p.xml)
		if err := os.WriteFile(xmlPath, x, 0o644); err != nil {
			t.Fatal(err)
		}
		c, _, err := ReadProduct(xmlPath, hsi.ReadOptions{})
		if err != nil {
			return
		}
		if len(c.Meta.Wavelengths) != c.B {
			t.Fatalf("%d wavelengths for %d bands", len(c.Meta.Wavelengths), c.B)
		}
	})
}
