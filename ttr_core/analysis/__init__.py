"""Regression-testing rules: rescore finished games, simulate many, compare two rule sets.

* :mod:`~ttr_core.analysis.rescore`: the score breakdown of a finished game (routes, tickets,
  each bonus, total) under any variant or rules version, and what differs between them;
* :mod:`~ttr_core.analysis.simulate`: seeded bot games on local processes or Dask;
* :mod:`~ttr_core.analysis.compare`: simulate under one rule set, rescore under another, with
  confidence intervals (:mod:`~ttr_core.analysis.stats`) and plots (:mod:`~ttr_core.analysis.plots`).

``ttr rescore``, ``ttr simulate`` and ``ttr compare`` (``ttr_core.cli_analysis``) are thin
shells around these modules; scripts can call them directly.
"""
