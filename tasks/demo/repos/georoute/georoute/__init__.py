"""Geodesy for routes and tracks: great-circle distances, coordinates in
degrees, minutes and seconds, and GPS track summaries."""

from .coords import CoordinateError, parse_point, to_decimal
from .distance import EARTH_RADIUS_KM, distance
from .track import Track, TrackError

__all__ = ["distance", "to_decimal", "Track", "CoordinateError", "TrackError", "EARTH_RADIUS_KM"]
__version__ = "0.4.0"
