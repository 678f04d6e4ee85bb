"""The table's own web page: the public view pushed live to phones, TVs and streaming overlays,
the journal's history, and the owner's pages behind a PIN.

:mod:`~cardtable.web.spec` reads ``[web]``; :mod:`~cardtable.web.viewdata` turns the displays'
:class:`~hardware.view.TableView` into the JSON the page renders; :mod:`~cardtable.web.push`
fans messages out as server-sent events; :mod:`~cardtable.web.app` is the Starlette app;
:mod:`~cardtable.web.owner` runs the owner's requests on the table's own thread;
:mod:`~cardtable.web.server` serves an app with uvicorn from a thread.
"""
