package main

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
)

// Series is the numeric column of a CSV file that plot draws.
type Series struct {
	Column  string    // header name (or 1-based number when there is no header)
	Values  []float64 // the numbers, in file order
	Skipped int       // data rows whose cell is empty or not a number
}

// CSVOptions tell ReadSeries how to read a file.
type CSVOptions struct {
	Column       string // header name (case-insensitive) or 1-based index; "" = last numeric column
	Delimiter    rune   // 0 = detect comma, semicolon or tab from the first line
	DecimalComma bool   // read 12,5 as 12.5 (always on for semicolon-separated files)
}

// ReadSeries reads one numeric column of a CSV file. The first row is a
// header unless all of its cells are numbers. Cells may carry a currency
// sign, a % sign and thousands separators.
func ReadSeries(path string, opt CSVOptions) (Series, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Series{}, fileError(path, err)
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	delim := opt.Delimiter
	if delim == 0 {
		delim = sniffDelimiter(data)
	}
	decimalComma := opt.DecimalComma || delim == ';'
	r := csv.NewReader(bytes.NewReader(data))
	r.Comma = delim
	r.FieldsPerRecord = -1
	r.LazyQuotes = true
	r.TrimLeadingSpace = true
	var rows [][]string
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return Series{}, fmt.Errorf("%s: %v", path, err)
		}
		if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
			continue
		}
		rows = append(rows, rec)
	}
	if len(rows) == 0 {
		return Series{}, fmt.Errorf("%s: no rows", path)
	}
	var header []string
	headerless := true
	for _, cell := range rows[0] {
		if _, ok := parseNumber(cell, decimalComma); !ok {
			headerless = false
		}
	}
	if headerless {
		for i := range rows[0] {
			header = append(header, strconv.Itoa(i+1))
		}
	} else {
		header, rows = rows[0], rows[1:]
	}
	col := -1
	if opt.Column == "" {
		for i := len(header) - 1; i >= 0 && col < 0; i-- {
			numeric := 0
			for _, row := range rows {
				if i < len(row) {
					if _, ok := parseNumber(row[i], decimalComma); ok {
						numeric++
					}
				}
			}
			if numeric > 0 && numeric*2 >= len(rows) {
				col = i
			}
		}
		if col < 0 {
			return Series{}, fmt.Errorf("%s: no numeric column (columns: %s)", path, strings.Join(header, ", "))
		}
	} else {
		for i, h := range header {
			if strings.EqualFold(strings.TrimSpace(h), strings.TrimSpace(opt.Column)) {
				col = i
				break
			}
		}
		if n, err := strconv.Atoi(opt.Column); col < 0 && err == nil && n >= 1 && n <= len(header) {
			col = n - 1
		}
		if col < 0 {
			return Series{}, fmt.Errorf("%s: no column %q (columns: %s)", path, opt.Column, strings.Join(header, ", "))
		}
	}
	s := Series{Column: strings.TrimSpace(header[col])}
	for _, row := range rows {
		if col >= len(row) {
			s.Skipped++
			continue
		}
		v, ok := parseNumber(row[col], decimalComma)
		if !ok {
			s.Skipped++
			continue
		}
		s.Values = append(s.Values, v)
	}
	if len(s.Values) == 0 {
		return s, fmt.Errorf("%s: column %q has no numbers", path, s.Column)
	}
	return s, nil
}

func sniffDelimiter(data []byte) rune {
	first, _, _ := bytes.Cut(data, []byte("\n"))
	best, bestN := ',', bytes.Count(first, []byte(","))
	for _, d := range []rune{';', '\t'} {
		if n := bytes.Count(first, []byte(string(d))); n > bestN {
			best, bestN = d, n
		}
	}
	return best
}

// parseNumber reads a number such as 12.5, -3, 1,234.50, $99, 45%, or,
// with decimalComma, 1.234,5.
func parseNumber(s string, decimalComma bool) (float64, bool) {
	s = strings.TrimSpace(s)
	s = strings.TrimLeft(s, "$€£¥")
	s = strings.TrimSuffix(s, "%")
	s = strings.Map(func(r rune) rune {
		if r == ' ' || r == '\u00a0' || r == '\u202f' || r == '\'' {
			return -1
		}
		return r
	}, s)
	if decimalComma {
		s = strings.ReplaceAll(s, ".", "")
		s = strings.ReplaceAll(s, ",", ".")
	} else {
		s = strings.ReplaceAll(s, ",", "")
	}
	if s == "" {
		return 0, false
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, false
	}
	return v, true
}

// Chart colours.
var (
	colBackground = color.RGBA{255, 255, 255, 255}
	colGrid       = color.RGBA{226, 228, 233, 255}
	colAxis       = color.RGBA{40, 40, 40, 255}
	colLabel      = color.RGBA{70, 70, 70, 255}
	colLine       = color.RGBA{31, 119, 180, 255}
	colMin        = color.RGBA{214, 39, 40, 255}
	colMax        = color.RGBA{44, 160, 44, 255}
)

// Chart margins around the plot area, in pixels.
const (
	marginLeft   = 76
	marginRight  = 24
	marginTop    = 20
	marginBottom = 40
)

// Chart draws values as a line chart of width x height pixels: the points
// in order from left to right, a y axis with gridlines and numbered ticks
// at round values, an x axis with ticks numbered by point (1-based), and
// the lowest and highest points marked in red and green.
func Chart(values []float64, width, height int) (*image.RGBA, error) {
	if width < marginLeft+marginRight+20 || height < marginTop+marginBottom+20 {
		return nil, fmt.Errorf("chart size %dx%d is too small (at least %dx%d)",
			width, height, marginLeft+marginRight+20, marginTop+marginBottom+20)
	}
	if len(values) == 0 {
		return nil, fmt.Errorf("no values to plot")
	}
	img := image.NewRGBA(image.Rect(0, 0, width, height))
	draw.Draw(img, img.Bounds(), &image.Uniform{colBackground}, image.Point{}, draw.Src)
	left, right := marginLeft, width-marginRight
	top, bottom := marginTop, height-marginBottom

	lo, hi, iMin, iMax := values[0], values[0], 0, 0
	for i, v := range values {
		if v < lo {
			lo, iMin = v, i
		}
		if v > hi {
			hi, iMax = v, i
		}
	}
	span := hi - lo
	if span == 0 {
		span = math.Max(math.Abs(hi), 1)
	}
	step := niceStep(span, 5)
	yLo := math.Floor(lo/step) * step
	yHi := math.Ceil(hi/step) * step
	if yHi-yLo < step/2 { // constant series
		yLo, yHi = yLo-step, yHi+step
	}
	yPix := func(v float64) int {
		return bottom - int(math.Round((v-yLo)/(yHi-yLo)*float64(bottom-top)))
	}
	n := len(values)
	xPix := func(i int) int {
		if n == 1 {
			return (left + right) / 2
		}
		return left + int(math.Round(float64(i)*float64(right-left)/float64(n-1)))
	}

	// Horizontal gridlines with y labels.
	decimals := max(0, -int(math.Floor(math.Log10(step)+1e-9)))
	for k := 0; ; k++ {
		v := yLo + float64(k)*step
		if v > yHi+step/1e6 {
			break
		}
		y := yPix(v)
		hline(img, left, right, y, colGrid)
		hline(img, left-5, left, y, colAxis)
		label := strconv.FormatFloat(v, 'f', decimals, 64)
		if label == "-0" || strings.Trim(label, "-0.") == "" {
			label = strings.TrimPrefix(label, "-")
		}
		drawText(img, label, left-9-textWidth(label), y-textHeight/2, colLabel)
	}
	// Vertical gridlines at round point numbers.
	if n > 1 {
		xs := max(1, int(niceStep(float64(n-1), 8)))
		ticks := []int{1}
		for p := xs; p <= n; p += xs {
			if p != 1 {
				ticks = append(ticks, p)
			}
		}
		for _, p := range ticks {
			x := xPix(p - 1)
			vline(img, x, top, bottom, colGrid)
			vline(img, x, bottom, bottom+5, colAxis)
			label := strconv.Itoa(p)
			drawText(img, label, x-textWidth(label)/2, bottom+10, colLabel)
		}
	}
	// Axes.
	vline(img, left, top, bottom, colAxis)
	hline(img, left, right, bottom, colAxis)
	// The data.
	for i := 1; i < n; i++ {
		line(img, xPix(i-1), yPix(values[i-1]), xPix(i), yPix(values[i]), colLine)
	}
	if n == 1 {
		dot(img, xPix(0), yPix(values[0]), 2, colLine)
	}
	dot(img, xPix(iMin), yPix(values[iMin]), 3, colMin)
	dot(img, xPix(iMax), yPix(values[iMax]), 3, colMax)
	return img, nil
}

// niceStep returns a round step (1, 2 or 5 times a power of ten) that
// divides span into about target intervals.
func niceStep(span float64, target int) float64 {
	raw := span / float64(target)
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5} {
		if raw <= m*mag*(1+1e-9) {
			return m * mag
		}
	}
	return 10 * mag
}

func hline(img *image.RGBA, x0, x1, y int, c color.RGBA) {
	for x := x0; x <= x1; x++ {
		img.SetRGBA(x, y, c)
	}
}

func vline(img *image.RGBA, x, y0, y1 int, c color.RGBA) {
	for y := y0; y <= y1; y++ {
		img.SetRGBA(x, y, c)
	}
}

// line draws a 2-pixel-wide line with Bresenham's algorithm.
func line(img *image.RGBA, x0, y0, x1, y1 int, c color.RGBA) {
	dx, dy := abs(x1-x0), -abs(y1-y0)
	sx, sy := sign(x1-x0), sign(y1-y0)
	e := dx + dy
	for {
		for _, d := range [4][2]int{{0, 0}, {1, 0}, {0, 1}, {1, 1}} {
			img.SetRGBA(x0+d[0], y0+d[1], c)
		}
		if x0 == x1 && y0 == y1 {
			return
		}
		if e2 := 2 * e; e2 >= dy {
			e += dy
			x0 += sx
		} else {
			e += dx
			y0 += sy
		}
	}
}

// dot draws a filled disc.
func dot(img *image.RGBA, cx, cy, r int, c color.RGBA) {
	for y := -r; y <= r; y++ {
		for x := -r; x <= r; x++ {
			if x*x+y*y <= r*r+r {
				img.SetRGBA(cx+x, cy+y, c)
			}
		}
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func sign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// A 3x5 pixel font for tick labels, drawn at twice its size.
var glyphs = map[rune][5]string{
	'0': {"111", "101", "101", "101", "111"},
	'1': {"010", "110", "010", "010", "111"},
	'2': {"111", "001", "111", "100", "111"},
	'3': {"111", "001", "011", "001", "111"},
	'4': {"101", "101", "111", "001", "001"},
	'5': {"111", "100", "111", "001", "111"},
	'6': {"111", "100", "111", "101", "111"},
	'7': {"111", "001", "010", "010", "010"},
	'8': {"111", "101", "111", "101", "111"},
	'9': {"111", "101", "111", "001", "111"},
	'-': {"000", "000", "111", "000", "000"},
	'.': {"000", "000", "000", "000", "010"},
}

const (
	glyphScale   = 2
	glyphAdvance = 4 * glyphScale // 3 columns and one of space
	textHeight   = 5 * glyphScale
)

func textWidth(s string) int { return len(s)*glyphAdvance - glyphScale }

func drawText(img *image.RGBA, s string, x, y int, c color.RGBA) {
	for _, r := range s {
		g, ok := glyphs[r]
		if ok {
			for row := 0; row < 5; row++ {
				for col := 0; col < 3; col++ {
					if g[row][col] != '1' {
						continue
					}
					for dy := 0; dy < glyphScale; dy++ {
						for dx := 0; dx < glyphScale; dx++ {
							img.SetRGBA(x+col*glyphScale+dx, y+row*glyphScale+dy, c)
						}
					}
				}
			}
		}
		x += glyphAdvance
	}
}
