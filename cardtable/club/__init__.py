"""A club of tables on one MQTT broker: each table publishes its public view and its games
(:mod:`~cardtable.club.publisher`), and ``cardtable club serve`` (:mod:`~cardtable.club.server`)
shows every table live with the evening's standings, kept in its own SQLite
(:mod:`~cardtable.club.store`). Topics and the checks on everything read from the broker live
in :mod:`~cardtable.club.topics`; standings in :mod:`~cardtable.club.standings`.
"""
