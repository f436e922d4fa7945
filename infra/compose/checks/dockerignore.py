"""What a .dockerignore leaves out of the build context, by the rules of Docker's
patternmatcher: patterns relative to the context root, `*` and `?` within one path segment,
`**` across segments, a pattern that matches a directory excludes what is in it, `!` takes a
path back, and the last matching pattern wins."""

from __future__ import annotations

import re
from pathlib import Path


def _regex(pattern: str) -> re.Pattern:
    out, index = "", 0
    while index < len(pattern):
        char = pattern[index]
        if pattern.startswith("**/", index):
            out, index = out + "(?:.*/)?", index + 3
            continue
        if pattern.startswith("**", index):
            out, index = out + ".*", index + 2
            continue
        if char == "*":
            out += "[^/]*"
        elif char == "?":
            out += "[^/]"
        elif char == "[":
            end = pattern.find("]", index)
            out += pattern[index : end + 1].replace("[!", "[^") if end > 0 else re.escape(char)
            index = end if end > 0 else index
        elif char == "\\" and index + 1 < len(pattern):
            index += 1
            out += re.escape(pattern[index])
        else:
            out += re.escape(char)
        index += 1
    return re.compile(out + r"\Z")


class DockerIgnore:
    def __init__(self, text: str) -> None:
        self.known: dict[str, bool] = {}
        self.rules: list[tuple[bool, re.Pattern]] = []
        for line in text.splitlines():
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            keep = line.startswith("!")
            pattern = line[1:].strip() if keep else line
            pattern = re.sub(r"/+", "/", pattern).strip("/") or "."
            self.rules.append((keep, _regex(pattern)))

    @classmethod
    def of(cls, context: Path) -> DockerIgnore:
        path = context / ".dockerignore"
        return cls(path.read_text() if path.is_file() else "")

    def excludes(self, path: str) -> bool:
        if path not in self.known:
            self.known[path] = self._excludes(path)
        return self.known[path]

    def _excludes(self, path: str) -> bool:
        parts = path.strip("/").split("/")
        prefixes = ["/".join(parts[: end + 1]) for end in range(len(parts))]
        excluded = False
        for keep, regex in self.rules:
            if any(regex.match(prefix) for prefix in prefixes):
                excluded = not keep
        return excluded
