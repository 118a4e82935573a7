# The engines here are programs run by the conformance tests, not test modules.
collect_ignore_glob = ["*.py"]
