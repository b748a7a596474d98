package scenes_test

import (
	"fmt"

	"github.com/omnihsr/omnihsr/internal/scenes"
)

func ExampleParse() {
	list, ok := scenes.DefaultList() // <shared>/data/hsi/scenes.tsv
	if !ok {
		fmt.Println("no shared data")
		return
	}
	all, err := scenes.Parse(list)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range scenes.Filter(all, "eval") {
		c, err := scenes.Load(s)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%s %s %dx%dx%d\n", s.Name(), s.Sensor, c.H, c.W, c.B)
	}
}
