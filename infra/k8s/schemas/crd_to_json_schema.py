"""Turns CustomResourceDefinitions into the JSON schemas kubeconform reads, one file per kind
and served version: <out>/<group>/<kind>_<version>.json, strict (an object with declared
properties admits no other: a misspelt field fails, as the API server's own pruning would drop
it silently). What kubeconform's own openapi2jsonschema.py does, without its download step.
  python3 crd_to_json_schema.py OUT_DIR CRD.yaml...
Used by scripts/check-compose.sh for the operators' CRDs (docs/compose-and-kubernetes.md)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import yaml


def strict(node):
    """The schema with Kubernetes' extensions said in JSON Schema, and no unknown fields."""
    if isinstance(node, list):
        return [strict(item) for item in node]
    if not isinstance(node, dict):
        return node
    node = {key: strict(value) for key, value in node.items()}
    if node.pop("x-kubernetes-int-or-string", False):
        for key in ("type", "format"):
            node.pop(key, None)
        node["oneOf"] = [{"type": "string"}, {"type": "integer"}]
    if node.pop("nullable", False) and isinstance(node.get("type"), str):
        node["type"] = [node["type"], "null"]
    preserve = node.get("x-kubernetes-preserve-unknown-fields")
    if "properties" in node and "additionalProperties" not in node and not preserve:
        node["additionalProperties"] = False
    return node


def schemas_of(crd: dict):
    group, kind = crd["spec"]["group"], crd["spec"]["names"]["kind"].lower()
    for version in crd["spec"]["versions"]:
        if not version.get("served", True):
            continue
        schema = strict(version["schema"]["openAPIV3Schema"])
        # apiVersion and kind are checked by kubeconform's choice of this file; metadata by the API.
        schema.setdefault("properties", {}).update({"apiVersion": {"type": "string"}, "kind": {"type": "string"}, "metadata": {"type": "object"}})
        yield Path(group) / f"{kind}_{version['name']}.json", schema


def main(out: str, *crd_files: str) -> int:
    if not crd_files:
        print(__doc__)
        return 2
    written = 0
    for crd_file in crd_files:
        for document in yaml.safe_load_all(Path(crd_file).read_text()):
            if not document or document.get("kind") != "CustomResourceDefinition":
                continue
            for name, schema in schemas_of(document):
                target = Path(out) / name
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(json.dumps(schema, separators=(",", ":"), sort_keys=True))
                written += 1
    if not written:
        print(f"no CustomResourceDefinition in {', '.join(crd_files)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
