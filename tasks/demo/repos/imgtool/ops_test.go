package main

import (
	"image"
	"image/color"
	"math"
	"testing"
)

func uniform(w, h int, c color.Color) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.Set(x, y, c)
		}
	}
	return img
}

func checkerboard(w, h int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			if (x+y)%2 == 0 {
				img.Set(x, y, color.White)
			} else {
				img.Set(x, y, color.Black)
			}
		}
	}
	return img
}

func TestLuma(t *testing.T) {
	cases := []struct {
		r, g, b uint8
		want    float64
	}{
		{0, 0, 0, 0}, {255, 255, 255, 255}, {255, 0, 0, 76.245}, {0, 255, 0, 149.685}, {0, 0, 255, 29.07},
	}
	for _, c := range cases {
		if got := Luma(c.r, c.g, c.b); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("Luma(%d,%d,%d) = %v, want %v", c.r, c.g, c.b, got, c.want)
		}
	}
}

func TestComputeStats(t *testing.T) {
	s := ComputeStats(checkerboard(4, 2))
	if s.Width != 4 || s.Height != 2 || s.MeanBrightness != 127.5 || s.MinBrightness != 0 || s.MaxBrightness != 255 || !s.Opaque {
		t.Errorf("stats %+v", s)
	}
	s = ComputeStats(uniform(3, 3, color.NRGBA{255, 0, 0, 128}))
	if s.Opaque || math.Abs(s.MeanBrightness-76.245) > 1e-9 || s.MeanRGB != [3]float64{255, 0, 0} {
		t.Errorf("stats of translucent red %+v", s)
	}
}

func TestGray(t *testing.T) {
	img := uniform(2, 2, color.RGBA{200, 100, 50, 255})
	g, ok := Gray(img).(*image.Gray)
	if !ok {
		t.Fatalf("opaque image should become *image.Gray, got %T", Gray(img))
	}
	want := uint8(math.Round(0.299*200 + 0.587*100 + 0.114*50)) // 124
	if g.GrayAt(1, 1).Y != want {
		t.Errorf("gray = %d, want %d", g.GrayAt(1, 1).Y, want)
	}
	// Premultiplied storage of a translucent colour may be off by one.
	tr := Gray(uniform(1, 1, color.NRGBA{200, 100, 50, 100}))
	if c := color.NRGBAModel.Convert(tr.At(0, 0)).(color.NRGBA); c.A != 100 || c.R < want-1 || c.R > want+1 || c.G != c.R {
		t.Errorf("translucent gray = %+v", c)
	}
}

func TestResizeWeightsSumToOne(t *testing.T) {
	for name, k := range kernels {
		for _, sizes := range [][2]int{{100, 7}, {7, 100}, {10, 10}, {3, 1}} {
			ws := makeWeights(sizes[0], sizes[1], k)
			for i, row := range ws.w {
				sum := 0.0
				for _, w := range row {
					sum += w
				}
				if math.Abs(sum-1) > 1e-9 || ws.start[i] < 0 || ws.start[i]+len(row) > sizes[0] {
					t.Errorf("%s %v: row %d sums to %v (start %d, len %d)", name, sizes, i, sum, ws.start[i], len(row))
				}
			}
		}
	}
}

func TestResize(t *testing.T) {
	// A uniform colour stays exactly that colour with every filter.
	c := color.RGBA{10, 120, 230, 255}
	for _, f := range Filters {
		out, err := Resize(uniform(13, 7, c), 5, 9, f)
		if err != nil {
			t.Fatal(err)
		}
		if out.Bounds().Dx() != 5 || out.Bounds().Dy() != 9 {
			t.Errorf("%s: size %v", f, out.Bounds())
		}
		for _, p := range [][2]int{{0, 0}, {4, 8}, {2, 4}} {
			if got := out.RGBAAt(p[0], p[1]); got != c {
				t.Errorf("%s: pixel %v = %v, want %v", f, p, got, c)
			}
		}
	}
	// Halving a checkerboard with an antialiasing filter averages to gray;
	// nearest neighbour picks one of the two colours.
	out, _ := Resize(checkerboard(8, 8), 4, 4, "box")
	if v := out.RGBAAt(1, 1).R; v < 127 || v > 128 {
		t.Errorf("box-filtered checkerboard = %d, want 127 or 128", v)
	}
	out, _ = Resize(checkerboard(8, 8), 4, 4, "nearest")
	if v := out.RGBAAt(1, 1).R; v != 0 && v != 255 {
		t.Errorf("nearest checkerboard = %d", v)
	}
	// Transparent pixels do not darken their neighbours.
	img := image.NewNRGBA(image.Rect(0, 0, 2, 1))
	img.SetNRGBA(0, 0, color.NRGBA{255, 255, 255, 255})
	img.SetNRGBA(1, 0, color.NRGBA{0, 0, 0, 0})
	out, _ = Resize(img, 1, 1, "box")
	if got := color.NRGBAModel.Convert(out.At(0, 0)).(color.NRGBA); got.R < 254 || got.A < 127 || got.A > 128 {
		t.Errorf("half-transparent white = %+v", got)
	}
	if _, err := Resize(img, 0, 1, "box"); err == nil {
		t.Error("size 0 accepted")
	}
}

func TestHistogram(t *testing.T) {
	img := image.NewGray(image.Rect(0, 0, 256, 1))
	for x := 0; x < 256; x++ {
		img.SetGray(x, 0, color.Gray{uint8(x)})
	}
	bins, err := Histogram(img, 4, "luma")
	if err != nil {
		t.Fatal(err)
	}
	want := []Bin{{0, 63, 64}, {64, 127, 64}, {128, 191, 64}, {192, 255, 64}}
	for i := range want {
		if bins[i] != want[i] {
			t.Errorf("bin %d = %+v, want %+v", i, bins[i], want[i])
		}
	}
	// Bins that do not divide 256 evenly still cover 0-255 without gaps.
	bins, _ = Histogram(img, 3, "luma")
	if bins[0].From != 0 || bins[2].To != 255 || bins[1].From != bins[0].To+1 || bins[2].From != bins[1].To+1 {
		t.Errorf("3 bins: %+v", bins)
	}
	total := 0
	for i, b := range bins {
		if b.Count != b.To-b.From+1 {
			t.Errorf("bin %d: count %d for %d-%d", i, b.Count, b.From, b.To)
		}
		total += b.Count
	}
	if total != 256 {
		t.Errorf("total %d", total)
	}
	red, _ := Histogram(uniform(2, 2, color.RGBA{255, 0, 0, 255}), 2, "red")
	if red[1].Count != 4 {
		t.Errorf("red channel: %+v", red)
	}
	if _, err := Histogram(img, 0, "luma"); err == nil {
		t.Error("0 bins accepted")
	}
}
