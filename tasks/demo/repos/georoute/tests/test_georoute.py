import os
import tempfile
import unittest

import georoute
from georoute import CoordinateError, Track


GPX = """<?xml version="1.0"?>
<gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>
<trkpt lat="46.0000" lon="7.0000"><ele>1000</ele><time>2024-06-01T08:00:00Z</time></trkpt>
<trkpt lat="46.0090" lon="7.0000"><ele>1001</ele><time>2024-06-01T08:03:00Z</time></trkpt>
<trkpt lat="46.0180" lon="7.0000"><ele>1050</ele><time>2024-06-01T08:09:00Z</time></trkpt>
<trkpt lat="46.0270" lon="7.0000"><ele>1020</ele><time>2024-06-01T08:12:00Z</time></trkpt>
</trkseg></trk></gpx>
"""


class TestCoordinates(unittest.TestCase):
    def test_dms(self):
        self.assertEqual(georoute.to_decimal("45°49′57″N 6°51′52″E"), {"lat": 45.8325, "lon": 6.864444})

    def test_west_and_south(self):
        self.assertEqual(georoute.to_decimal("33°51′31″S, 151°12′51″E"), {"lat": -33.858611, "lon": 151.214167})
        self.assertEqual(georoute.parse_point("40.7128, -74.0060"), (40.7128, -74.006))

    def test_longitude_first_with_hemispheres(self):
        self.assertEqual(georoute.to_decimal("2°21′8″E 48°51′29″N"), {"lat": 48.858056, "lon": 2.352222})

    def test_bad(self):
        with self.assertRaises(CoordinateError):
            georoute.parse_point("somewhere")
        with self.assertRaises(CoordinateError):
            georoute.parse_point("95, 10")


class TestDistance(unittest.TestCase):
    def test_paris_berlin(self):
        self.assertAlmostEqual(georoute.distance("48.8566, 2.3522", "52.5200, 13.4050"), 877.46, delta=0.5)

    def test_units(self):
        km = georoute.distance("51.4700, -0.4543", "40.6413, -73.7781")
        self.assertAlmostEqual(georoute.distance("51.4700, -0.4543", "40.6413, -73.7781", unit="nmi"), km / 1.852, delta=0.02)
        with self.assertRaises(ValueError):
            georoute.distance("0, 0", "1, 1", unit="furlong")


class TestTrack(unittest.TestCase):
    def write(self, text, suffix):
        fd, path = tempfile.mkstemp(suffix=suffix)
        with os.fdopen(fd, "w") as fh:
            fh.write(text)
        self.addCleanup(os.remove, path)
        return path

    def test_gpx_summary(self):
        s = Track.from_file(self.write(GPX, ".gpx")).summary()
        self.assertEqual(s["points"], 4)
        self.assertAlmostEqual(s["length_km"], 3.0, delta=0.01)
        self.assertEqual(s["ascent_m"], 50)   # the 1 m step alone is noise
        self.assertEqual(s["descent_m"], 30)
        self.assertEqual(s["duration_s"], 720)
        self.assertAlmostEqual(s["avg_speed_kmh"], 15.0, delta=0.1)

    def test_csv_any_extension(self):
        path = self.write("Name;Latitude;Longitude;Elevation\nA;46.0;7.0;500\nB;46.009;7.0;530\n", ".txt")
        s = Track.from_file(path).summary()
        self.assertEqual(s["points"], 2)
        self.assertEqual(s["ascent_m"], 30)

    def test_splits(self):
        sp = Track.from_file(self.write(GPX, ".gpx")).splits(1.0)
        self.assertEqual([x["split"] for x in sp], [1, 2, 3])
        self.assertEqual(sp[1]["seconds"], 360)

    def test_too_short(self):
        with self.assertRaises(georoute.TrackError):
            Track.from_file(self.write("lat,lon\n1,2\n", ".csv"))


if __name__ == "__main__":
    unittest.main()
