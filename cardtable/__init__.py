"""cardtable, the application: configuration, the controller loop, the journal, the view and the CLI."""

__version__ = "0.1.0"
