"""The lessons' machinery: the one-source build of the translations (:mod:`.build`)."""
