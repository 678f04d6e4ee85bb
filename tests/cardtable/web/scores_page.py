"""A page added the way docs/adding_a_page.md says (the proof of that page, registered by
tests/cardtable/web/test_adding_a_page.py): ``/scores``, the scores for a screen across the room,
each seat's name and score in large type and the seat to act marked, nothing else.

Its HTML and script are in ``scores_page_files/``; it reads the public view from ``/events``,
like the table's own page.
"""

from pathlib import Path

from cardtable.web.public_pages import Page

FILES = Path(__file__).with_name("scores_page_files")
PAGE = Page("/scores", FILES / "scores.html", files=FILES)
