"""One module per ``cardtable`` subcommand; each defines ``register(subparsers)``."""
