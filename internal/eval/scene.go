package eval

import (
	"github.com/omnihsr/omnihsr/hsi"
)

// Scene is an evaluation scene, loaded on demand so that a run holds one
// scene in memory at a time.
type Scene struct {
	// Name labels the scene in tables (the file name without extension).
	Name string
	// File is the path as given (relative to the data folder for TSV scenes).
	File string
	// Sensor is the scenes TSV's sensor column ("" when unknown); CloseRange
	// of it picks the seven protocol's geometry.
	Sensor string
	// Load reads the cube (not yet normalised; Run normalises it).
	Load func() (*hsi.Cube, error)
}

// CubeScene wraps an in-memory cube as a scene (tests, callers that already
// hold the cube). Load returns a copy, so the caller's cube stays untouched.
func CubeScene(name, sensor string, c *hsi.Cube) *Scene {
	return &Scene{Name: name, File: name, Sensor: sensor, Load: func() (*hsi.Cube, error) { return c.Clone(), nil }}
}
