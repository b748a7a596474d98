package crs

import (
	"bufio"
	"bytes"
	"compress/gzip"
	_ "embed"
	"strconv"
	"strings"
	"sync"
)

//go:embed epsg_names.txt.gz
var epsgNames []byte

// names is the decoded epsg_names.txt.gz (scripts/goldens/epsg_names.py):
// the EPSG name of every geographic 2D and projected CRS, from PROJ's
// database.
var names = sync.OnceValue(func() map[int]string {
	out := map[int]string{}
	zr, err := gzip.NewReader(bytes.NewReader(epsgNames))
	if err != nil {
		return out
	}
	sc := bufio.NewScanner(zr)
	for sc.Scan() {
		code, name, ok := strings.Cut(sc.Text(), "\t")
		if n, err := strconv.Atoi(code); ok && err == nil {
			out[n] = name
		}
	}
	return out
})

// EPSGName returns the EPSG name of a geographic 2D or projected CRS, as
// gdalinfo prints it ("SIRGAS 2000 / UTM zone 25S", "WGS 84"), or "" for
// a code not in the table.
func EPSGName(code int) string { return names()[code] }
