"""Table configurations the tests of several folders start from (importable from every test folder)."""

#: two players of cribbage on three RFID readers (the tag registry ``tags.json`` beside it), a terminal display
RFID_CRIBBAGE = """
[game]
name = "cribbage"
players = 2
[table]
names = ["Ann", "Bob"]
[input]
kind = "rfid"
[rfid]
port = "/dev/ttyACM0"
registry = "tags.json"
readers = ["seat1", "seat2", "starter", "crib"]
[[display]]
kind = "terminal"
[journal]
path = "journal.sqlite"
"""
