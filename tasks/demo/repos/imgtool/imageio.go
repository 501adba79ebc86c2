package main

import (
	"errors"
	"fmt"
	"image"
	"image/color/palette"
	"image/draw"
	"image/gif"
	"image/jpeg"
	"image/png"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Load decodes a PNG, JPEG or GIF file (the first frame of an animated
// GIF) and returns the image and its format name.
func Load(path string) (image.Image, string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, "", fileError(path, err)
	}
	defer f.Close()
	img, format, err := image.Decode(f)
	if errors.Is(err, image.ErrFormat) {
		return nil, "", fmt.Errorf("%s: not a PNG, JPEG or GIF image", path)
	}
	if err != nil {
		return nil, "", fmt.Errorf("%s: %v", path, err)
	}
	return img, format, nil
}

// fileError turns "open x: no such file" into "x: no such file".
func fileError(path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %v", path, pe.Err)
	}
	return err
}

// outputFormat returns the format implied by the extension of path.
func outputFormat(path string) (string, error) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".png":
		return "png", nil
	case ".jpg", ".jpeg":
		return "jpeg", nil
	case ".gif":
		return "gif", nil
	}
	return "", usagef("cannot tell the output format of %q: use a .png, .jpg or .gif name", path)
}

// Save encodes img into path, choosing PNG, JPEG or GIF by the file
// extension. quality applies to JPEG (1-100).
func Save(path string, img image.Image, quality int) error {
	format, err := outputFormat(path)
	if err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return fileError(path, err)
	}
	switch format {
	case "png":
		err = png.Encode(f, img)
	case "jpeg":
		err = jpeg.Encode(f, img, &jpeg.Options{Quality: quality})
	case "gif":
		err = gif.Encode(f, toPaletted(img), nil)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	return nil
}

// toPaletted converts an image for GIF output: grayscale images keep 256
// gray levels, others are dithered to the web-safe palette.
func toPaletted(img image.Image) *image.Paletted {
	if p, ok := img.(*image.Paletted); ok {
		return p
	}
	b := img.Bounds()
	if _, ok := img.(*image.Gray); ok {
		p := image.NewPaletted(b, grayPalette())
		draw.Draw(p, b, img, b.Min, draw.Src)
		return p
	}
	p := image.NewPaletted(b, palette.WebSafe)
	draw.FloydSteinberg.Draw(p, b, img, b.Min)
	return p
}
