"""The house-rule kit: what a plugin author needs to test rules (an application of the engine).

``ttr_kit.testing`` arranges positions, acts, and checks the engine's invariants and the views;
``ttr_kit.conformance`` checks a plugin written to replace a built-in one against the rules of
what it provides; ``ttr_kit.pytest_plugin`` offers the same as pytest fixtures (the ``pytest11``
entry point ``ttr``).
"""
