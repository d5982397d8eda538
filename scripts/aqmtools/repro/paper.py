"""What every paper's transcription (aqmtools.repro.aqmecn,
aqmtools.repro.blue, aqmtools.repro.queuelaw) records alike: the settings
of its experiments as its text gives them, which the reproduction pages
print in one table (page.setup_opening). The BLUE and the RED-family
papers' transcriptions also share the shape of their figures and tables
(Exhibit), of their claims that rest on runs (Claim) and of those that rest
on an equation or arithmetic alone (Calculation, computed as a Result);
the AQM/ECN paper's have shapes of their own."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Setting:
    """A setting of the paper's experiments as its text gives it: VALUE as
    printed, QUOTE the words around it, NOTE what is inferred."""

    what: str
    value: str
    section: str
    quote: str
    note: str = ""


@dataclass(frozen=True)
class Exhibit:
    """A table or figure of the paper: its CAPTION as printed, the
    SECTION that cites it, WHAT it shows (ours), and its STATUS here:
    which experiment file stands beside it, or why none does."""

    name: str
    caption: str
    section: str
    what: str
    status: str


@dataclass(frozen=True)
class Claim:
    """A claim of the paper that the runs test: a short STATEMENT (ours),
    WHERE the paper makes it, a short QUOTE, the EXHIBIT it is of, the
    experiment PARTS that test it (the files' names without repro- and the
    host profile), and how the reproduction TESTS it."""

    key: str
    statement: str
    where: str
    quote: str
    exhibit: str
    parts: tuple[str, ...]
    test: str


@dataclass(frozen=True)
class Calculation:
    """A claim of the text that rests on an equation or on arithmetic
    alone: its KEY, STATEMENT (ours), SECTION, QUOTE, the paper's VALUE as
    printed, and NOTE (how it is computed)."""

    key: str
    statement: str
    section: str
    quote: str
    value: str
    note: str


@dataclass(frozen=True)
class Result:
    """A calculation computed: OURS as the page prints it, whether it HOLDS
    (True: the printed value, to its rounding, or the text's statement;
    None: the text's approximation, which the formula only comes near, or a
    statement it bears out in direction only; False: not), and WHY."""

    ours: str
    holds: bool | None
    why: str
