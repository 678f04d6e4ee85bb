"""What reads the cards at a table, as ``[input] kind = "..."`` chooses it: the registry of reader
kinds (:mod:`~cardtable.readers.kinds`) and the shipped kinds, each in its own module (the camera,
:mod:`~cardtable.readers.camera`; the RFID readers, :mod:`~cardtable.readers.rfid`). The devices
themselves live in their packages (``vision``, ``firmware_bridge``); a kind is the application's
word on one of them: its config section, the traits the table asks about, and how it is started.
"""
