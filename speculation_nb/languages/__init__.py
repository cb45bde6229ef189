"""Every word a person reads: the catalogs (:mod:`.catalogs`, the ``.po`` files under
``speculation_nb/locale``) and the translator that words keys and refusals in four languages
(:mod:`.translator`).
"""
