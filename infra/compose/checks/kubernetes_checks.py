"""infra/k8s: the kustomization renders (kubectl's own kustomize when installed), and every
name an object refers to resolves: selectors, ports, ConfigMap and Secret keys, volumes,
Services behind the Ingress and behind the URLs the gateway is given."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from .model import K8S_DIR, SECRETS_TEMPLATE, Ops

_URL = re.compile(r"^[a-z][a-z0-9+.-]*://(?:[^@/]*@)?([A-Za-z0-9_.-]+):(\d+)")


def peer_address(value: str) -> tuple[str, str] | None:
    """(host, port) of a URL to a bare host name: a Service in the cluster."""
    match = _URL.match(value)
    if not match or "." in match.group(1) or match.group(1) == "localhost":
        return None
    return match.group(1), match.group(2)


def services(ops: Ops) -> dict[str, dict]:
    """docker-compose.yml's services as `docker compose config` resolves them."""
    return {name: service for name, service in (ops.compose.get("services") or {}).items() if isinstance(service, dict)}


def build_args(service: dict) -> dict[str, str]:
    args = (service.get("build") or {}).get("args") or {}
    return {key: "" if value is None else str(value) for key, value in args.items()}


def _of_kind(objects: list[dict], kind: str) -> dict[str, dict]:
    return {(doc.get("metadata") or {}).get("name"): doc for doc in objects if doc.get("kind") == kind}


WORKLOAD_KINDS = ("Deployment", "StatefulSet")


def _workloads(objects: list[dict]) -> dict[str, dict]:
    """Deployments and StatefulSets (notifications: each pod addressed by name), by name."""
    found: dict[str, dict] = {}
    for kind in WORKLOAD_KINDS:
        found.update(_of_kind(objects, kind))
    return found


def _pod(deployment: dict) -> tuple[dict, dict]:
    """(labels, spec) of a workload's pod template."""
    template = (deployment.get("spec") or {}).get("template") or {}
    return (template.get("metadata") or {}).get("labels") or {}, template.get("spec") or {}


def _container_ports(deployment: dict) -> list[dict]:
    return [port for c in _pod(deployment)[1].get("containers") or [] for port in c.get("ports") or []]


@dataclass
class Cluster:
    """What the manifests define, by name: what references must resolve to."""

    configmaps: dict[str, set[str]]
    secrets: dict[str, set[str]]  # the Secrets template's, since real Secrets are never in git
    deployments: dict[str, dict]
    services: dict[str, dict]

    @classmethod
    def of(cls, ops: Ops) -> Cluster:
        secret_documents = ops.k8s_files.get(SECRETS_TEMPLATE, []) + ops.k8s_objects
        return cls(
            configmaps={name: set(d.get("data") or {}) for name, d in _of_kind(ops.k8s_objects, "ConfigMap").items()},
            secrets={
                **operator_secrets(ops.k8s_objects),
                **{
                    name: {*(d.get("data") or {}), *(d.get("stringData") or {})}
                    for name, d in _of_kind(secret_documents, "Secret").items()
                },
            },
            deployments=_workloads(ops.k8s_objects),
            services=_of_kind(ops.k8s_objects, "Service"),
        )

    def service_has_port(self, name: str, port) -> bool:
        ports = ((self.services.get(name) or {}).get("spec") or {}).get("ports") or []
        return any(port in (entry.get("name"), entry.get("port")) for entry in ports)


def operator_secrets(objects: list[dict]) -> dict[str, set[str]]:
    """The Secrets the engines' operators write (never in git): each MongoDB user's connection
    string, and Strimzi's cluster CA certificate."""
    secrets: dict[str, set[str]] = {}
    for mongodb in _of_kind(objects, "MongoDBCommunity").values():
        for user in (mongodb.get("spec") or {}).get("users") or []:
            if user.get("connectionStringSecretName"):
                secrets[user["connectionStringSecretName"]] = {
                    "connectionString.standard", "connectionString.standardSrv", "username", "password"
                }
    for name in _of_kind(objects, "Kafka"):
        secrets[f"{name}-cluster-ca-cert"] = {"ca.crt", "ca.p12", "ca.password"}
    return secrets


def check_kustomization(ops: Ops) -> list[str]:
    problems: list[str] = []
    resources = ops.kustomization.get("resources") or []
    for resource in resources:
        if resource not in ops.k8s_files:
            problems.append(f"kustomization.yaml: resource {resource} does not exist in {K8S_DIR}")
    for name in ops.k8s_files:
        if name not in resources and name not in ("kustomization.yaml", SECRETS_TEMPLATE):
            problems.append(f"{name} is not a resource of kustomization.yaml, so it is never applied")
    if SECRETS_TEMPLATE in resources:
        problems.append(f"kustomization.yaml applies {SECRETS_TEMPLATE}: placeholders would replace the real Secrets")
    namespace = ops.kustomization.get("namespace")
    if namespace and namespace not in _of_kind(ops.k8s_objects, "Namespace"):
        problems.append(f"kustomization.yaml: namespace {namespace} has no Namespace object")
    images = {entry.get("name") for entry in ops.kustomization.get("images") or []}
    as_written = [doc for name in resources for doc in ops.k8s_files.get(name, [])]
    for name, deployment in _workloads(as_written).items():
        for container in _pod(deployment)[1].get("containers") or []:
            if container.get("image") not in images:
                problems.append(f"Deployment {name}: image {container.get('image')} gets no registry and tag (images:)")
    for document in ops.k8s_files.get(SECRETS_TEMPLATE, []):
        for key, value in (document.get("stringData") or {}).items():
            if "<" not in str(value):
                problems.append(
                    f"{SECRETS_TEMPLATE}: {document['metadata']['name']}.{key} holds a value, not a <placeholder>"
                )
    return problems


def _deployment_references(cluster: Cluster, name: str, deployment: dict) -> list[str]:
    where, problems = f"{deployment.get('kind')} {name}", []
    labels, pod = _pod(deployment)
    selector = ((deployment.get("spec") or {}).get("selector") or {}).get("matchLabels") or {}
    if not selector or any(labels.get(key) != value for key, value in selector.items()):
        problems.append(f"{where}: selector {selector} does not select its own pods {labels}")
    volumes = {volume.get("name"): volume for volume in pod.get("volumes") or []}
    for volume in volumes.values():
        if "configMap" in volume and volume["configMap"].get("name") not in cluster.configmaps:
            problems.append(f"{where}: volume {volume['name']} mounts a ConfigMap that does not exist")
        if "secret" in volume and volume["secret"].get("secretName") not in cluster.secrets:
            problems.append(f"{where}: volume {volume['name']} mounts a Secret {SECRETS_TEMPLATE} does not describe")
    for container in pod.get("containers") or []:
        for source in container.get("envFrom") or []:
            for kind, known in (("configMapRef", cluster.configmaps), ("secretRef", cluster.secrets)):
                if kind in source and source[kind].get("name") not in known:
                    problems.append(f"{where}: envFrom {kind} {source[kind].get('name')} does not exist")
        for variable in container.get("env") or []:
            value_from = variable.get("valueFrom") or {}
            for kind, known in (("configMapKeyRef", cluster.configmaps), ("secretKeyRef", cluster.secrets)):
                ref = value_from.get(kind)
                if ref and not ref.get("optional") and ref.get("key") not in known.get(ref.get("name"), set()):
                    problems.append(
                        f"{where}: env {variable['name']} reads {ref.get('name')}/{ref.get('key')}, not defined"
                    )
            peer = peer_address(str(variable.get("value") or ""))
            if peer and not cluster.service_has_port(peer[0], int(peer[1])):
                problems.append(f"{where}: env {variable['name']} points at {':'.join(peer)}, no Service port")
        for mount in container.get("volumeMounts") or []:
            if mount.get("name") not in volumes:
                problems.append(f"{where}: volumeMount {mount.get('name')} has no volume")
        port_names = {port.get("name") for port in container.get("ports") or []}
        for probe in ("startupProbe", "livenessProbe", "readinessProbe"):
            port = ((container.get(probe) or {}).get("httpGet") or {}).get("port")
            if isinstance(port, str) and port not in port_names:
                problems.append(f"{where}: {probe} uses port {port}, which the container does not name")
    return problems


def _service_references(cluster: Cluster, name: str, service: dict) -> list[str]:
    selector = (service.get("spec") or {}).get("selector") or {}
    selected = [
        deployment
        for deployment in cluster.deployments.values()
        if selector and all(_pod(deployment)[0].get(key) == value for key, value in selector.items())
    ]
    if not selected:
        return [f"Service {name}: selector {selector} selects no Deployment's pods"]
    problems = []
    for entry in (service.get("spec") or {}).get("ports") or []:
        target = entry.get("targetPort", entry.get("port"))
        for deployment in selected:
            if not any(target in (p.get("name"), p.get("containerPort")) for p in _container_ports(deployment)):
                problems.append(f"Service {name}: targetPort {target} is no port of {deployment['metadata']['name']}")
    return problems


def _ingress_references(cluster: Cluster, name: str, ingress: dict) -> list[str]:
    spec = ingress.get("spec") or {}
    backends = [spec["defaultBackend"]] if spec.get("defaultBackend") else []
    for rule in spec.get("rules") or []:
        backends += [path.get("backend") or {} for path in (rule.get("http") or {}).get("paths") or []]
    problems = []
    for backend in backends:
        service, port = backend.get("service") or {}, (backend.get("service") or {}).get("port") or {}
        if not cluster.service_has_port(service.get("name"), port.get("name") or port.get("number")):
            problems.append(f"Ingress {name}: backend {service.get('name')} {port} is no Service port")
    return problems


def _http_route_references(cluster: Cluster, name: str, route: dict) -> list[str]:
    """Each backend of a Gateway API HTTPRoute is a port of a Service of the product."""
    problems = []
    for rule in (route.get("spec") or {}).get("rules") or []:
        for backend in rule.get("backendRefs") or []:
            if backend.get("kind", "Service") == "Service" and not cluster.service_has_port(backend.get("name"), backend.get("port")):
                problems.append(f"HTTPRoute {name}: backend {backend.get('name')} port {backend.get('port')} is no Service port")
    return problems


def check_references(ops: Ops) -> list[str]:
    """The base as the kustomization renders it, then each overlay whole."""
    problems = _references(ops)
    for overlay, objects in ops.overlays.items():
        problems += [f"overlays/{overlay}: {problem}" for problem in _references(replace(ops, k8s_objects=objects))]
    return problems


def _references(ops: Ops) -> list[str]:
    cluster = Cluster.of(ops)
    problems: list[str] = []
    for name, deployment in cluster.deployments.items():
        problems += _deployment_references(cluster, name, deployment)
    for name, service in cluster.services.items():
        problems += _service_references(cluster, name, service)
    for name, ingress in _of_kind(ops.k8s_objects, "Ingress").items():
        problems += _ingress_references(cluster, name, ingress)
    for name, route in _of_kind(ops.k8s_objects, "HTTPRoute").items():
        problems += _http_route_references(cluster, name, route)
    return problems


def check_same_services_as_compose(ops: Ops) -> list[str]:
    """Each image compose builds is deployed, on the port it is built for, and nothing else."""
    built = {build_args(s).get("SERVICE"): build_args(s).get("PORT") for s in services(ops).values() if "build" in s}
    deployments = _workloads(ops.k8s_objects)
    problems = [f"{name}: built by docker-compose.yml, no Deployment" for name in sorted(set(built) - set(deployments))]
    problems += [
        f"Deployment {name}: docker-compose.yml builds no such service"
        for name in sorted(set(deployments) - set(built))
    ]
    for name in sorted(set(built) & set(deployments)):
        ports = sorted({port.get("containerPort") for port in _container_ports(deployments[name])})
        if built[name] and int(built[name]) not in ports:
            problems.append(
                f"Deployment {name}: the container listens on {ports}, the image is built for PORT {built[name]}"
            )
    return problems
