"""cardtable, the application: configuration, the table (:mod:`cardtable.table`), the journal and the CLI."""

__version__ = "0.1.0"
