"""The one packaging setting ``pyproject.toml`` cannot say: the conformance suite.

The suite lives at the repository's root (``conformance/``, where its readers, its tests and
``schotten conformance export`` expect it) and ships inside the package as the data package
``schotten.conformance.data`` (its folders as sub-packages), so that ``pip install schotten``
gives the runner and its vectors: ``schotten conformance run`` finds them without the repository.
"""

from setuptools import find_namespace_packages, setup

SUITE = "schotten.conformance.data"
# Its folders are packages too (their files: [tool.setuptools.package-data] in pyproject.toml).
suite = [
    SUITE,
    *(
        f"{SUITE}.{folder}"
        for folder in find_namespace_packages("conformance", exclude=["*__pycache__"])
    ),
]

setup(
    packages=[*find_namespace_packages("engine", include=["schotten*"]), *suite],
    package_dir={"": "engine", SUITE: "conformance"},
)
