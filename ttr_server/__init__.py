"""ttr_server: Ticket to Ride games over HTTP, with durable storage and a page to play in.

``ttr serve`` runs it (``ttr_core/cli_serve.py``). ``app.create_app`` builds the ASGI application;
``service.GameService`` keeps the games (``db.py``: the tables, migrated by Alembic);
``static/`` is the page. Needs the ``serve`` extra: ``pip install "ttr-engine[serve]"``.
"""
