"""The RED-family paper's own settings and claims, to be printed beside
the reproduction's, and what its equation (2), the queue law, computes.

Chung and Claypool, "Analysis of RED-Family Active Queue Management"
(Worcester Polytechnic Institute; the store's text gives no venue or
year), transcribed from the text extraction in the project's paper store
(red-family-aqm-queue-law.txt): section II (equation (2) and Figure 4),
the number of flows of section III (Figure 5, top), the drop and mark
curves of section IV (Figure 9), and RED, gentle RED and Adaptive RED as
the flows step up in section V (Figures 10-13): issue 33's item 5.
Quotations are the extraction's words ("[...]" marks words left out,
among them its LaTeX); where the paper hedges ("about"), the quotation
keeps its word.

What the extraction holds. Every figure is lost but for its caption: no
point of any curve survives, only what the text says of them, and Figure
3's labels (the simulated network) are gone. The text gives equation (2)
but not the window model it takes from its reference [10] (Padhye et al.,
"Modeling TCP Throughput"): which of that paper's formulas, and with which
b (packets acknowledged by an ACK). LOST lists what the text names or
implies and does not give.

Equation (2) needs no emulation: queue_law() computes it with the window
model of window() (the reading the page states), CALCULATIONS are the
claims of the text that rest on it alone, and calculate() judges them.
The claims that rest on runs are CLAIMS, each with the experiment parts
(PARTS) that test it; the runs' configurations are in the experiment
files (scripts/bench/experiments/repro-queuelaw-*.toml) and
aqmtools.repro.queuelaw_page judges them.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass

from aqmtools.bench.experiment import PKT_BYTES
from aqmtools.repro.paper import Calculation, Claim, Exhibit, Result, Setting

STORE_TEXT = "red-family-aqm-queue-law.txt"
CITATION = (
    'Chung and Claypool (Worcester Polytechnic Institute), "Analysis of RED-Family Active '
    "Queue Management\", its venue and year not in the store's text"
)
SHORT_TITLE = "Analysis of RED-Family Active Queue Management (Chung and Claypool)"
SCOPE = (
    "the general queue law, equation (2), against fixed drop and mark probabilities "
    "(section II, Figure 4; section III, Figure 5 top; section IV, Figure 9), and RED, gentle "
    "RED and Adaptive RED as the flows step from 50 to 300 (section V, Figures 10-13)"
)


# --- the paper's network, and ours --------------------------------------------


@dataclass(frozen=True)
class Network:
    """What equation (2) needs of a network: the service rate SR in
    packets a second and the round-trip link delay RTLD in seconds."""

    name: str
    sr_pps: float
    rtld_s: float

    @property
    def pipe(self) -> float:
        """RTLD x SR: the packets in flight on the links, none queued."""
        return self.rtld_s * self.sr_pps


# the paper's congested link: 20 Mb/s of 1 kB packets (section V gives the
# packet size; section II's Figure 3, which would, is lost), 80 ms
PAPER_RATE_MBPS = 20
PAPER_PKT_BYTES = 1000
PAPER_RTLD_S = 0.08
PAPER = Network("the paper's", PAPER_RATE_MBPS * 1e6 / 8 / PAPER_PKT_BYTES, PAPER_RTLD_S)
# ours: 10 Mbit/s of 1514-byte frames (as the qdisc counts them), 80 ms
OUR_RATE_MBPS = 10
OURS = Network("ours", OUR_RATE_MBPS * 1e6 / 8 / PKT_BYTES, PAPER_RTLD_S)
# a flow keeps the paper's packets a second: the number of flows scales by
# the ratio of the links' packet rates (0.330)
FLOW_SCALE = OURS.sr_pps / PAPER.sr_pps


def our_flows(paper_flows: int) -> int:
    """The flows that stand for PAPER_FLOWS of the paper's: as many
    packets a second each (FLOW_SCALE), rounded."""
    return round(paper_flows * FLOW_SCALE)


# Figure 4's numbers of flows, and section V's steps: 50 flows, 50 more
# every 50 s, to 300
FIG4_FLOWS = (100, 200, 300)
STEP_S = 50
STEP_FLOWS = (50, 100, 150, 200, 250, 300)
# section V's RED: the queue, min_th, max_th (packets) and max_p; the limit
# of Adaptive RED's max_p
QUEUE_PKTS, MIN_TH, MAX_TH, MAX_P = 500, 100, 300, 0.1
ARED_MAX_P = 0.5


# --- equation (2) -------------------------------------------------------------

# the window model's reading: b, the packets an ACK acknowledges. 1: ns's
# default sink acknowledges every packet, and Linux's Reno grows its window
# by one segment a round trip counting the segments acknowledged; 2, the
# other reading, one ACK for two packets in the model
B = 1
OTHER_B = 2


def expected_peak(p: float, b: int = B) -> float:
    """E[W] of Padhye et al.'s model without timeouts ([10]): the mean
    window at a loss indication, at a loss (or mark) probability P."""
    a = (2 + b) / (3 * b)
    return a + math.sqrt(8 * (1 - p) / (3 * b * p) + a * a)


def window(p: float, b: int = B) -> float:
    """avg_tcp_wind(p) of equation (2): the mean window in packets of a
    long-lived flow whose packets are dropped or marked with probability P,
    from [10]'s model without timeouts, as its send rate times the round
    trip: ((1 - p) / p + E[W]) / (b E[W] / 2 + 1). The text says only that
    the window is a function of p = p_d + p_m alone "shown in TCP
    throughput model [10]"; [10]'s model with timeouts is not (it depends
    on the timeout over the round trip), and the text puts the drop curve's
    error down to timeouts the model misses, so the model is read without
    them. Infinite at P = 0."""
    if p <= 0:
        return math.inf
    w = expected_peak(p, b)
    return ((1 - p) / p + w) / (b * w / 2 + 1)


def queue_law(n: float, p_d: float, p_m: float, net: Network, b: int = B) -> float:
    """Equation (2), q = N avg_tcp_wind(p_d + p_m) / (p_d + 1) - RTLD x SR:
    the average queue in packets of N flows at a drop probability P_D and
    a mark probability P_M on the network NET. Below 0 the flows cannot
    fill the link: no queue forms (queue())."""
    return n * window(p_d + p_m, b) / (p_d + 1) - net.pipe


def queue(n: float, p_d: float, p_m: float, net: Network, b: int = B) -> float:
    """Equation (2)'s average queue, 0 where it is negative."""
    return max(0.0, queue_law(n, p_d, p_m, net, b))


def notified(p: float, mark: bool) -> tuple[float, float]:
    """(p_d, p_m) of a probability P of dropping, or with MARK of marking."""
    return (0.0, p) if mark else (p, 0.0)


def solve_p(n: float, q: float, mark: bool, net: Network, b: int = B) -> float:
    """The drop (or with MARK, mark) probability at which equation (2)
    gives an average queue of Q packets for N flows (bisection: the queue
    falls as p rises); 1 when even p = 1 leaves more."""
    lo, hi = 1e-9, 1.0
    if queue_law(n, *notified(hi, mark), net, b) >= q:
        return hi
    for _ in range(200):
        mid = (lo + hi) / 2
        if queue_law(n, *notified(mid, mark), net, b) > q:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def red_stable_flows(max_p: float, max_th: float, mark: bool, net: Network, b: int = B) -> float:
    """The most flows for which RED's line (p from 0 at min_th to MAX_P at
    MAX_TH) meets equation (2)'s curve inside the thresholds, the paper's
    "well-configured" (section I, Figure 1): the queue law's queue at
    MAX_P is at most MAX_TH, N <= (MAX_TH + RTLD x SR) (p_d + 1) /
    avg_tcp_wind(MAX_P)."""
    p_d, _ = notified(max_p, mark)
    return (max_th + net.pipe) * (p_d + 1) / window(max_p, b)


# --- the paper's settings -----------------------------------------------------

SETTINGS: tuple[Setting, ...] = (
    Setting(
        "Figure 4's flows",
        "100, 200 and 300",
        "II",
        "for 100, 200 and 300 ideal TCP flows",
    ),
    Setting(
        "Figure 4's link",
        "20 Mb/s, RTLD 80 ms",
        "II",
        "while fixing SR (congested link bandwidth) to 20Mbps, RTLD to 80ms",
        "SR in packets: 2500 a second of 1 kB (section V's packets); RTLD x SR is 200 packets",
    ),
    Setting(
        "the TCP sources",
        "FTP over NewReno, no window limit",
        "II",
        "we used bulk transfer FTP applications on top of TCP NewReno and set the [...] of all "
        "TCP agents to infinite",
        "ns's sink, its delayed ACKs and timers are not said",
    ),
    Setting(
        "the fixed-probability router",
        "an infinite queue, fixed p",
        "II",
        "we implemented an infinite queue that randomly drops or ECN mark incoming packets with "
        "a given fixed congestion notification probability",
    ),
    Setting(
        "the window model",
        "[10]'s",
        "II",
        "For the TCP window model for the new queue law, we used one from [10]",
        "which formula and b are not said: window() reads it (no timeouts, b = 1)",
    ),
    Setting(
        "section V's link",
        "20 Mb/s, 80 ms",
        "V",
        "setting the congested link bandwidth to 20 Mbps and the round trip time link delay to "
        "80 ms",
    ),
    Setting(
        "section V's flows",
        "50, then 50 more every 50 s",
        "V",
        "Each simulation starts with 50 FTP-TCP flows, with 50 more FTP-TCP flows added every "
        "50 seconds",
        "to 300 flows (Figure 10's loads): 300 s",
    ),
    Setting(
        "the queue and the packets",
        "500 packets of 1 kB",
        "V",
        "The physical queue length is set to 500 packets, with the packet size set to 1 Kbyte",
    ),
    Setting(
        "RED's parameters",
        "max_p 0.1, min_th 100, max_th 300 packets",
        "V",
        "[...] is set to 0.1, [...] is 100 packets, and [...] is 300 packets",
        "w_q, and RED's other parameters, are not said",
    ),
    Setting(
        "gentle RED",
        "p from max_p to 1 between max_th and 2 max_th",
        "I",
        "gentle-RED linearly increases the drop probability from [...] to 1 as average queue "
        "size grows from [...] to 2 times [...]",
    ),
    Setting(
        "Adaptive RED's limit of max_p",
        "0.5",
        "V",
        "the limit of max_p for Adaptive RED is set to 0.5 (the default value)",
    ),
    Setting(
        "Adaptive RED's adaptation",
        "max_p additive up to 0.5, multiplicative down to 0.001",
        "I",
        "A-RED seeks the average queue target region by additively increasing max_p up to a "
        "limit (0.5 in default)",
        "the target region, interval and steps are [4]'s, not given",
    ),
    Setting(
        "Adaptive RED's gentle setting",
        "recommended",
        "I",
        "it is also recommended to use the \u201cgentle\u201d setting with A-RED",
    ),
)


# --- what the text names or implies and does not give ---------------------------

LOST: tuple[tuple[str, str], ...] = (
    ("Fig. 3's labels", "the simulated network: its links and their delays beyond SR and RTLD"),
    ("Figures 4-18", "every point of every curve: only the text's words survive"),
    (
        "the window model",
        "which of [10]'s formulas equation (2) used, with which b; so the theory curves of "
        "Figures 4, 9 and 10 are ours, not the paper's",
    ),
    ("section II's packet size", "section V's 1 kB is assumed"),
    ("Figure 4's runs", "their length and the window over which the queue was averaged"),
    ("ns's TCP", "its sink (delayed ACKs) and timers, beyond NewReno with no window limit"),
    ("section V's RED", "w_q and RED's other parameters; Adaptive RED's interval and steps"),
)


# --- the figures, with what the text says of them ----------------------------------

DROP = "queuelaw-drop"
MARK = "queuelaw-mark"
STEPS = "queuelaw-steps"
PARTS = (DROP, MARK, STEPS)

EXHIBITS: tuple[Exhibit, ...] = (
    Exhibit(
        "Fig. 1",
        "Well-configured RED (a) and poorly configured RED (b)",
        "I",
        "RED's drop function against the queue law's curve, meeting inside the thresholds or not",
        "a diagram: the meeting is computed (claims E2-E4)",
    ),
    Exhibit(
        "Fig. 2",
        "RED in Gentle Mode (a) and Adaptive RED (b)",
        "I",
        "the gentle region and Adaptive RED's moving max_p",
        "a diagram: our gentle RED and Adaptive RED are ared's (tc-ared(8))",
    ),
    Exhibit(
        "Fig. 4",
        "Queue Law: Theory and Simulation Results Comparison",
        "II",
        "the average queue against a fixed drop and a fixed mark probability, 100-300 flows, "
        "simulated and by equation (2)",
        "repro-queuelaw-drop-*, repro-queuelaw-mark-*",
    ),
    Exhibit(
        "Fig. 5",
        "Queue Law: q vs. N (top), $RTLD$ (middle) and SR (bottom)",
        "III",
        "the simulated drop curves against the number of flows, the round-trip link delay and "
        "the link's rate",
        "top: repro-queuelaw-drop-*; middle and bottom not attempted (outside item 5)",
    ),
    Exhibit(
        "Fig. 6",
        "Average Window Size of All TCP Flows (for Drop)",
        "III",
        "the flows' mean window against the drop probability",
        "not attempted: outside item 5",
    ),
    Exhibit(
        "Fig. 7",
        "Average Window: Effect of Limiting TCP Congestion Window",
        "III",
        "the mean window with the window limited to 12 and 6 packets",
        "not attempted: outside item 5",
    ),
    Exhibit(
        "Fig. 8",
        "Queue Law: Effect of Limiting TCP Congestion Window (Drop)",
        "III",
        "the queue law of 700 and 1300 flows limited to 12 and 6 packets",
        "not attempted: outside item 5",
    ),
    Exhibit(
        "Fig. 9",
        "Queue Law: Drop vs. Mark",
        "IV",
        "Figure 4's measured drop and mark curves in one graph",
        "repro-queuelaw-drop-*, repro-queuelaw-mark-*",
    ),
    Exhibit(
        "Fig. 10",
        "Queue Law: RED Configuration",
        "V",
        "section V's RED line against the queue law's curves for 50-300 flows",
        "computed (claims E2-E4)",
    ),
    Exhibit(
        "Fig. 11",
        "Queue Statistics: RED",
        "V",
        "RED's queue as the flows step from 50 to 300",
        "repro-queuelaw-steps-* (red)",
    ),
    Exhibit(
        "Fig. 12",
        "Queue Statistics: Gentle RED",
        "V",
        "gentle RED's queue, the same steps",
        "repro-queuelaw-steps-* (gentle-red)",
    ),
    Exhibit(
        "Fig. 13",
        "Queue Statistics: Adaptive RED",
        "V",
        "Adaptive RED's queue, the same steps",
        "repro-queuelaw-steps-* (ared)",
    ),
    Exhibit(
        "Fig. 14",
        "Queue Statistics: RED-ECN",
        "V",
        "RED with ECN, the same steps",
        "not attempted: item 5 asks for RED, gentle RED and ARED without ECN",
    ),
    Exhibit(
        "Fig. 15",
        "Queue Statistics: Gentle RED-ECN",
        "V",
        "gentle RED with ECN, the same steps",
        "not attempted: as Fig. 14",
    ),
    Exhibit(
        "Fig. 16",
        "Queue Statistics: Adaptive RED-ECN",
        "V",
        "Adaptive RED with ECN, the same steps",
        "not attempted: as Fig. 14",
    ),
    Exhibit(
        "Fig. 17",
        "Link Utilization",
        "V",
        "the link's utilization of every RED variant and drop-tail against the flows",
        "not attempted: outside item 5 (the step runs' utilization is printed, not judged)",
    ),
    Exhibit(
        "Fig. 18",
        "Packet Loss Rate",
        "V",
        "the loss of every RED variant and drop-tail against the flows",
        "RED's and gentle RED's loss in the step runs (claim (i)); drop-tail and the ECN "
        "variants not attempted",
    ),
)


def exhibit(name: str) -> Exhibit | None:
    """The figure NAME ("Fig. 4")."""
    return next((e for e in EXHIBITS if e.name == name), None)


# --- the claims that rest on runs -------------------------------------------------

CLAIMS: tuple[Claim, ...] = (
    Claim(
        "a",
        "Equation (2) predicts the average queue very well for marking",
        "section II, Fig. 4",
        "the new queue law predicts the average queue size for given congestion notification "
        "probability very well for ECN marking systems",
        "Fig. 4",
        (MARK,),
        "at every number of flows and every mark probability up to 0.1, the mean queue within "
        "a quarter of equation (2)'s at our own N, SR and RTLD",
    ),
    Claim(
        "b",
        "For dropping the prediction is worse, and worsens as p_d grows",
        "section II, Fig. 4",
        "the prediction is not as accurate for the packet dropping systems as for the ECN "
        "marking systems, and the precision decreases as p_d increases",
        "Fig. 4",
        (DROP, MARK),
        "at every number of flows: the error (|ours - equation (2)| over equation (2)) of "
        "dropping at 0.05 and 0.1 minus that of marking above 0, and of dropping at 0.1 minus "
        "at 0.01 above 0",
    ),
    Claim(
        "c",
        "At a fixed drop rate the queue grows linearly with the flows",
        "section III, Fig. 5 (top)",
        "At a given drop rate where all of the queue averages are greater than 0, the [...] "
        "average queue size increases linearly with the number of flows",
        "Fig. 5",
        (DROP,),
        "at drop probabilities 0.01, 0.02 and 0.05 (where equation (2)'s queues are all above "
        "0): each step of a third of the flows raises the queue, and the second step's rise "
        "minus the first's within a quarter of equation (2)'s step",
    ),
    Claim(
        "d",
        "At a low probability the drop and the mark queues are almost the same",
        "section IV, Fig. 9",
        "For the same number of flows, the average queue lengths for TCP and TCP with ECN are "
        "almost the same when the congestion notification probability at the router is low",
        "Fig. 9",
        (DROP, MARK),
        "at 0.01 and every number of flows, the mark queue minus the drop queue within a quarter "
        "of equation (2)'s drop queue",
    ),
    Claim(
        "e",
        "As the probability grows, the mark queue falls more slowly than the drop queue",
        "section IV, Fig. 9",
        "as the notification probability is increased, the average queue length of the queue "
        "with TCP with ECN decreases noticeably slower and steadier than the average queue "
        "length with TCP",
        "Fig. 9",
        (DROP, MARK),
        "at every number of flows: the mark queue minus the drop queue at 0.05 and at 0.1, "
        "minus the same at 0.01, above 0",
    ),
    Claim(
        "f",
        "RED is stable to 150 flows, reaches max_th at 200 and grows unstable beyond",
        "section V, Fig. 11",
        "RED's average queue was stable up to a traffic load of 150 flows, but at 200 flows it "
        "hit the maximum threshold and becomes increasingly unstable",
        "Fig. 11",
        (STEPS,),
        "RED's average queue at or above max_th less than 1% of the step at 50-150 flows; its "
        "peak over max_th above 1 at 200; its queue's standard deviation at 200, 250 and 300 "
        "minus at 150 above 0, and at 300 minus at 200 above 0",
    ),
    Claim(
        "g",
        "Gentle RED manages 200 flows, where RED does not",
        "section V, Fig. 12",
        "Gentle-RED, shown in Figure 12, was able to manage load up to 200 flows",
        "Fig. 12",
        (STEPS,),
        "at 200 flows, the standard deviation of gentle RED's queue and of its average queue "
        "minus RED's below 0",
    ),
    Claim(
        "h",
        "Beyond 250 flows the gentle setting's benefit to the oscillation is unclear",
        "section V",
        "the benefit of the gentle setting is not as clear in terms of queue oscillations when "
        "a RED router is highly overloaded (250+ flows, in our simulations)",
        "Fig. 12",
        (STEPS,),
        "at 250 and 300 flows, the standard deviation of gentle RED's queue minus RED's not "
        "below 0 (equal within noise, or above)",
    ),
    Claim(
        "i",
        "Beyond 250 flows the gentle setting lowers the loss somewhat",
        "section V, Fig. 18",
        "although the gentle behavior does reduce the packet loss rate",
        "Fig. 18",
        (STEPS,),
        "at 250 and 300 flows, gentle RED's loss minus RED's below 0",
    ),
    Claim(
        "j",
        "Adaptive RED handles every load stably",
        "section V, Fig. 13",
        "Adaptive RED can stably handle a very wide range of TCP traffic",
        "Fig. 13",
        (STEPS,),
        "Adaptive RED's average queue at or above max_th less than 1% of every step, and its "
        "queue's standard deviation minus RED's below 0 at 200, 250 and 300 flows",
    ),
)


def claim(key: str) -> Claim | None:
    """The claim lettered KEY."""
    return next((c for c in CLAIMS if c.key == key), None)


# --- the claims that rest on equation (2) alone -------------------------------------

CALCULATIONS: tuple[Calculation, ...] = (
    Calculation(
        "E1",
        "Equation (2)'s queue is linear in N and falls linearly with RTLD and with SR",
        "II",
        "q of the congested router is linearly proportional to N, negative linearly "
        "proportional to [...] and SR",
        "-",
        "equation (2) at the paper's network, 100-300 flows, p_d 0.01: its differences in N, "
        "RTLD and SR",
    ),
    Calculation(
        "E2",
        "By the queue law RED (max_p 0.1) is stable up to about 200 flows",
        "V, Fig. 10",
        "For RED, the queue law indicates that RED will be stably manage TCP traffic up to "
        "about 200 flows",
        "about 200 flows",
        "red_stable_flows(0.1, 300) at the paper's network; about 200 read as 150-250",
    ),
    Calculation(
        "E3",
        "By the queue law RED-ECN is unstable at 150 flows",
        "V",
        "For RED-ECN, shown in Figure 14, the average queue becomes unstable at a load of 150 "
        "flows, as the queue law indicated",
        "150 flows",
        "red_stable_flows(0.1, 300) with marking, below 150",
    ),
    Calculation(
        "E4",
        "With max_p up to 0.5 Adaptive RED can meet the queue law inside the thresholds for "
        "every load",
        "V",
        "which gives the router queue a chance to be well-configured for all the the given "
        "TCP traffic loads",
        "0.5",
        "red_stable_flows(0.5, 300) at or above 300 flows",
    ),
    Calculation(
        "E5",
        "For marking the queue law tends to an empty queue at a mark probability of 1",
        "IV",
        "the queue law for ECN converges towards an average queue size of 0 for a mark "
        "probability of 1",
        "0",
        "equation (2) at p_m = 1 at most a tenth of its value at p_m = 0.01, 100-300 flows",
    ),
    Calculation(
        "E6",
        "More flows move the queue law's curve up and to the right",
        "I",
        "an increase in the number of TCP flows moves the queue law curve to the upper right",
        "-",
        "at every probability the queue, and at every queue the probability, grow with N",
    ),
    Calculation(
        "E7",
        "The mark rate's excess over the drop rate for the same queue grows exponentially with "
        "the load",
        "IV, Fig. 9",
        "the difference between the stable state mark rate and the stable state drop rate to "
        "maintain the queue length at the same level increases exponentially",
        "-",
        "the mark and drop probabilities that give 500 packets (Figure 9's example) at 100, "
        "200 and 300 flows: the difference increasing, and faster than linearly",
    ),
)


def _within(x: float, lo: float, hi: float) -> bool:
    return lo <= x <= hi


def _e1(b: int) -> Result:
    net, p = PAPER, 0.01
    qs = [queue_law(n, p, 0.0, net, b) for n in FIG4_FLOWS]
    slope = window(p, b) / (p + 1)
    dn = [y - x for x, y in itertools.pairwise(qs)]
    linear = all(math.isclose(d, 100 * slope) for d in dn)
    faster = Network("", net.sr_pps, net.rtld_s + 0.04)
    wider = Network("", net.sr_pps + 1250, net.rtld_s)
    d_rtld = queue_law(200, p, 0.0, faster, b) - queue_law(200, p, 0.0, net, b)
    d_sr = queue_law(200, p, 0.0, wider, b) - queue_law(200, p, 0.0, net, b)
    ok = linear and math.isclose(d_rtld, -0.04 * net.sr_pps) and math.isclose(d_sr, -1250 * 0.08)
    ours = (
        f"+{dn[0]:.1f} packets for each 100 flows more (N x {slope:.3f}); RTLD +40 ms: "
        f"{d_rtld:+.0f} (-0.04 x SR); SR +1250 packets/s: {d_sr:+.0f} (-1250 x RTLD)"
    )
    return Result(ours, ok, "q = N x avg_tcp_wind / (p_d + 1) - RTLD x SR, as the text says")


def _red_limits(b: int) -> tuple[float, float]:
    return (
        red_stable_flows(MAX_P, MAX_TH, False, PAPER, b),
        red_stable_flows(MAX_P, MAX_TH, True, PAPER, b),
    )


def _e2(b: int) -> Result:
    drop, mark = _red_limits(b)
    ok = _within(drop, 150, 250)
    why = (
        f"{drop:.0f} flows, {'within' if ok else 'outside'} 150-250; RED-ECN's limit is "
        f"{mark:.0f}: the two differ by the factor p_d + 1 = {1 + MAX_P:g} whatever the window"
    )
    return Result(f"{drop:.1f} flows", ok, why)


def _e3(b: int) -> Result:
    drop, mark = _red_limits(b)
    ok = mark < 150
    why = (
        f"unstable above {mark:.0f} flows, {'below' if ok else 'above'} 150; RED's limit "
        f"(E2: {drop:.0f}) is p_d + 1 = {1 + MAX_P:g} times RED-ECN's whatever the window "
        f"model, so E2's about 200 would put RED-ECN's near {200 / (1 + MAX_P):.0f}, above 150"
    )
    return Result(f"{mark:.1f} flows", ok, why)


def _e4(b: int) -> Result:
    n = red_stable_flows(ARED_MAX_P, MAX_TH, False, PAPER, b)
    q300 = queue(STEP_FLOWS[-1], ARED_MAX_P, 0.0, PAPER, b)
    ok = n >= STEP_FLOWS[-1]
    p_mid = solve_p(STEP_FLOWS[-1], (MIN_TH + MAX_TH) / 2, False, PAPER, b)
    need = p_mid * (MAX_TH - MIN_TH) / ((MAX_TH - MIN_TH) / 2)
    why = (
        f"max_p 0.5 meets the curve inside the thresholds up to {n:.0f} flows (300 flows: a "
        f"queue of {q300:.0f} at p 0.5); to hold 300 flows at the middle of the thresholds "
        f"max_p would be {need:.2f}"
    )
    return Result(f"up to {n:.0f} flows", ok, why)


def _e5(b: int) -> Result:
    ones = [queue(n, 0.0, 1.0, PAPER, b) for n in FIG4_FLOWS]
    lows = [queue(n, 0.0, 0.01, PAPER, b) for n in FIG4_FLOWS]
    ok = all(x <= 0.1 * y for x, y in zip(ones, lows, strict=True))
    ours = (
        ", ".join(f"{x:.0f}" for x in ones)
        + " packets (at 0.01: "
        + ", ".join(f"{y:.0f}" for y in lows)
    )
    why = f"avg_tcp_wind(1) = {window(1.0, b):.3f}: q = N x it - 200, at most a tenth of p 0.01's"
    return Result(ours + ")", ok, why)


def _e6(b: int) -> Result:
    grows = all(
        queue_law(n + 50, p, 0.0, PAPER, b) > queue_law(n, p, 0.0, PAPER, b)
        for n in (50, 150, 250)
        for p in (0.01, 0.05, 0.1)
    )
    ps = [solve_p(n, 500, False, PAPER, b) for n in FIG4_FLOWS]
    rising = all(y > x for x, y in itertools.pairwise(ps))
    ours = "p_d for 500 packets: " + ", ".join(f"{p:.4f}" for p in ps) + " at 100-300 flows"
    return Result(ours, grows and rising, "N multiplies the window term, and RTLD x SR is fixed")


def mark_drop_gap(b: int = B, q: float = 500) -> list[tuple[float, float]]:
    """(p_m, p_d) that give Q packets at each of Figure 4's numbers of
    flows, by equation (2) at the paper's network."""
    return [(solve_p(n, q, True, PAPER, b), solve_p(n, q, False, PAPER, b)) for n in FIG4_FLOWS]


def _e7(b: int) -> Result:
    gaps = [m - d for m, d in mark_drop_gap(b)]
    rising = all(y > x for x, y in itertools.pairwise(gaps))
    convex = gaps[2] - gaps[1] > gaps[1] - gaps[0]
    ours = "p_m - p_d: " + ", ".join(f"{g:.4f}" for g in gaps) + " at 100, 200, 300 flows"
    why = (
        "increasing, and faster than linearly; three points cannot tell an exponential"
        if rising and convex
        else "not increasing faster than linearly"
    )
    # the text's "exponentially" is more than three points can show
    return Result(ours, None if rising and convex else False, why)


_CALCULATE: dict[str, Callable[[int], Result]] = {
    "E1": _e1,
    "E2": _e2,
    "E3": _e3,
    "E4": _e4,
    "E5": _e5,
    "E6": _e6,
    "E7": _e7,
}


def calculate(c: Calculation, b: int = B) -> Result:
    """C computed by equation (2) with the window model's b = B."""
    return _CALCULATE[c.key](b)


# --- the steps at our scale ---------------------------------------------------------


def our_steps() -> list[tuple[int, int]]:
    """(second, total flows) of section V's steps at our scale: the paper's
    seconds, FLOW_SCALE of its flows (the experiment files' long_steps)."""
    return [(STEP_S * i, our_flows(n)) for i, n in enumerate(STEP_FLOWS)]
