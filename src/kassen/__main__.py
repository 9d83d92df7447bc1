"""``python -m kassen``: the ``kassen`` command."""

from kassen.cli.main import main

main()
