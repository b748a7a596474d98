package formats

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/omnihsr/omnihsr/hsi/envi"
)

// ErrSameFile marks an output that would replace one of the files of an
// input.
var ErrSameFile = errors.New("the output would replace the input")

// WriteFiles returns the files that writing path creates: for ENVI the
// header and the data file (envi.WritePaths), else path.
func WriteFiles(path string) []string {
	if f, ok := byExt(path); ok && f.Name == "ENVI" {
		h, d := envi.WritePaths(path)
		return []string{h, d}
	}
	return []string{path}
}

// ReadFiles returns the files that reading path opens: for ENVI the header
// and the data file (envi.Pair), else path.
func ReadFiles(path string) []string {
	if f, err := ForRead(path); err == nil && f.Name == "ENVI" {
		if h, d, err := envi.Pair(path); err == nil {
			return []string{h, d}
		}
	}
	return []string{path}
}

// CheckOutput returns an error wrapping ErrSameFile when writing out would
// replace a file that reading one of inputs opens: the same path, or a
// symbolic or hard link to it (os.SameFile), counting the ENVI partner
// files on both sides (so x.img as output is refused for the input x.hdr).
// Files that do not exist yet cannot be an input and are not compared.
func CheckOutput(out string, inputs ...string) error {
	for _, in := range inputs {
		for _, r := range ReadFiles(in) {
			rs, err := os.Stat(r)
			if err != nil || !rs.Mode().IsRegular() {
				continue
			}
			for _, w := range WriteFiles(out) {
				ws, err := os.Stat(w)
				if err != nil || !os.SameFile(rs, ws) {
					continue
				}
				if w == out && r == in {
					link := ""
					if filepath.Clean(w) != filepath.Clean(r) {
						link = " (the same file through a link)"
					}
					return fmt.Errorf("%s: %w %s%s", out, ErrSameFile, in, link)
				}
				wdesc, rdesc := "it is", "the input"
				if w != out {
					wdesc = "writing it also writes " + w + ", which is"
				}
				if r != in {
					rdesc = "the input's ENVI partner " + r
				}
				if filepath.Clean(w) != filepath.Clean(r) {
					rdesc += " through a link"
				}
				return fmt.Errorf("%s: %w %s: %s %s", out, ErrSameFile, in, wdesc, rdesc)
			}
		}
	}
	return nil
}
