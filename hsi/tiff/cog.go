package tiff

import (
	"bytes"
	"io"
	"math"

	"github.com/omnihsr/omnihsr/hsi"
)

// downsample writes the 2x reduction of src, ceil(H/2) x ceil(W/2) x B
// pixel-interleaved values, to dst. AVERAGE takes the mean of each 2x2
// block of pixels (fewer at an odd edge), leaving out no-data and NaN
// samples (a block with none valid is no-data, or NaN without a no-data
// value); NEAREST takes the block's lower-right pixel, or the nearest one
// inside the image.
func downsample(dst []float32, src *hsi.Cube, resampling string, meta *hsi.Meta) {
	oh, ow, b := (src.H+1)/2, (src.W+1)/2, src.B
	nd, hasND := float32(meta.DataIgnore), meta.HasDataIgnore
	empty := float32(math.NaN())
	if hasND {
		empty = nd
	}
	sum := make([]float64, b)
	cnt := make([]int, b)
	for y := 0; y < oh; y++ {
		y0, y1 := 2*y, min(2*y+1, src.H-1)
		for x := 0; x < ow; x++ {
			x0, x1 := 2*x, min(2*x+1, src.W-1)
			out := dst[(y*ow+x)*b : (y*ow+x+1)*b]
			if resampling == "NEAREST" {
				copy(out, src.Data[(y1*src.W+x1)*b:(y1*src.W+x1+1)*b])
				continue
			}
			clear(sum)
			clear(cnt)
			for yy := y0; yy <= y1; yy++ {
				for xx := x0; xx <= x1; xx++ {
					spec := src.Data[(yy*src.W+xx)*b : (yy*src.W+xx+1)*b]
					for k, v := range spec {
						if v != v || (hasND && v == nd) {
							continue
						}
						sum[k] += float64(v)
						cnt[k]++
					}
				}
			}
			for k := range out {
				if cnt[k] == 0 {
					out[k] = empty
				} else {
					out[k] = float32(sum[k] / float64(cnt[k]))
				}
			}
		}
	}
}

// overviewLevels returns the overviews of a COG: the first (built as rows
// arrive) and each next one the reduction of the one before, down to one
// tile.
func (s *streamSink) overviewLevels() []*hsi.Cube {
	if s.ovr == nil {
		return nil
	}
	cubes := []*hsi.Cube{s.ovr}
	for c := s.ovr; c.W > s.o.BlockW || c.H > s.o.BlockH; {
		n := hsi.MustNew((c.H+1)/2, (c.W+1)/2, c.B)
		downsample(n.Data, c, s.o.Resampling, &s.meta)
		cubes = append(cubes, n)
		c = n
	}
	return cubes
}

// commitCOG lays out the file as GDAL's COG driver does: the header, the
// IFDs of the full-resolution image and of the overviews from the largest
// to the smallest, then the tiles of the smallest overview first and those
// of the full-resolution image last, which it copies from the spill file.
func (s *streamSink) commitCOG() error {
	if err := s.out.Flush(); err != nil {
		return err
	}
	mainBytes := s.pos
	// Encode the overviews in memory.
	cubes := s.overviewLevels()
	levels := []*level{s.main}
	data := make([][]byte, len(cubes)+1)
	for i, c := range cubes {
		l := newLevel(c.W, c.H, s.o.BlockW, s.o.BlockH, s.b, true)
		var buf bytes.Buffer
		row := c.W * c.B
		for k := 0; k < l.down; k++ {
			y0 := k * l.ch
			rows := min(l.ch, c.H-y0)
			err := s.enc.encodeBlock(l, k, c.Data[y0*row:(y0+rows)*row], rows, func(idx int, b []byte) error {
				l.offsets[idx], l.counts[idx] = uint64(buf.Len()), uint64(len(b))
				buf.Write(b)
				return nil
			})
			if err != nil {
				return err
			}
		}
		levels = append(levels, l)
		data[i+1] = buf.Bytes()
	}
	s.ovr = nil
	// Sizes, then TIFF or BigTIFF.
	layout := func(big bool) (ifdAt []uint64, dataAt []uint64, total uint64) {
		pos := uint64(8)
		if big {
			pos = 16
		}
		ifdAt = make([]uint64, len(levels))
		for i, l := range levels {
			ifdAt[i] = pos
			pos += uint64(len(encodeIFD(s.ifdTags(l, big, i == 0), pos, big, 0)))
		}
		dataAt = make([]uint64, len(levels))
		for i := len(levels) - 1; i >= 1; i-- {
			dataAt[i] = pos
			pos += uint64(len(data[i]))
		}
		dataAt[0] = pos
		return ifdAt, dataAt, pos + mainBytes
	}
	_, _, total := layout(false)
	big, err := s.useBig(total)
	if err != nil {
		return err
	}
	ifdAt, dataAt, _ := layout(big)
	for i, l := range levels {
		for k := range l.offsets {
			l.offsets[k] += dataAt[i]
		}
	}
	w := s.out
	w.Reset(s.f)
	if _, err := w.Write(header(big, ifdAt[0])); err != nil {
		return err
	}
	for i, l := range levels {
		next := uint64(0)
		if i+1 < len(levels) {
			next = ifdAt[i+1]
		}
		if _, err := w.Write(encodeIFD(s.ifdTags(l, big, i == 0), ifdAt[i], big, next)); err != nil {
			return err
		}
	}
	for i := len(levels) - 1; i >= 1; i-- {
		if _, err := w.Write(data[i]); err != nil {
			return err
		}
	}
	if _, err := s.spill.Seek(0, io.SeekStart); err != nil {
		return err
	}
	if err := copyN(w, s.spill, mainBytes); err != nil {
		return err
	}
	if err := w.Flush(); err != nil {
		return err
	}
	s.spillTmp.Abort() // closes and removes it
	s.spill = nil
	return s.f.Commit()
}
