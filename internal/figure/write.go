package figure

import (
	"fmt"
	"image"
	"image/png"
	"io"

	"github.com/omnihsr/omnihsr/internal/atomicfile"
)

// WritePNG writes img to path as a PNG file (image/png, default
// compression), atomically: a reader sees either the old file or the whole
// new one. The encoder writes no time stamp or other varying chunk, so the
// same image gives the same bytes.
func WritePNG(path string, img image.Image) error {
	if img == nil {
		return fmt.Errorf("figure: write %s: %w", path, errNilImage)
	}
	if err := atomicfile.Write(path, func(w io.Writer) error { return png.Encode(w, img) }); err != nil {
		return fmt.Errorf("figure: %w", err)
	}
	return nil
}
