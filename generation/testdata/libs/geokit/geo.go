// Package geokit computes great-circle distances, reads coordinates
// written in degrees, minutes and seconds, and encodes geohashes.
package geokit

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// EarthRadiusKm is the mean radius of the Earth.
const EarthRadiusKm = 6371.0088

// Haversine returns the great-circle distance in kilometres between two
// points given by latitude and longitude in decimal degrees.
func Haversine(lat1, lon1, lat2, lon2 float64) float64 {
	rad := math.Pi / 180
	dlat, dlon := (lat2-lat1)*rad, (lon2-lon1)*rad
	a := math.Sin(dlat/2)*math.Sin(dlat/2) + math.Cos(lat1*rad)*math.Cos(lat2*rad)*math.Sin(dlon/2)*math.Sin(dlon/2)
	return 2 * EarthRadiusKm * math.Asin(math.Sqrt(a))
}

var dmsRE = regexp.MustCompile(`^\s*(\d+(?:\.\d+)?)°\s*(?:(\d+(?:\.\d+)?)['′]\s*)?(?:(\d+(?:\.\d+)?)["″]\s*)?([NSEW])\s*$`)

// ParseDMS converts a coordinate written in degrees, minutes and seconds,
// such as 48°51′29″N, to decimal degrees (negative south and west).
func ParseDMS(s string) (float64, error) {
	m := dmsRE.FindStringSubmatch(s)
	if m == nil {
		return 0, fmt.Errorf("cannot read %q as degrees, minutes and seconds", s)
	}
	d, _ := strconv.ParseFloat(m[1], 64)
	var min, sec float64
	if m[2] != "" {
		min, _ = strconv.ParseFloat(m[2], 64)
	}
	if m[3] != "" {
		sec, _ = strconv.ParseFloat(m[3], 64)
	}
	v := d + min/60 + sec/3600
	if strings.ContainsAny(m[4], "SW") {
		v = -v
	}
	return math.Round(v*1e6) / 1e6, nil
}

// Point is a position on the Earth.
type Point struct {
	Lat float64 `json:"lat"`
	Lon float64 `json:"lon"`
}

// NewPoint returns the point at a latitude and longitude in decimal degrees.
func NewPoint(lat, lon float64) (*Point, error) {
	if lat < -90 || lat > 90 || lon < -180 || lon > 180 {
		return nil, fmt.Errorf("no such point: %g, %g", lat, lon)
	}
	return &Point{Lat: lat, Lon: lon}, nil
}

const base32 = "0123456789bcdefghjkmnpqrstuvwxyz"

// Geohash encodes the point as a geohash of the given number of characters.
func (p *Point) Geohash(precision int) string {
	latR, lonR := [2]float64{-90, 90}, [2]float64{-180, 180}
	var b strings.Builder
	bit, ch, even := 0, 0, true
	for b.Len() < precision {
		r, v := &latR, p.Lat
		if even {
			r, v = &lonR, p.Lon
		}
		mid := (r[0] + r[1]) / 2
		ch <<= 1
		if v >= mid {
			ch |= 1
			r[0] = mid
		} else {
			r[1] = mid
		}
		even = !even
		if bit++; bit == 5 {
			b.WriteByte(base32[ch])
			bit, ch = 0, 0
		}
	}
	return b.String()
}
