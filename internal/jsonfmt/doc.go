// Package jsonfmt writes the project's result files as JSON in one layout:
// indented by one space per level, with every array of numbers (or nulls)
// kept on one line, so that per-band figures take a line rather than a
// line per band and the files diff well.
package jsonfmt
