"""The ``ttr`` command line (an application of the engine): ``main`` plays, replays, scores and checks
variants; ``analysis`` rescores, simulates and compares; ``serve`` starts the game server."""
