package figure_test

import (
	"fmt"

	"github.com/omnihsr/omnihsr/internal/figure"
)

// A 2 x 2 figure: two titled 64 x 64 maps over an operator tile and a
// colour bar. Columns are as wide as their widest panel (or title), rows as
// tall as their tallest panel plus the title band.
func ExampleGrid() {
	k := make([]float32, 25)
	k[12] = 1
	tile := figure.OperatorTile(k, 8) // 5*8 + 6 = 46 pixels square
	bar := figure.ColourBar(0.05, 64, 8)
	a, _ := figure.HeatMap(make([]float32, 16*16), 16, 16, 4, 1)
	g := figure.Grid([][]figure.Panel{
		{{Title: "bicubic", Img: a}, {Title: "OmniHSR", Img: a}},
		{{Img: tile}, {Img: bar}},
	}, 4)
	fmt.Println(g.Bounds())
	// Output: (0,0)-(140,138)
}
