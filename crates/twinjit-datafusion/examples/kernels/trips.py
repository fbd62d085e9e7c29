"""Functions a data team wrote for Numba, used as SQL functions by `twinjit sql` and by the
`trips` example. The same file runs under Numba: `python trips.py`."""
import math

import numpy as np
from numba import njit, vectorize

EARTH_RADIUS_KM = 6371.0


@vectorize(["float64(float64, float64, float64, float64)"])
def haversine_km(lat1, lon1, lat2, lon2):
    p1 = math.radians(lat1)
    p2 = math.radians(lat2)
    dp = p2 - p1
    dl = math.radians(lon2 - lon1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2.0 * EARTH_RADIUS_KM * math.asin(math.sqrt(a))


@njit
def fare(km, minutes, night):
    base = 3.0 + 1.7 * km + 0.35 * minutes
    if night:
        base *= 1.25
    if km > 30.0:
        base += 12.5
    return round(base, 2)


@njit
def speed_band(km, minutes):
    if minutes <= 0.0:
        return -1
    v = km / (minutes / 60.0)
    if v < 10.0:
        return 0
    elif v < 30.0:
        return 1
    elif v < 60.0:
        return 2
    return 3


@njit
def p90(x):
    return np.percentile(x, 90.0)


@njit
def trimmed_mean(x):
    s = np.sort(x)
    k = len(s) // 10
    return s[k:len(s) - k].mean()


if __name__ == "__main__":
    print(haversine_km(51.5074, -0.1278, 48.8566, 2.3522))
    print(fare(12.0, 25.0, True), speed_band(12.0, 25.0))
    x = np.arange(100.0)
    print(p90(x), trimmed_mean(x))
