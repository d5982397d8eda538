"""Confidence intervals over replicated runs, and paired comparisons.

A figure of an experiment (loss, a response-time quantile, goodput) is
measured once per seed; its estimate is the mean over the seeds with a
95% confidence interval from Student's t distribution with n - 1 degrees
of freedom: mean +- t(0.975, n - 1) s / sqrt(n). Two qdiscs run on the
same seeds see the same offered workload (the same RTTs, requests and
start times), so they are compared paired: the interval is that of the
mean of the per-seed differences, and the difference is significant at
95% when that interval excludes zero. With one seed there is no
interval (half width nan) and nothing is called significant.

The t quantile is computed here (no SciPy in the tooling): the CDF of t
from the regularized incomplete beta function, evaluated by its continued
fraction, and inverted by bisection.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

_EPS = 1e-15
_TINY = 1e-300


def _beta_cf(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (modified
    Lentz's method), for x < (a + 1) / (a + b + 2) where it converges fast."""
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > _TINY else _TINY)
    h = d
    for m in range(1, 500):
        for num in (
            m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
        ):
            d = 1.0 + num * d
            d = 1.0 / (d if abs(d) > _TINY else _TINY)
            c = 1.0 + num / c
            c = c if abs(c) > _TINY else _TINY
            h *= d * c
        if abs(d * c - 1.0) < _EPS:
            break
    return h


def betainc(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b)."""
    if not 0.0 <= x <= 1.0:
        raise ValueError("x must be in [0, 1]")
    if x in (0.0, 1.0):
        return x
    ln = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
    front = math.exp(ln + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _beta_cf(a, b, x) / a
    return 1.0 - front * _beta_cf(b, a, 1.0 - x) / b


def t_cdf(t: float, df: float) -> float:
    """P(T <= t) for Student's t with DF degrees of freedom."""
    tail = 0.5 * betainc(df / 2.0, 0.5, df / (df + t * t))
    return 1.0 - tail if t >= 0 else tail


def t_ppf(p: float, df: float) -> float:
    """The P-quantile of Student's t with DF degrees of freedom."""
    if not 0.0 < p < 1.0 or df <= 0:
        raise ValueError("need 0 < p < 1 and df > 0")
    if p < 0.5:
        return -t_ppf(1.0 - p, df)
    lo, hi = 0.0, 1.0
    while t_cdf(hi, df) < p:
        lo, hi = hi, 2.0 * hi
    for _ in range(200):
        mid = (lo + hi) / 2.0
        if t_cdf(mid, df) < p:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-12 * max(1.0, hi):
            break
    return (lo + hi) / 2.0


@dataclass(frozen=True)
class Interval:
    """A mean over N runs and the half width of its confidence interval
    (nan with fewer than two runs)."""

    mean: float
    half: float
    n: int

    @property
    def lo(self) -> float:
        return self.mean - self.half

    @property
    def hi(self) -> float:
        return self.mean + self.half

    def fmt(self, spec: str) -> str:
        """ "mean ± half" (or the mean alone for one run; "-" for none)."""
        if self.n == 0 or math.isnan(self.mean):
            return "-"
        if math.isnan(self.half):
            return format(self.mean, spec)
        return f"{format(self.mean, spec)} ± {format(self.half, spec.lstrip('+'))}"


def mean_ci(values: list[float], level: float = 0.95) -> Interval:
    """The mean of VALUES (nan left out) and its Student-t interval."""
    xs = [x for x in values if not math.isnan(x)]
    n = len(xs)
    if n == 0:
        return Interval(math.nan, math.nan, 0)
    mean = sum(xs) / n
    if n == 1:
        return Interval(mean, math.nan, 1)
    var = sum((x - mean) ** 2 for x in xs) / (n - 1)
    half = t_ppf(0.5 + level / 2.0, n - 1) * math.sqrt(var / n)
    return Interval(mean, half, n)


@dataclass(frozen=True)
class Paired:
    """B - A over the seeds both ran: the mean difference, its interval,
    and whether the interval excludes zero."""

    diff: Interval
    seeds: list[int]

    @property
    def significant(self) -> bool:
        d = self.diff
        return d.n >= 2 and not math.isnan(d.half) and (d.lo > 0 or d.hi < 0)

    def verdict(self, spec: str, lower: str = "lower", higher: str = "higher") -> str:
        """ "-1.2 ± 0.4, lower" when significant, "+0.3 ± 0.9, within noise"
        when not ("-" without a common seed)."""
        d = self.diff
        if d.n == 0:
            return "-"
        text = d.fmt("+" + spec)
        if d.n < 2:
            return f"{text}, one seed"
        if not self.significant:
            return f"{text}, within noise"
        return f"{text}, {lower if d.mean < 0 else higher}"


def paired(a: dict[int, float], b: dict[int, float], level: float = 0.95) -> Paired:
    """B minus A paired by seed (the keys), over the seeds both have a
    figure for (nan left out)."""
    seeds = sorted(s for s in set(a) & set(b) if not math.isnan(a[s]) and not math.isnan(b[s]))
    return Paired(mean_ci([b[s] - a[s] for s in seeds], level), seeds)
