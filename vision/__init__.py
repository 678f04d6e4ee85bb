"""Camera input: cards seen by a camera become :class:`engine.table_events.TableEvent` values.

The entry point for the application is :class:`vision.pipeline.Pipeline`: build it from the
``[vision]`` section of the table config (:func:`vision.config.load_vision_config`) and hand it
every camera frame with the time it was taken; it returns the table events that frame produced.
The rest of the package: marker payloads (:mod:`vision.markers`), the card renderer shared by
the printable PDFs and the synthetic camera (:mod:`vision.render`, :mod:`vision.printing`), the
recogniser protocol and its two recognisers (:mod:`vision.recognisers`: markers read by the
decoders of :mod:`vision.decoders` in :mod:`vision.marker_recogniser`, faces in
:mod:`vision.faces`), calibration and zones (:mod:`vision.calibration`,
:mod:`vision.zones`), change detection (:mod:`vision.changes`), the tracker
(:mod:`vision.tracker`), frame sources (:mod:`vision.sources`) and, apart, the synthetic table camera
(:mod:`vision.sim`).
"""
