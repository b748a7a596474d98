package testrand

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"hash/crc32"
	"os"
)

// WritePNGBomb writes to path an h x w 8-bit grey PNG of zeros: a small
// file (about 1 KB a thousand rows of 30000 pixels) that declares a huge
// image, for the tests of readers that must not decode it whole.
func WritePNGBomb(path string, h, w int) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(f)
	chunk := func(typ string, data []byte) {
		var n [4]byte
		binary.BigEndian.PutUint32(n[:], uint32(len(data)))
		bw.Write(n[:])
		bw.WriteString(typ)
		bw.Write(data)
		binary.BigEndian.PutUint32(n[:], crc32.Update(crc32.ChecksumIEEE([]byte(typ)), crc32.IEEETable, data))
		bw.Write(n[:])
	}
	bw.WriteString("\x89PNG\r\n\x1a\n")
	ih := make([]byte, 13)
	binary.BigEndian.PutUint32(ih[0:], uint32(w))
	binary.BigEndian.PutUint32(ih[4:], uint32(h))
	ih[8] = 8 // bit depth; colour type 0 (grey), no interlace
	chunk("IHDR", ih)
	var z bytes.Buffer
	zw, _ := zlib.NewWriterLevel(&z, zlib.BestCompression)
	row := make([]byte, w+1) // filter byte 0, then the samples
	for range h {
		zw.Write(row)
	}
	zw.Close()
	for b := z.Bytes(); len(b) > 0; b = b[min(len(b), 1<<20):] {
		chunk("IDAT", b[:min(len(b), 1<<20)])
	}
	chunk("IEND", nil)
	if err := bw.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
