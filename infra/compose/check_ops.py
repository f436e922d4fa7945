#!/usr/bin/env python3
"""Static checks of the ops files (docker-compose.yml, Dockerfile, .dockerignore, infra/k8s)
for a machine without a Docker engine. Run by scripts/check-compose.sh; needs PyYAML and
jsonschema. Prints each check and its problems; exits 1 on any problem.
docs/compose-and-kubernetes.md says what each check catches and what needs Docker instead."""

from __future__ import annotations

import sys
import time
from pathlib import Path

from checks import cluster_checks, compose_checks, dockerfile_checks, kubernetes_checks
from checks.model import COMPOSE_SCHEMA, load


def checks(ops):
    return [
        (
            f"reading: infra/k8s parses, kustomize renders the base [{ops.renderer}] and the overlays "
            f"({', '.join(ops.overlays) or 'none'}), git lists the files",
            lambda o: o.read_problems,
        ),
        (
            f"docker-compose.yml against the Compose Specification schema ({COMPOSE_SCHEMA})",
            compose_checks.check_schema,
        ),
        (
            "compose references: depends_on targets and their healthchecks, volumes, bind-mount "
            "sources, restart policies, host ports published once",
            lambda o: compose_checks.check_references(o, dockerfile_checks.has_image_healthcheck(o)),
        ),
        (
            "compose URLs to other containers name a service and the port it is built for",
            compose_checks.check_addresses,
        ),
        (
            "every folder of services/ is built by a compose service",
            compose_checks.check_every_service_is_built,
        ),
        (
            "each compose build: Dockerfile and context exist, build args match its ARGs, FROM and "
            "COPY --from resolve, COPY sources are in the context, the filtered packages exist, "
            ".dockerignore keeps what the install and build read, pnpm as in packageManager",
            dockerfile_checks.check_builds,
        ),
        (
            "Node images (Dockerfile stages, compose images) match package.json engines",
            dockerfile_checks.check_node_images,
        ),
        (
            "infra/k8s kustomization: resources exist and are all listed, the "
            "Secrets template is not applied and holds placeholders only, namespace, image entries",
            kubernetes_checks.check_kustomization,
        ),
        (
            "infra/k8s references: selectors, Service and probe ports, ConfigMap and Secret keys, "
            "volumes, Ingress backends, in-cluster URLs",
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
