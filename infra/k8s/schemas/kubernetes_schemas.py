"""Copies the Kubernetes API's JSON schemas that the kubernetes-validate package (PyPI) ships into
a folder kubeconform reads: each kind's file names the shared definitions by a URL of its own
(`$id` https://kubernetes.io/api/..., `$ref` /api/_definitions.json#...), which kubeconform would
try to download; here they point at the sibling _definitions.json file instead.
  python3 kubernetes_schemas.py SOURCE_DIR OUT_DIR
(SOURCE_DIR: kubernetes_validate/kubernetes-json-schema/v<version>-local-strict). Used by
scripts/check-compose.sh."""

from __future__ import annotations

import json
import sys
from pathlib import Path


def local(node, inside_definitions: bool):
    if isinstance(node, list):
        return [local(item, inside_definitions) for item in node]
    if not isinstance(node, dict):
        return node
    node = {key: local(value, inside_definitions) for key, value in node.items() if key != "$id"}
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("/api/_definitions.json#"):
        node["$ref"] = ref[len("/api/_definitions.json") :] if inside_definitions else ref[len("/api/") :]
    return node


def main(source: str, out: str) -> int:
    files = sorted(Path(source).glob("*.json"))
    if not files:
        print(f"no schema in {source}")
        return 1
    Path(out).mkdir(parents=True, exist_ok=True)
    for file in files:
        schema = local(json.loads(file.read_text()), file.name == "_definitions.json")
        (Path(out) / file.name).write_text(json.dumps(schema, separators=(",", ":")))
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
