// Package testrand makes the random cubes that tests across OmniHSR use
// (and WritePNGBomb a PNG that declares a huge image),
// with one argument order: the generator first, then the cube's height,
// width and bands. The caller owns the generator (rand.New(rand.NewPCG(seed,
// stream))), so a test keeps its own reproducible stream.
package testrand
