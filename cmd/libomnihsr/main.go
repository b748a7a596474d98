package main

// main is empty: the package is built as a shared library
// (-buildmode=c-shared), whose functions are in export.go (with cgo). A
// build without cgo (CGO_ENABLED=0, cross-compiling) compiles this file
// only, so that `go build ./...` and `go vet ./...` keep working
// everywhere.
func main() {}
