"""The kit every package builds its part of the table configuration with: the one shape of a
config section (:mod:`config_kit.section`: a name, a parser, a typed spec, and optionally what
this machine must hold for it) and the typed reads a parser is a row of (:mod:`config_kit.reads`).

It sits below ``vision``, ``firmware_bridge``, ``hardware`` and ``cardtable`` so that each of them
exports its own section and the application only lists them; it imports the standard library and
:mod:`engine.outside_files` only.
"""
