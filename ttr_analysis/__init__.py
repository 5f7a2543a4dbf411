"""Regression-testing rules: rescore finished games, simulate many, compare two rule sets.

* :mod:`~ttr_analysis.rescore`: the score breakdown of a finished game (routes, tickets,
  each bonus, total) under any variant or rules version, and what differs between them;
* :mod:`~ttr_analysis.simulate`: seeded bot games on local processes or Dask;
* :mod:`~ttr_analysis.compare`: simulate under one rule set, rescore under another, with
  confidence intervals (:mod:`~ttr_analysis.stats`) and plots (:mod:`~ttr_analysis.plots`);
* :mod:`~ttr_analysis.playtest`: the figures of a playtest report for rule designers, per player
  count, from replayed records; drawn as one offline HTML page by :mod:`~ttr_analysis.playtest_html`
  (charts: :mod:`~ttr_analysis.svg_charts`, the board: :mod:`~ttr_analysis.board_svg`).

``ttr rescore``, ``ttr simulate``, ``ttr compare`` (``ttr_cli.analysis``) and ``ttr playtest`` are thin
shells around these modules; scripts can call them directly.
"""
