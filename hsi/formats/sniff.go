package formats

import (
	"bytes"
	"io"
	"os"

	"github.com/omnihsr/omnihsr/hsi/internal/hdf5"
)

// Sniff names the format of a file from its first bytes: "HDF5" (the
// signature at offset 0, 512, 1024, ...; a MAT v7.3 file, whose 512-byte
// header names MATLAB, is "MAT"), "MAT" (a v5 header), "TIFF" (II*, MM*
// and BigTIFF), "NPY", "PNG" or "ENVI" (a header file starting with
// "ENVI"). It returns "" when no signature matches or path is not a
// regular file that can be read: raw ENVI data has no signature.
func Sniff(path string) string {
	if st, err := os.Stat(path); err != nil || !st.Mode().IsRegular() {
		return "" // opening a FIFO would block
	}
	fh, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer fh.Close()
	head := make([]byte, 128)
	n, _ := io.ReadFull(fh, head)
	head = head[:n]
	switch {
	case bytes.HasPrefix(head, []byte("MATLAB 7.3 MAT-file")):
		return "MAT"
	case len(head) >= 128 && bytes.HasPrefix(head, []byte("MATLAB 5.0 MAT-file")) &&
		(string(head[126:128]) == "IM" || string(head[126:128]) == "MI"):
		return "MAT"
	case bytes.HasPrefix(head, []byte("II*\x00")), bytes.HasPrefix(head, []byte("MM\x00*")),
		bytes.HasPrefix(head, []byte("II+\x00")), bytes.HasPrefix(head, []byte("MM\x00+")):
		return "TIFF"
	case bytes.HasPrefix(head, []byte("\x93NUMPY")):
		return "NPY"
	case bytes.HasPrefix(head, []byte("\x89PNG\r\n\x1a\n")):
		return "PNG"
	case bytes.HasPrefix(head, []byte("ENVI")):
		return "ENVI"
	}
	st, err := fh.Stat()
	if err != nil {
		return ""
	}
	sig := make([]byte, len(hdf5.Signature))
	for off := int64(0); off+int64(len(sig)) <= st.Size(); off = max(512, off*2) {
		if _, err := fh.ReadAt(sig, off); err != nil {
			return ""
		}
		if bytes.Equal(sig, hdf5.Signature) {
			return "HDF5"
		}
	}
	return ""
}
