"""The deploy steps of README.md create every Secret key a workload of any overlay reads, so an
installation that follows them does not stop at a pod that cannot start. Secrets the operators
write themselves (each MongoDB user's connection string, Strimzi's cluster CA) are not created
by hand. Run: python3 -m unittest discover --start-directory infra/k8s (check-compose.sh does)."""

from __future__ import annotations

import re
import subprocess
import unittest
from pathlib import Path

import yaml

K8S = Path(__file__).resolve().parent
OVERLAYS = sorted(path for path in (K8S / "overlays").iterdir() if path.is_dir())
OPERATOR_WRITTEN = re.compile(r"^marketplace-mongo-[a-z]+$|^marketplace-cluster-ca-cert$")


def read_secret_keys(overlay: Path) -> set[tuple[str, str]]:
    rendered = subprocess.run(["kustomize", "build", str(overlay)], check=True, capture_output=True, text=True).stdout
    found = set()
    for doc in yaml.safe_load_all(rendered):
        for ref in _refs(doc):
            if not OPERATOR_WRITTEN.match(ref[0]):
                found.add(ref)
    return found


def _refs(node):
    if isinstance(node, dict):
        ref = node.get("secretKeyRef")
        if isinstance(ref, dict):
            yield ref["name"], ref["key"]
        for value in node.values():
            yield from _refs(value)
    elif isinstance(node, list):
        for value in node:
            yield from _refs(value)


def deploy_steps() -> str:
    readme = (K8S / "README.md").read_text()
    return readme[readme.index("## Deploying") : readme.index("## Decisions")]


def created_by(steps: str, secret: str, key: str) -> bool:
    """The step creating `secret` names `key` (or builds it from ${s^^}_<SUFFIX> for each service)."""
    for block in re.split(r"\n(?=\s*kubectl -n marketplace create secret)", steps):
        if re.search(rf"create secret \w+ {re.escape(secret)}\b", block):
            if key in block:
                return True
            suffix = re.search(r"%s_([A-Z_]+)=", block)
            service = key.split("_", 1)[0].lower()
            if suffix and key.endswith("_" + suffix.group(1)) and re.search(rf"\b{service}\b", block):
                return True
    return False


class DeployStepsTest(unittest.TestCase):
    def test_every_secret_key_a_workload_reads_is_created_by_the_steps(self):
        steps = deploy_steps()
        for overlay in OVERLAYS:
            with self.subTest(overlay=overlay.name):
                missing = sorted(f"{name}/{key}" for name, key in read_secret_keys(overlay) if not created_by(steps, name, key))
                self.assertEqual(missing, [])

    def test_the_check_finds_a_missing_key(self):
        steps = deploy_steps().replace('--from-literal=SESSION_SECRET="$(openssl rand -hex 32)"', "")
        self.assertFalse(created_by(steps, "marketplace-auth", "SESSION_SECRET"))
        self.assertTrue(created_by(deploy_steps(), "marketplace-auth", "SESSION_SECRET"))
        self.assertTrue(created_by(deploy_steps(), "marketplace-kafka", "GATEWAY_KAFKA_PASSWORD"))


if __name__ == "__main__":
    unittest.main()
