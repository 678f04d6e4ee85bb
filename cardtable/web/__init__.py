"""The table's own web page: the public view pushed live to phones, TVs and streaming overlays,
the journal's history, and the owner's pages behind a PIN.

:mod:`~cardtable.web.spec` reads ``[web]``; :mod:`~cardtable.web.app` is the Starlette app;
:mod:`~cardtable.web.page` serves it as one of the table's displays;
:mod:`~cardtable.web.owner` runs the owner's requests on the table's own thread. What it shares
with the club's page (the view's JSON, the public game records, server-sent events, the body
limit, the shared files and headers, the server thread) is in :mod:`cardtable.pages`.
"""
