"""Variant files of ttr-house-rules (every ``*.toml`` here; see the ``ttr.variants`` entry point)."""
