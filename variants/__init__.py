"""The variant files and map files shipped with ttr-engine (installed as ``ttr_variants``)."""
