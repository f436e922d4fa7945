#!/usr/bin/env python3
"""What no off-the-shelf tool checks in the ops files: that infra/k8s agrees with the code and
with docker-compose.yml (topics, Kafka principals and their ACLs, database users, the ports the
images are built for), that every name an object refers to exists, and that every workload can
be scaled, drained and spread. The files themselves are checked by the tools operators use
(scripts/check-compose.sh: docker compose config, kustomize, kubeconform, hadolint); this reads
what those tools resolve (`docker compose config`, `kustomize build`). Prints each check and its
problems; exits 1 on any problem."""

from __future__ import annotations

import sys
import time
from pathlib import Path

from checks import cluster_checks, kubernetes_checks
from checks.model import load


def checks(ops):
    return [
        (
            f"reading: docker compose config resolves docker-compose.yml, {ops.renderer} renders the base "
            f"and the overlays ({', '.join(ops.overlays) or 'none'}), git lists the files",
            lambda o: o.read_problems,
        ),
        (
            "infra/k8s kustomization: every manifest is listed, the Secrets template is not applied "
            "and holds placeholders only, the namespace exists, every image gets a registry and tag",
            kubernetes_checks.check_kustomization,
        ),
        (
            "infra/k8s references: selectors, Service and probe ports, ConfigMap and Secret keys, "
            "volumes, HTTPRoute and Ingress backends, in-cluster URLs",
            kubernetes_checks.check_references,
        ),
        (
            "infra/k8s deploys the services compose builds, on the ports they are built for",
            kubernetes_checks.check_same_services_as_compose,
        ),
        (
            "infra/k8s workloads, base and every overlay: an autoscaler per Deployment, a disruption "
            "budget, requests and limits (heap inside), liveness /healthz, readiness /readyz, spread "
            "across nodes; the gateway lists every notifications pod",
            cluster_checks.check_workload_operations,
        ),
        (
            "infra/k8s engines in every overlay: a KafkaTopic for every topic the code uses, a "
            "KafkaUser with kafka-acls.ts's ACLs per principal, a MongoDB user per service database",
            cluster_checks.check_engines,
        ),
    ]


def main() -> int:
    started = time.monotonic()
    root = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parents[2]).resolve()
    ops = load(root)
    entries = checks(ops)
    failed = 0
    for title, check in entries:
        problems = check(ops)
        print(f"  {'FAIL' if problems else 'ok  '} {title}")
        for problem in problems:
            print(f"         - {problem}")
        failed += bool(problems)
    print(f"  {len(entries) - failed} of {len(entries)} checks passed in {time.monotonic() - started:.1f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
