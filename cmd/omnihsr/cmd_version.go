package main

import (
	"context"
	"flag"
	"fmt"

	"github.com/omnihsr/omnihsr/internal/buildinfo"
)

var versionCmd = &command{
	name:    "version",
	summary: "print the build: version, commit, Go, platform, GEMM kernel, weight digests",
	usage: `Usage: omnihsr version [-short]

Prints the module version and the VCS commit it was built from (with
"modified: true" when the work tree had uncommitted changes), the Go
version, OS and architecture, the GEMM kernel in use (OMNIHSR_GEMM=go,
avx, avx512 or neon selects another; every kernel gives the same bits) and the
SHA-256 of each weight file embedded in the binary. bench and the report
record the same line as -short prints.`,
	flags: func(fs *flag.FlagSet) runner {
		o := &versionOpts{}
		fs.BoolVar(&o.short, "short", false, "print one line")
		return o
	},
}

type versionOpts struct{ short bool }

func (o *versionOpts) run(_ context.Context, e env) error {
	if e.fs.NArg() > 0 {
		return usagef("version takes no arguments, got %q", e.fs.Args())
	}
	in := buildinfo.Read()
	if o.short {
		fmt.Fprintln(e.stdout, in.Short())
		return nil
	}
	fmt.Fprint(e.stdout, in.String())
	return nil
}
