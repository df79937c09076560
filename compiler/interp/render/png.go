package render

import (
	"bytes"
	"image/png"
)

// EncodePNG encodes a picture as a PNG (8-bit RGBA, non-premultiplied,
// no gamma chunk; pixels no lane wrote are transparent black).
func EncodePNG(p Picture) ([]byte, error) {
	var b bytes.Buffer
	if err := png.Encode(&b, p.Image); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
