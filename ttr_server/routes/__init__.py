"""The HTTP API by resource, one FastAPI router a module (``app.py`` includes them):

- ``variants.py``: the variants, their rules versions and maps;
- ``games.py``: creating a game, reading it as a seat or a spectator, its record, its events;
- ``actions.py``: a seat's actions and resigning;
- ``game_page.py``: what the game page shows beside the board (moves, highlights and trails, claim checks);
- ``lobby.py``: games whose seats are taken by invitation;
- ``server.py``: the health check;
- ``pages.py``: the HTML pages and their static files.

``common.py`` has what they share: the error responses, the path and token parameters, and the
dependencies that hand a handler the app's service.
"""
