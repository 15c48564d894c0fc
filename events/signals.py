"""Signals of the events kernel, for the layers above to act on what a lower layer did
without the lower one importing them (docs/architecture.md "Layers").

``results_approved``: sent by ``penalties.services.set_results_approved`` inside its
transaction, ``sender`` the ``Event`` class, with ``event`` and ``approved`` (``True``:
approved, ``False``: reopened). The VEKN link (``events.vekn_push``) queues the results.
"""

from django.dispatch import Signal

results_approved = Signal()
