"""The subcommands of the ``blokus`` command line, one module each: its help texts, its
arguments (``add_..._command(subparsers)``) and the function that runs it."""
