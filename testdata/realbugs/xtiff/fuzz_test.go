package xtiff

import (
	"bytes"
	"image"
	"image/color/palette"
	"image/draw"
	"testing"

	"golang.org/x/image/tiff"
)

// FuzzDecode decodes a TIFF image and converts it to RGBA, as the standard
// library's image fuzz tests do for their formats (the size limit keeps
// executions short). The seeds are small images the encoder writes.
func FuzzDecode(f *testing.F) {
	r := image.Rect(0, 0, 6, 4)
	gray, rgba, pal := image.NewGray(r), image.NewRGBA(r), image.NewPaletted(r, palette.Plan9[:16])
	for i := range gray.Pix {
		gray.Pix[i] = uint8(i * 9)
	}
	for i := range rgba.Pix {
		rgba.Pix[i] = uint8(i * 5)
	}
	for i := range pal.Pix {
		pal.Pix[i] = uint8(i % 16)
	}
	for _, m := range []image.Image{gray, rgba, pal} {
		for _, c := range []tiff.CompressionType{tiff.Uncompressed, tiff.Deflate} {
			var b bytes.Buffer
			if err := tiff.Encode(&b, m, &tiff.Options{Compression: c}); err != nil {
				f.Fatal(err)
			}
			f.Add(b.Bytes())
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := tiff.DecodeConfig(bytes.NewReader(data))
		if err != nil || cfg.Width*cfg.Height > 1e6 {
			return
		}
		m, err := tiff.Decode(bytes.NewReader(data))
		if err != nil {
			return
		}
		dst := image.NewRGBA(m.Bounds())
		draw.Draw(dst, dst.Bounds(), m, m.Bounds().Min, draw.Src)
	})
}
