package matfile

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/sample"
)

// A 64-bit integer beyond 2^53 is refused with the writer's real limit,
// not as a value that does not fit the type.
func TestWrite64BitLimitMessage(t *testing.T) {
	dir := t.TempDir()
	c := hsi.MustNew(1, 2, 1)
	c.Data[1] = 1e17 // fits uint64 and int64, but not exactly through float64
	for _, typ := range []sample.Type{sample.Uint64, sample.Int64} {
		err := Write(filepath.Join(dir, "x.mat"), c, hsi.WriteOptions{DataType: typ})
		if err == nil || !strings.Contains(err.Error(), "2^53") || strings.Contains(err.Error(), "does not fit") {
			t.Errorf("%s: %v", typ, err)
		}
	}
}
