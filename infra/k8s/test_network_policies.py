"""The NetworkPolicies of every overlay, as kustomize renders them: each egress names its peers.
An egress rule without `to:` admits every address on its ports (the database's, Kafka's, any
host's on 443), so a compromised pod could reach anything there; an address block reaching
inside (a private range, the cloud metadata endpoint) is as open. Run:
python3 -m unittest discover --start-directory infra/k8s (scripts/check-compose.sh does)."""

from __future__ import annotations

import ipaddress
import subprocess
import unittest
from pathlib import Path

import yaml

K8S = Path(__file__).resolve().parent
OVERLAYS = sorted(path for path in (K8S / "overlays").iterdir() if path.is_dir())
INSIDE = [ipaddress.ip_network(block) for block in ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "169.254.0.0/16")]
BROKERS = {"strimzi.io/cluster": "marketplace", "strimzi.io/pool-name": "brokers"}
MONGODB = {"app": "marketplace-mongodb-svc"}
# The Kubernetes API server has no pod to select and an address of the cluster's own: the only
# egress by port alone, for the pods that must read it: Strimzi's entity operator, and the
# MongoDB members (their readiness probe reads the replica set's Secret there).
API_SERVER_POLICIES = {
    "kafka-entity-operator-api": {"strimzi.io/name": "marketplace-entity-operator"},
    "mongodb-api-server": MONGODB,
}


def policies(overlay: Path) -> dict[str, dict]:
    # kustomize itself, which scripts/check-compose.sh installs (kubectl is not on every machine).
    rendered = subprocess.run(["kustomize", "build", str(overlay)], check=True, capture_output=True, text=True).stdout
    return {doc["metadata"]["name"]: doc for doc in yaml.safe_load_all(rendered) if doc and doc.get("kind") == "NetworkPolicy"}


def egress_problems(policy: dict) -> list[str]:
    name, problems = policy["metadata"]["name"], []
    for rule in policy["spec"].get("egress") or []:
        peers = rule.get("to") or []
        if not peers:
            problems.append(f"{name}: egress on {rule.get('ports')} to any address")
        for peer in peers:
            block = peer.get("ipBlock")
            if not block:
                continue
            excepted = [ipaddress.ip_network(cidr) for cidr in block.get("except") or []]
            for inside in INSIDE:
                if ipaddress.ip_network(block["cidr"]).overlaps(inside) and not any(inside.subnet_of(e) for e in excepted):
                    problems.append(f"{name}: ipBlock {block['cidr']} reaches {inside}")
    return problems


def peers_on(policy: dict, port: int) -> list[dict]:
    return [peer for rule in policy["spec"].get("egress") or [] if any(p.get("port") == port for p in rule.get("ports") or []) for peer in rule.get("to") or []]


class NetworkPoliciesTest(unittest.TestCase):
    def test_every_egress_names_its_peers_and_none_reaches_inside_by_address(self):
        for overlay in OVERLAYS:
            with self.subTest(overlay=overlay.name):
                found = policies(overlay)
                self.assertIn("services", found)
                self.assertEqual([p for name, policy in found.items() if name not in API_SERVER_POLICIES for p in egress_problems(policy)], [])
                for name, selector in API_SERVER_POLICIES.items():
                    self.assertEqual(found[name]["spec"]["podSelector"]["matchLabels"], selector)
                    self.assertEqual({p["port"] for rule in found[name]["spec"]["egress"] for p in rule["ports"]}, {443, 6443})

    def test_the_database_and_kafka_only_to_their_pods(self):
        for overlay in OVERLAYS:
            found = policies(overlay)
            with self.subTest(overlay=overlay.name):
                self.assertEqual([peer["podSelector"]["matchLabels"] for peer in peers_on(found["services"], 27017)], [MONGODB])
                self.assertEqual([peer["podSelector"]["matchLabels"] for peer in peers_on(found["services"], 9092)], [BROKERS])
                self.assertEqual([peer["podSelector"]["matchLabels"] for peer in peers_on(found["gateway"], 9092)], [BROKERS])
                # HTTPS leaves only for the services that need it: pictures and snapshots, Web Push.
                self.assertEqual(peers_on(found["services"], 443), [])
                self.assertEqual(peers_on(found["gateway"], 443), [])
                selectors = {name: policy["spec"]["podSelector"] for name, policy in found.items() if peers_on(policy, 443)}
                self.assertEqual(sorted(selectors), ["object-storage", "web-push"])

    def test_the_check_finds_an_open_egress(self):
        open_rule = {"metadata": {"name": "x"}, "spec": {"egress": [{"ports": [{"port": 27017}]}]}}
        inside = {"metadata": {"name": "y"}, "spec": {"egress": [{"to": [{"ipBlock": {"cidr": "0.0.0.0/0"}}]}]}}
        self.assertEqual(len(egress_problems(open_rule)), 1)
        self.assertEqual(len(egress_problems(inside)), 4)


if __name__ == "__main__":
    unittest.main()
