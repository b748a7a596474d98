// Package buildinfo describes the running build: the module version and
// VCS commit (from runtime/debug.ReadBuildInfo, or the version a release
// build stamps), the Go toolchain, OS and architecture, the GEMM kernel
// in use and the SHA-256 of each embedded weight file. `omnihsr version`
// prints it, and bench and the report record it, so that every figure
// can be traced to the build and weights that made it.
package buildinfo
