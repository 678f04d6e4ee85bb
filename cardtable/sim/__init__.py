"""The table without hardware: bots that play (``simulation``), the simulated devices they play
through (``devices``: the reader twin on a pty and gpiozero's mock pins; ``camera``: the synthetic
camera read by the real vision pipeline), and ``cardtable demo`` (``demo``), which wires them to
the real table."""
