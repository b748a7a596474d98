// Package viewtest holds the synthetic scene that the viewer's tests share:
// those of package view and the browser tests of the nested tools module
// (tools/viewbrowser), which cannot reach package view's test files.
package viewtest
