package buildinfo

import (
	"encoding/hex"
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/omnihsr/omnihsr/gemm"
	"github.com/omnihsr/omnihsr/internal/model"
)

// stamp is the version a release build sets with
// -ldflags "-X github.com/omnihsr/omnihsr/internal/buildinfo.stamp=v1.2.3"
// (scripts/release); empty in other builds.
var stamp string

// Info describes a build.
type Info struct {
	Module   string // module path, e.g. github.com/omnihsr/omnihsr
	Version  string // module version: the release stamp, else what the go command recorded ("(devel)" without one)
	Revision string // VCS commit, "" when the build recorded none
	Time     string // commit time (RFC 3339), "" when unknown
	Modified bool   // the work tree had uncommitted changes
	Go       string // Go toolchain version
	OS, Arch string
	GEMM     string   // gemm.Backend()
	Weights  []Weight // embedded weight files
}

// Weight is an embedded weight file and its SHA-256 in hex.
type Weight struct {
	Name, SHA256 string
}

// Read returns the running build's Info.
func Read() Info {
	in := Info{Module: "github.com/omnihsr/omnihsr", Version: "(devel)", Go: runtime.Version(),
		OS: runtime.GOOS, Arch: runtime.GOARCH, GEMM: gemm.Backend()}
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Path != "" {
			in.Module = bi.Main.Path
		}
		if bi.Main.Version != "" {
			in.Version = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				in.Revision = s.Value
			case "vcs.time":
				in.Time = s.Value
			case "vcs.modified":
				in.Modified = s.Value == "true"
			}
		}
	}
	if stamp != "" {
		in.Version = stamp
	}
	for _, w := range model.EmbeddedWeights() {
		in.Weights = append(in.Weights, Weight{w.Name, hex.EncodeToString(w.SHA256[:])})
	}
	return in
}

// Short is one line: version, commit (12 digits, "+dirty" when
// modified), Go version and platform, GEMM kernel.
func (in Info) Short() string {
	rev := "unknown commit"
	if in.Revision != "" {
		rev = in.Revision[:min(12, len(in.Revision))]
		if in.Modified {
			rev += "+dirty"
		}
	}
	return fmt.Sprintf("omnihsr %s (%s), %s %s/%s, GEMM %s", in.Version, rev, in.Go, in.OS, in.Arch, in.GEMM)
}

// String is the full description, one item per line, as `omnihsr
// version` prints it.
func (in Info) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "omnihsr %s\n", in.Version)
	fmt.Fprintf(&b, "module:   %s\n", in.Module)
	rev := in.Revision
	if rev == "" {
		rev = "unknown (the build recorded none: outside a git checkout, or -buildvcs=false)"
	}
	fmt.Fprintf(&b, "commit:   %s\n", rev)
	if in.Time != "" {
		fmt.Fprintf(&b, "time:     %s\n", in.Time)
	}
	fmt.Fprintf(&b, "modified: %v\n", in.Modified)
	fmt.Fprintf(&b, "go:       %s %s/%s\n", in.Go, in.OS, in.Arch)
	fmt.Fprintf(&b, "gemm:     %s (available: %s)\n", in.GEMM, strings.Join(gemm.Kernels(), ", "))
	for _, w := range in.Weights {
		fmt.Fprintf(&b, "weights:  %s sha256:%s\n", w.Name, w.SHA256)
	}
	return b.String()
}
