"""The ops files read once, into plain data the checks look at (and the tests break)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import yaml

COMPOSE_FILE = "docker-compose.yml"
K8S_DIR = "infra/k8s/base"  # the workloads every installation shares
OVERLAYS_DIR = "infra/k8s/overlays"  # one per installation size, each rendered and checked whole
SECRETS_TEMPLATE = "secrets.example.yaml"
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when PyYAML was built with it
# The secrets compose requires from the operator's .env: placeholders, so the file resolves.
PLACEHOLDER_SECRETS = {"ADMIN_PASSWORD": "<ADMIN_PASSWORD>", "MINIO_ROOT_PASSWORD": "<MINIO_ROOT_PASSWORD>"}


@dataclass
class Package:
    name: str
    directory: str  # relative to the repository root
    workspace_dependencies: list[str]


@dataclass
class Ops:
    root: Path
    compose: dict  # docker-compose.yml as `docker compose config` resolves it
    root_package: dict
    packages: dict[str, Package]  # by package name, every project of pnpm-workspace.yaml
    files: list[str]  # the repository's files (tracked and untracked, not git-ignored)
    kustomization: dict
    k8s_files: dict[str, list[dict]]  # file name -> documents
    k8s_objects: list[dict]  # rendered by kustomize
    renderer: str  # what produced k8s_objects
    read_problems: list[str] = field(default_factory=list)
    overlays: dict[str, list[dict]] = field(default_factory=dict)  # overlay name -> rendered objects


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
    """(objects, what rendered them, error) with kustomize itself (or kubectl's copy of it)."""
    if shutil.which("kustomize"):
        command = ["kustomize", "build", directory]
    elif shutil.which("kubectl"):
        command = ["kubectl", "kustomize", directory]
    else:
        return None, "kustomize", "neither kustomize nor kubectl is installed (scripts/check-compose.sh installs kustomize)"
    result = subprocess.run(command, cwd=root, capture_output=True, text=True)
    if result.returncode != 0:
        return None, " ".join(command), result.stderr.strip()
    return (
        [doc for doc in yaml.load_all(result.stdout, LOADER) if isinstance(doc, dict)],
        " ".join(command),
        "",
    )


def resolved_compose(root: Path, problems: list[str]) -> dict:
    """docker-compose.yml as Docker Compose itself reads it (`docker compose config`)."""
    try:
        result = subprocess.run(
            ["docker", "compose", "-f", COMPOSE_FILE, "config", "--format", "json"],
            cwd=root,
            capture_output=True,
            text=True,
            env={**os.environ, **PLACEHOLDER_SECRETS},
        )
    except OSError as error:
        problems.append(f"docker compose config: {error}")
        return {}
    if result.returncode != 0:
        problems.append(f"docker compose config failed: {result.stderr.strip()}")
        return {}
    return json.loads(result.stdout)


def load(root: Path) -> Ops:
    problems: list[str] = []
    compose = resolved_compose(root, problems)
    k8s = root / K8S_DIR
    k8s_files = {path.name: _yaml_documents(path, problems) for path in sorted(k8s.glob("*.yaml"))}
    kustomization = (k8s_files.get("kustomization.yaml") or [{}])[0]
    objects: list[dict] = []
    rendered, renderer, error = render_kustomization(root)
    if error:
        problems.append(f"{renderer} failed: {error}")
    elif rendered is not None:
        objects = rendered

    overlays: dict[str, list[dict]] = {}
    for directory in sorted((root / OVERLAYS_DIR).glob("*/kustomization.yaml")):
        name, relative = directory.parent.name, f"{OVERLAYS_DIR}/{directory.parent.name}"
        rendered, command, error = render_kustomization(root, relative)
        if error:
            problems.append(f"{command} failed: {error}")
            continue
        overlays[name] = rendered or []

    return Ops(
        root=root,
        compose=compose,
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
