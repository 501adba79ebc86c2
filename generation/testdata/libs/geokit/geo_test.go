package geokit

import (
	"math"
	"testing"
)

func TestHaversine(t *testing.T) {
	if d := Haversine(48.8566, 2.3522, 51.5074, -0.1278); math.Abs(d-343.5) > 1 {
		t.Errorf("Haversine(Paris, London) = %.1f, want about 343.5", d)
	}
}

func TestGeohash(t *testing.T) {
	p, _ := NewPoint(57.64911, 10.40744)
	if g := p.Geohash(11); g != "u4pruydqqvj" {
		t.Errorf("Geohash = %s, want u4pruydqqvj", g)
	}
}
