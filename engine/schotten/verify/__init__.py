"""Exhaustive verification of the claim prover: position spaces, an independent brute force,
and ``schotten verify`` on a Dask cluster (verification/README.md).

Only :mod:`schotten.verify.run` imports Dask (the optional extra ``schotten[verify]``); the rest
is standard library, like the engine.
"""
