// Package viewbrowser holds the browser tests of `omnihsr view` (package
// internal/view): headless chromium, driven through chromedp, loads the
// viewer's page from a test server and the tests compare the canvas's
// pixels and the pinned spectra with the library's own renderings. They
// skip when chromium is not installed. The package lives in the nested
// tools module so that chromedp stays out of the library's go.mod.
package viewbrowser
