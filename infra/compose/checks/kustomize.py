"""A small kustomize of our own, for a machine without kubectl or kustomize: resources (files
and directories), components, namespace, and patches (strategic merge, by the patch's kind and
name) as infra/k8s uses them. Where kubectl is installed the checks use its renderer instead,
and a test keeps the two equal on the repository's overlays."""

from __future__ import annotations

import copy
from pathlib import Path

import yaml

LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
FILE_NAME = "kustomization.yaml"
# Lists whose entries strategic merge matches by a key instead of replacing the list.
MERGE_KEYS = {"containers": "name", "env": "name", "volumes": "name", "volumeMounts": "name", "ports": "containerPort"}


class KustomizeError(Exception):
    pass


def _documents(path: Path) -> list[dict]:
    if not path.is_file():
        raise KustomizeError(f"{path}: no such file")
    return [doc for doc in yaml.load_all(path.read_text(), LOADER) if isinstance(doc, dict)]


def merge(target, patch, key: str | None = None):
    """Strategic merge of `patch` into `target` (a copy): maps merge, keyed lists merge by key."""
    if isinstance(target, dict) and isinstance(patch, dict):
        merged = dict(target)
        for name, value in patch.items():
            merged[name] = merge(target[name], value, name) if name in target else copy.deepcopy(value)
        return merged
    if isinstance(target, list) and isinstance(patch, list) and key in MERGE_KEYS:
        by = MERGE_KEYS[key]
        merged = list(target)
        for entry in patch:
            index = next((i for i, e in enumerate(merged) if isinstance(e, dict) and e.get(by) == entry.get(by)), None)
            if index is None:
                merged.append(copy.deepcopy(entry))
            else:
                merged[index] = merge(merged[index], entry)
        return merged
    return copy.deepcopy(patch)


def _apply_patches(objects: list[dict], directory: Path, patches: list[dict]) -> list[dict]:
    for entry in patches:
        if "path" in entry:
            documents = _documents(directory / entry["path"])
        elif "patch" in entry:
            documents = [doc for doc in yaml.load_all(entry["patch"], LOADER) if isinstance(doc, dict)]
        else:
            raise KustomizeError(f"{directory / FILE_NAME}: a patch without path or patch")
        for patch in documents:
            kind, name = patch.get("kind"), (patch.get("metadata") or {}).get("name")
            matches = [i for i, doc in enumerate(objects) if doc.get("kind") == kind and doc["metadata"].get("name") == name]
            if not matches:
                raise KustomizeError(f"{directory / FILE_NAME}: patch for {kind} {name}, which no resource is")
            for index in matches:
                objects[index] = merge(objects[index], patch)
    return objects


def build(directory: Path) -> list[dict]:
    """The objects `kustomize build <directory>` would print (for the features infra/k8s uses)."""
    kustomization = (_documents(directory / FILE_NAME) or [{}])[0]
    objects: list[dict] = []
    for resource in kustomization.get("resources") or []:
        path = (directory / resource).resolve()
        objects += build(path) if path.is_dir() else _documents(path)
    for component in kustomization.get("components") or []:
        path = (directory / component).resolve()
        inner = (_documents(path / FILE_NAME) or [{}])[0]
        if inner.get("kind") != "Component":
            raise KustomizeError(f"{path / FILE_NAME}: a component must be kind Component")
        for resource in inner.get("resources") or []:
            objects += _documents(path / resource)
        objects = _apply_patches(objects, path, inner.get("patches") or [])
    objects = _apply_patches(objects, directory, kustomization.get("patches") or [])
    if kustomization.get("namespace"):
        for doc in objects:
            if doc.get("kind") != "Namespace":
                doc.setdefault("metadata", {})["namespace"] = kustomization["namespace"]
    return objects
