package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/gemm"
)

func TestVersion(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"version"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	s := out.String()
	for _, want := range []string{"omnihsr ", "commit:", "modified:", "go:", "gemm:     " + gemm.Backend(), "weights:  default.omw sha256:", "weights:  noise.omw sha256:"} {
		if !strings.Contains(s, want) {
			t.Errorf("version output lacks %q:\n%s", want, s)
		}
	}
	out.Reset()
	if code := run([]string{"version", "-short"}, &out, &errb); code != 0 || strings.Count(out.String(), "\n") != 1 {
		t.Fatalf("version -short: exit %d, %q", code, out.String())
	}
	if code := run([]string{"version", "extra"}, &out, &errb); code != 2 {
		t.Fatalf("version extra: exit %d, want 2", code)
	}
}
