"""The BLUE paper's own numbers and claims, to be printed beside the
reproduction's, and what its equation (1) computes.

Feng, Shin, Kandlur and Saha, "The BLUE active queue management
algorithms" (IEEE/ACM Transactions on Networking 10(4), 2002), transcribed
from the text extraction in the project's paper store
(blue-and-stochastic-fair-blue.txt): sections III-B and III-E (BLUE
against RED: Figures 5 and 13) and IV-B to IV-D (SFB: Table III, equation
(1), Figures 16-19), issue 33's items 3 and 4. Every number is as printed
there; none is derived or rounded. Quotations are the extraction's words
("[...]" marks words left out, among them its LaTeX and emphasis marks);
where the paper hedges ("about", "approximately") the quotation keeps its
word.

What the extraction holds. The figures are lost but for their captions:
no point of Figures 5, 13, 16, 18 or 19 survives, only what the text says
of them, and the labels of Figure 4 (the simulated network's rates and
delays) and Figure 12 (the testbed) are gone; the bottleneck of Figure 4
is inferred from the text (100 kB in 17.8 ms: 45 Mb/s). Tables I-III
survive whole. LOST lists what the text names or implies and does not give.

Equation (1) needs no emulation: eq1() computes it, simulate() draws the
bins at random beside it, and CALCULATIONS are the claims of the text that
rest on it or on arithmetic alone. The claims that rest on runs are
CLAIMS, each with the experiment file (PART) that tests it; which of our
configurations stands for which of the paper's is in the experiment files
(scripts/bench/experiments/repro-blue-*.toml, repro-sfb-*.toml) and in
aqmtools.repro.blue_page.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from aqmtools.repro.paper import Calculation, Claim, Exhibit, Result, Setting

STORE_TEXT = "blue-and-stochastic-fair-blue.txt"
CITATION = (
    'Feng, Shin, Kandlur and Saha, "The BLUE active queue management algorithms", '
    "IEEE/ACM Transactions on Networking 10(4), 2002"
)
SHORT_TITLE = "The BLUE active queue management algorithms (Feng et al., 2002)"
SCOPE = (
    "BLUE against RED (section III-B, Figure 5; the testbed of section III-E, Figure 13) and "
    "Stochastic Fair BLUE (section IV: Table III, equation (1), Figures 16-19)"
)
# the bottleneck of Figure 4 (inferred: 100 kB are 17.8 ms) and the testbed's
PAPER_RATE_MBPS = 45
TESTBED_RATE_MBPS = 10
# our bottleneck, and the paper's rates scale by OURS / PAPER
OUR_RATE_MBPS = 10
SCALE = OUR_RATE_MBPS / PAPER_RATE_MBPS


# --- the paper's settings ---------------------------------------------------

SETTINGS: tuple[Setting, ...] = (
    Setting(
        "Figure 5's sources",
        "Pareto on/off, on 2 s, off 3 s",
        "III-B",
        "Pareto on/off sources with mean on-times of 2 s and mean off-times of 3 s",
        "on 40% of the time: 400 and 1600 of the 1000 and 4000 sources on at a time on average",
    ),
    Setting(
        "Figure 5's sources, ECN and packets",
        "ECN, 1 kB packets",
        "III-B",
        "all sources were enabled with ECN support, were randomly started within the first 1 s "
        "of simulation, and used 1 kB packets",
    ),
    Setting(
        "Figure 5's numbers of sources",
        "1000 and 4000",
        "III-B",
        "with 1000 and 4000 connections present",
    ),
    Setting(
        "Figure 5's measurement",
        "from 100 s to 200 s",
        "III-B",
        "Packet loss statistics were then measured after 100 s of simulation for 100 s",
    ),
    Setting(
        "Figure 5's buffer",
        "100 to 1000 kB",
        "III-B",
        "the queue at the bottleneck link between A and B is sized from 100 to 1000 kB",
        "17.8 to 178 ms, so the link A-B is 45 Mb/s (inferred; Figure 4's labels are lost)",
    ),
    Setting(
        "the buffer as a delay",
        "17.8 to 178 ms",
        "III-B",
        "This corresponds to queueing delays which range from 17.8 and 178 ms",
    ),
    Setting(
        "RED's thresholds",
        "20% and 80% of the queue",
        "III-B",
        "were set to 20% and 80% of the queue size, respectively",
    ),
    Setting(
        "RED's max_p",
        "1",
        "III-B",
        "RED's congestion notification mechanism was made as aggressive as possible by setting "
        "[...] to 1",
    ),
    Setting("R1's w_q", "0.0002", "III-B, Table I", "R1 0.0002"),
    Setting("R2's w_q", "0.002", "III-B, Table I", "R2 0.002"),
    Setting("R3's w_q", "0.02", "III-B, Table I", "R3 0.02"),
    Setting("R4's w_q", "0.2", "III-B, Table I", "R4 0.2"),
    Setting("B1", "10 ms, 0.0025, 0.00025", "III-B, Table II", "B1 10ms 0.0025 0.00025"),
    Setting("B2", "100 ms, 0.0025, 0.00025", "III-B, Table II", "B2 100ms 0.0025 0.00025"),
    Setting("B3", "10 ms, 0.02, 0.002", "III-B, Table II", "B3 10ms 0.02 0.002"),
    Setting("B4", "100 ms, 0.02, 0.002", "III-B, Table II", "B4 100ms 0.02 0.002"),
    Setting(
        "the testbed's sources",
        "netperf sessions, their number varied",
        "III-E",
        "a variable number of [...] sessions are run",
        "Figure 13's numbers of connections are lost",
    ),
    Setting(
        "the testbed's queue",
        "50 kB, about 40 ms",
        "III-E",
        "sized at 50 kB which corresponds to a queuing delay of about 40 ms",
        "the congested link is 10 Mb/s Ethernet",
    ),
    Setting(
        "the testbed's RED",
        "min_th 10 kB, max_th 40 kB, max_p 1, w_q 0.002",
        "III-E",
        "a configuration with a [...] of 10 kB, a [...] of 40 kB, a [...] of 1, and a w_q of "
        "0.002 was used",
    ),
    Setting(
        "the testbed's BLUE",
        "delta1 0.01, delta2 0.001, freeze_time 50 ms",
        "III-E",
        "a δ_1 of 0.01, a δ_2 of 0.001, and a [...] of 50 ms was used",
    ),
    Setting(
        "the testbed's measurement",
        "five 10-s intervals",
        "III-E",
        "throughput and packet loss rates were measured over five 10-s intervals and then averaged",
    ),
    Setting(
        "the testbed's TCP",
        "ECN, no ECN timeouts",
        "III-E",
        "the TCP sources used in the experiment do not implement ECN timeouts",
    ),
    Setting(
        "SFB's network",
        "Figure 4's, every link 10 ms",
        "IV-B",
        "with the transmission delay of all of the links set to 10 ms",
        "three links each way: an RTT of 60 ms (inferred)",
    ),
    Setting(
        "SFB's queue",
        "200 kB, 2 levels of 23 bins",
        "IV-B",
        "The SFB queue is configured with 200 kB of buffer space and maintains two hash "
        "functions each mapping to 23 bins",
    ),
    Setting(
        "SFB's bins",
        "13",
        "IV-B",
        "The size of each bin is set to 13, approximately 50% more than 1/23 of the available "
        "buffer space",
        "13 packets of 1 kB (inferred: 200 kB / 23 is 8.7)",
    ),
    Setting(
        "SFB's penalty",
        "0.16 Mb/s",
        "IV-B",
        "The queue is also configured to rate-limit nonresponsive flows to 0.16 Mb/s",
    ),
    Setting(
        "Table III's flows",
        "400 TCP, 1 nonresponsive, 100 s",
        "IV-B",
        "400 TCP sources and one nonresponsive, constant rate source are run for 100 s",
        "ECN is not said; the TCP flows' loss under SFB, 0.01 Mb/s of 45, implies it",
    ),
    Setting(
        "Table III's nonresponsive flow",
        "2 Mb/s or 45 Mb/s",
        "IV-B",
        "In one experiment, the nonresponsive flow transmits at a rate of 2 Mb/s while in the "
        "other, it transmits at a rate of 45 Mb/s",
        "4.4% and 100% of the 45 Mb/s link",
    ),
    Setting(
        "SFQ with RED",
        "46 queues of 9 kB, 414 kB",
        "IV-B",
        "using SFQ with an equivalent number of bins (i.e., 46 distinct queues) and a buffer "
        "more than twice the size (414 kB), making each queue equally sized at 9 kB",
    ),
    Setting(
        "SFQ's per-queue RED",
        "2 and 8 kB",
        "IV-B",
        "the RED algorithm was applied with [...] values set at 2 and 8 kB",
    ),
    Setting(
        "Figure 18's nonresponsive flows",
        "8 of 5 Mb/s",
        "IV-C",
        "each nonresponsive flow transmits at a rate of 5 Mb/s",
        "beside the 400 TCP flows; 40 Mb/s of the 45 in all",
    ),
    Setting(
        "the moving hash",
        "every 2 s",
        "IV-D",
        "the hash function is changed every 2 s",
    ),
)


# --- Table III, as printed --------------------------------------------------

TABLE3_CAPTION = "SFB LOSS RATES IN Mb/s (ONE NONRESPONSIVE FLOW)"
# the schemes as the table names them, in its order
SFB, RED, SFRED, SFQRED = "SFB", "RED", "SFRED", "SFQ+RED"
TABLE3_SCHEMES = (SFB, RED, SFRED, SFQRED)
# its rows, and the nonresponsive flow's rates (Mb/s) of its two halves
TOTAL, NONRESPONSIVE, TCP = "Total", "Non-responsive flow", "All TCP flows"
TABLE3_ROWS = (TOTAL, NONRESPONSIVE, TCP)
TABLE3_RATES = (2.0, 45.0)
# packet loss in Mb/s: TABLE3[(rate, row)] = the four schemes' values
TABLE3: dict[tuple[float, str], tuple[float, float, float, float]] = {
    (2.0, TOTAL): (1.86, 1.79, 3.10, 3.60),
    (2.0, NONRESPONSIVE): (1.85, 0.03, 0.63, 1.03),
    (2.0, TCP): (0.01, 1.76, 2.57, 2.47),
    (45.0, TOTAL): (44.85, 13.39, 42.80, 46.47),
    (45.0, NONRESPONSIVE): (44.84, 10.32, 40.24, 43.94),
    (45.0, TCP): (0.01, 3.07, 2.56, 2.53),
}


# the cells whose total is not the sum of the two rows beneath it, as
# printed: at 2 Mb/s, SFRED's 0.63 + 2.57 = 3.20 against 3.10 and SFQ+RED's
# 1.03 + 2.47 = 3.50 against 3.60 (a tenth each way, perhaps digits
# misprinted; which ones the text cannot say)
TABLE3_INCONSISTENT = ((2.0, SFRED), (2.0, SFQRED))


def table3(rate: float, row: str, scheme: str) -> float:
    """Table III's loss (Mb/s) of SCHEME in ROW with the nonresponsive
    flow at RATE."""
    return TABLE3[(rate, row)][TABLE3_SCHEMES.index(scheme)]


def table3_quote(rate: float, row: str) -> str:
    """The row as the extraction prints it (both halves), for the tests."""
    values = [*TABLE3[(TABLE3_RATES[0], row)], *TABLE3[(TABLE3_RATES[1], row)]]
    return " ".join([row, *(f"{v:.2f}" for v in values)])


# --- equation (1) -----------------------------------------------------------


def eq1(levels: int, bins: int, nonresponsive: int) -> float:
    """Equation (1) (section IV-C): the probability that a responsive flow
    is hashed, at every one of LEVELS levels, into one of BINS bins that a
    nonresponsive flow of NONRESPONSIVE also took, so that it is taken for
    a nonresponsive flow: [1 - (1 - 1/B)^M]^L."""
    return (1.0 - (1.0 - 1.0 / bins) ** nonresponsive) ** levels


def polluted_bins(bins: int, nonresponsive: int) -> float:
    """The bins of one level that NONRESPONSIVE flows take, on average:
    B [1 - (1 - 1/B)^M], the model of equation (1)."""
    return bins * (1.0 - (1.0 - 1.0 / bins) ** nonresponsive)


@dataclass(frozen=True)
class Draws:
    """simulate()'s result: the misclassified share of the responsive
    flows over the trials (mean and the half width of its 95% interval,
    normal), the 5th and 95th percentiles of one trial's count, and the
    polluted bins of a level on average."""

    trials: int
    mean: float
    half: float
    count_p5: int
    count_p95: int
    polluted: float


def simulate(
    levels: int, bins: int, nonresponsive: int, responsive: int, trials: int, seed: int
) -> Draws:
    """Equation (1)'s bins drawn at random (uniform, independent hashing):
    in each of TRIALS trials, NONRESPONSIVE flows and RESPONSIVE flows
    each take one of BINS bins at each of LEVELS levels, and a responsive
    flow is misclassified when every bin it took was taken by a
    nonresponsive flow too. Seeded: the same arguments give the same
    draws."""
    rng = random.Random(seed)
    shares: list[float] = []
    counts: list[int] = []
    polluted = 0
    for _ in range(trials):
        taken = [{rng.randrange(bins) for _ in range(nonresponsive)} for _ in range(levels)]
        polluted += sum(len(t) for t in taken)
        n = sum(
            all(rng.randrange(bins) in taken[lv] for lv in range(levels)) for _ in range(responsive)
        )
        counts.append(n)
        shares.append(n / responsive)
    mean = sum(shares) / trials
    var = sum((x - mean) ** 2 for x in shares) / (trials - 1) if trials > 1 else math.nan
    counts.sort()
    return Draws(
        trials,
        mean,
        1.96 * math.sqrt(var / trials),
        counts[int(0.05 * (trials - 1))],
        counts[int(0.95 * (trials - 1))],
        polluted / (trials * levels),
    )


# Figure 17: 900 bins in all, L levels of 900 / L bins
FIG17_BINS = 900
# the numbers of levels with a whole number of bins each, up to 10 (the
# figure's own are lost)
FIG17_LEVELS = tuple(lv for lv in range(1, 11) if FIG17_BINS % lv == 0)


def fig17(levels: int, nonresponsive: int) -> float:
    """Equation (1) with FIG17_BINS bins spread over LEVELS levels."""
    return eq1(levels, FIG17_BINS // levels, nonresponsive)


def single_level_best_from(upto: int = FIG17_BINS) -> int:
    """The least M from which one level of 900 bins misclassifies least
    of FIG17_LEVELS for every M up to UPTO (equation (1))."""
    best_from = upto + 1
    for m in range(upto, 0, -1):
        p = [fig17(lv, m) for lv in FIG17_LEVELS]
        if p[0] > min(p[1:]):
            break
        best_from = m
    return best_from


CALCULATIONS: tuple[Calculation, ...] = (
    Calculation(
        "eq1-2x23",
        "Equation (1) with two levels of 23 bins and eight nonresponsive flows gives 8.96% "
        "(36 of 400 TCP flows)",
        "IV-C",
        "in an SFB configuration that contains two levels of 23 bins, 8.96% (36) of the TCP "
        "flows are misclassified when eight nonresponsive flows are present",
        "8.96% (36)",
        "eq1(2, 23, 8), and 400 times it",
    ),
    Calculation(
        "eq1-1x46",
        "Equation (1) with one level of 46 bins and eight nonresponsive flows gives 16.12% "
        "(64 of 400)",
        "IV-C",
        "the equation predicts that SFQ and a single-level SFB misclassify 16.12% of the TCP "
        "flows (64) when eight nonresponsive flows are present",
        "16.12% (64)",
        "eq1(1, 46, 8), and 400 times it",
    ),
    Calculation(
        "polluted-2x23",
        "Eight nonresponsive flows pollute about six of a level's 23 bins, a fourth",
        "IV-C",
        "approximately six bins or one-fourth of the bins in each level are polluted",
        "approximately six, one-fourth",
        "23 (1 - (22/23)^8), equation (1)'s model",
    ),
    Calculation(
        "buckets-2x23",
        "Two levels of 23 bins make 529 virtual buckets",
        "IV-C",
        "using two levels with 23 bins per level effectively creates 529 buckets",
        "529",
        "23^2",
    ),
    Calculation(
        "fig17-few",
        "With 900 bins and few nonresponsive flows, more levels keep the misclassification "
        "extremely low",
        "IV-C, Fig. 17",
        "when the number of nonresponsive flows is small compared to the number of bins, the "
        "use of multiple levels keeps the probability of misclassification extremely low",
        "-",
        "equation (1) with 900 bins over 1-10 levels, at 10 nonresponsive flows",
    ),
    Calculation(
        "fig17-many",
        "With 900 bins, past 450 nonresponsive flows one level misclassifies least",
        "IV-C, Fig. 17",
        "as the number of nonresponsive flows increases past half the number of bins present, "
        "the single level SFB queue affords the smallest probability of misclassification",
        "past half the bins (450)",
        "the least M from which one level gives the least of equation (1) over 1-10 levels",
    ),
    Calculation(
        "sred-log",
        "SRED's log must hold 200 of 1000 flows to catch a flow at five times the fair share",
        "V-B",
        "M needs to be at least 200 or 20% of the total number of flows",
        "200, 20%",
        "N / X: 1000 flows, 0.5 Mb/s over a fair share of 0.1",
    ),
    Calculation(
        "sfb-10x3",
        "A static 10 x 3 SFB keeps state on 30 bins, 3% of 1000 flows",
        "V-B",
        "a static 10\u00d73 SFB queue which keeps state on 30 bins or 3% of the total number "
        "of flows",
        "30 bins, 3%",
        "10 x 3 over 1000",
    ),
)


def calculate(c: Calculation, trials: int, seed: int) -> Result:
    """C computed; equation (1)'s with simulate()'s TRIALS draws on SEED
    beside it."""
    if c.key in ("eq1-2x23", "eq1-1x46"):
        levels, bins, printed = (2, 23, (8.96, 36)) if c.key == "eq1-2x23" else (1, 46, (16.12, 64))
        p = eq1(levels, bins, 8)
        ok = (round(100 * p, 2), round(400 * p)) == printed
        d = simulate(levels, bins, 8, 400, trials, seed)
        ours = (
            f"{100 * p:.4f}% ({400 * p:.2f} of 400); drawn at random: {100 * d.mean:.2f} ± "
            f"{100 * d.half:.2f}% over {d.trials} trials, a trial's count {d.count_p5}-"
            f"{d.count_p95} (5th-95th percentile)"
        )
        why = f"{100 * p:.2f}% and {round(400 * p)} flows" + (", as printed" if ok else "")
        return Result(ours, ok, why)
    if c.key == "polluted-2x23":
        n = polluted_bins(23, 8)
        why = (
            f"the model's mean is {n:.1f} bins ({100 * n / 23:.0f}%), more than six and a "
            "fourth: about a quarter to a third of a level"
        )
        return Result(f"{n:.2f} bins, {100 * n / 23:.1f}% of 23", None, why)
    if c.key == "buckets-2x23":
        return Result(f"{23**2}", 23**2 == 529, "23 x 23")
    if c.key == "fig17-few":
        ps = {lv: fig17(lv, 10) for lv in FIG17_LEVELS}
        best = min(ps, key=lambda lv: ps[lv])
        text = ", ".join(f"L={lv}: {p:.1e}" for lv, p in ps.items())
        why = f"{best} levels give {ps[best]:.1e}, one level {ps[1]:.1e}"
        return Result(f"at M = 10: {text}", best > 1 and ps[best] < 1e-3 < ps[1], why)
    if c.key == "fig17-many":
        m = single_level_best_from()
        ok = m <= FIG17_BINS // 2
        why = f"from {m} nonresponsive flows on, {'at or before' if ok else 'after'} half of 900"
        return Result(f"one level is the least from M = {m} on (levels {FIG17_LEVELS})", ok, why)
    if c.key == "sred-log":
        return Result(f"{1000 // 5}, {100 * 200 // 1000}%", 1000 // 5 == 200, "1000 / 5")
    return Result(f"{10 * 3} bins, {100 * 30 // 1000}%", 10 * 3 == 30, "30 / 1000")


# --- the figures and tables, with what the text says of them ----------------


EXHIBITS: tuple[Exhibit, ...] = (
    Exhibit(
        "Fig. 5",
        "Packet loss rates of RED and BLUE. (a) 1000 sources. (b) 4000 sources.",
        "III-B",
        "loss of R1-R4 and B1-B4 against the buffer, 100-1000 kB",
        "repro-blue-fig5-1000-*, repro-blue-fig5-4000-*",
    ),
    Exhibit(
        "Fig. 6",
        "Queue length plots of (a) RED and (b) BLUE.",
        "III-C",
        "the queue of R2 and B4 as 200 connections join every 20 s (and Figures 7-8, their "
        "marking probabilities)",
        "not attempted: outside issue 33's items 3 and 4",
    ),
    Exhibit(
        "Fig. 11",
        "Performance of RED and BLUE with ECN timeouts. (a) Loss rates (1000 sources). "
        "(b) Link utilization (1000 sources). (c) Loss rates (4000 sources). (d) Link "
        "utilization (4000 sources).",
        "III-D",
        "Figure 5's loss, and the link's utilization, with TCP that times out on an ECN mark at "
        "a window of one (and Figures 9-10, the queue and marking behind them)",
        "not attempted: Linux's TCP has no ECN timeout to turn on",
    ),
    Exhibit(
        "Fig. 13",
        "Queue management performance. (a) Throughput. (b) Percent packet loss.",
        "III-E",
        "the testbed's throughput and loss of RED and BLUE against the number of connections",
        "repro-blue-fig13-*",
    ),
    Exhibit(
        "Table III",
        TABLE3_CAPTION,
        "IV-B",
        "packet loss (Mb/s) of SFB, RED, SFRED and SFQ with RED, one nonresponsive flow at "
        "2 or 45 Mb/s",
        "repro-sfb-table3-4pct-*, repro-sfb-table3-100pct-*",
    ),
    Exhibit(
        "Fig. 16",
        "Bandwidth of TCP flows (45 Mb/s nonresponsive flow). (a) SFB. (b) RED. (c) SFRED. "
        "(d) SFQ + RED.",
        "IV-B",
        "each TCP flow's throughput in Table III's second experiment",
        "repro-sfb-table3-100pct-* (the TCP flows' goodputs)",
    ),
    Exhibit(
        "Fig. 17",
        "Probability of misclassification using 900 bins.",
        "IV-C",
        "equation (1) with 900 bins over several levels",
        "computed (no emulation)",
    ),
    Exhibit(
        "Fig. 18",
        "Bandwidth of TCP flows using SFB with eight nonresponsive flows.",
        "IV-C",
        "each TCP flow's throughput beside eight nonresponsive flows of 5 Mb/s",
        "repro-sfb-fig19-* (sfb-static, sfb-1level)",
    ),
    Exhibit(
        "Fig. 19",
        "Bandwidth of TCP flows using modified SFB algorithms. (a) Moving hash. (b) Double "
        "buffered moving hash.",
        "IV-D",
        "the same with the hash changed every 2 s, without and with double buffering",
        "repro-sfb-fig19-* (sfb-moving, sfb-db, sfb-db-raise)",
    ),
)


def exhibit(name: str) -> Exhibit | None:
    """The table or figure NAME ("Fig. 5", "Table III")."""
    return next((e for e in EXHIBITS if e.name == name), None)


# what the text names or implies and does not give
LOST: tuple[tuple[str, str], ...] = (
    ("Fig. 4's labels", "the simulated links' rates and delays; A-B's 45 Mb/s is inferred"),
    ("Fig. 5, 13, 16, 18 and 19", "every point of every curve: only the text's words survive"),
    ("Fig. 12's labels", "the testbed's hosts and links beyond the text's words"),
    ("Fig. 13's axis", "the numbers of connections"),
    ("ns's TCP", "its variant, window and timers beyond the missing ECN timeout"),
    ("SFB's increments", "the delta by which a bin's p_m moves (Fig. 14)"),
    ("Table III's RED and SFRED", "which w_q, thresholds and max_p they ran"),
    ("the double buffering's warm-up", "how long, and how the standby bins are updated"),
)


# --- the claims that rest on runs ---------------------------------------------


FIG5_1000 = "blue-fig5-1000"
FIG5_4000 = "blue-fig5-4000"
FIG13 = "blue-fig13"
TABLE3_4 = "sfb-table3-4pct"
TABLE3_100 = "sfb-table3-100pct"
FIG19 = "sfb-fig19"
PARTS = (FIG5_1000, FIG5_4000, FIG13, TABLE3_4, TABLE3_100, FIG19)

CLAIMS: tuple[Claim, ...] = (
    Claim(
        "a",
        "With 1000 sources BLUE loses nothing at any buffer size",
        "section III-B, Fig. 5(a)",
        "BLUE maintains zero loss rates over all queue sizes even those which are below the "
        "bandwidth-delay product",
        "Fig. 5",
        (FIG5_1000,),
        "at every buffer, the highest mean loss of B1-B4 below 0.1%",
    ),
    Claim(
        "b",
        "With 1000 sources RED's loss grows to double digits as the buffer shrinks",
        "section III-B, Fig. 5(a)",
        "This is in contrast to RED which suffers double-digit loss rates as the amount of "
        "buffer space decreases",
        "Fig. 5",
        (FIG5_1000,),
        "each of R1-R4: loss at 17.8 ms minus at 178 ms above 0, and its loss at 17.8 ms above 10%",
    ),
    Claim(
        "c",
        "With 4000 sources BLUE still clearly outperforms RED at every buffer size",
        "section III-B, Fig. 5(b)",
        "when the number of connections is increased to 4000, BLUE still significantly "
        "outperforms RED",
        "Fig. 5",
        (FIG5_4000,),
        "at every buffer, the lowest mean loss of R1-R4 minus the highest of B1-B4 above 0",
    ),
    Claim(
        "d",
        "With 4000 sources RED with ten times the buffer still loses more than BLUE at 17.8 ms",
        "section III-B, Fig. 5(b)",
        "Even with an order of magnitude more buffer space, RED still cannot match BLUE's loss "
        "rates using 17.8 ms of buffering",
        "Fig. 5",
        (FIG5_4000,),
        "the lowest mean loss of R1-R4 at 178 ms minus the highest of B1-B4 at 17.8 ms above 0",
    ),
    Claim(
        "e",
        "The link stays over 99.9% utilized in every experiment of Figure 5",
        "section III-B, Fig. 5",
        "In all experiments, the link remains over 99.9% utilized",
        "Fig. 5",
        (FIG5_1000, FIG5_4000),
        "at every buffer and number of sources, the lowest mean utilization of R1-R4 and "
        "B1-B4 above 99.9%",
    ),
    Claim(
        "f",
        "With 4000 sources BLUE's marking probability stays at 1",
        "section III-B, Fig. 5(b)",
        "BLUE's marking probability remains at 1 throughout the duration of all of these "
        "experiments",
        "Fig. 5",
        (FIG5_4000,),
        "at every buffer, the lowest mean p_m of B1-B4 over the measured window above 0.99",
    ),
    Claim(
        "g",
        "On the testbed BLUE's throughput stays slightly above RED's",
        "section III-E, Fig. 13(a)",
        "since RED periodically allows the link to become underutilized, its throughput "
        "remains slightly below that of BLUE",
        "Fig. 13",
        (FIG13,),
        "at every number of connections, BLUE's utilization minus RED's above 0",
    ),
    Claim(
        "h",
        "On the testbed RED's loss grows with the number of connections",
        "section III-E, Fig. 13(b)",
        "RED sustains increasingly high packet loss as the number of connections is increased",
        "Fig. 13",
        (FIG13,),
        "RED's loss at each number of connections minus at the next smaller one above 0",
    ),
    Claim(
        "i",
        "On the testbed BLUE keeps its loss small, below RED's, at every load",
        "section III-E, Fig. 13(b)",
        "BLUE maintains relatively small packet loss rates across all loads",
        "Fig. 13",
        (FIG13,),
        "at every number of connections, BLUE's loss minus RED's below 0",
    ),
    Claim(
        "j",
        "On the testbed at the highest load BLUE marks nearly every packet",
        "section III-E",
        "BLUE maintains a marking probability which is approximately 1, causing it to mark "
        "every packet it forwards",
        "Fig. 13",
        (FIG13,),
        "at the largest number of connections, BLUE's mean p_m over the measured window above 0.9",
    ),
    Claim(
        "k",
        "SFB puts nearly all the loss on the nonresponsive flow; TCP flows lose very little",
        "section IV-B, Table III",
        "The nonresponsive flow sees almost all of the packet loss as it is rate-limited to a "
        "fixed amount of the link bandwidth",
        "Table III",
        (TABLE3_4, TABLE3_100),
        "at both rates, SFB's TCP loss (a share of the link) minus RED's, SFRED's and SFQ "
        "with RED's below 0",
    ),
    Claim(
        "l",
        "RED lets the nonresponsive flow keep close to its sending rate, at the TCP flows' expense",
        "section IV-B, Table III",
        "RED allows the nonresponsive flow to maintain a throughput relatively close to its "
        "original sending rate",
        "Table III",
        (TABLE3_4, TABLE3_100),
        "at both rates, RED's nonresponsive loss (a share of its datagrams) minus SFB's, "
        "SFRED's and SFQ with RED's below 0, and RED's TCP loss minus SFB's above 0",
    ),
    Claim(
        "m",
        "SFRED limits the nonresponsive flow a little better than RED, but does not protect TCP",
        "section IV-B, Table III",
        "SFRED, on the other hand, does slightly better at limiting the rate of the "
        "nonresponsive flow, however, it cannot fully protect the TCP sources from packet loss",
        "Table III",
        (TABLE3_4, TABLE3_100),
        "at both rates, SFRED's nonresponsive loss share minus RED's above 0, and SFRED's TCP "
        "loss minus SFB's above 0",
    ),
    Claim(
        "n",
        "SFQ with per-flow RED protects TCP adequately, but its small queues lose much",
        "section IV-B, Table III",
        "SFQ with RED does an adequate job of protecting TCP flows from the nonresponsive flow",
        "Table III",
        (TABLE3_4, TABLE3_100),
        "at both rates, SFQ with RED's nonresponsive loss share minus RED's above 0, and its "
        "TCP loss minus SFB's above 0",
    ),
    Claim(
        "o",
        "Beside a 45 Mb/s flow SFB keeps the TCP flows' throughput, RED does not",
        "section IV-B, Fig. 16(a), (b)",
        "SFB allows each TCP flow to maintain close to a fair share of the bottleneck link's "
        "bandwidth",
        "Fig. 16",
        (TABLE3_100,),
        "at 100%, the TCP flows' goodput (a share of the link) under SFB minus under RED "
        "above 0, and the lowest TCP flow's over its fair share likewise",
    ),
    Claim(
        "p",
        "SFQ with RED's partitioned buffer makes the TCP flows' fairness deteriorate",
        "section IV-B, Fig. 16(d)",
        "the partitioning of buffer space causes the fairness between flows to deteriorate as well",
        "Fig. 16",
        (TABLE3_100,),
        "at 100%, Jain's index of the TCP flows' goodputs under SFQ with RED minus under SFB "
        "below 0",
    ),
    Claim(
        "q",
        "The TCP flows SFB misclassifies match equation (1)",
        "section IV-C, Fig. 18",
        "As the figure shows, the number of misclassified flows matches the model quite closely",
        "Fig. 18",
        (FIG19,),
        "the share of TCP flows shut out (goodput below a tenth of the fair share) under "
        "sfb-static (2 x 32 bins) within a quarter of equation (1)'s value at 2 x 32 and M = 8",
    ),
    Claim(
        "r",
        "Two levels misclassify fewer flows than one level of as many bins",
        "section IV-C",
        "the probability of misclassification in a two-level SFB still remains below that of "
        "SFQ or a single-level SFB",
        "Fig. 18",
        (FIG19,),
        "the share of TCP flows shut out under sfb-1level (1 x 64) minus under sfb-static "
        "(2 x 32) above 0",
    ),
    Claim(
        "s",
        "With the moving hash no TCP flow is shut out",
        "section IV-D, Fig. 19(a)",
        "none of the TCP-friendly flows are shut out due to misclassification",
        "Fig. 19",
        (FIG19,),
        "the share of TCP flows shut out under sfb-moving below one flow's (1/89), and minus "
        "under sfb-static below 0",
    ),
    Claim(
        "t",
        "With the moving hash the nonresponsive flows take more, on parole after each change",
        "section IV-D, Fig. 19(a)",
        "nonresponsive flows are allowed to consume 3.85 Mb/s of the bottleneck link",
        "Fig. 19",
        (FIG19,),
        "the nonresponsive flows' goodput (a share of the link) under sfb-moving minus under "
        "sfb-static above 0",
    ),
    Claim(
        "u",
        "Double buffering holds the nonresponsive flows and protects the TCP flows",
        "section IV-D, Fig. 19(b)",
        "the double buffered moving hash effectively controls the bandwidth of the "
        "nonresponsive flows and affords the TCP flows a very high level of protection",
        "Fig. 19",
        (FIG19,),
        "for each reading of the warm-up (sfb-db, sfb-db-raise): the nonresponsive flows' "
        "goodput minus under sfb-moving below 0, that goodput below the 8.56% of the link "
        "(3.85 Mb/s of 45) the paper's flows took with the moving hash alone (what double "
        "buffering is to improve on), and the share of TCP flows shut out below one flow's",
    ),
)


def claim(key: str) -> Claim | None:
    """The claim lettered KEY."""
    return next((c for c in CLAIMS if c.key == key), None)


# --- what tc makes of our settings --------------------------------------------


def tc_red_wlog(qmin: int, burst: int, avpkt: int) -> int:
    """The Wlog (w_q = 2^-Wlog) that iproute2's tc computes for red and
    sfq's RED from min (bytes), burst (packets) and avpkt (bytes)
    (tc_red_eval_ewma in tc/tc_red.c); -1 where it refuses."""
    a = burst + 1 - qmin / avpkt
    if a < 1.0:
        return -1
    w = 0.5
    for wlog in range(1, 32):
        if a <= (1 - (1 - w) ** burst) / w:
            return wlog
        w /= 2
    return -1


def scaled_wq(wq: float, ratio: float) -> float:
    """A per-packet weight W_Q whose average keeps its time constant when
    packets arrive RATIO times less often: 1 - (1 - w_q)^RATIO."""
    return 1.0 - math.pow(1.0 - wq, ratio)


# the paper's packets arrive this many times more often than ours: 1 kB at
# 45 Mb/s against 1514-byte frames at 10 Mbit/s
PACKET_RATE_RATIO = (PAPER_RATE_MBPS * 1e6 / 8 / 1000) / (OUR_RATE_MBPS * 1e6 / 8 / 1514)
# Table I's w_q
TABLE1: tuple[tuple[str, float], ...] = (("R1", 0.0002), ("R2", 0.002), ("R3", 0.02), ("R4", 0.2))
# Table II: freeze_time (ms), delta1, delta2
TABLE2: tuple[tuple[str, int, float, float], ...] = (
    ("B1", 10, 0.0025, 0.00025),
    ("B2", 100, 0.0025, 0.00025),
    ("B3", 10, 0.02, 0.002),
    ("B4", 100, 0.02, 0.002),
)


def nearest_wlog(wq: float) -> int:
    """The Wlog of Linux's red nearest W_Q in log (1 to 31: tc gives no
    weight above 1/2)."""
    return min(31, max(1, round(-math.log2(wq))))
