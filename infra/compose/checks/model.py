"""The ops files read once, into plain data the checks look at (and the tests break)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from .dockerignore import DockerIgnore
from .interpolation import interpolate
from .kustomize import KustomizeError, build

# `${VAR:?message}`: a secret compose requires from the operator's .env (no default).
REQUIRED_VARIABLE = re.compile(r"\$\{([A-Za-z_]\w*):?\?")

COMPOSE_FILE = "docker-compose.yml"
COMPOSE_SCHEMA = "infra/compose/compose-spec.schema.json"
K8S_DIR = "infra/k8s/base"  # the workloads every installation shares
OVERLAYS_DIR = "infra/k8s/overlays"  # one per installation size, each rendered and checked whole
SECRETS_TEMPLATE = "secrets.example.yaml"
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when PyYAML was built with it


@dataclass
class Package:
    name: str
    directory: str  # relative to the repository root
    workspace_dependencies: list[str]


@dataclass
class Ops:
    root: Path
    compose: dict
    compose_problems: list[str]  # found while reading (YAML, interpolation)
    root_package: dict
    packages: dict[str, Package]  # by package name, every project of pnpm-workspace.yaml
    files: list[str]  # the repository's files (tracked and untracked, not git-ignored)
    kustomization: dict
    k8s_files: dict[str, list[dict]]  # file name -> documents
    k8s_objects: list[dict]  # rendered by kustomize when it is installed, else the resources
    renderer: str  # what produced k8s_objects
    read_problems: list[str] = field(default_factory=list)
    overlays: dict[str, list[dict]] = field(default_factory=dict)  # overlay name -> rendered objects
    ignores: dict[str, DockerIgnore] = field(default_factory=dict)

    def dockerignore(self, context: str) -> DockerIgnore:
        if context not in self.ignores:
            self.ignores[context] = DockerIgnore.of(self.root / context)
        return self.ignores[context]


def _yaml_documents(path: Path, problems: list[str]) -> list[dict]:
    try:
        return [doc for doc in yaml.load_all(path.read_text(), LOADER) if isinstance(doc, dict)]
    except (OSError, yaml.YAMLError) as error:
        problems.append(f"{path.name}: {error}")
        return []


def _workspace_packages(root: Path) -> dict[str, Package]:
    workspace = yaml.safe_load((root / "pnpm-workspace.yaml").read_text()) or {}
    packages: dict[str, Package] = {}
    for pattern in workspace.get("packages") or []:
        for manifest in sorted(root.glob(f"{pattern}/package.json")):
            data = json.loads(manifest.read_text())
            dependencies = {**data.get("dependencies", {}), **data.get("devDependencies", {})}
            local = [name for name, version in dependencies.items() if str(version).startswith("workspace:")]
            directory = str(manifest.parent.relative_to(root))
            packages[data.get("name", directory)] = Package(data.get("name", directory), directory, local)
    return packages


def _repository_files(root: Path, problems: list[str]) -> list[str]:
    """Tracked and new files, not what git ignores (host builds, machine state)."""
    try:
        listing = subprocess.run(
            ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
            cwd=root,
            capture_output=True,
            check=True,
        ).stdout.decode()
    except (OSError, subprocess.CalledProcessError) as error:
        problems.append(f"git ls-files failed, so the build context cannot be checked: {error}")
        return []
    return [path for path in listing.split("\0") if path and (root / path).exists()]


def render_kustomization(root: Path, directory: str = K8S_DIR) -> tuple[list[dict] | None, str, str]:
    """(objects, what rendered them, error) with kubectl's or kustomize's own renderer."""
    if shutil.which("kubectl"):
        command = ["kubectl", "kustomize", directory]
    elif shutil.which("kustomize"):
        command = ["kustomize", "build", directory]
    else:
        return None, "", ""
    result = subprocess.run(command, cwd=root, capture_output=True, text=True)
    if result.returncode != 0:
        return None, " ".join(command), result.stderr.strip()
    return (
        [doc for doc in yaml.load_all(result.stdout, LOADER) if isinstance(doc, dict)],
        " ".join(command),
        "",
    )


def load(root: Path, render: bool = True) -> Ops:
    problems: list[str] = []
    compose_problems: list[str] = []
    raw = None
    try:
        raw = yaml.load((root / COMPOSE_FILE).read_text(), LOADER)
    except (OSError, yaml.YAMLError) as error:
        compose_problems.append(f"{COMPOSE_FILE}: {error}")
    # Secrets compose requires come from the operator's .env: read the file as `docker compose
    # up` reads it once they are set. Defaults stay as committed.
    required = {name: f"<{name}>" for name in REQUIRED_VARIABLE.findall((root / COMPOSE_FILE).read_text())}
    compose = interpolate(raw, required, compose_problems) if isinstance(raw, dict) else {}

    k8s = root / K8S_DIR
    k8s_files = {path.name: _yaml_documents(path, problems) for path in sorted(k8s.glob("*.yaml"))}
    kustomization = (k8s_files.get("kustomization.yaml") or [{}])[0]
    objects = [doc for name in kustomization.get("resources") or [] for doc in k8s_files.get(name, [])]
    renderer = "read as listed: no kubectl or kustomize here"
    if render:
        rendered, command, error = render_kustomization(root)
        if error:
            problems.append(f"{command} failed: {error}")
        elif rendered is not None:
            objects, renderer = rendered, command

    overlays: dict[str, list[dict]] = {}
    for directory in sorted((root / OVERLAYS_DIR).glob("*/kustomization.yaml")):
        name, relative = directory.parent.name, f"{OVERLAYS_DIR}/{directory.parent.name}"
        rendered, command, error = render_kustomization(root, relative) if render else (None, "", "")
        if error:
            problems.append(f"{command} failed: {error}")
            continue
        if rendered is None:  # no kubectl here: our own kustomize (checks/kustomize.py)
            try:
                rendered = build(root / relative)
            except (KustomizeError, OSError, yaml.YAMLError) as failure:
                problems.append(f"{relative} does not render: {failure}")
                continue
        overlays[name] = rendered

    return Ops(
        root=root,
        compose=compose,
        compose_problems=compose_problems,
        root_package=json.loads((root / "package.json").read_text()),
        packages=_workspace_packages(root),
        files=_repository_files(root, problems),
        kustomization=kustomization,
        k8s_files=k8s_files,
        k8s_objects=objects,
        renderer=renderer,
        read_problems=problems,
        overlays=overlays,
    )
