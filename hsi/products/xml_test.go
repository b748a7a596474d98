package products

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
)

const desisName = "DESIS-HSI-L2A-DT0865788448_017-20230607T153935-V0220"

// desisCopy copies the desis_xml miniature to a temporary folder with its
// METADATA.xml passed through edit (nil: the METADATA.xml is left out) and
// returns the folder.
func desisCopy(t *testing.T, edit func(string) string) string {
	t.Helper()
	src := filepath.Join("testdata", "desis_xml")
	dir := t.TempDir()
	tif, err := os.ReadFile(filepath.Join(src, desisName+"-SPECTRAL_IMAGE.tif"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, desisName+"-SPECTRAL_IMAGE.tif"), tif, 0o644); err != nil {
		t.Fatal(err)
	}
	if edit != nil {
		x, err := os.ReadFile(filepath.Join(src, desisName+"-METADATA.xml"))
		if err != nil {
			t.Fatal(err)
		}
		y := edit(string(x))
		if y == string(x) {
			t.Fatal("the edit changed nothing")
		}
		if err := os.WriteFile(filepath.Join(dir, desisName+"-METADATA.xml"), []byte(y), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestDESISDuplicateBand: a METADATA.xml that lists one bandNumber twice
// (band 4 changed to 5) is refused; before, band 4 got wavelength 0 and
// gain 0 and band 5's values were overwritten.
func TestDESISDuplicateBand(t *testing.T) {
	dir := desisCopy(t, func(x string) string {
		return strings.Replace(x, "<bandNumber>4</bandNumber>", "<bandNumber>5</bandNumber>", 1)
	})
	p := filepath.Join(dir, desisName+"-SPECTRAL_IMAGE.tif")
	c, _, err := ReadProduct(p, hsi.ReadOptions{})
	if err == nil {
		t.Fatalf("read; wavelengths %v", c.Meta.Wavelengths)
	}
	if want := "both have bandNumber 5"; !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "METADATA.xml") {
		t.Errorf("error %q: want it to name the METADATA.xml and say %q", err, want)
	}
}

// TestMetadataBound: a METADATA.xml larger than MaxMetadataBytes is
// refused before it is read.
func TestMetadataBound(t *testing.T) {
	dir := desisCopy(t, nil)
	x := filepath.Join(dir, desisName+"-METADATA.xml")
	fh, err := os.Create(x)
	if err != nil {
		t.Fatal(err)
	}
	if err := fh.Truncate(MaxMetadataBytes + 1); err != nil { // sparse: no disk used
		t.Fatal(err)
	}
	fh.Close()
	_, _, err = ReadProduct(filepath.Join(dir, desisName+"-SPECTRAL_IMAGE.tif"), hsi.ReadOptions{})
	if err == nil || !strings.Contains(err.Error(), "larger than the 64 MiB") || !strings.Contains(err.Error(), x) {
		t.Fatalf("error %v, want one naming %s and its size", err, x)
	}
}
