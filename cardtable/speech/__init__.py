"""The table speaks: plays, scores, prompts, refusals and ends said aloud with espeak-ng.

:mod:`~cardtable.speech.spec` reads ``[speech]``; :mod:`~cardtable.speech.sentences` words what
happened as a player says it, from the same public events and view the displays use;
:mod:`~cardtable.speech.policy` decides, on a clock it is given, what to say next (refusals first,
a backlog summarised); :mod:`~cardtable.speech.voice` runs espeak-ng into a sound player or into
WAV files; :mod:`~cardtable.speech.speaker` is the table output that ties them on its own thread.
"""
