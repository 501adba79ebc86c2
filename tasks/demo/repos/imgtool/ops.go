package main

import (
	"fmt"
	"image"
	"image/color"
	"math"
)

// Luma returns the brightness of an 8-bit RGB colour on the 0-255 scale,
// with the ITU-R BT.601 weights used by JPEG and most image tools:
// 0.299 R + 0.587 G + 0.114 B.
func Luma(r, g, b uint8) float64 {
	return 0.299*float64(r) + 0.587*float64(g) + 0.114*float64(b)
}

// nrgbaAt returns the non-premultiplied 8-bit colour of a pixel.
func nrgbaAt(img image.Image, x, y int) color.NRGBA {
	return color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA)
}

// Stats summarises the pixels of an image.
type Stats struct {
	Width, Height  int
	MeanBrightness float64    // mean luma, 0-255
	MeanRGB        [3]float64 // mean red, green and blue, 0-255
	MinBrightness  int        // darkest pixel (luma rounded)
	MaxBrightness  int        // brightest pixel (luma rounded)
	Opaque         bool       // no pixel is even partly transparent
}

// ComputeStats measures img. Colours are taken without their alpha.
func ComputeStats(img image.Image) Stats {
	b := img.Bounds()
	s := Stats{Width: b.Dx(), Height: b.Dy(), MinBrightness: 255, Opaque: true}
	var sum float64
	var rgb [3]float64
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			c := nrgbaAt(img, x, y)
			l := Luma(c.R, c.G, c.B)
			sum += l
			rgb[0] += float64(c.R)
			rgb[1] += float64(c.G)
			rgb[2] += float64(c.B)
			v := int(math.Round(l))
			s.MinBrightness = min(s.MinBrightness, v)
			s.MaxBrightness = max(s.MaxBrightness, v)
			if c.A != 255 {
				s.Opaque = false
			}
		}
	}
	if n := float64(s.Width * s.Height); n > 0 {
		s.MeanBrightness = sum / n
		for i := range rgb {
			s.MeanRGB[i] = rgb[i] / n
		}
	} else {
		s.MinBrightness = 0
	}
	return s
}

// ColorModelName names the storage of a decoded image, e.g. "RGBA",
// "Gray", "Paletted (16 colours)" or "YCbCr 4:2:0".
func ColorModelName(img image.Image) string {
	switch m := img.(type) {
	case *image.RGBA:
		return "RGBA"
	case *image.RGBA64:
		return "RGBA64"
	case *image.NRGBA:
		return "NRGBA"
	case *image.NRGBA64:
		return "NRGBA64"
	case *image.Gray:
		return "Gray"
	case *image.Gray16:
		return "Gray16"
	case *image.Paletted:
		return fmt.Sprintf("Paletted (%d colours)", len(m.Palette))
	case *image.YCbCr:
		return "YCbCr " + m.SubsampleRatio.String()[len("YCbCrSubsampleRatio"):]
	case *image.CMYK:
		return "CMYK"
	}
	return fmt.Sprintf("%T", img)
}

// Gray converts img to grayscale with the BT.601 luma weights. Opaque
// images become 8-bit gray; images with transparency keep their alpha.
func Gray(img image.Image) image.Image {
	b := img.Bounds()
	opaque := true
	if o, ok := img.(interface{ Opaque() bool }); ok {
		opaque = o.Opaque()
	}
	if opaque {
		out := image.NewGray(b)
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				c := nrgbaAt(img, x, y)
				out.SetGray(x, y, color.Gray{Y: uint8(math.Round(Luma(c.R, c.G, c.B)))})
			}
		}
		return out
	}
	out := image.NewNRGBA(b)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			c := nrgbaAt(img, x, y)
			v := uint8(math.Round(Luma(c.R, c.G, c.B)))
			out.SetNRGBA(x, y, color.NRGBA{v, v, v, c.A})
		}
	}
	return out
}

// Filters are the resampling filters of Resize.
var Filters = []string{"nearest", "box", "bilinear", "bicubic"}

type kernel struct {
	support float64
	f       func(x float64) float64
}

var kernels = map[string]kernel{
	"box": {0.5, func(x float64) float64 {
		if x >= -0.5 && x < 0.5 {
			return 1
		}
		return 0
	}},
	"bilinear": {1, func(x float64) float64 {
		x = math.Abs(x)
		if x < 1 {
			return 1 - x
		}
		return 0
	}},
	// Catmull-Rom cubic (Keys, a = -0.5).
	"bicubic": {2, func(x float64) float64 {
		x = math.Abs(x)
		switch {
		case x < 1:
			return (1.5*x-2.5)*x*x + 1
		case x < 2:
			return ((-0.5*x+2.5)*x-4)*x + 2
		}
		return 0
	}},
}

// weights holds, for each output position, the first input index and the
// normalised weights of the input samples from there on.
type weights struct {
	start []int
	w     [][]float64
}

// makeWeights computes the resampling weights from n input samples to m
// output samples. When shrinking, the kernel is stretched by the scale
// factor so that every input pixel contributes (antialiasing).
func makeWeights(n, m int, k kernel) weights {
	scale := float64(n) / float64(m)
	fscale := math.Max(scale, 1)
	support := k.support * fscale
	ws := weights{start: make([]int, m), w: make([][]float64, m)}
	for i := 0; i < m; i++ {
		center := (float64(i) + 0.5) * scale
		lo := max(0, int(math.Floor(center-support)))
		hi := min(n, int(math.Ceil(center+support)))
		var row []float64
		sum := 0.0
		for j := lo; j < hi; j++ {
			v := k.f((float64(j) + 0.5 - center) / fscale)
			row = append(row, v)
			sum += v
		}
		if sum == 0 { // cannot happen with these kernels; keep the nearest sample
			row = make([]float64, hi-lo)
			row[min(hi-lo-1, max(0, int(center)-lo))] = 1
			sum = 1
		}
		for j := range row {
			row[j] /= sum
		}
		ws.start[i], ws.w[i] = lo, row
	}
	return ws
}

// Resize scales img to w x h pixels with the named filter (see Filters).
// Pixels are resampled in premultiplied-alpha RGBA, so transparent edges
// do not bleed dark fringes.
func Resize(img image.Image, w, h int, filter string) (*image.RGBA, error) {
	b := img.Bounds()
	sw, sh := b.Dx(), b.Dy()
	if w < 1 || h < 1 {
		return nil, fmt.Errorf("output size %dx%d must be at least 1x1", w, h)
	}
	if sw == 0 || sh == 0 {
		return nil, fmt.Errorf("the image is empty")
	}
	out := image.NewRGBA(image.Rect(0, 0, w, h))
	if filter == "nearest" {
		for y := 0; y < h; y++ {
			sy := b.Min.Y + min(sh-1, int((float64(y)+0.5)*float64(sh)/float64(h)))
			for x := 0; x < w; x++ {
				sx := b.Min.X + min(sw-1, int((float64(x)+0.5)*float64(sw)/float64(w)))
				r, g, bb, a := img.At(sx, sy).RGBA()
				out.SetRGBA(x, y, color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(bb >> 8), uint8(a >> 8)})
			}
		}
		return out, nil
	}
	k, ok := kernels[filter]
	if !ok {
		return nil, fmt.Errorf("unknown filter %q", filter)
	}
	// Source pixels as premultiplied floats, 0-65535.
	src := make([][4]float64, sw*sh)
	for y := 0; y < sh; y++ {
		for x := 0; x < sw; x++ {
			r, g, bb, a := img.At(b.Min.X+x, b.Min.Y+y).RGBA()
			src[y*sw+x] = [4]float64{float64(r), float64(g), float64(bb), float64(a)}
		}
	}
	// Horizontal pass: sw x sh -> w x sh.
	hw := makeWeights(sw, w, k)
	tmp := make([][4]float64, w*sh)
	for y := 0; y < sh; y++ {
		for x := 0; x < w; x++ {
			var acc [4]float64
			for j, wt := range hw.w[x] {
				p := src[y*sw+hw.start[x]+j]
				for c := 0; c < 4; c++ {
					acc[c] += wt * p[c]
				}
			}
			tmp[y*w+x] = acc
		}
	}
	// Vertical pass: w x sh -> w x h.
	vw := makeWeights(sh, h, k)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			var acc [4]float64
			for j, wt := range vw.w[y] {
				p := tmp[(vw.start[y]+j)*w+x]
				for c := 0; c < 4; c++ {
					acc[c] += wt * p[c]
				}
			}
			a := clamp8(acc[3] / 257)
			px := color.RGBA{min(clamp8(acc[0]/257), a), min(clamp8(acc[1]/257), a), min(clamp8(acc[2]/257), a), a}
			out.SetRGBA(x, y, px)
		}
	}
	return out, nil
}

func clamp8(v float64) uint8 {
	return uint8(math.Max(0, math.Min(255, math.Round(v))))
}

// Channels are the channels Histogram can count.
var Channels = []string{"luma", "red", "green", "blue", "alpha"}

// Bin is one histogram bucket covering the values From..To inclusive.
type Bin struct {
	From, To int
	Count    int
}

// Histogram counts the pixels of img per bucket of a channel's 0-255
// values; value v falls into bucket floor(v * bins / 256). Luma values are
// rounded to the nearest integer first.
func Histogram(img image.Image, bins int, channel string) ([]Bin, error) {
	if bins < 1 || bins > 256 {
		return nil, fmt.Errorf("bins must be between 1 and 256")
	}
	get, ok := map[string]func(color.NRGBA) int{
		"luma":  func(c color.NRGBA) int { return int(math.Round(Luma(c.R, c.G, c.B))) },
		"red":   func(c color.NRGBA) int { return int(c.R) },
		"green": func(c color.NRGBA) int { return int(c.G) },
		"blue":  func(c color.NRGBA) int { return int(c.B) },
		"alpha": func(c color.NRGBA) int { return int(c.A) },
	}[channel]
	if !ok {
		return nil, fmt.Errorf("unknown channel %q", channel)
	}
	out := make([]Bin, bins)
	for i := range out {
		// The smallest v with floor(v*bins/256) == i, and the largest.
		out[i].From = (i*256 + bins - 1) / bins
		out[i].To = ((i+1)*256+bins-1)/bins - 1
	}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			v := get(nrgbaAt(img, x, y))
			out[v*bins/256].Count++
		}
	}
	return out, nil
}

func grayPalette() color.Palette {
	p := make(color.Palette, 256)
	for i := range p {
		p[i] = color.Gray{Y: uint8(i)}
	}
	return p
}
