"""GPS tracks from GPX or CSV files."""

import csv
import datetime
import io
import xml.etree.ElementTree as ET

from .distance import haversine_km

# Changes of elevation below this many metres are GPS noise, not climbing.
ELEVATION_THRESHOLD_M = 2.0


class TrackError(ValueError):
    """A track file that cannot be read."""


def _time(s):
    if not s:
        return None
    s = s.strip().replace("Z", "+00:00")
    try:
        return datetime.datetime.fromisoformat(s)
    except ValueError:
        return None


def _pick(header, *names):
    low = [h.strip().lower() for h in header]
    for n in names:
        if n in low:
            return low.index(n)
    return None


class Track:
    """A GPS track: points with latitude, longitude and, when known,
    elevation and time."""

    def __init__(self, points):
        if len(points) < 2:
            raise TrackError("a track needs at least two points, got %d" % len(points))
        self.points = points

    @classmethod
    def from_file(cls, path: str) -> "Track":
        """Read a track from a GPX file or a CSV file with latitude and longitude columns."""
        with open(path, encoding="utf-8-sig") as fh:
            text = fh.read()
        if text.lstrip().startswith("<"):
            return cls._from_gpx(text)
        return cls._from_csv(text)

    @classmethod
    def _from_gpx(cls, text):
        try:
            root = ET.fromstring(text)
        except ET.ParseError as e:
            raise TrackError("not a GPX file: %s" % e) from None
        pts = []
        for el in root.iter():
            if el.tag.rsplit("}", 1)[-1] not in ("trkpt", "rtept"):
                continue
            p = {"lat": float(el.get("lat")), "lon": float(el.get("lon")), "ele": None, "time": None}
            for child in el:
                tag = child.tag.rsplit("}", 1)[-1]
                if tag == "ele" and child.text:
                    p["ele"] = float(child.text)
                elif tag == "time":
                    p["time"] = _time(child.text)
            pts.append(p)
        return cls(pts)

    @classmethod
    def _from_csv(cls, text):
        sample = text[:4096]
        try:
            dialect = csv.Sniffer().sniff(sample, delimiters=",;\t")
        except csv.Error:
            dialect = csv.excel
        rows = list(csv.reader(io.StringIO(text), dialect))
        if not rows:
            raise TrackError("empty CSV file")
        header = rows[0]
        ilat = _pick(header, "lat", "latitude")
        ilon = _pick(header, "lon", "lng", "long", "longitude")
        iele = _pick(header, "ele", "elevation", "altitude", "alt", "elevation (m)", "altitude (m)")
        itime = _pick(header, "time", "timestamp", "datetime")
        if ilat is None or ilon is None:
            raise TrackError("no latitude and longitude columns in %s" % header)
        pts = []
        for r in rows[1:]:
            if len(r) <= max(ilat, ilon) or not r[ilat].strip():
                continue
            ele = r[iele].strip() if iele is not None and iele < len(r) else ""
            pts.append({"lat": float(r[ilat]), "lon": float(r[ilon]),
                        "ele": float(ele.replace(",", "")) if ele else None,
                        "time": _time(r[itime]) if itime is not None and itime < len(r) else None})
        return cls(pts)

    @property
    def length_km(self):
        return sum(haversine_km(a["lat"], a["lon"], b["lat"], b["lon"]) for a, b in zip(self.points, self.points[1:]))

    def _climb(self):
        up = down = 0.0
        ref = None
        for p in self.points:
            if p["ele"] is None:
                continue
            if ref is None:
                ref = p["ele"]
                continue
            d = p["ele"] - ref
            if abs(d) >= ELEVATION_THRESHOLD_M:
                if d > 0:
                    up += d
                else:
                    down -= d
                ref = p["ele"]
        return up, down

    def summary(self) -> dict:
        """Summarise the track: number of points, total length in km, elevation gain and loss
        in metres, highest and lowest point, duration and average speed."""
        up, down = self._climb()
        eles = [p["ele"] for p in self.points if p["ele"] is not None]
        times = [p["time"] for p in self.points if p["time"] is not None]
        out = {"points": len(self.points), "length_km": round(self.length_km, 2),
               "ascent_m": round(up), "descent_m": round(down)}
        if eles:
            out["max_elevation_m"], out["min_elevation_m"] = max(eles), min(eles)
        if len(times) >= 2:
            secs = (times[-1] - times[0]).total_seconds()
            out["duration_s"] = int(secs)
            if secs > 0:
                out["avg_speed_kmh"] = round(self.length_km / (secs / 3600), 1)
        return out

    def splits(self, every_km: float = 1.0) -> list:
        """Split the track into segments of every_km kilometres and report, for each, the
        distance covered, the elapsed time and the elevation change."""
        if every_km <= 0:
            raise ValueError("every_km must be positive")
        out, done, start = [], 0.0, self.points[0]
        seg_start_km = 0.0
        for a, b in zip(self.points, self.points[1:]):
            done += haversine_km(a["lat"], a["lon"], b["lat"], b["lon"])
            if done - seg_start_km >= every_km or b is self.points[-1]:
                seg = {"split": len(out) + 1, "km": round(done, 2)}
                if start["time"] and b["time"]:
                    seg["seconds"] = int((b["time"] - start["time"]).total_seconds())
                if start["ele"] is not None and b["ele"] is not None:
                    seg["elevation_change_m"] = round(b["ele"] - start["ele"], 1)
                out.append(seg)
                start, seg_start_km = b, done
        return out
