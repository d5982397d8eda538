"""What every paper's transcription (aqmtools.repro.aqmecn,
aqmtools.repro.blue) records alike: the settings of its experiments as
its text gives them, which the reproduction pages print in one table
(page.setup_opening). What else a transcription holds (its claims,
figures and tables) differs from paper to paper and is its own."""

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
