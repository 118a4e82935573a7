"""The conformance suite: vectors any Schotten Totten engine can be tested against, and the
JSON Lines protocol it is tested through.

- :mod:`~schotten.conformance.vectors` makes the suite's vectors with this engine (seeded);
  :mod:`~schotten.conformance.suite` writes and reads the suite's files.
- :mod:`~schotten.conformance.protocol` answers the protocol (``schotten conformance serve``).
- :mod:`~schotten.conformance.client` talks to an engine; :mod:`~schotten.conformance.runner`
  drives it through the suite (``schotten conformance run --engine CMD``), and
  :mod:`~schotten.conformance.checks` compares its answers to each vector.
- :mod:`~schotten.conformance.installed` finds the suite installed with the package;
  :mod:`~schotten.conformance.archive` zips it for the site;
  :mod:`~schotten.conformance.agreement` keeps the table of engines that agree with this one.

The suite, its formats and the protocol are described in ``conformance/README.md``.
"""

from schotten.conformance.wire import PROTOCOL, SUITE_FORMAT

__all__ = ["PROTOCOL", "SUITE_FORMAT"]
