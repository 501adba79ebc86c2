"""Reading coordinates: decimal degrees or degrees, minutes and seconds."""

import re


class CoordinateError(ValueError):
    """A coordinate that cannot be read."""


_NUM = r"[+-]?\d+(?:\.\d+)?"
_PART = re.compile(
    r"(" + _NUM + r")\s*(?:°|deg|d\b)?\s*"          # degrees
    r"(?:(\d+(?:\.\d+)?)\s*(?:['′’]|min|m\b)?\s*)?"   # minutes
    r"(?:(\d+(?:\.\d+)?)\s*(?:[\"″”]|''|sec|s\b)?\s*)?"  # seconds
    r"([NSEWnsew])?"
)


def _angle(text):
    text = text.strip()
    m = _PART.fullmatch(text)
    if not m:
        raise CoordinateError("cannot read %r as an angle" % text)
    deg, mins, secs, hemi = m.groups()
    value = abs(float(deg)) + float(mins or 0) / 60 + float(secs or 0) / 3600
    if deg.startswith("-") or (hemi and hemi.upper() in "SW"):
        value = -value
    return value, (hemi or "").upper()


def parse_point(text: str) -> tuple:
    """Read a point written as "lat, lon" in decimal degrees or in degrees,
    minutes and seconds, and return (latitude, longitude) in decimal degrees."""
    s = text.strip()
    halves = None
    m = re.match(r"^(.*?[NSns])\s*,?\s*(.*[EWew])$", s)
    if m:
        halves = [m.group(1), m.group(2)]
    elif "," in s:
        halves = s.split(",", 1)
    else:
        nums = s.split()
        if len(nums) == 2:
            halves = nums
    if not halves:
        raise CoordinateError("cannot read %r as a point (want \"lat, lon\")" % text)
    (lat, h1), (lon, h2) = _angle(halves[0]), _angle(halves[1])
    if h1 in ("E", "W") or h2 in ("N", "S"):
        lat, lon = lon, lat
    if not -90 <= lat <= 90 or not -180 <= lon <= 180:
        raise CoordinateError("no such point: %r" % text)
    return lat, lon


def to_decimal(coordinate: str) -> dict:
    """Convert a coordinate written in degrees, minutes and seconds, such as
    45°49′57″N 6°51′52″E, to signed decimal degrees (south and west negative).

    Args:
        coordinate: the point, latitude first or marked with N/S and E/W.

    Returns:
        {"lat": ..., "lon": ...} rounded to six decimals (about 0.1 m).
    """
    lat, lon = parse_point(coordinate)
    return {"lat": round(lat, 6), "lon": round(lon, 6)}
