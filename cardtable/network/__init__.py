"""What a table adds on the network, wiring the table's page (:mod:`cardtable.web`) and the club
publisher (:mod:`cardtable.club`) side by side, the one place that imports both:
:mod:`~cardtable.network.table` for ``cardtable run`` (from ``[web]`` and ``[club]``),
:mod:`~cardtable.network.demo` for ``cardtable demo --web/--club``.
"""
