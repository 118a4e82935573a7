"""``scripts/serve`` watches the label files, and reads the labels again on each rebuild."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from schotten import labels
from schotten.site.serve import LOCALES, watch_refusals


class Server:
    """What ``watch_refusals`` uses of MkDocs' live-reload server."""

    def __init__(self, root: Path) -> None:
        self.root = str(root)
        self.watched: list[str] = []
        self.built = 0
        self.builder = self.build

    def watch(self, path: str, *args: Any, **kwargs: Any) -> None:
        self.watched.append(path)

    def build(self) -> None:
        self.built += 1


def test_the_label_files_are_watched_and_read_again_on_each_rebuild(tmp_path: Path) -> None:
    server = watch_refusals(Server(tmp_path), lambda: None)
    assert str(LOCALES) in server.watched
    assert sorted(p.name for p in LOCALES.glob("*.json")) == ["es.json", "fr.json"]
    labels.labels("fr")
    assert labels.labels.cache_info().currsize > 0
    server.builder()
    assert server.built == 1
    assert labels.labels.cache_info().currsize == 0
