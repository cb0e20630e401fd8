"""Chunked Schnorr ATMS proving on Ray: one task per chunk proof (map), one join (reduce).

See ``python -m tools.tms_ray --help`` and README.md beside this file.
"""
