"""The AQM/ECN paper's own numbers and claims, to be printed beside the
reproduction's.

Le, Aikat, Jeffay and Smith, "The effects of active queue management and
explicit congestion notification on Web performance" (IEEE/ACM
Transactions on Networking 15(6), 2007), transcribed from the text
extraction in the project's paper store
(aqm-ecn-web-performance-pi-rem-ared.txt). Every number is as printed
there; none is derived or rounded. Where the paper hedges ("about",
"approximately"), the quotation keeps its word and `approx` is set.
Quotations are the extraction's words with its ligatures and quotation
marks restored (its "Þ" is "fi", its "Ò" and "Ó" are quotation marks);
"[...]" marks words left out.

What the extraction holds. The paper's results are response-time CDFs
(Figures 4, 6, 7 and 10) and one CCDF (Figure 5); the extraction has none
of their curves, only what the text says of them, and a few of those
sentences give numbers: the points of POINTS. Tables II-IV (link
utilization, loss and completed requests) are named, but none of their
values survives, Table IV's caption only; EXHIBITS says what the text says
of each in words. The extraction lost, besides: the end of the abstract's
third bullet and everything after it; the end of section III after the
uniform RTTs (the measured RTT distribution, how a load was calibrated,
the run length); section IV up to the middle of IV-C (the AQMs'
parameters, Figures 2-3 and 4(a)-(b), if those exist); the end of V-B up
to Figure 10 in section VI (Figures 8-9 and the new gentle results); and
the start of section VI. LOST lists what the surviving text names or
implies and does not give.

Which of the paper's designs each of our configurations stands for is
STANDS (scripts/bench/experiments/repro-aqmecn-*.toml); CLAIMS are the
abstract's bullets and the conclusions, with where the paper makes each
and how the reproduction tests it.
"""

from __future__ import annotations

from dataclasses import dataclass

from aqmtools.repro.paper import Setting

STORE_TEXT = "aqm-ecn-web-performance-pi-rem-ared.txt"
# the paper, as the reproduction page names it
CITATION = (
    'Le, Aikat, Jeffay and Smith, "The effects of active queue management and explicit '
    'congestion notification on Web performance", IEEE/ACM Transactions on Networking 15(6), '
    "2007"
)
SHORT_TITLE = "The effects of AQM and ECN on Web performance (Le et al., 2007)"
# what of it the reproduction covers
SCOPE = (
    "PI, REM and ARED with and without ECN against drop-tail on Web traffic, sections IV-VI, "
    "Figures 4-7 and 10, Tables II-IV, and the claims of the abstract and the conclusions"
)
# the paper's congested and uncongested links (section III)
PAPER_RATE_MBPS = 100
UNCONGESTED_RATE_MBPS = 1000
# the loads of sections IV-VI; 80% is its predecessor's ([7], section IV-D)
LOADS = (0.9, 0.98)
PREDECESSOR_LOADS = (0.8, 0.9, 0.98)
# the AQMs' targets and the drop-tail buffers, packets at 100 Mb/s
TARGETS_PKTS = (24, 240)

# the paper's designs, as the page names them
UNCONGESTED = "uncongested 1 Gb/s (drop-tail)"
DROPTAIL = "drop-tail"
PI_PACKET = "PI, packet mode"
PI_BYTE = "PI, byte mode"
REM_BYTE = "REM, byte mode"
ARED_PACKET = "ARED packet-mode"
ARED_BYTE = "ARED byte-mode"
# ARED whose ECN runs forward ECN-capable packets in the gentle region
# (sections I, V-B, VI: "new gentle"); without ECN it is ARED
ARED_PACKET_NEW_GENTLE = "ARED packet-mode, new gentle ECN forwarding"
ARED_BYTE_NEW_GENTLE = "ARED byte-mode, new gentle ECN forwarding"
SCHEMES = (
    UNCONGESTED,
    DROPTAIL,
    PI_PACKET,
    PI_BYTE,
    REM_BYTE,
    ARED_PACKET,
    ARED_BYTE,
    ARED_PACKET_NEW_GENTLE,
    ARED_BYTE_NEW_GENTLE,
)

# the RTT distributions (section III): sections IV and V, and section VI
UNIFORM = "uniform 10-150 ms"
MEASURED = "measured"


# --- the paper's settings ---------------------------------------------------

SETTINGS: tuple[Setting, ...] = (
    Setting(
        "congested links",
        "100 Mb/s",
        "III",
        "two 100 Mb/s Fast Ethernet segments",
        "one for each direction",
    ),
    Setting(
        "uncongested link",
        "Gigabit Ethernet",
        "III",
        "one fiber Gigabit Ethernet segment",
    ),
    Setting(
        "end hosts and routers",
        "FreeBSD 4.5",
        "III",
        "Intel-based machines running FreeBSD 4.5",
    ),
    Setting("traffic generators", "44", "III", "A total of 44 traffic-generating machines"),
    Setting(
        "minimum RTTs, sections IV and V",
        "between 10 and 150 ms",
        "III",
        "a uniform distribution of minimum RTTs between 10 and 150 ms",
        "one draw per flow (dummynet's per-flow delay)",
    ),
    Setting(
        "minimum RTTs, section VI",
        "measured",
        "VI",
        "measured RTT distribution",
        'Figure 10\'s caption; Table IV calls it "generalized"; its description is lost',
    ),
    Setting(
        "drop-tail buffers",
        "24 or 240 packets",
        "IV-D",
        "a conventional drop-tail FIFO queue of size equal to either 24 or 240 packets",
    ),
    Setting(
        "the drop-tail baseline",
        "240 packets",
        "IV-D",
        "we use a drop-tail queue of 240 packets as a baseline",
    ),
    Setting(
        "the AQMs' targets",
        "24 and 240 packets",
        "IV-D, V-A",
        "especially at a target queue length of 24 packets",
        '240: the baseline "corresponds to one of the targets selected for AQM" (IV-D); '
        'V-A speaks of "both target queue lengths"',
    ),
    Setting(
        "ARED's thresholds for the target of 24",
        "(12, 36)",
        "V-B, IV-C",
        "queue thresholds of (12, 36)",
        "IV-C gives the target of 24 with its two thresholds lost in the extraction; none "
        "is given for the target of 240",
    ),
    Setting(
        "mean frame size",
        "a little over 500 bytes",
        "IV-D",
        "mean frame size is a little over 500 bytes",
    ),
    Setting(
        "240 packets as a delay",
        "about 10 ms",
        "IV-D",
        "it provides only about 10 ms of buffering at 100 Mb/s",
    ),
    Setting(
        "100 ms of buffering",
        "approximately 2,400 packets",
        "IV-D",
        "100 ms of buffering implies a queue length of approximately 2,400 packets",
    ),
    Setting(
        "the predecessor's drop-tail runs",
        "24,240 and 2,400 packets; 80%, 90%, and 98%",
        "IV-D",
        "lengths equal to 24,240 and 2,400 packets for offered loads of 80%, 90%, and 98%",
        '"24,240" as printed: 24 and 240',
    ),
    Setting(
        "loads",
        "90% and 98%",
        "IV-D",
        "at offered loads of 90% and 98%",
    ),
    Setting(
        "ECN runs",
        "90% and 98%",
        "V",
        "for offered loads of 90% and 98%",
        'with the uniform RTTs: "The uniform distribution of minimum RTTs is again used"',
    ),
)


# --- what the text gives in numbers of the response-time distributions ------


@dataclass(frozen=True)
class Point:
    """A point of a response-time distribution that the text gives in
    numbers: PERCENT of the request/response exchanges complete within
    SECONDS (either may be missing), where the designs named compare as
    SAYS. QUOTE is the paper's words; UNCERTAIN what is inferred. ECN is
    whether the designs ran with ECN, but for those of NO_ECN, which ran
    without it."""

    key: str
    section: str
    figure: str
    load: float
    ecn: bool
    rtts: str
    schemes: tuple[str, ...]
    percent: float | None
    seconds: float | None
    approx: bool
    quote: str
    says: str
    uncertain: str = ""
    no_ecn: tuple[str, ...] = ()


# the text names Figure 4(e) and (f) as the loads of 90% and 98% without
# saying which panel is which
FIG4EF = "the text gives Fig. 4(e) and (f) the loads of 90% and 98% together, not which is which"
# the paper's PI and REM are in the mode its section II recommends for them
BYTES_PRESUMED = (
    "the text does not say in which mode PI and REM ran; section II recommends bytes for both"
)

POINTS: tuple[Point, ...] = (
    Point(
        "fig4-90-125ms",
        "IV-D",
        "Fig. 4(e), (f)",
        0.9,
        False,
        UNIFORM,
        (PI_BYTE, REM_BYTE, DROPTAIL),
        40,
        0.125,
        True,
        "about the 40% of exchanges that can be completed in approximately 125 ms or less",
        "PI, REM and drop-tail equivalent up to this point; beyond it, out to 2 s, PI better "
        "than REM and drop-tail, REM the same as or worse than drop-tail",
        f"{FIG4EF}; {BYTES_PRESUMED}",
    ),
    Point(
        "fig4-98-300ms",
        "IV-D",
        "Fig. 4(e), (f)",
        0.98,
        False,
        UNIFORM,
        (PI_BYTE, REM_BYTE, ARED_BYTE, DROPTAIL),
        65,
        0.3,
        True,
        "the approximately 65% of request/response exchanges that can be completed in 300 ms "
        "or less",
        "PI, REM and ARED byte-mode nearly identical up to this point, all three better than "
        "drop-tail; for the remaining 35%, ARED and PI similar to or slightly better than "
        "drop-tail, REM similar or slightly worse",
        f"{FIG4EF}; {BYTES_PRESUMED}",
    ),
    Point(
        "fig4-98-2s",
        "IV-D",
        "Fig. 4(e), (f)",
        0.98,
        False,
        UNIFORM,
        (PI_BYTE, REM_BYTE, ARED_BYTE),
        90,
        2,
        True,
        "about 90% of all request/response exchanges complete in under 2 seconds for the best "
        "AQM parameter settings at 98% load",
        "the best settings of the AQMs reach this point",
        f'{FIG4EF}; {BYTES_PRESUMED}; "the best AQM parameter settings" are the target of '
        "24 (IV-C)",
    ),
    Point(
        "fig5-98-50s",
        "IV-D",
        "Fig. 5",
        0.98,
        False,
        UNIFORM,
        (PI_BYTE, REM_BYTE, ARED_BYTE, DROPTAIL),
        99.95,
        50,
        True,
        "up to approximately 50 seconds (about 99.95% of all request/response exchanges)",
        "Figure 4(e)-(f)'s ranking holds up to this point; beyond it drop-tail is best, and in "
        "the last 0.05% ARED byte-mode beats PI and REM",
        BYTES_PRESUMED,
    ),
    Point(
        "fig10-98-ecn-250ms",
        "VI",
        "Fig. 10(d)",
        0.98,
        True,
        MEASURED,
        (PI_BYTE, REM_BYTE, ARED_BYTE_NEW_GENTLE, DROPTAIL),
        50,
        0.25,
        True,
        "the first 50% of request/response exchanges (those completing in approximately 250 ms "
        "or less)",
        "PI, REM, ARED byte-mode with new gentle forwarding and drop-tail identical up to this "
        "point; beyond it, out to 2 s, PI and REM best and ARED byte-mode better than drop-tail",
        BYTES_PRESUMED,
    ),
    Point(
        "viii-90-85pct",
        "VIII",
        "",
        0.9,
        True,
        UNIFORM,
        (ARED_BYTE, PI_BYTE, REM_BYTE),
        85,
        None,
        False,
        "ARED in byte-mode without ECN matches PI and REM's performance with ECN for the "
        "shortest 85% of all request/response exchanges",
        "ARED byte-mode without ECN equals PI and REM with ECN up to this point",
        f"no figure named; ARED byte-mode runs without ECN, PI and REM with; {BYTES_PRESUMED}",
        (ARED_BYTE,),
    ),
)


# --- the tables and figures, with what the text says of them ----------------


@dataclass(frozen=True)
class Exhibit:
    """A table or figure of the paper: its CAPTION as printed ("" when the
    extraction lost it), WHAT it shows (ours, from the text that cites it),
    and the text's STATEMENTS about it, each a short quotation with its
    section. VALUES_LOST: the text has none of its values."""

    name: str
    caption: str
    section: str
    what: str
    statements: tuple[tuple[str, str], ...]
    values_lost: bool = True


EXHIBITS: tuple[Exhibit, ...] = (
    Exhibit(
        "Fig. 1",
        "Experimental network setup.",
        "III",
        "the testbed: browsers and servers on both sides of two routers",
        (),
        False,
    ),
    Exhibit(
        "Fig. 4(c)",
        "",
        "IV-C",
        "ARED in packet mode with drops, both targets, 90% and 98% load (uniform RTTs)",
        (
            (
                "IV-C",
                "a significant shift in the response time distribution compared to PI and REM "
                "for both target queue lengths and both load levels",
            ),
        ),
    ),
    Exhibit(
        "Fig. 4(d)",
        "",
        "IV-C",
        "ARED in byte mode with drops, both targets, 90% and 98% load (uniform RTTs)",
        (
            ("IV-C", "ARED operating in byte-mode provides significantly better response times"),
            (
                "IV-C",
                "the best performance is obtained with queue thresholds corresponding to a "
                "target queue length of 24",
            ),
        ),
    ),
    Exhibit(
        "Fig. 4(e), (f)",
        "",
        "IV-D",
        "PI, REM and ARED at their best settings with drops, drop-tail (240) and the "
        "uncongested link, at 90% and 98% load (uniform RTTs)",
        (
            (
                "IV-D",
                "Comparing AQM designs at 90% load, ARED operating in byte-mode is the best "
                "performing algorithm",
            ),
            ("IV-D", "At 98% load [...] all three designs outperform drop-tail"),
            (
                "IV-D",
                "no AQM design can offset the performance degradation at this extreme load",
            ),
        ),
    ),
    Exhibit(
        "Fig. 5",
        "Response time CCDF of all designs with packet drops at 98% load.",
        "IV-D",
        "the tail of Figure 4's distributions at 98% load",
        (("IV-D", "The remaining exchanges perform best under drop-tail"),),
    ),
    Exhibit(
        "Fig. 6(a)-(d)",
        "Response time distributions for PI and REM with/without ECN. (a) Results for PI "
        "with/without ECN at 90% load. (b) Results for PI with/without ECN at 98% load. "
        "(c) Results for REM with/without ECN at 90% load. (d) Results for REM with/without "
        "ECN at 98% load.",
        "V-A",
        "PI and REM with and without ECN, 90% and 98% load (uniform RTTs)",
        (
            (
                "V-A",
                "At 90% load, PI with ECN performs somewhat better than it does without ECN, "
                "especially at a target queue length of 24 packets",
            ),
            (
                "V-A",
                "At 98% load, however, ECN significantly improves performance for PI at both "
                "target queue lengths",
            ),
            ("V-A", "REM shows significant performance improvement with ECN at both loads"),
            (
                "V-A",
                "With ECN, REM outperforms drop-tail and gives performance similar to PI at "
                "both loads",
            ),
        ),
    ),
    Exhibit(
        "Fig. 7(a)-(d)",
        "",
        "V-B",
        "ARED in packet and byte mode with and without ECN, 90% and 98% load (uniform RTTs)",
        (
            (
                "V-B",
                "for ARED in both packet-mode and byte-mode, ECN has little effect on response "
                "times",
            ),
            (
                "V-B",
                "at all tested target queue lengths, ARED packet-mode performance with ECN is "
                "worse than drop-tail at both loads",
            ),
            (
                "V-B",
                "In byte-mode, only ARED with ECN and queue thresholds of (12, 36) outperforms "
                "drop-tail",
            ),
            (
                "V-B",
                "performance is slightly worse than ARED byte-mode without ECN with the same "
                "thresholds",
            ),
        ),
    ),
    Exhibit(
        "Fig. 10(a)-(d)",
        "Response time distributions with measured RTT distribution for all designs "
        "with/without ECN. (a) Results without ECN at 90% load. (b) Results without ECN at 98% "
        "load. (c) Results with ECN at 90% load. (d) Results with ECN at 98% load.",
        "VI",
        "every design at the settings that were best with uniform RTTs, with and without ECN, "
        "90% and 98% load, measured RTTs",
        (
            (
                "VI",
                "Without ECN, at 90% load, PI, REM, and ARED byte-mode provide response time "
                "performance indistinguishable from drop-tail",
            ),
            ("VI", "ARED packet-mode performs significantly worse than drop-tail"),
            (
                "VI",
                "With ECN, at 90% load, all AQM designs give identical performance that is "
                "nearly the best possible performance",
            ),
            (
                "VI",
                "ARED packet-mode with new gentle forwarding has slightly poorer performance "
                "than drop-tail for short duration exchanges",
            ),
        ),
    ),
    Exhibit(
        "Table II",
        "",
        "IV-D, V-A",
        "link utilization, loss ratio and completed requests of PI and REM, with and without "
        "ECN (inferred: V-A cites it for PI and REM, V-B cites Table III for ARED), and of "
        "drop-tail",
        (
            (
                "IV-D",
                "drop-tail with a queue of 240 packets gives slightly better link utilization "
                "than any of the AQM designs",
            ),
            ("IV-D", "drop-tail has higher loss ratios than the other designs"),
            (
                "IV-D",
                "ARED and PI complete more requests, and have better link utilization than REM "
                "at all loads",
            ),
            ("V-A", "PI with ECN clearly seems to have better loss ratios"),
            (
                "V-A",
                "REM's improvement when ECN is used derives from lowered loss ratios, increases "
                "in link utilization, and increases in number of completed requests",
            ),
        ),
    ),
    Exhibit(
        "Table III",
        "",
        "IV-C, IV-D, V-B",
        "the same for ARED in packet and byte mode, with and without ECN (inferred as Table II)",
        (
            (
                "IV-C",
                "at 98% load, ARED in byte-mode results in a (slightly) higher loss rate than "
                "in packet-mode",
            ),
            (
                "IV-D",
                "ARED in byte-mode has slightly better loss ratios than PI and REM at all loads",
            ),
            (
                "V-B",
                "in almost all the ARED experiments, the loss rate is higher with ECN than "
                "without ECN",
            ),
        ),
    ),
    Exhibit(
        "Table IV",
        "SUMMARY STATISTICS FOR ALL DESIGNS WITH GENERALIZED RTT DISTRIBUTION",
        "VI",
        "the summary statistics of Figure 10's runs",
        (("VI", "As expected, loss rates decrease with the addition of ECN"),),
    ),
)

# what the surviving text names or implies and does not give
LOST: tuple[tuple[str, str], ...] = (
    ("Fig. 2, Fig. 3, Fig. 8, Fig. 9", "numbered between the figures the text names; not cited"),
    ("Fig. 4(a), (b)", "implied by Fig. 4(c)-(f); presumably PI and REM at both targets (IV-A, B)"),
    ("Table I", "implied by Table II; not cited"),
    ("Tables II-IV", "every value"),
    ("the measured RTT distribution", "its description, in section III after the uniform one"),
    ("the AQMs' parameters", "PI's gains and sampling, REM's, ARED's beyond (12, 36) (IV-A to C)"),
    ("the load calibration and the run length", "section III"),
    ("the new gentle results", "the end of V-B and what follows it before section VI"),
    ("the end of the abstract", "from within its third bullet on"),
    ("the start of section VI", "before Figure 10"),
)

# the claims (CLAIMS' keys) that rest on what each table or figure shows,
# as the reproduction page links them: inferred from the sections that
# make the claims and the exhibits those sections cite (Figures 8-9, which
# the new gentle claim (j) presumably rests on, are lost)
EXHIBIT_CLAIMS: dict[str, tuple[str, ...]] = {
    "Fig. 1": (),
    "Fig. 4(c)": ("c", "d"),
    "Fig. 4(d)": ("b", "d"),
    "Fig. 4(e), (f)": ("a", "b", "g", "n"),
    "Fig. 5": (),
    "Fig. 6(a)-(d)": ("e", "f", "h", "k", "l"),
    "Fig. 7(a)-(d)": ("c", "d", "i", "l"),
    "Fig. 10(a)-(d)": ("o", "p"),
    "Table II": ("n",),
    "Table III": ("n",),
    "Table IV": ("o",),
}


def exhibit(name: str) -> Exhibit | None:
    """The table or figure NAME ("Fig. 5", "Table II")."""
    return next((e for e in EXHIBITS if e.name == name), None)


# --- the claims ---------------------------------------------------------------


@dataclass(frozen=True)
class Claim:
    """A claim of the paper: a short STATEMENT (ours), WHERE the paper makes
    it, a short QUOTE, the LOADS and RTTS it is about, and how the
    reproduction TESTS it. NOTE: where the paper itself qualifies it
    (QUALIFIER, its words, as QUOTE is)."""

    key: str
    statement: str
    where: str
    quote: str
    loads: tuple[float, ...]
    rtts: str
    test: str
    note: str = ""
    qualifier: str = ""


CLAIMS: tuple[Claim, ...] = (
    Claim(
        "a",
        "Without ECN, ARED in byte mode gives better response times than drop-tail at high loads",
        "abstract, first bullet; section VIII, first bullet",
        "better response time performance than drop-tail queueing at offered loads above 90% "
        "of link capacity",
        LOADS,
        UNIFORM,
        "at 90% and 98%, ARED byte-mode's response-time median and 90th percentile (no ECN) "
        "below drop-tail 240's",
    ),
    Claim(
        "b",
        "Without ECN, ARED in byte mode is the best AQM design, better than PI and REM",
        "abstract, first bullet; section VIII, first bullet; section IV-D (90% load)",
        "ARED in byte-mode was the best performing AQM design when ECN is not used. It "
        "outperformed both PI and REM",
        LOADS,
        UNIFORM,
        "at 90% and 98%, ARED byte-mode's response-time median and 90th percentile (no ECN) "
        "below PI's (both modes) and REM's at the same target",
        "section VII qualifies it at 98%, where ARED byte-mode is best along with PI",
        "along with PI, also resulted in the best performance at 98% load",
    ),
    Claim(
        "c",
        "ARED in packet mode, with or without ECN, is the worst design, worse than drop-tail",
        "abstract, first bullet; section VIII, first and fourth bullets; section V-B",
        "ARED operating in packet-mode (with or without ECN) was the worst performing design, "
        "performing worse than drop-tail queueing",
        LOADS,
        UNIFORM,
        "at 90% and 98%, ARED packet-mode's response-time median and 90th percentile above "
        "drop-tail 240's, without ECN and with ECN (the guidelines' forwarding)",
    ),
    Claim(
        "d",
        "ARED in byte mode significantly outperforms ARED in packet mode",
        "section VIII, first bullet; section VII",
        "ARED in byte-mode significantly outperforms ARED in packet-mode",
        LOADS,
        UNIFORM,
        "at 90% and 98%, without and with ECN, ARED byte-mode's response-time median and 90th "
        "percentile below ARED packet-mode's at the same target",
    ),
    Claim(
        "e",
        "ECN improves PI's and REM's response times",
        "abstract, second bullet; section VIII, third bullet; section V-A",
        "With ECN, both PI and REM provide significant response time improvement at offered "
        "loads at or above 90% of link capacity",
        LOADS,
        UNIFORM,
        "at 90% and 98%, the response-time 90th percentile of PI (both modes) and REM with ECN "
        "below the same configuration's without ECN",
    ),
    Claim(
        "f",
        "With ECN, PI and REM are the best designs, significantly better than ARED in byte mode",
        "abstract, second bullet; section VII",
        "at 98% load, PI and REM significantly outperform ARED",
        (0.98,),
        UNIFORM,
        "at 98%, the response-time 90th percentile of PI and REM with ECN below ARED "
        "byte-mode's, without ECN and with it, at the same target",
    ),
    Claim(
        "g",
        "Without ECN, REM is worse than drop-tail at every load",
        "abstract, second bullet; section VIII, fourth bullet",
        "Without ECN, response time performance with REM was worse than drop-tail queueing at "
        "all loads considered",
        LOADS,
        UNIFORM,
        "at 90% and 98% (and at 80%, reported), REM's response-time median and 90th percentile "
        "(no ECN) above drop-tail 240's",
    ),
    Claim(
        "h",
        "With ECN, REM beats drop-tail and performs like PI",
        'section V-A; abstract, second bullet ("the benefit of ECN was dramatic")',
        "With ECN, REM outperforms drop-tail and gives performance similar to PI at both loads",
        LOADS,
        UNIFORM,
        "at 90% and 98%, REM with ECN: response-time 90th percentile below drop-tail 240's, and "
        "its median and 90th percentile equal to PI's with ECN within noise",
    ),
    Claim(
        "i",
        "ECN does not improve ARED, in either mode, and may degrade it",
        "abstract, third bullet (cut off in the store's text); section VIII, second bullet; "
        "section V-B",
        "ECN does not improve the performance of ARED in either byte- or packet-mode and in "
        "certain cases may degrade performance",
        LOADS,
        UNIFORM,
        "at 90% and 98%, in both modes, ARED with ECN (the guidelines' forwarding) not "
        "significantly better than without: response-time median and 90th percentile",
    ),
    Claim(
        "j",
        "Forwarding ECN-marked packets in the gentle region improves ARED in packet mode, but "
        "not to ARED byte-mode without ECN",
        "section VIII, second bullet; section I",
        "allowing ARED to forward ECN marked packets when the weighted average queue length is "
        'in the "gentle region" significantly improves the performance of ARED in packet-mode',
        LOADS,
        UNIFORM,
        "at 90% and 98%, ARED packet-mode with ECN and the new gentle forwarding: response-time "
        "90th percentile below the guidelines' forwarding, and above ARED byte-mode without ECN",
    ),
    Claim(
        "k",
        "At 90% load, PI and REM with ECN are competitive with the uncongested link",
        "section VIII, third bullet",
        "at a load of 90%, PI and REM with ECN provide performance on a 100 Mb/s link "
        "competitive with that achieved with a 1 Gb/s link with the same number of active users",
        (0.9,),
        UNIFORM,
        "at 90%, the response-time median and 90th percentile of PI and REM with ECN minus the "
        "uncongested link's, beside drop-tail 240's minus the uncongested link's: not above zero "
        "beyond noise",
    ),
    Claim(
        "l",
        "At 90% load, ARED byte-mode without ECN matches PI and REM with ECN for the shortest "
        "85% of exchanges",
        "section VIII, third bullet",
        "for the shortest 85% of all request/response exchanges",
        (0.9,),
        UNIFORM,
        "at 90%, the response-time quantiles up to the 85th of ARED byte-mode (no ECN) equal to "
        "PI's and REM's with ECN within noise",
    ),
    Claim(
        "m",
        "Up to 80% load no AQM design, with or without ECN, improves on drop-tail, and the "
        "congested link is close to the uncongested one",
        "section VIII, quoting the predecessor [7]",
        "For offered loads up to 80% of bottleneck link capacity, no AQM design provides "
        "better response time performance than simple drop-tail FIFO queue management",
        (0.8,),
        UNIFORM,
        "at 80%, no AQM configuration's response-time median or 90th percentile, without or "
        "with ECN, significantly below drop-tail 240's",
    ),
    Claim(
        "n",
        "Without ECN, AQM (PI, ARED byte-mode) improves response times on drop-tail at a very "
        "slight cost in link utilization, and with fewer losses",
        "section IV-D (its major conclusion with drops; Tables II and III)",
        "This improvement comes at the cost of a very slight decrease in link utilization",
        LOADS,
        UNIFORM,
        "at 90% and 98% without ECN, PI's and ARED byte-mode's utilization at most slightly "
        "below drop-tail 240's and their loss below it",
    ),
    Claim(
        "o",
        "With the measured RTTs, AQM adds nothing without ECN; only PI and REM with ECN "
        "improve on drop-tail, and only near saturation",
        "section VI",
        "with a general RTT distribution, AQM adds no value without ECN",
        LOADS,
        MEASURED,
        "with the wide RTT classes (repro-aqmecn-widertt-*): at 90% and 98% without ECN, no "
        "AQM's response-time 90th percentile significantly below drop-tail 240's; with ECN, "
        "PI's and REM's below it at 98% and not at 90%",
    ),
    Claim(
        "p",
        "The wider the flows' RTTs, the smaller the effect of AQM and ECN on response times",
        "section VIII, last paragraph (and the abstract, in the part the store's text lost)",
        "As the variation in flows' RTT increases, the impact of AQM and ECN on response-time "
        "performance is reduced",
        LOADS,
        MEASURED,
        "at 90% and 98%, drop-tail 240's response-time 90th percentile minus the best AQM's "
        "with ECN is smaller with the wide RTT classes than with the uniform RTTs (unpaired: "
        "two experiment files)",
    ),
)


def claim(key: str) -> Claim | None:
    """The claim lettered KEY."""
    return next((c for c in CLAIMS if c.key == key), None)


# --- which of our configurations stands for which of the paper's -------------

IN_TIME = "scaled in time"
IN_PACKETS = "the paper's packets"


@dataclass(frozen=True)
class Stand:
    """One of our configurations (scripts/bench/experiments/repro-aqmecn-*)
    standing for one of the paper's: SCHEME at its target or buffer of
    TARGET_PKTS packets at 100 Mb/s, SCALED in time (the same delay at
    10 Mbit/s) or kept in packets. The uncongested link has neither."""

    config: str
    scheme: str
    target_pkts: int = 0
    scaled: str = ""


def _stands() -> tuple[Stand, ...]:
    """Every configuration at 2.9 ms (the paper's 24 packets in time) and
    29 ms (its 240 in time, and its 24 as packets)."""
    names = (
        ("droptail", DROPTAIL),
        ("pi", PI_PACKET),
        ("pi-bytes", PI_BYTE),
        ("rem-bytes", REM_BYTE),
        ("ared", ARED_PACKET),
        ("ared-bytes", ARED_BYTE),
        ("ared-newgentle", ARED_PACKET_NEW_GENTLE),
        ("ared-bytes-newgentle", ARED_BYTE_NEW_GENTLE),
    )
    out = [Stand("uncongested", UNCONGESTED)]
    for prefix, scheme in names:
        out += [
            Stand(f"{prefix}-2.9ms", scheme, 24, IN_TIME),
            Stand(f"{prefix}-29ms", scheme, 240, IN_TIME),
            Stand(f"{prefix}-29ms", scheme, 24, IN_PACKETS),
        ]
    return tuple(out)


STANDS: tuple[Stand, ...] = _stands()


def stands_for(config: str) -> list[Stand]:
    """What one of our configurations stands for (empty: nothing)."""
    return [s for s in STANDS if s.config == config]


def configs_of(scheme: str, target_pkts: int) -> list[str]:
    """Our configurations that stand for SCHEME at TARGET_PKTS, the one
    scaled in time first."""
    found = [s for s in STANDS if s.scheme == scheme and s.target_pkts == target_pkts]
    found.sort(key=lambda s: s.scaled != IN_TIME)
    return [s.config for s in found]
