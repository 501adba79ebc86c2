package main

import (
	"bytes"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func call(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(args, &out, &errOut)
	return out.String(), errOut.String(), code
}

// workdir changes into a temp dir holding a 40x30 test image (left half
// black, right half white) and returns the dir.
func workdir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	old, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.Chdir(old) })
	img := image.NewRGBA(image.Rect(0, 0, 40, 30))
	for y := 0; y < 30; y++ {
		for x := 0; x < 40; x++ {
			c := color.RGBA{0, 0, 0, 255}
			if x >= 20 {
				c = color.RGBA{255, 255, 255, 255}
			}
			img.SetRGBA(x, y, c)
		}
	}
	f, err := os.Create("half.png")
	if err != nil {
		t.Fatal(err)
	}
	if err := png.Encode(f, img); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return dir
}

func decode(t *testing.T, path string) image.Image {
	t.Helper()
	img, _, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

func TestInfoCommand(t *testing.T) {
	workdir(t)
	out, _, code := call(t, "info", "half.png")
	for _, want := range []string{"format: png\n", "width: 40\n", "height: 30\n", "mean brightness: 127.50\n", "brightness range: 0 to 255\n"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("info lacks %q:\n%s", want, out)
		}
	}
	out, _, _ = call(t, "info", "--json", "half.png")
	var v struct {
		Width          int     `json:"width"`
		MeanBrightness float64 `json:"mean_brightness"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil || v.Width != 40 || v.MeanBrightness != 127.5 {
		t.Errorf("json %v %+v", err, v)
	}
}

func TestGrayAndResizeCommands(t *testing.T) {
	workdir(t)
	out, _, code := call(t, "gray", "half.png", "-o", "g.png")
	if code != 0 || out != "wrote g.png: 40x30 grayscale, mean brightness 127.50\n" {
		t.Errorf("gray: %d %q", code, out)
	}
	if _, ok := decode(t, "g.png").(*image.Gray); !ok {
		t.Error("g.png is not grayscale")
	}
	out, _, code = call(t, "resize", "half.png", "--width", "20", "-o", "small.png")
	if code != 0 || out != "wrote small.png: 20x15 (from 40x30)\n" {
		t.Errorf("resize: %d %q", code, out)
	}
	if b := decode(t, "small.png").Bounds(); b.Dx() != 20 || b.Dy() != 15 {
		t.Errorf("small.png is %v", b)
	}
	out, _, _ = call(t, "resize", "half.png", "--height", "60", "-o", "big.jpg", "--quality", "80")
	if out != "wrote big.jpg: 80x60 (from 40x30)\n" {
		t.Errorf("resize --height: %q", out)
	}
	if _, format, _ := Load("big.jpg"); format != "jpeg" {
		t.Errorf("big.jpg format %q", format)
	}
	out, _, _ = call(t, "resize", "--scale", "0.5", "--filter", "nearest", "half.png", "-o", "n.gif")
	if out != "wrote n.gif: 20x15 (from 40x30)\n" {
		t.Errorf("resize --scale: %q", out)
	}
}

func TestHistogramCommand(t *testing.T) {
	workdir(t)
	out, _, code := call(t, "histogram", "half.png", "--bins", "2")
	want := "luma histogram of half.png (1200 pixels)\n  0-127  600   50.00%  " + strings.Repeat("#", 40) +
		"\n128-255  600   50.00%  " + strings.Repeat("#", 40) + "\n"
	if code != 0 || out != want {
		t.Errorf("got %q\nwant %q", out, want)
	}
	out, _, _ = call(t, "histogram", "half.png", "--bins", "4", "--csv")
	if out != "bin,from,to,count,percent\n1,0,63,600,50.00\n2,64,127,0,0.00\n3,128,191,0,0.00\n4,192,255,600,50.00\n" {
		t.Errorf("csv: %q", out)
	}
}

func TestPlotCommand(t *testing.T) {
	dir := workdir(t)
	csv := "date,close,position,equity\n2024-01-02,100,0,10000\n2024-01-03,102.5,1,10250.5\n2024-01-04,98,1,9800\n2024-01-05,n/a,1,\n"
	if err := os.WriteFile("equity.csv", []byte(csv), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, code := call(t, "plot", "equity.csv", "--column", "equity", "-o", "equity.png")
	if code != 0 || out != "wrote equity.png: 3 points, min 9800, max 10250.5 (1 row skipped)\n" {
		t.Errorf("plot: %d %q", code, out)
	}
	if b := decode(t, filepath.Join(dir, "equity.png")).Bounds(); b.Dx() != 800 || b.Dy() != 400 {
		t.Errorf("chart size %v", b)
	}
	out, _, _ = call(t, "plot", "equity.csv", "--column", "CLOSE", "--width", "300", "--height", "200")
	if out != "wrote chart.png: 3 points, min 98, max 102.5 (1 row skipped)\n" {
		t.Errorf("plot default output: %q", out)
	}
	if _, err := os.Stat("chart.png"); err != nil {
		t.Error(err)
	}
}

func TestErrors(t *testing.T) {
	workdir(t)
	if err := os.WriteFile("notes.txt", []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"gray", "half.png"}, 2, "missing -o"},
		{[]string{"resize", "half.png", "-o", "x.png"}, 2, "--width"},
		{[]string{"resize", "half.png", "--width", "10", "-o", "x.bmp"}, 2, "output format"},
		{[]string{"info", "missing.png"}, 1, "missing.png: no such file"},
		{[]string{"info", "notes.txt"}, 1, "not a PNG, JPEG or GIF"},
		{[]string{"histogram", "half.png", "--channel", "cyan"}, 2, "unknown channel"},
		{[]string{"plot", "notes.txt", "--column", "price"}, 1, `no column "price"`},
		{[]string{"blur", "half.png"}, 2, "unknown command"},
	}
	for _, c := range cases {
		_, errOut, code := call(t, c.args...)
		if code != c.code || !strings.Contains(errOut, c.msg) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", c.args, code, errOut, c.code, c.msg)
		}
	}
	for _, c := range commands {
		out, _, code := call(t, c.name, "--help")
		if code != 0 || !strings.HasPrefix(out, "Usage: imgtool "+c.name) {
			t.Errorf("%s --help: %d %q", c.name, code, out)
		}
	}
}
