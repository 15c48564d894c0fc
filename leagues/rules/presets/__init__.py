"""Presets: the rules of one competition format, built on the generic engines of
:mod:`leagues.rules` (ANFPES T24: :mod:`leagues.rules.presets.anfpes_t24`)."""
