"""Face recognition: the camera knows a user's own, unmarked deck by its printed faces.

- :mod:`vision.faces.features`: the upright view of a card and what is compared (corner indices,
  the whole face, the ink's colour), the same for enrolment and recognition;
- :mod:`vision.faces.store`: the enrolment file (one versioned file per deck a user owns);
- :mod:`vision.faces.enrol`: enrolment from a folder of card images or from the camera;
- :mod:`vision.faces.finder`: card outlines in a changed region of a frame;
- :mod:`vision.faces.matcher`: a card's features against the enrolment, with a confidence;
- :mod:`vision.faces.recogniser`: the pipeline's recogniser for faces (:mod:`vision.recognisers`);
- :mod:`vision.faces.designs`: real deck designs (KDE's card decks) rendered for tests and demos.
"""
