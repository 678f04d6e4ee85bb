"""What every page cardtable serves is made of, below both the table's page
(:mod:`cardtable.web`) and the club's (:mod:`cardtable.club`), which never import each other.

What the public may read: :mod:`~cardtable.pages.viewdata` turns the displays'
:class:`~hardware.view.TableView` into JSON, :mod:`~cardtable.pages.records` makes a journalled
game's public record. How it is served: :mod:`~cardtable.pages.push` fans messages out as
server-sent events, :mod:`~cardtable.pages.limits` caps request bodies,
:mod:`~cardtable.pages.files` holds the files every page shares (served at ``/common``) and the
headers pages are served with, :mod:`~cardtable.pages.server` serves an app from a thread.
"""
