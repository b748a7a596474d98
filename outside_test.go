package omnihsr_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/formats"
	"github.com/omnihsr/omnihsr/internal/testrand"
)

// outsideMain is the whole program of a module that is not this one: what
// a Go user writes after `go get github.com/omnihsr/omnihsr`.
const outsideMain = `package main

import (
	"context"
	"fmt"
	"os"

	"github.com/omnihsr/omnihsr"
)

func main() {
	res, err := omnihsr.UpscaleFile(context.Background(), os.Args[1], os.Args[2], omnihsr.Options{Scale: 3})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(res.Model.Used)
}
`

// A module outside this one that imports the root package and calls
// UpscaleFile with only a scale gets the bytes `omnihsr upscale -scale 3`
// writes. It builds two programs, so -short skips it.
func TestOutsideModuleGetsCLIBytes(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds an outside module and the CLI")
	}
	root, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	gosum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	mod := filepath.Join(dir, "outside")
	if err := os.Mkdir(mod, 0o755); err != nil {
		t.Fatal(err)
	}
	gomod := "module example.com/outside\n\ngo 1.26\n\nrequire github.com/omnihsr/omnihsr v0.0.0\n\nreplace github.com/omnihsr/omnihsr => " + filepath.ToSlash(root) + "\n"
	for name, data := range map[string][]byte{"go.mod": []byte(gomod), "go.sum": gosum, "main.go": []byte(outsideMain)} {
		if err := os.WriteFile(filepath.Join(mod, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	exe := func(name string) string {
		if runtime.GOOS == "windows" {
			return name + ".exe"
		}
		return name
	}
	outside, cli := filepath.Join(dir, exe("outside-prog")), filepath.Join(dir, exe("omnihsr"))
	build := func(wd, out, pkg string) {
		cmd := exec.Command("go", "build", "-mod=mod", "-o", out, pkg)
		cmd.Dir = wd
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", pkg, err, b)
		}
	}
	build(mod, outside, ".")
	build(root, cli, "./cmd/omnihsr")

	in := filepath.Join(dir, "lr.tif")
	lr := testrand.Uniform(testrand.New(3, 1), 21, 17, 4, 0, 1)
	if err := formats.Write(in, lr, hsi.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	a, b := filepath.Join(dir, "outside.tif"), filepath.Join(dir, "cli.tif")
	if out, err := exec.Command(outside, in, a).CombinedOutput(); err != nil || string(out) != "true\n" {
		t.Fatalf("outside module: %v, output %q", err, out)
	}
	if out, err := exec.Command(cli, "upscale", "-in", in, "-out", b, "-scale", "3").CombinedOutput(); err != nil {
		t.Fatalf("omnihsr upscale: %v\n%s", err, out)
	}
	ga, err := os.ReadFile(a)
	if err != nil {
		t.Fatal(err)
	}
	gb, err := os.ReadFile(b)
	if err != nil {
		t.Fatal(err)
	}
	if len(ga) < 63*51*4*4 || !bytes.Equal(ga, gb) {
		t.Fatalf("the outside module wrote %d bytes, the CLI %d: not the same file", len(ga), len(gb))
	}
}
