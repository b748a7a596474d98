// Package testfiles lists, for tests, the files committed to the
// repository that the readers must take: the goldens and miniatures of
// every format and product, and the bundled sample, so that the tests
// comparing two read paths on "every committed file" share one list.
package testfiles
