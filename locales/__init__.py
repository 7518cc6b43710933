"""Words people read, kept out of the code that decides things (DESIGN §9).

Today one English catalogue: how a match ended (:mod:`locales.results`). The language
catalogues of wave 2 plug in here; everything above ``rules`` may import this package
(the rules core, render, the service and the adapters share it), and it imports only
``rules``.
"""

from locales.results import ResultKind, leaving_note, result_kind, result_sentence

__all__ = ["ResultKind", "leaving_note", "result_kind", "result_sentence"]
