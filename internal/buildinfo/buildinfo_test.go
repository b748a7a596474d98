package buildinfo

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// The digests are those of the files in internal/model/weights, and every field
// appears in String.
func TestRead(t *testing.T) {
	in := Read()
	if in.Go != runtime.Version() || in.OS != runtime.GOOS || in.Arch != runtime.GOARCH || in.GEMM == "" {
		t.Fatalf("Read() = %+v", in)
	}
	if len(in.Weights) != 2 {
		t.Fatalf("weights %+v, want default.omw and noise.omw", in.Weights)
	}
	s := in.String()
	for _, w := range in.Weights {
		data, err := os.ReadFile(filepath.Join("..", "..", "internal", "model", "weights", w.Name))
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(data)
		if got := hex.EncodeToString(sum[:]); got != w.SHA256 {
			t.Errorf("%s: sha256 %s, the file's is %s", w.Name, w.SHA256, got)
		}
		if !strings.Contains(s, w.Name+" sha256:"+w.SHA256) {
			t.Errorf("String() lacks %s:\n%s", w.Name, s)
		}
	}
	for _, want := range []string{"module:", "commit:", "modified:", "go:", "gemm:", in.GEMM} {
		if !strings.Contains(s, want) {
			t.Errorf("String() lacks %q:\n%s", want, s)
		}
	}
}

func TestStampAndShort(t *testing.T) {
	defer func(s string) { stamp = s }(stamp)
	stamp = "v9.8.7"
	in := Read()
	in.Revision, in.Modified = "0123456789abcdef0123", true
	if got := in.Short(); !strings.HasPrefix(got, "omnihsr v9.8.7 (0123456789ab+dirty), ") {
		t.Fatalf("Short() = %q", got)
	}
}
