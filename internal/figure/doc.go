// Package figure draws the PNG figures of the evaluation report: false-
// colour renderings of cubes, error maps, zoomed crops, panel grids with
// titles, colour bars, line plots, and maps of the primitives the network
// predicts. The report decides what to draw; this package only draws.
//
// # Determinism
//
// The same input gives the same pixels and, through WritePNG, the same
// bytes: drawing iterates in fixed orders (no maps), and nothing depends on
// time or the environment. Floating-point geometry (ellipses, line plots)
// is reproducible on one architecture; another architecture may fuse
// multiply-adds differently and move a pixel.
//
// # Cubes
//
// FalseColour renders three bands as red, green and blue with a given
// linear stretch; StretchOf computes the 2-98 percentile stretch of a cube
// (hsi/png.Stretch), so truth, bicubic and model outputs can all be shown
// with the truth's stretch. A grey image of one band b is FalseColour with
// bands [b, b, b].
//
// ErrorMap colours the per-pixel mean absolute error over bands
// (MeanAbsErr) with the inferno colour map on [0, max], clamped; HeatMap
// does the same for any per-pixel values. Percentile and MaxOf pick a
// scale that several maps share (e.g. the 99th percentile of the bicubic
// error), and ColourBar draws its key. NaN is shown as NaNColour (grey).
//
// # Layout
//
// Zoom crops and enlarges by nearest neighbour, Outline marks a crop's
// rectangle, Label writes text on an image, Grid arranges titled panels on
// a white canvas. Their text (and ColourBar's) uses the 7x13 bitmap font of
// golang.org/x/image/font/basicfont, which covers printable ASCII: the
// symbols × – — − µ μ ± ° ² ‘ ’ “ ” are written as x - - - u u +/- deg 2
// ' ' " ", any other non-ASCII character as '?'.
//
// # Line plots
//
// LinePlot draws series as a scientific plot with golang.org/x/image
// alone, at PlotDPI: a title, a frame with outward ticks and their labels,
// light grid lines at the labelled ticks, axis labels (the Y label turned
// to read upwards), anti-aliased lines clipped to the axes
// (golang.org/x/image/vector; dashed or solid), a legend right of the axes
// and an optional log Y axis labelled at powers of ten or 1-2-5 times
// them. Its text is Go Regular (golang.org/x/image/font/gofont, rendered
// by golang.org/x/image/font/opentype), which covers far more than ASCII:
// its labels are written as given.
//
// # Primitives
//
// Supports draws one ellipse per primitive of a cofr.Primitives, coloured
// by the direction of its long axis (OrientationColour) or grey when it is
// nearly round; OperatorNorm maps the L2 norm of each 5x5 operator and
// OperatorTile draws one operator with a blue-white-red diverging map. OperatorNorms, AxisRatio and LongAxisAngle
// are the per-primitive statistics behind the maps, for the report's
// tables; CropPrimitives cuts a region out for a zoomed-in map.
//
// # Errors
//
// Size mismatches, empty or invalid cubes and primitives, bands out of
// range and invalid scales are returned as errors naming the problem.
// Functions without an error result (Zoom, Grid, OperatorTile, ...) clamp
// their arguments as documented instead.
package figure
