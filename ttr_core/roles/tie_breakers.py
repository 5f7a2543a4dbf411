"""The hooks of the ``tie-breakers`` capability: breaking a tie for the win with facts other
rules know (the winner row of docs/rules.md).

The plugin providing ``tie-breakers`` (the one choosing the winners) declares and calls
``ttr_tie_breaker`` for each tie-breaker of the variant it does not know itself. A plugin answering
the tie-breaker ``<name>`` lists ``tie-breaker:<name>`` in its ``provides``.
"""

from __future__ import annotations

from ttr_core.plugin import GameAPI, PlayerScore, hookspec

CAPABILITY = "tie-breakers"


class TieBreakerHooks:
    """The hooks of the ``tie-breakers`` capability, declared by the plugin providing it."""

    @hookspec(firstresult=True)
    def ttr_tie_breaker(self, game: GameAPI, name: str, score: PlayerScore) -> int | None:
        """Return ``score``'s player's key for the tie-breaker ``name`` (higher is better), or None if
        this plugin does not define ``name``.

        Called by the plugin providing ``tie-breakers`` for each tied player, for each tie-breaker
        the variant lists that it does not know itself. A plugin answering ``name`` lists
        ``"tie-breaker:<name>"`` in its ``provides``, and implements the hook with
        ``hookimpl(optionalhook=True)`` when it may be enabled without the plugin choosing the
        winners. Stops at first non-None result.

        Example::

            @hookimpl(optionalhook=True)
            def ttr_tie_breaker(self, game, name, score):
                if name == "fewest-stations":
                    return -self.state(game).built[score.seat]
        """


HOOKS = TieBreakerHooks
