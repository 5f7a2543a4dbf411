"""The built-in rule plugins of ttr-engine (installed as ``ttr_plugins``).

One module per rule family; each is declared in the ``ttr`` entry-point group exactly as a
third-party plugin would be, and enabled by naming it in a variant file.
"""
