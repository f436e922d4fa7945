"""A Dockerfile read into stages, enough to check what a build needs from outside: the base
images, the build arguments, the files copied from the context, the stages copied from."""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path

# Filled in by BuildKit itself; declaring them without a value is how a Dockerfile uses them.
_PROXIES = ("HTTP_PROXY", "HTTPS_PROXY", "FTP_PROXY", "NO_PROXY", "ALL_PROXY")
AUTOMATIC_ARGS = {f"{kind}{part}" for kind in ("BUILD", "TARGET") for part in ("PLATFORM", "OS", "ARCH", "VARIANT")}
AUTOMATIC_ARGS |= {*_PROXIES, *(name.lower() for name in _PROXIES)}
REFERENCE = re.compile(r"\$\{(\w+)(?::[-+][^}]*)?\}|\$(\w+)")


@dataclass
class Instruction:
    keyword: str
    arguments: str
    line: int

    def words(self) -> list[str]:
        return shlex.split(self.arguments, comments=False, posix=True)

    def flags(self) -> dict[str, str]:
        return dict(word[2:].partition("=")[::2] for word in self.words() if word.startswith("--"))


@dataclass
class Stage:
    base: str  # as written, e.g. ${NODE_IMAGE}
    name: str | None
    line: int
    instructions: list[Instruction] = field(default_factory=list)


@dataclass
class Dockerfile:
    path: Path
    global_args: dict[str, str | None]
    stages: list[Stage]

    def arguments(self) -> dict[str, str | None]:
        """Every ARG the file declares, with its default (None: no default)."""
        found = dict(self.global_args)
        for stage in self.stages:
            for instruction in stage.instructions:
                if instruction.keyword == "ARG":
                    name, sep, default = instruction.arguments.partition("=")
                    found.setdefault(name.strip(), default.strip().strip("\"'") if sep else None)
        return found

    def expand(self, text: str, values: dict[str, str | None]) -> str:
        return REFERENCE.sub(lambda m: values.get(m.group(1) or m.group(2)) or m.group(0), text)


def instructions_of(text: str) -> list[Instruction]:
    found: list[Instruction] = []
    pending, start = "", 0
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if stripped.startswith("#") or (not pending and not stripped):
            continue  # comment lines may sit inside a continued instruction, and are dropped
        if not pending:
            start = number
        if stripped.endswith("\\"):
            pending += stripped[:-1] + " "
            continue
        keyword, _, rest = (pending + stripped).partition(" ")
        found.append(Instruction(keyword.upper(), re.sub(r"\s+", " ", rest).strip(), start))
        pending = ""
    if pending:
        found.append(Instruction("<unfinished>", pending, start))
    return found


def parse(path: Path) -> Dockerfile:
    global_args: dict[str, str | None] = {}
    stages: list[Stage] = []
    for instruction in instructions_of(path.read_text()):
        if instruction.keyword == "FROM":
            words = [w for w in instruction.words() if not w.startswith("--")]
            name = words[2] if len(words) >= 3 and words[1].upper() == "AS" else None
            stages.append(Stage(words[0] if words else "", name, instruction.line))
        elif not stages:
            if instruction.keyword == "ARG":
                name, sep, default = instruction.arguments.partition("=")
                global_args[name.strip()] = default.strip().strip("\"'") if sep else None
        else:
            stages[-1].instructions.append(instruction)
    return Dockerfile(path, global_args, stages)
