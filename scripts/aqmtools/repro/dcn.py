"""The DCN paper's own figures, to be printed beside the reproduction's.

Le, Aikat, Jeffay and Smith, "Differential congestion notification:
taming the elephants" (ICNP 2004), Table 1, transcribed from the text
extraction in the project's paper store (dcn-taming-the-elephants.txt).
Every value is as printed there; none is derived or rounded.

How sure each value's place in the table is. The extraction scrambles the
table's layout; mostly it prints one column of one row at a time, as the
three values of the three loads. The values of drop-tail, AFD and RIO-PS
follow their row's label and loads in the order of the columns (loss,
completed, throughput; no ECN before ECN), so those rows are as printed.
The uncongested row's values come first, load by load, without their
label, which is printed later. They are the only row with no loss and
more throughput than 100 Mbit/s (105.9), so they can only be the 1 Gbit/s
link's. PI and DCN are where the doubt lies. Only their loss without ECN
follows their labels. PI's loss with ECN and the completed requests and
throughput of both rows come in one block after the table: one column
of ECN loss, then three of completed requests and three of throughput.
The ECN loss can only be PI's, since DCN ran without ECN (sections 5.1
and 6: "DCN, without ECN"). Each set of three columns is read here as PI
without ECN, DCN, PI with ECN. That is the order of an extraction that
goes column by column down both rows (PI above DCN in the no-ECN column,
then PI alone in the ECN column), and it is the order in which the two
rows' losses come out. Had DCN's columns come after those of PI with
ECN, DCN's values and PI's with ECN would be swapped; PI without ECN gets
the first column either way. Rows holding such values name them in
their uncertain field. The second extraction
(dcn-taming-the-elephants.alt-extraction.txt) stops in section 5.1,
before the table, so it cannot settle the question; only the PDF can.

Table 2 (the general TCP workload) is not transcribed: the harness has no
such workload, and its extraction is too scrambled to read.
"""

from __future__ import annotations

from dataclasses import dataclass

CAPTION = (
    "Table 1: Loss, completed requests, and link utilizations for experiments with the "
    "HTTP workload."
)
# the table's column heads, as printed; each has a no-ECN and an ECN column
COLUMNS = (
    "Loss ratio (%)",
    "Completed requests (millions)",
    "Link utilization/ throughput (Mbps)",
)
# the bottleneck of the paper's congested runs (section 4.2): its
# throughput column is in Mbit/s of this link
PAPER_RATE_MBPS = 100
LOADS = (0.9, 0.98, 1.05)

# the rows' labels, as the table prints them
UNCONGESTED = "Uncongested 1 Gbps network (drop-tail)"
DROPTAIL = "drop-tail queue size = 240"
PI = "PI qref = 24"
DCN = "DCN qref = 24"
AFD = "AFD qref = 240"
RIOPS = "RIO-PS"

# why a value is marked (see the module's docstring)
BY_ELIMINATION = (
    "printed apart from its row; PI's as the only ECN loss column (DCN ran without ECN)"
)
BY_COLUMN_ORDER = (
    "printed apart from its row; read as PI no ECN, DCN, PI ECN in the extraction's "
    "column order (the other plausible order swaps DCN and PI ECN)"
)


@dataclass(frozen=True)
class Row:
    """One scheme at one load, without or with ECN, as Table 1 gives it.
    uncertain names the fields whose place in the table is inferred and
    why_uncertain says how."""

    scheme: str
    ecn: bool
    load: float
    loss_pct: float
    completed_millions: float
    throughput_mbps: float
    uncertain: tuple[str, ...] = ()
    why_uncertain: str = ""

    @property
    def utilization(self) -> float:
        """Throughput as a fraction of the paper's 100 Mbit/s bottleneck
        (above 1 for the uncongested link at 105% load)."""
        return self.throughput_mbps / PAPER_RATE_MBPS


Three = tuple[float, float, float]
_FIGURES = ("completed_millions", "throughput_mbps")


def _rows(
    scheme: str,
    ecn: bool,
    loss: Three,
    completed: Three,
    mbps: Three,
    uncertain: tuple[str, ...] = (),
    why: str = "",
) -> list[Row]:
    """A scheme's three loads, each column as the table lists it (90%, 98%, 105%)."""
    return [
        Row(scheme, ecn, load, loss[i], completed[i], mbps[i], uncertain, why)
        for i, load in enumerate(LOADS)
    ]


TABLE1: tuple[Row, ...] = (
    *_rows(UNCONGESTED, False, (0, 0, 0), (15.0, 16.2, 17.3), (91.3, 98.2, 105.9)),
    *_rows(DROPTAIL, False, (1.8, 6.0, 8.8), (14.6, 15.1, 15.0), (89.9, 92.0, 92.4)),
    *_rows(
        PI,
        False,
        (1.3, 3.9, 6.5),
        (14.4, 15.1, 15.1),
        (87.9, 89.3, 89.9),
        _FIGURES,
        BY_COLUMN_ORDER,
    ),
    *_rows(
        PI,
        True,
        (0.3, 1.8, 2.5),
        (14.5, 14.9, 15.3),
        (86.1, 88.6, 90.5),
        ("loss_pct", *_FIGURES),
        f"loss: {BY_ELIMINATION}; completed and throughput: {BY_COLUMN_ORDER}",
    ),
    *_rows(
        DCN,
        False,
        (0.95, 2.3, 3.0),
        (14.6, 14.9, 15.0),
        (88.6, 89.4, 89.5),
        _FIGURES,
        BY_COLUMN_ORDER,
    ),
    *_rows(AFD, False, (0.5, 6.1, 8.9), (14.7, 14.5, 14.6), (88.3, 87.6, 87.8)),
    *_rows(AFD, True, (0.5, 6.2, 9.2), (14.6, 14.5, 14.4), (88.3, 87.9, 87.9)),
    *_rows(RIOPS, False, (2.1, 5.3, 8.2), (14.6, 15.0, 15.3), (88.8, 91.2, 91.9)),
    *_rows(RIOPS, True, (1.3, 4.7, 7.9), (14.6, 15.2, 15.3), (87.9, 91.0, 91.9)),
)

# the configurations of scripts/bench/experiments/repro-dcn-*.toml that
# stand for each row of the table (PI and DCN twice: their 24 packets
# scaled in time are degenerate at 10 Mbit/s, see the files' headers)
OURS: dict[str, tuple[str, ...]] = {
    UNCONGESTED: ("uncongested",),
    DROPTAIL: ("droptail",),
    PI: ("pi-2.9ms", "pi-24pkt"),
    DCN: ("dcn-2.9ms", "dcn-24pkt"),
    AFD: ("afd",),
    RIOPS: ("riops",),
}


def row(scheme: str, load: float, ecn: bool) -> Row | None:
    """The table's row for SCHEME at LOAD with or without ECN (None where
    the paper ran none: drop-tail, DCN and the uncongested link with ECN)."""
    for r in TABLE1:
        if r.scheme == scheme and r.load == load and r.ecn == ecn:
            return r
    return None


def scheme_of(config: str) -> str | None:
    """The table's row label for one of our configuration names."""
    for scheme, names in OURS.items():
        if config in names:
            return scheme
    return None
