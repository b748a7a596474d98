// Package capi is the JSON front door of the OmniHSR library for other
// languages: the options, results and metadata as JSON, the status codes,
// and the handles of cubes read. cmd/libomnihsr exports it as the C ABI
// (a shared library, for Python's ctypes backend); `omnihsr _backend`
// serves it to Python's subprocess backend (Serve), so that both give the
// same bytes and the same results.
package capi
