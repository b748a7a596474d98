// Package scenes reads a scene list such as ../shared/data/hsi/scenes.tsv
// and loads its scenes as cubes.
//
// A scene list is a tab-separated file with a header line naming the
// columns split, file, variable, layout, height, width, bands, sensor and
// notes (in any order; other columns are ignored). File paths are relative
// to the list's directory. Load reads one scene through package matfile with
// the row's variable, layout and size, and checks the cube's shape against
// the row.
//
// SharedDir finds the project's shared data directory, ../shared beside the
// module root, or $OMNIHSR_SHARED, for tests and commands.
package scenes
