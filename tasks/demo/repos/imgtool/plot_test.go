package main

import (
	"os"
	"path/filepath"
	"testing"
)

func TestParseNumber(t *testing.T) {
	cases := []struct {
		in    string
		comma bool
		want  float64
		ok    bool
	}{
		{"12.5", false, 12.5, true},
		{" -3 ", false, -3, true},
		{"1,234.50", false, 1234.5, true},
		{"$99", false, 99, true},
		{"45%", false, 45, true},
		{"12,5", true, 12.5, true},
		{"1.234,5", true, 1234.5, true},
		{"1e3", false, 1000, true},
		{"", false, 0, false},
		{"k.A.", true, 0, false},
		{"NaN", false, 0, false},
		{"2024-05-01", false, 0, false},
	}
	for _, c := range cases {
		got, ok := parseNumber(c.in, c.comma)
		if ok != c.ok || got != c.want {
			t.Errorf("parseNumber(%q, %v) = %v, %v; want %v, %v", c.in, c.comma, got, ok, c.want, c.ok)
		}
	}
}

func writeFile(t *testing.T, name, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestReadSeries(t *testing.T) {
	prices := writeFile(t, "prices.csv", "Date,Close,Volume\n2024-01-02,101.5,\"1,200\"\n2024-01-03,,900\n2024-01-04,99.25,1000\n")
	s, err := ReadSeries(prices, CSVOptions{Column: "close"})
	if err != nil || s.Column != "Close" || len(s.Values) != 2 || s.Values[1] != 99.25 || s.Skipped != 1 {
		t.Errorf("close: %+v %v", s, err)
	}
	// Default: the last numeric column.
	s, _ = ReadSeries(prices, CSVOptions{})
	if s.Column != "Volume" || s.Values[0] != 1200 {
		t.Errorf("default column: %+v", s)
	}
	weather := writeFile(t, "w.csv", "Datum;Temperatur\n01.05.2024;8,9\n02.05.2024;k.A.\n03.05.2024;-1,5\n")
	s, err = ReadSeries(weather, CSVOptions{Column: "2"})
	if err != nil || len(s.Values) != 2 || s.Values[0] != 8.9 || s.Values[1] != -1.5 {
		t.Errorf("semicolon file: %+v %v", s, err)
	}
	bare := writeFile(t, "n.txt", "3\n1\n4\n1\n5\n")
	s, err = ReadSeries(bare, CSVOptions{})
	if err != nil || len(s.Values) != 5 || s.Column != "1" {
		t.Errorf("headerless: %+v %v", s, err)
	}
	if _, err := ReadSeries(prices, CSVOptions{Column: "open"}); err == nil {
		t.Error("missing column accepted")
	}
}

func TestChart(t *testing.T) {
	values := []float64{3, 1, 4, 1, 5, 9, 2, 6}
	img, err := Chart(values, 400, 200)
	if err != nil {
		t.Fatal(err)
	}
	if img.Bounds().Dx() != 400 || img.Bounds().Dy() != 200 {
		t.Fatalf("size %v", img.Bounds())
	}
	count := map[[4]uint8]int{}
	for y := 0; y < 200; y++ {
		for x := 0; x < 400; x++ {
			c := img.RGBAAt(x, y)
			count[[4]uint8{c.R, c.G, c.B, c.A}]++
		}
	}
	key := func(c interface{ RGBA() (r, g, b, a uint32) }) [4]uint8 {
		r, g, b, a := c.RGBA()
		return [4]uint8{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), uint8(a >> 8)}
	}
	if count[key(colLine)] < 400 {
		t.Errorf("only %d line pixels", count[key(colLine)])
	}
	if count[key(colAxis)] < 200+400-marginLeft-marginRight {
		t.Errorf("only %d axis pixels", count[key(colAxis)])
	}
	if count[key(colMax)] == 0 || count[key(colMin)] == 0 {
		t.Error("min or max marker missing")
	}
	// The y axis spans 0..10 (round values around 1..9): the maximum 9 sits
	// at 90% of the plot height, at the 6th of 8 points.
	bottom, top := 200-marginBottom, marginTop
	plotW := 400 - marginLeft - marginRight
	wantY := bottom - int(0.9*float64(bottom-top)+0.5)
	wantX := marginLeft + int(5*float64(plotW)/7+0.5)
	if c := img.RGBAAt(wantX, wantY); c != colMax {
		t.Errorf("pixel at the maximum (%d,%d) = %v, want %v", wantX, wantY, c, colMax)
	}
	// Degenerate series still draw.
	for _, vs := range [][]float64{{7}, {2, 2, 2}, {-0.004, 0.001}} {
		if _, err := Chart(vs, 200, 120); err != nil {
			t.Errorf("%v: %v", vs, err)
		}
	}
	if _, err := Chart(values, 50, 50); err == nil {
		t.Error("tiny chart accepted")
	}
}

func TestNiceStep(t *testing.T) {
	cases := map[float64]float64{8: 2, 10: 2, 1: 0.2, 23: 5, 0.03: 0.01, 1000: 200, 450: 100}
	for span, want := range cases {
		if got := niceStep(span, 5); got < want*0.999 || got > want*1.001 {
			t.Errorf("niceStep(%v) = %v, want %v", span, got, want)
		}
	}
}
