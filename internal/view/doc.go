// Package view serves the `omnihsr view` web viewer: a loopback HTTP
// server over a fixed list of hyperspectral scenes, addressed by index
// (never by path), that renders RGB tiles by wavelength with a percentile
// stretch at any zoom (low-res pixels, bicubic, or the OmniHSR model
// rendering only the requested window of the scene super-resolved at the
// zoom factor), spectra at a pixel (low-res and bicubic at once, the
// model's from a window of the scene's encoding), and a CSV of pinned
// spectra. The model's encodings, its prepared zoom levels and the
// rendered tiles are kept within a memory budget (Memory). The page and
// its script are embedded in the binary.
package view
