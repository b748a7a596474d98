package jsonfmt

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"regexp"

	"github.com/omnihsr/omnihsr/internal/atomicfile"
)

// numArray matches an indented JSON array of numbers (or nulls).
var numArray = regexp.MustCompile(`\[\n[\t ]*(?:[-0-9.eE+]+|null)(?:,\n[\t ]*(?:[-0-9.eE+]+|null))*\n[\t ]*\]`)

// Marshal encodes v indented by one space per level, arrays of numbers on
// one line ("[1, 2.5, null]"), with a final newline.
func Marshal(v any) ([]byte, error) {
	b, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		return nil, err
	}
	b = numArray.ReplaceAllFunc(b, func(m []byte) []byte {
		f := bytes.Fields(bytes.Trim(m, "[]\n\t "))
		return append(append([]byte("["), bytes.Join(f, []byte(" "))...), ']')
	})
	return append(b, '\n'), nil
}

// Write writes v to path in the layout of Marshal, atomically: on error
// the file at path is left as it was.
func Write(path string, v any) error {
	b, err := Marshal(v)
	if err != nil {
		return fmt.Errorf("jsonfmt: encode %s: %w", path, err)
	}
	return atomicfile.Write(path, func(w io.Writer) error {
		_, err := w.Write(b)
		return err
	})
}
