"""House rules for ttr-engine: no penalty for unfinished tickets, and a route of 6 scores 18."""
