"""The generic parts of the reproduction page of a paper of parts (the
BLUE and the RED-family papers: aqmtools.repro.blue_page,
aqmtools.repro.queuelaw_page), on top of page.py's: a paper of parts runs
each part (a figure, a table) in one experiment file for each end-host
profile, named repro-PART-HOSTS, and its page judges each claim once for
each profile with runs. Here: the files by part and profile, the page's
header, its table of configurations, the section on regenerating it, the
rules of its verdicts, the headings of its exhibits and ours beside them,
and its claims section."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from types import ModuleType

from aqmtools.bench.experiment import Qdisc, describe_spec
from aqmtools.repro import paper, plan
from aqmtools.repro.page import (
    IN_DIRECTION,
    INCONCLUSIVE,
    NOT_ATTEMPTED,
    NOT_REPRODUCED,
    REPRODUCED,
    Claim,
    Folder,
    Judgement,
    P,
    Profile,
    Slot,
    V,
    _expected,
    by_hand,
    file_runs,
    generated,
    judgement_lines,
    ours_block,
    profiles,
    regenerate,
    what_was_run,
)


def part_of(name: str) -> str:
    """The part of an experiment's name: repro-blue-fig13-paper is
    blue-fig13."""
    return name.removeprefix("repro-").rsplit("-", 1)[0]


def paper_slots(paper_name: str) -> list[Slot]:
    """PAPER_NAME's experiment files, in plan order, each with its end
    hosts and its part."""
    out = []
    for p, e in _expected(paper_name):
        hosts = e.hosts if e is not None else p.stem.rsplit("-", 1)[-1]
        out.append(Slot(hosts, part_of(p.stem), p.stem, p, e))
    return out


@dataclass
class PartProfile(Profile):
    """The runs of one end-host profile of a paper of parts, by part;
    PART_NAMES says what each part is."""

    part_names: dict[str, str] = field(default_factory=dict)

    def what(self, part: str) -> str:
        return self.part_names.get(part, part)

    def unnamed(self, part: str) -> str:
        return f"repro-{part}-{self.hosts}"


def part_profiles(
    paper_name: str, hosts: Sequence[str], part_names: dict[str, str], folders: list[Folder]
) -> tuple[list[PartProfile], list[str]]:
    """The host profiles of PAPER_NAME, HOSTS first (profiles()), each with
    its folders that hold runs; and the folders left out."""
    return profiles(
        lambda h: PartProfile(h, part_names=part_names),
        hosts,
        paper_slots(paper_name),
        folders,
        lambda f: part_of(f.name),
    )


def config_rows(
    paper_name: str,
    hosts: str,
    part_names: dict[str, str],
    shown: Callable[[str, Qdisc], bool] = lambda part, q: True,
) -> list[str]:
    """Rows (part, configuration, tc's words) of PAPER_NAME's files of the
    end hosts HOSTS, the configurations SHOWN: their words in the files'
    first ECN setting, times at the bottleneck's rate, and the upstream
    qdisc's after a slash where it has its own."""
    rows = []
    for s in paper_slots(paper_name):
        if s.exp is None or s.hosts != hosts:
            continue
        for q in s.exp.qdiscs:
            if not shown(s.part, q):
                continue
            words = describe_spec(q.template_for(s.exp.ecn[0]), s.exp.rate_of(q))
            up = f" / `{q.up_spec}`" if q.up_spec else ""
            rows.append(f"| {part_names[s.part]} | `{q.name}` | `{words}`{up} |")
    return rows


def parts_header(
    paper_name: str,
    module: str,
    transcription: ModuleType,
    items: str,
    folders: list[Folder],
    part_names: dict[str, str],
    extras: tuple[Folder, ...] = (),
) -> list[str]:
    """The opening of a paper of parts' page: its title, citation, store
    text and scope (the TRANSCRIPTION's SHORT_TITLE, CITATION, STORE_TEXT
    and SCOPE), issue 33's ITEMS, that MODULE generated it (from FOLDERS
    and the EXTRAS its own sections read), and what of FOLDERS was run."""
    t = transcription
    return [
        f"# Reproduction: {t.SHORT_TITLE}",
        "",
        f"{t.CITATION} (the text in the project's paper store: `{t.STORE_TEXT}`): "
        f'{t.SCOPE}. Issue 33, "Reproduce the papers", {items}.',
        "",
        *generated(module, [*folders, *extras]),
        *what_was_run(paper_name, folders, lambda e: part_names.get(part_of(e.name), "?")),
        "",
    ]


def regenerate_parts(paper_name: str, runs_note: str) -> list[str]:
    """The section on regenerating a paper of parts' page: how many runs
    its files make and how long they take (RUNS_NOTE: at what time a run),
    and one part by hand."""
    known = [s for s in paper_slots(paper_name) if s.exp is not None]
    exps = [s.exp for s in known if s.exp is not None]
    seconds = sum(len(e.runs(e.reporting_seeds)) * plan.run_s(e) for e in exps)
    longest = max((len(e.runs(e.reporting_seeds[:1])) * plan.run_s(e) for e in exps), default=0)
    note = (
        f": {len(known)} files, {file_runs(known, 1)} runs a reporting seed in all, "
        f"{file_runs(known)} runs, about {plan.duration(seconds)} {runs_note}; a part (one "
        f"seed of one file) takes at most {plan.duration(longest)}"
    )
    return regenerate(paper_name, note) + by_hand(known)


# the verdicts over a claim's comparisons, as the pages of the papers of
# parts explain them
VERDICT_RULES = [
    "Verdicts, over a claim's comparisons:",
    "",
    f"- **{REPRODUCED}**: every one holds;",
    f"- **{IN_DIRECTION}**: none fails, some are within noise, every mean on the claimed side;",
    f"- **{INCONCLUSIVE}**: none fails, some mean on the other side (within noise);",
    f"- **{NOT_REPRODUCED}**: some comparison fails (named);",
    f"- **{NOT_ATTEMPTED}**: a folder, configuration or common seed is missing (named).",
    "",
]


def exhibit_heading(e: paper.Exhibit) -> list[str]:
    """A figure's or table's heading: its caption, what it shows, and what
    stands beside it here."""
    return [
        f"### {e.name}",
        "",
        f'The caption: "{e.caption}" (section {e.section}). It shows {e.what}. Here: {e.status}.',
        "",
    ]


def ours_blocks(
    with_runs: Sequence[P], parts: Sequence[str], block: Callable[[str, Folder], list[str]]
) -> list[str]:
    """Ours beside an exhibit: for each profile of WITH_RUNS and each of
    its PARTS, BLOCK (of the part and its folder) or why it is not
    attempted; without profiles, that nothing was run."""
    if not with_runs:
        return ["Ours: not attempted (no runs).", ""]
    lines = []
    for prof in with_runs:
        for part in parts:
            lines += ours_block(prof, part, partial(block, part))
    return lines


def part_claims_section(
    intro: str,
    claims: Sequence[Claim[V]],
    specs: Sequence[paper.Claim],
    profs: Sequence[P],
    ignored: list[str],
    judge_on: Callable[[Claim[V], P], list[Judgement[V]]],
    part_name: Callable[[str], str],
) -> list[str]:
    """The claims section of a paper of parts: INTRO, the folders IGNORED,
    a table of each claim's verdict for each profile of PROFS with runs,
    then each claim (CLAIMS, as the transcription's SPECS give them) with
    its judgements (JUDGE_ON), its parts named by PART_NAME."""
    with_runs = [x for x in profs if x.has_runs]
    lines = [
        "## Claims",
        "",
        intro,
        "",
        *(f"- {x}" for x in ignored),
        *([""] if ignored else []),
    ]
    judged = {(c.key, x.hosts): judge_on(c, x) for c in claims for x in with_runs}
    lines += ["| claim | where | end hosts | verdict |", "|---|---|---|---|"]
    for c, spec in zip(claims, specs, strict=True):
        if not with_runs:
            lines.append(f"| ({c.key}) {c.title} | {spec.where} | - | {NOT_ATTEMPTED} (no runs) |")
        for x in with_runs:
            for j in judged[(c.key, x.hosts)]:
                which = f" (`{j.variant}`)" if j.variant is not None else ""
                lines.append(
                    f"| ({c.key}) {c.title} | {spec.where} | `{x.hosts}`{which} | {j.verdict} |"
                )
    lines.append("")
    for c, spec in zip(claims, specs, strict=True):
        names = " and ".join(part_name(p) for p in spec.parts)
        lines += [
            f"### ({c.key}) {c.title}",
            "",
            f'Where the paper makes it: {spec.where}. Its words: "{spec.quote}". Tested '
            f"({names}): {spec.test}.",
            "",
        ]
        if not with_runs:
            files = [f"`{x.name(p)}`" for p in spec.parts for x in profs]
            lines += [f"**{NOT_ATTEMPTED}**: no runs (of {' or '.join(files)}).", ""]
        for x in with_runs:
            for j in judged[(c.key, x.hosts)]:
                which = f", `{j.variant}`" if j.variant is not None else ""
                lines += judgement_lines(f"End hosts `{x.hosts}`{which}", j)
    return lines
