"""Great-circle distances."""

import math

from .coords import parse_point

EARTH_RADIUS_KM = 6371.0088
_UNITS = {"km": 1.0, "mi": 1 / 1.609344, "nmi": 1 / 1.852, "m": 1000.0}


def haversine_km(lat1, lon1, lat2, lon2):
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * EARTH_RADIUS_KM * math.asin(min(1.0, math.sqrt(a)))


def distance(origin: str, destination: str, unit: str = "km") -> float:
    """Great-circle (haversine) distance between two coordinates, as the crow flies.

    Args:
        origin: the first point, "lat, lon" in decimal degrees or degrees, minutes and seconds.
        destination: the second point, written the same way.
        unit: km, mi (statute miles), nmi (nautical miles) or m.

    Returns:
        The distance in the unit, rounded to two decimals.
    """
    if unit not in _UNITS:
        raise ValueError("unknown unit %r (want one of %s)" % (unit, ", ".join(_UNITS)))
    (lat1, lon1), (lat2, lon2) = parse_point(origin), parse_point(destination)
    return round(haversine_km(lat1, lon1, lat2, lon2) * _UNITS[unit], 2)
