"""infra/k8s beyond one machine, on every overlay as it renders: each workload
can be scaled, drained and spread (HPA, PDB, requests and limits, probes, topology spread), and
the engines' resources match the code: a KafkaTopic for every topic it uses, a KafkaUser with
the ACLs of kafka-acls.ts for every principal, a MongoDB user for every service database."""

from __future__ import annotations

import re
import shlex

from .kubernetes_checks import _of_kind, _pod, _workloads
from .model import Ops

ACLS_COMMANDS = "infra/compose/kafka/acls.commands"  # kafka-acls.ts printed, kept equal by a test
UNITS = {"": 1, "m": 1e-3, "Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40, "k": 1e3, "M": 1e6, "G": 1e9}


def quantity(value) -> float:
    match = re.fullmatch(r"([0-9.]+)([a-zA-Z]*)", str(value))
    if not match or match.group(2) not in UNITS:
        raise ValueError(f"not a quantity: {value}")
    return float(match.group(1)) * UNITS[match.group(2)]


def _selects(selector: dict, labels: dict) -> bool:
    match = (selector or {}).get("matchLabels") or {}
    return bool(match) and all(labels.get(key) == value for key, value in match.items())


def _env(container: dict) -> dict[str, dict]:
    return {variable.get("name"): variable for variable in container.get("env") or []}


def _container_problems(where: str, container: dict) -> list[str]:
    problems: list[str] = []
    resources = container.get("resources") or {}
    for kind in ("cpu", "memory"):
        request = (resources.get("requests") or {}).get(kind)
        limit = (resources.get("limits") or {}).get(kind)
        if request is None or limit is None:
            problems.append(f"{where}: no {kind} request and limit (docs/capacity.md gives them)")
        elif quantity(request) > quantity(limit):
            problems.append(f"{where}: {kind} request {request} is above its limit {limit}")
    heap = re.search(r"--max-old-space-size=(\d+)", str((_env(container).get("NODE_OPTIONS") or {}).get("value")))
    limit = (resources.get("limits") or {}).get("memory")
    if heap and limit and int(heap.group(1)) * 2**20 >= quantity(limit):
        problems.append(f"{where}: a V8 heap of {heap.group(1)} MB does not fit its memory limit {limit}")
    # Liveness asks "is the process alive" (no I/O: a database outage must not restart pods),
    # readiness "can it serve" (docs/events.md); a startup probe holds both off while it starts.
    for probe, path in (("livenessProbe", "/healthz"), ("readinessProbe", "/readyz"), ("startupProbe", None)):
        http = (container.get(probe) or {}).get("httpGet") or {}
        if not http:
            problems.append(f"{where}: no {probe}")
        elif path and http.get("path") != path:
            problems.append(f"{where}: {probe} asks {http.get('path')}, not {path}")
    return problems


def _workload_problems(name: str, workload: dict, objects: list[dict]) -> list[str]:
    kind, (labels, pod) = workload.get("kind"), _pod(workload)
    where = f"{kind} {name}"
    problems: list[str] = []
    for container in pod.get("containers") or []:
        problems += _container_problems(f"{where} container {container.get('name')}", container)
    if kind == "Deployment":
        hpas = [
            h for h in _of_kind(objects, "HorizontalPodAutoscaler").values()
            if (h["spec"].get("scaleTargetRef") or {}).get("kind") == kind
            and h["spec"]["scaleTargetRef"].get("name") == name
        ]
        if not hpas:
            problems.append(f"{where}: no HorizontalPodAutoscaler scales it")
        for hpa in hpas:
            low, high = hpa["spec"].get("minReplicas", 1), hpa["spec"].get("maxReplicas", 0)
            if low < 2 or high < low:
                problems.append(f"{where}: its autoscaler runs {low} to {high} pods (at least 2, max ≥ min)")
        if "replicas" in (workload.get("spec") or {}):
            problems.append(f"{where}: sets replicas, which every apply would reset under its autoscaler")
    if not any(_selects(b["spec"].get("selector"), labels) for b in _of_kind(objects, "PodDisruptionBudget").values()):
        problems.append(f"{where}: no PodDisruptionBudget selects its pods")
    spread = pod.get("topologySpreadConstraints") or []
    if not any(c.get("topologyKey") == "kubernetes.io/hostname" and _selects(c.get("labelSelector"), labels) for c in spread):
        problems.append(f"{where}: no topologySpreadConstraint spreads its pods across nodes (kubernetes.io/hostname)")
    return problems


def _notifications_instances(workloads: dict[str, dict]) -> list[str]:
    """The gateway addresses each notifications pod by name: as many as the StatefulSet runs."""
    notifications, gateway = workloads.get("notifications"), workloads.get("gateway")
    if not notifications or not gateway:
        return []
    replicas = notifications["spec"].get("replicas", 1)
    listed = ""
    for container in _pod(gateway)[1].get("containers") or []:
        listed = str((_env(container).get("NOTIFICATIONS_INSTANCES") or {}).get("value") or listed)
    expected = [f"notifications-{i}.notifications-pods" for i in range(replicas)]
    hosts = [re.sub(r"^\w+://|:\d+$", "", url) for url in listed.split(",") if url]
    if hosts != expected:
        return [f"gateway NOTIFICATIONS_INSTANCES lists {hosts}, the StatefulSet runs {expected}"]
    return []


def check_workload_operations(ops: Ops) -> list[str]:
    problems: list[str] = []
    for overlay, objects in {"base": ops.k8s_objects, **{f"overlays/{k}": v for k, v in ops.overlays.items()}}.items():
        workloads = _workloads(objects)
        for name, workload in workloads.items():
            problems += [f"{overlay}: {p}" for p in _workload_problems(name, workload, objects)]
        problems += [f"{overlay}: {p}" for p in _notifications_instances(workloads)]
    if not ops.overlays:
        problems.append("infra/k8s/overlays: no overlay (small, large) to install")
    return problems


# ---- the engines against the code


def code_topics(ops: Ops) -> set[str]:
    """Every topic the code names: the registry's, the analytics stream, the shared dead letters
    and each shared consumer group's `<group>.dead-letter` (groups written as literals)."""
    read = lambda path: (ops.root / path).read_text()
    registry = re.search(r"export const Topics = \{(.*?)\}", read("packages/contracts/src/events/registry.ts"), re.S)
    topics = set(re.findall(r":\s*'([^']+)'", registry.group(1) if registry else ""))
    topics |= set(re.findall(r"ANALYTICS_TOPIC = '([^']+)'", read("packages/contracts/src/marketplace/analytics.ts")))
    topics |= set(re.findall(r"DEAD_LETTER_TOPIC = '([^']+)'", read("packages/service-kit/src/events/kafka-client.ts")))
    # Groups are declared in events/subscriptions.ts and beside the projection they feed
    # (stats/stats-subscription.ts): every source file of a service, tests aside.
    for path in sorted(ops.root.glob("services/*/src/**/*.ts")):
        if path.name.endswith(".test.ts") or "/test/" in path.as_posix():
            continue
        # A per-instance group (`perInstance: true` after its id) is `<group>.<INSTANCE_ID>`: its
        # dead letters have no name a manifest could declare beforehand.
        groups = re.findall(r"groupId: '([^']+)'(?!,\s*perInstance: true)", path.read_text())
        topics |= {f"{group}.dead-letter" for group in groups}
    return topics


def code_acls(ops: Ops) -> dict[str, set[tuple]]:
    """principal -> {(resource type, name, pattern, operation)} from kafka-acls.ts's printed form."""
    acls: dict[str, set[tuple]] = {}
    for line in (ops.root / ACLS_COMMANDS).read_text().splitlines():
        if not line.startswith("kafka-acls.sh"):
            continue
        words = shlex.split(line)
        option = lambda name: [words[i + 1] for i, w in enumerate(words) if w == name]
        principal = option("--allow-principal")[0].removeprefix("User:")
        kind = "topic" if option("--topic") else "group"
        name, pattern = (option("--topic") or option("--group"))[0], option("--resource-pattern-type")[0]
        acls.setdefault(principal, set()).update((kind, name, pattern, op) for op in option("--operation"))
    return acls


def _user_acls(user: dict) -> set[tuple]:
    patterns = {"prefix": "prefixed", "literal": "literal"}
    return {
        (acl["resource"]["type"], str(acl["resource"]["name"]), patterns.get(acl["resource"].get("patternType", "literal")), op.lower())
        for acl in ((user.get("spec") or {}).get("authorization") or {}).get("acls") or []
        for op in acl.get("operations") or []
    }


def _engine_problems(ops: Ops, objects: list[dict]) -> list[str]:
    problems: list[str] = []
    clusters = _of_kind(objects, "Kafka")
    brokers = sum(p["spec"].get("replicas", 0) for p in _of_kind(objects, "KafkaNodePool").values())
    topics = {}
    for name, topic in _of_kind(objects, "KafkaTopic").items():
        topics[(topic.get("spec") or {}).get("topicName") or name] = topic
        cluster = (topic["metadata"].get("labels") or {}).get("strimzi.io/cluster")
        if cluster not in clusters:
            problems.append(f"KafkaTopic {name}: strimzi.io/cluster {cluster} is no Kafka here")
        if topic["spec"].get("replicas", 0) > brokers:
            problems.append(f"KafkaTopic {name}: {topic['spec'].get('replicas')} replicas on {brokers} brokers")
    for missing in sorted(code_topics(ops) - set(topics)):
        problems.append(f"topic {missing} is used by the code but has no KafkaTopic")
    users = _of_kind(objects, "KafkaUser")
    expected = code_acls(ops)
    for principal, acls in expected.items():
        if principal not in users:
            problems.append(f"Kafka principal {principal} (kafka-acls.ts) has no KafkaUser")
        elif _user_acls(users[principal]) != acls:
            extra, lacking = _user_acls(users[principal]) - acls, acls - _user_acls(users[principal])
            problems.append(f"KafkaUser {principal}: ACLs differ from kafka-acls.ts: extra {sorted(extra)}, lacking {sorted(lacking)}")
    databases = {}
    for mongodb in _of_kind(objects, "MongoDBCommunity").values():
        databases.update({u.get("name"): u for u in mongodb["spec"].get("users") or []})
    for name, workload in _workloads(objects).items():
        for container in _pod(workload)[1].get("containers") or []:
            env = _env(container)
            username = (env.get("KAFKA_SASL_USERNAME") or {}).get("value")
            if username:
                password = ((env.get("KAFKA_SASL_PASSWORD") or {}).get("valueFrom") or {}).get("secretKeyRef")
                user = users.get(username)
                if not user:
                    problems.append(f"{workload['kind']} {name}: Kafka user {username} has no KafkaUser")
                elif ((user["spec"]["authentication"].get("password") or {}).get("valueFrom") or {}).get("secretKeyRef") != password:
                    problems.append(f"KafkaUser {username}: its password is not the one {name}'s pods read ({password})")
            mongo = ((env.get("MONGO_URL") or {}).get("valueFrom") or {}).get("secretKeyRef")
            if not mongo or not databases and not _of_kind(objects, "MongoDBCommunity"):
                continue
            user = databases.get(name)
            if not user:
                problems.append(f"{workload['kind']} {name}: reads a database but MongoDBCommunity has no user {name}")
                continue
            if user.get("db") != name or any(role.get("db") != name for role in user.get("roles") or []):
                problems.append(f"MongoDB user {name}: must live in and act on its own database {name} only")
            if mongo.get("name") != user.get("connectionStringSecretName"):
                problems.append(f"{workload['kind']} {name}: MONGO_URL reads {mongo.get('name')}, not its user's connection string")
    return problems


def check_engines(ops: Ops) -> list[str]:
    problems: list[str] = []
    for overlay, objects in ops.overlays.items():
        if _of_kind(objects, "Kafka") or _of_kind(objects, "MongoDBCommunity"):
            problems += [f"overlays/{overlay}: {p}" for p in _engine_problems(ops, objects)]
    return problems
