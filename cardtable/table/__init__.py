"""The table: every input in, the game journalled, the table shown.

This package owns what happens at the table between the devices and the outputs: the
:class:`~cardtable.table.table.Table` that takes every input (a card laid or taken, a button
pressed, a device's sentence, an owner's request) on one road; the game it plays and its journal
(:mod:`cardtable.table.journalled_game`); what a card moved means (:mod:`cardtable.table.gestures`,
pure); the loop that feeds the table from the input threads (:mod:`cardtable.table.loop`); and
what the table shows (:mod:`cardtable.table.view`, :mod:`cardtable.table.recent`,
:mod:`cardtable.table.score_log`, :mod:`cardtable.table.face_down`, :mod:`cardtable.table.outputs`).

It imports the engine, the devices' value types and the journal; nothing above it (the CLI
commands, the web page, the club, the demo) is imported from here.
"""
