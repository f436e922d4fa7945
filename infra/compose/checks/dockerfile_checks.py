"""The images compose builds: everything a build takes from outside the Dockerfile exists,
namely its base images, its build arguments, the stages and files it copies, and the
workspace packages it builds, inside the build context that .dockerignore leaves."""

from __future__ import annotations

import glob
import re
from pathlib import Path

from . import dockerfile
from .compose_checks import build_args, services
from .model import Ops

# pnpm and turbo read these before any package: a frozen install fails without them.
WORKSPACE_FILES = ("package.json", "pnpm-lock.yaml", "pnpm-workspace.yaml", ".npmrc", "turbo.json")
# Tests and prose: a .dockerignore may leave them out, since no build step reads them.
NOT_BUILT = re.compile(r"\.test\.[cm]?[jt]sx?$|\.md$|/(test|__tests__)/")
FILTER = re.compile(r"--filter=([@\w./${}-]+?)(?:\.\.\.)?(?=[\"'\s;]|$)")


def _label(ops: Ops, path: Path) -> str:
    return str(path.relative_to(ops.root)) if path.is_relative_to(ops.root) else str(path)


def build_of(ops: Ops, service: dict) -> tuple[str, Path]:
    """(context, Dockerfile path) of a compose service's build, both from the repository root."""
    build = service["build"]
    context = build if isinstance(build, str) else build.get("context", ".")
    name = "Dockerfile" if isinstance(build, str) else build.get("dockerfile", "Dockerfile")
    return context, (ops.root / context / name)


def has_image_healthcheck(ops: Ops):
    def check(service: dict) -> bool:
        if "build" not in service:
            return False
        _, path = build_of(ops, service)
        if not path.is_file():
            return False
        last = dockerfile.parse(path).stages[-1]
        return any(i.keyword == "HEALTHCHECK" and i.arguments.upper() != "NONE" for i in last.instructions)

    return check


def node_major(ops: Ops) -> str | None:
    engines = (ops.root_package.get("engines") or {}).get("node", "")
    match = re.search(r"\d+", engines)
    return match.group(0) if match else None


def check_node_images(ops: Ops) -> list[str]:
    """Every Node image (service bases and compose images) runs the Node major of package.json's engines."""
    wanted = node_major(ops)
    if wanted is None:
        return ["package.json has no engines.node to compare the Node images with"]
    images: list[tuple[str, str]] = []
    for name, service in services(ops).items():
        if isinstance(service.get("image"), str) and "build" not in service:
            images.append((f"docker-compose.yml services.{name}.image", service["image"]))
        if "build" in service and build_of(ops, service)[1].is_file():
            parsed = dockerfile.parse(build_of(ops, service)[1])
            values = {**parsed.global_args, **build_args(service)}
            stage_names = {stage.name for stage in parsed.stages}
            for stage in parsed.stages:
                base = parsed.expand(stage.base, values)
                if base not in stage_names:
                    images.append((f"{_label(ops, parsed.path)}:{stage.line} (for {name})", base))
    problems = []
    for where, image in images:
        repository, _, tag = image.partition(":")
        if repository.split("/")[-1] == "node" and not tag.startswith(f"{wanted}-") and tag != wanted:
            problems.append(f"{where}: {image} is not Node {wanted} (package.json engines)")
    return problems


def _dockerfile_problems(ops: Ops, service: dict) -> list[str]:
    context, path = build_of(ops, service)
    if not (ops.root / context).is_dir():
        return [f"context {context!r} is not a directory"]
    if not path.is_file():
        return [f"{_label(ops, path)} does not exist"]
    parsed = dockerfile.parse(path)
    label = _label(ops, path)
    args = build_args(service)
    declared = parsed.arguments()
    values = {**declared, **args}
    ignore = ops.dockerignore(context)
    problems = []

    for arg, default in declared.items():
        if default is None and arg not in args and arg not in dockerfile.AUTOMATIC_ARGS:
            problems.append(f"build args: {label} needs {arg} (it has no default)")
    for arg in args:
        if arg not in declared:
            problems.append(f"build args: {label} declares no ARG {arg} (Docker ignores it)")

    earlier: set[str] = set()
    for index, stage in enumerate(parsed.stages):
        base = parsed.expand(stage.base, {**parsed.global_args, **args})
        if "$" in base:
            problems.append(f"{label}:{stage.line}: FROM {stage.base} has no value (a global ARG with a default)")
        for instruction in stage.instructions:
            at = f"{label}:{instruction.line}"
            if instruction.keyword == "<unfinished>":
                problems.append(f"{at}: the file ends inside a continued line")
            if instruction.keyword not in ("COPY", "ADD"):
                continue
            source_stage = instruction.flags().get("from")
            if source_stage is not None:
                source_stage = parsed.expand(source_stage, values)
                if source_stage not in earlier and not re.search(r"[:/]", source_stage):
                    problems.append(
                        f"{at}: --from={source_stage} is no earlier stage (BuildKit would pull an image of that name)"
                    )
                continue
            sources = [word for word in instruction.words() if not word.startswith("--")][:-1]
            for source in sources:
                source = parsed.expand(source, values).lstrip("/") or "."
                matches = [Path(p) for p in glob.glob(str(ops.root / context / source))]
                relative = [str(p.relative_to(ops.root / context)) for p in matches]
                if not matches or (source != "." and all(ignore.excludes(p) for p in relative)):
                    problems.append(f"{at}: {instruction.keyword} {source}: not in the build context")
        earlier |= {stage.name or "", str(index)}

    pnpm = ops.root_package.get("packageManager", "").partition("@")[2]
    if "PNPM_VERSION" in declared and declared["PNPM_VERSION"] != pnpm:
        problems.append(f"{label}: PNPM_VERSION {declared['PNPM_VERSION']} is not package.json's pnpm@{pnpm}")

    runs = " ".join(i.arguments for stage in parsed.stages for i in stage.instructions if i.keyword == "RUN")
    wanted = {parsed.expand(found, values) for found in FILTER.findall(runs)}
    for package in sorted(wanted - set(ops.packages)):
        problems.append(f"the build filters on {package}, which is not a package of the workspace")
    problems += _missing_inputs(ops, context, ignore, wanted & set(ops.packages))
    return problems


def _missing_inputs(ops: Ops, context: str, ignore, wanted: set[str]) -> list[str]:
    """A frozen install needs the workspace files and every project's package.json; turbo's
    build needs the sources and settings of the filtered packages and of their workspace
    dependencies."""
    prefix = "" if context in (".", "") else context.rstrip("/") + "/"
    problems = []
    for name in WORKSPACE_FILES:
        if prefix + name not in ops.files or ignore.excludes(name):
            problems.append(f"{name} is not in the build context")
    closure, todo = set(), list(wanted)
    while todo:
        package = ops.packages.get(todo.pop())
        if package and package.name not in closure:
            closure.add(package.name)
            todo += package.workspace_dependencies
    needed = {package.directory + "/package.json" for package in ops.packages.values()}
    folders = tuple(ops.packages[name].directory + "/" for name in closure)
    needed |= {path for path in ops.files if path.startswith(folders) and not NOT_BUILT.search(path)}
    left_out: dict[str, int] = {}
    for path in needed:
        if path.startswith(prefix) and ignore.excludes(path[len(prefix) :]):
            owner = next((p.directory for p in ops.packages.values() if path.startswith(p.directory + "/")), path)
            left_out[owner] = left_out.get(owner, 0) + 1
    if left_out:
        shown = ", ".join(f"{owner} ({n} file{'s' if n > 1 else ''})" for owner, n in sorted(left_out.items()))
        problems.append(f".dockerignore leaves out what the build reads: {shown}")
    return problems


def check_builds(ops: Ops) -> list[str]:
    """One line per problem, naming every compose service whose build has it."""
    builds_with: dict[str, list[str]] = {}
    for name, service in services(ops).items():
        for problem in _dockerfile_problems(ops, service) if "build" in service else []:
            builds_with.setdefault(problem, []).append(name)
    return [f"services {', '.join(names)}: {problem}" for problem, names in builds_with.items()]
