"""The web front end: ``kassen serve`` (FastAPI), its storage and its static page."""
