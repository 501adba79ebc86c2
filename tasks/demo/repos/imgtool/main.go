// Command imgtool inspects and transforms images and draws charts, with
// the Go standard library only: image facts and mean brightness, grayscale
// conversion, antialiased resizing, brightness histograms, and line charts
// of a CSV column as PNG.
//
// Usage:
//
//	imgtool info [flags] IMAGE
//	imgtool gray [flags] IMAGE -o OUT.png
//	imgtool resize [flags] IMAGE --width W [--height H] -o OUT.png
//	imgtool histogram [flags] IMAGE
//	imgtool plot [flags] CSV --column NAME [-o chart.png]
//
// Run "imgtool <command> --help" for the flags of each command.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
)

const (
	progName = "imgtool"
	version  = "1.0.0"
	tagline  = "image facts, grayscale, resizing, histograms and line charts (PNG, JPEG, GIF)"
)

var commands = []*command{infoCmd, grayCmd, resizeCmd, histogramCmd, plotCmd}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func round2(x float64) float64 { return math.Round(x*100) / 100 }

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// outputFlags registers -o/--output and --quality.
func outputFlags(fs *flag.FlagSet, output *string, quality *int, def string) {
	fs.StringVar(output, "o", def, "write the image to `FILE` (.png, .jpg or .gif)")
	fs.StringVar(output, "output", def, "write the image to `FILE` (.png, .jpg or .gif)")
	fs.IntVar(quality, "quality", 90, "JPEG quality `Q`, 1-100")
}

func checkOutput(output string, quality int) error {
	if output == "" {
		return usagef("missing -o OUT (the file to write)")
	}
	if quality < 1 || quality > 100 {
		return usagef("--quality must be between 1 and 100")
	}
	_, err := outputFormat(output)
	return err
}

var infoCmd = &command{
	name:     "info",
	synopsis: "IMAGE",
	summary:  "format, size, colour model and mean brightness of an image",
	about: `
Print the format (png, jpeg or gif), width and height in pixels, colour model,
whether the image is opaque, its mean brightness (0 = black, 255 = white;
luma 0.299 R + 0.587 G + 0.114 B, the ITU-R BT.601 weights), the darkest and
brightest pixel, and the mean red, green and blue values.`,
	args: `
IMAGE  a PNG, JPEG or GIF file (the first frame of an animated GIF)`,
	examples: `
imgtool info photo.jpg
imgtool info --json logo.png`,
	minArgs: 1, maxArgs: 1,
	setup: func(fs *flag.FlagSet) func([]string, io.Writer) error {
		var asJSON bool
		fs.BoolVar(&asJSON, "json", false, "print a JSON object instead of text")
		return func(args []string, w io.Writer) error {
			img, format, err := Load(args[0])
			if err != nil {
				return err
			}
			s := ComputeStats(img)
			model := ColorModelName(img)
			if asJSON {
				return writeJSON(w, map[string]any{
					"file": args[0], "format": format, "width": s.Width, "height": s.Height,
					"color_model": model, "opaque": s.Opaque,
					"mean_brightness": round2(s.MeanBrightness),
					"min_brightness":  s.MinBrightness, "max_brightness": s.MaxBrightness,
					"mean_rgb": []float64{round2(s.MeanRGB[0]), round2(s.MeanRGB[1]), round2(s.MeanRGB[2])},
				})
			}
			yes := map[bool]string{true: "yes", false: "no"}
			fmt.Fprintf(w, "file: %s\nformat: %s\nwidth: %d\nheight: %d\ncolor model: %s\nopaque: %s\n",
				args[0], format, s.Width, s.Height, model, yes[s.Opaque])
			fmt.Fprintf(w, "mean brightness: %.2f\nbrightness range: %d to %d\nmean rgb: %.2f %.2f %.2f\n",
				s.MeanBrightness, s.MinBrightness, s.MaxBrightness, s.MeanRGB[0], s.MeanRGB[1], s.MeanRGB[2])
			return nil
		}
	},
}

var grayCmd = &command{
	name:     "gray",
	synopsis: "IMAGE -o OUT",
	summary:  "convert an image to grayscale",
	about: `
Convert IMAGE to grayscale with the ITU-R BT.601 luma weights
(0.299 R + 0.587 G + 0.114 B) and write it to OUT; the format follows OUT's
extension (.png, .jpg/.jpeg or .gif). Transparency is kept.`,
	args: `
IMAGE  a PNG, JPEG or GIF file`,
	examples: `
imgtool gray photo.jpg -o photo-gray.png
imgtool gray -o small.jpg --quality 80 scan.png`,
	minArgs: 1, maxArgs: 1,
	setup: func(fs *flag.FlagSet) func([]string, io.Writer) error {
		var output string
		var quality int
		outputFlags(fs, &output, &quality, "")
		return func(args []string, w io.Writer) error {
			if err := checkOutput(output, quality); err != nil {
				return err
			}
			img, _, err := Load(args[0])
			if err != nil {
				return err
			}
			out := Gray(img)
			if err := Save(output, out, quality); err != nil {
				return err
			}
			b := out.Bounds()
			fmt.Fprintf(w, "wrote %s: %dx%d grayscale, mean brightness %.2f\n", output, b.Dx(), b.Dy(), ComputeStats(out).MeanBrightness)
			return nil
		}
	},
}

var resizeCmd = &command{
	name:     "resize",
	synopsis: "IMAGE -o OUT",
	summary:  "scale an image to a new width and/or height",
	about: `
Scale IMAGE and write it to OUT (format from the extension). Give --width,
--height or both; with only one, the other follows from the aspect ratio
(rounded, at least 1 pixel). --scale resizes by a factor instead. The default
filter, bicubic (Catmull-Rom), and bilinear and box are antialiased when
shrinking: every source pixel contributes. nearest copies pixels (for pixel
art).`,
	args: `
IMAGE  a PNG, JPEG or GIF file`,
	examples: `
imgtool resize photo.jpg --width 320 -o thumb.png
imgtool resize icon.png --width 64 --height 64 -o icon64.png
imgtool resize sprite.png --scale 4 --filter nearest -o sprite4x.png`,
	minArgs: 1, maxArgs: 1,
	setup: func(fs *flag.FlagSet) func([]string, io.Writer) error {
		var width, height, quality int
		var scale float64
		var output, filter string
		fs.IntVar(&width, "width", 0, "output width in `PIXELS`")
		fs.IntVar(&width, "W", 0, "output width in `PIXELS`")
		fs.IntVar(&height, "height", 0, "output height in `PIXELS`")
		fs.IntVar(&height, "H", 0, "output height in `PIXELS`")
		fs.Float64Var(&scale, "scale", 0, "scale both sides by `FACTOR` instead (e.g. 0.5)")
		fs.StringVar(&filter, "filter", "bicubic", "resampling `FILTER`: "+strings.Join(Filters, ", "))
		outputFlags(fs, &output, &quality, "")
		return func(args []string, w io.Writer) error {
			if err := checkOutput(output, quality); err != nil {
				return err
			}
			if width < 0 || height < 0 || scale < 0 {
				return usagef("sizes must be positive")
			}
			if (width == 0 && height == 0) == (scale == 0) {
				return usagef("give --width and/or --height, or --scale")
			}
			known := false
			for _, f := range Filters {
				known = known || f == filter
			}
			if !known {
				return usagef("unknown filter %q (use %s)", filter, strings.Join(Filters, ", "))
			}
			img, _, err := Load(args[0])
			if err != nil {
				return err
			}
			b := img.Bounds()
			sw, sh := b.Dx(), b.Dy()
			switch {
			case scale > 0:
				width = max(1, int(math.Round(float64(sw)*scale)))
				height = max(1, int(math.Round(float64(sh)*scale)))
			case height == 0:
				height = max(1, int(math.Round(float64(sh)*float64(width)/float64(sw))))
			case width == 0:
				width = max(1, int(math.Round(float64(sw)*float64(height)/float64(sh))))
			}
			if width > 20000 || height > 20000 {
				return fmt.Errorf("output size %dx%d is too large (at most 20000 per side)", width, height)
			}
			out, err := Resize(img, width, height, filter)
			if err != nil {
				return err
			}
			if err := Save(output, out, quality); err != nil {
				return err
			}
			fmt.Fprintf(w, "wrote %s: %dx%d (from %dx%d)\n", output, width, height, sw, sh)
			return nil
		}
	},
}

var histogramCmd = &command{
	name:     "histogram",
	synopsis: "IMAGE",
	summary:  "brightness (or colour channel) histogram of an image",
	about: `
Count the pixels of IMAGE per range of brightness (luma, 0-255) or of one
colour channel, in --bins equal ranges, and print one line per range:
"FROM-TO  COUNT  PERCENT  BAR". A value v falls into range
floor(v * bins / 256); with 4 bins the ranges are 0-63, 64-127, 128-191 and
192-255. --csv prints bin,from,to,count,percent instead (for 'imgtool plot').`,
	args: `
IMAGE  a PNG, JPEG or GIF file`,
	examples: `
imgtool histogram photo.jpg
imgtool histogram --bins 4 scan.png
imgtool histogram --channel red --bins 16 --csv photo.jpg > red.csv`,
	minArgs: 1, maxArgs: 1,
	setup: func(fs *flag.FlagSet) func([]string, io.Writer) error {
		var bins int
		var channel string
		var asCSV bool
		fs.IntVar(&bins, "bins", 8, "number of equal ranges `N`, 1-256")
		fs.StringVar(&channel, "channel", "luma", "`CHANNEL` to count: "+strings.Join(Channels, ", "))
		fs.BoolVar(&asCSV, "csv", false, "print CSV: bin,from,to,count,percent")
		return func(args []string, w io.Writer) error {
			if bins < 1 || bins > 256 {
				return usagef("--bins must be between 1 and 256")
			}
			known := false
			for _, c := range Channels {
				known = known || c == channel
			}
			if !known {
				return usagef("unknown channel %q (use %s)", channel, strings.Join(Channels, ", "))
			}
			img, _, err := Load(args[0])
			if err != nil {
				return err
			}
			hist, err := Histogram(img, bins, channel)
			if err != nil {
				return err
			}
			total, most := 0, 0
			for _, b := range hist {
				total += b.Count
				most = max(most, b.Count)
			}
			pct := func(n int) float64 {
				if total == 0 {
					return 0
				}
				return 100 * float64(n) / float64(total)
			}
			if asCSV {
				fmt.Fprintln(w, "bin,from,to,count,percent")
				for i, b := range hist {
					fmt.Fprintf(w, "%d,%d,%d,%d,%.2f\n", i+1, b.From, b.To, b.Count, pct(b.Count))
				}
				return nil
			}
			fmt.Fprintf(w, "%s histogram of %s (%d pixels)\n", channel, args[0], total)
			cw := len(strconv.Itoa(most))
			for _, b := range hist {
				bar := 0
				if most > 0 {
					bar = int(math.Round(40 * float64(b.Count) / float64(most)))
				}
				row := fmt.Sprintf("%7s  %*d  %6.2f%%  %s", fmt.Sprintf("%d-%d", b.From, b.To), cw, b.Count, pct(b.Count), strings.Repeat("#", bar))
				fmt.Fprintln(w, strings.TrimRight(row, " "))
			}
			return nil
		}
	},
}

var plotCmd = &command{
	name:     "plot",
	synopsis: "CSV",
	summary:  "draw a line chart PNG of a numeric CSV column",
	about: `
Draw the values of one numeric column of a CSV file as a line chart, in file
order from left to right, and write it as an image (PNG unless -o names a
.jpg or .gif file). The chart has a y axis with gridlines at round values and
numbered ticks, an x axis numbered by point, and the lowest and highest
points marked in red and green. Prints "wrote FILE: N points, min X, max Y".

The delimiter (comma, semicolon or tab) is detected from the first line.
The first row is a header unless it is all numbers. Cells may carry
currency signs, % signs and thousands separators; semicolon-separated files
are read with decimal commas (12,5 = 12.5). Rows whose cell is empty or not
a number are skipped and counted.`,
	args: `
CSV  a CSV file with a header row, e.g. date,close or Datum;Temperatur`,
	examples: `
imgtool plot prices.csv --column close
imgtool plot equity.csv --column equity -o equity.png
imgtool plot weather.csv --column 2 --width 1000 --height 300 -o temp.png`,
	minArgs: 1, maxArgs: 1,
	setup: func(fs *flag.FlagSet) func([]string, io.Writer) error {
		var column, output, delim string
		var width, height, quality int
		var decimalComma bool
		fs.StringVar(&column, "column", "", "column to plot: header `NAME` (any case) or 1-based number (default: the last numeric column)")
		fs.StringVar(&column, "c", "", "column to plot: header `NAME` (any case) or 1-based number (default: the last numeric column)")
		fs.IntVar(&width, "width", 800, "chart width in `PIXELS`")
		fs.IntVar(&height, "height", 400, "chart height in `PIXELS`")
		fs.StringVar(&delim, "delimiter", "", "field separator `D`: , or ; or tab (default: detect)")
		fs.BoolVar(&decimalComma, "decimal-comma", false, "read 12,5 as 12.5 (automatic for ;-separated files)")
		outputFlags(fs, &output, &quality, "chart.png")
		return func(args []string, w io.Writer) error {
			if err := checkOutput(output, quality); err != nil {
				return err
			}
			opt := CSVOptions{Column: column, DecimalComma: decimalComma}
			switch delim {
			case "":
			case ",", ";":
				opt.Delimiter = rune(delim[0])
			case "tab", "\\t", "\t":
				opt.Delimiter = '\t'
			default:
				return usagef("--delimiter must be , or ; or tab")
			}
			series, err := ReadSeries(args[0], opt)
			if err != nil {
				return err
			}
			img, err := Chart(series.Values, width, height)
			if err != nil {
				return err
			}
			if err := Save(output, img, quality); err != nil {
				return err
			}
			lo, hi := series.Values[0], series.Values[0]
			for _, v := range series.Values {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
			fmt.Fprintf(w, "wrote %s: %s, min %s, max %s", output, plural(len(series.Values), "point"), formatNum(lo), formatNum(hi))
			if series.Skipped > 0 {
				fmt.Fprintf(w, " (%s skipped)", plural(series.Skipped, "row"))
			}
			fmt.Fprintln(w)
			return nil
		}
	},
}

func plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// formatNum prints a value as briefly as it round-trips (12.5, 100, 0.003).
func formatNum(v float64) string {
	return strconv.FormatFloat(v, 'f', -1, 64)
}
