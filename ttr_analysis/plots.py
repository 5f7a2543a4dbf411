"""Plots of a comparison: total scores under A and B side by side, and the histogram of B − A.

matplotlib with the Agg backend (no display needed), written as PNG and SVG. The SVG is made
byte-stable for the same numbers (no date, a fixed id salt), so a rerun does not show up as a
changed file. Each file is written whole or not at all (``ttr_core.files.atomic_path``).
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from pathlib import Path

from ttr_analysis.rescore import Scored
from ttr_core.files import atomic_path, make_folder


def compare_plot(pairs: Sequence[tuple[Scored, Scored]], a: str, b: str, changed: int, out_dir: Path, stem: str) -> list[Path]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    totals_a = [s.total for pa, _ in pairs for s in pa.seats]
    totals_b = [s.total for _, pb in pairs for s in pb.seats]
    deltas = [y - x for x, y in zip(totals_a, totals_b)]
    make_folder(out_dir)
    with plt.rc_context({"svg.hashsalt": "ttr-compare", "figure.dpi": 100}):
        fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.5), constrained_layout=True)
        low, high = min(totals_a + totals_b), max(totals_a + totals_b)
        bins = _bins(low, high, 30)
        left.hist([totals_a, totals_b], bins=bins, label=[a, b], color=["#4477aa", "#ee6677"], alpha=0.85)
        for values, color in ((totals_a, "#4477aa"), (totals_b, "#ee6677")):
            left.axvline(statistics.fmean(values), color=color, linestyle="--", linewidth=1)
        left.set_title("Final score per player")
        left.set_xlabel("points")
        left.set_ylabel("players")
        left.legend()
        dlow, dhigh = min(deltas), max(deltas)
        right.hist(deltas, bins=_bins(dlow, dhigh, 30), color="#228833")
        right.axvline(statistics.fmean(deltas), color="black", linestyle="--", linewidth=1,
                      label=f"mean {statistics.fmean(deltas):+.2f}")
        right.set_title(f"{b} − {a}, per player")
        right.set_xlabel("points")
        right.set_ylabel("players")
        right.legend()
        fig.suptitle(f"{len(pairs)} games played under {a}, rescored under {b}: winner changes in {changed} "
                     f"({changed / max(1, len(pairs)):.1%})")
        paths = [out_dir / f"{stem}.png", out_dir / f"{stem}.svg"]
        try:
            with atomic_path(paths[0]) as tmp:
                fig.savefig(tmp, format="png", metadata={"Software": None})
            with atomic_path(paths[1]) as tmp:
                fig.savefig(tmp, format="svg", metadata={"Date": None, "Creator": None})
        finally:
            plt.close(fig)
    return paths


def _bins(low: int, high: int, most: int) -> list[float]:
    """Edges on whole points (scores are integers), at most ``most`` bins, centred on the values."""
    span = max(1, high - low + 1)
    width = max(1, -(-span // most))
    edges = [low - 0.5 + i * width for i in range(span // width + 2)]
    return edges
