#!/usr/bin/env python3
"""Static checks of the ops files: docker-compose.yml, services/*/Dockerfile, .dockerignore
and infra/k8s. Run by scripts/check-compose.sh (which explains what it adds); needs PyYAML
and jsonschema. Prints every check it made, then every problem, and exits 1 on a problem.

Nothing here runs a container: it checks the files against the compose specification's JSON
schema (infra/compose/compose-spec.schema.json, see infra/compose/README.md), against each
other (names, ports, paths, secrets) and against this project's conventions
(docs/compose-and-kubernetes.md).
"""
from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

import jsonschema
import yaml

ROOT = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parents[2]).resolve()
COMPOSE_FILE = ROOT / "docker-compose.yml"
SCHEMA_FILE = ROOT / "infra/compose/compose-spec.schema.json"
K8S_DIR = ROOT / "infra/k8s"
SECRETS_TEMPLATE = "secrets.example.yaml"

# The one port table (docs/compose-and-kubernetes.md). A new service takes its port here.
PORTS = {
    "gateway": 8080,
    "auth": 4001,
    "people": 4002,
    "jobs": 4003,
    "favorites": 4004,
    "reports": 4005,
    "notifications": 4006,
    "media": 4007,
}

# Services with no database: they keep their data in object storage (media signs upload URLs
# and deletes a purged user's pictures). They need the S3 settings instead of MONGO_URL, and
# the broker for user.deleted.
OBJECT_STORAGE_ONLY = {"media"}
# Services that send e-mail (auth: codes; notifications: notices and support messages). They
# need the SMTP relay and the sender address.
SENDS_MAIL = {"auth", "notifications"}
MAIL_SETTINGS = ("SMTP_HOST", "SMTP_PORT", "MAIL_FROM")
NODE_IMAGE = "node:20-bookworm-slim"

problems: list[str] = []
checked: list[str] = []


def problem(message: str) -> None:
    problems.append(message)


def ok(message: str) -> None:
    checked.append(message)


def rel(path: Path) -> str:
    try:
        return str(path.relative_to(ROOT))
    except ValueError:
        return str(path)


# ---------------------------------------------------------------- compose interpolation

def read_dotenv(path: Path) -> dict[str, str]:
    values: dict[str, str] = {}
    if not path.is_file():
        return values
    for line in path.read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, value = line.split("=", 1)
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        values[key.strip()] = value
    return values


VARIABLE = re.compile(
    r"\$(?:(?P<escaped>\$)|\{(?P<braced>[A-Za-z_][A-Za-z0-9_]*)(?P<op>:?[-?+])?(?P<arg>[^}]*)\}|(?P<named>[A-Za-z_][A-Za-z0-9_]*))"
)


def interpolate(value, env: dict[str, str], where: str):
    """Compose's variable syntax: $VAR, ${VAR}, ${VAR:-default}, ${VAR-default},
    ${VAR:?error}, ${VAR?error}, ${VAR:+alternative}, ${VAR+alternative} and $$."""
    if isinstance(value, dict):
        return {key: interpolate(item, env, f"{where}.{key}".lstrip(".")) for key, item in value.items()}
    if isinstance(value, list):
        return [interpolate(item, env, f"{where}[{index}]") for index, item in enumerate(value)]
    if not isinstance(value, str):
        return value

    def replace(match: re.Match) -> str:
        if match.group("escaped"):
            return "$"
        name = match.group("braced") or match.group("named")
        op, arg = match.group("op"), match.group("arg") or ""
        current = env.get(name)
        if op is None:
            if match.group("braced") and arg:
                problem(f"docker-compose.yml {where}: bad variable syntax {match.group(0)!r}")
            return current or ""
        unset_or_empty = current is None or (op.startswith(":") and current == "")
        kind = op[-1]
        if kind == "-":
            return arg if unset_or_empty else current
        if kind == "?":
            if unset_or_empty:
                problem(f"docker-compose.yml {where}: required variable {name} is not set ({arg})")
                return ""
            return current
        return "" if unset_or_empty else arg  # "+"

    return VARIABLE.sub(replace, value)


# ---------------------------------------------------------------- compose

def load_yaml(path: Path):
    try:
        return yaml.safe_load(path.read_text())
    except yaml.YAMLError as error:
        problem(f"{rel(path)} is not valid YAML: {error}")
        return None


def env_of(service: dict) -> dict[str, str]:
    environment = service.get("environment") or {}
    if isinstance(environment, list):
        pairs = (item.split("=", 1) if "=" in item else (item, "") for item in environment)
        return {key: value for key, value in pairs}
    return {key: "" if value is None else str(value) for key, value in environment.items()}


def depends_on(service: dict) -> dict[str, dict]:
    value = service.get("depends_on") or {}
    if isinstance(value, list):
        return {name: {"condition": "service_started"} for name in value}
    return {name: (spec or {"condition": "service_started"}) for name, spec in value.items()}


def short_volume(entry) -> tuple[str | None, str | None]:
    """(source, target) of a volume entry in short or long syntax."""
    if isinstance(entry, dict):
        return entry.get("source"), entry.get("target")
    parts = str(entry).split(":")
    if len(parts) == 1:
        return None, parts[0]
    return parts[0], parts[1]


def check_compose() -> dict:
    raw = load_yaml(COMPOSE_FILE)
    if not isinstance(raw, dict):
        problem("docker-compose.yml: top level is not a mapping")
        return {}
    ok("docker-compose.yml parses as YAML (anchors and merge keys resolved)")

    env = {**read_dotenv(ROOT / ".env"), **os.environ}
    compose = interpolate(raw, env, "")

    schema = json.loads(SCHEMA_FILE.read_text())
    validator = jsonschema.Draft7Validator(schema)
    errors = sorted(validator.iter_errors(compose), key=lambda e: list(e.absolute_path))
    for error in errors:
        path = ".".join(str(part) for part in error.absolute_path) or "(top level)"
        message = error.message
        if error.validator == "additionalProperties" and isinstance(error.instance, dict):
            known = set((error.schema.get("properties") or {}).keys())
            patterns = [re.compile(p) for p in (error.schema.get("patternProperties") or {})]
            unknown = [k for k in error.instance if k not in known and not any(p.search(k) for p in patterns)]
            message = f"unknown key(s) {unknown} (the compose specification has no such field)"
        problem(f"docker-compose.yml {path}: {message}")
    if not errors:
        ok(f"docker-compose.yml is valid against the compose-spec JSON schema ({rel(SCHEMA_FILE)})")

    services: dict = compose.get("services") or {}
    if not services:
        problem("docker-compose.yml: no services")
        return compose
    declared_volumes = set((compose.get("volumes") or {}).keys())

    for name, service in services.items():
        where = f"docker-compose.yml services.{name}"
        if not isinstance(service, dict):
            problem(f"{where}: not a mapping")
            continue
        if "image" not in service and "build" not in service:
            problem(f"{where}: has neither image nor build")

        build = service.get("build")
        if build is not None:
            context = build if isinstance(build, str) else build.get("context", ".")
            dockerfile = "Dockerfile" if isinstance(build, str) else build.get("dockerfile", "Dockerfile")
            context_dir = (ROOT / context).resolve()
            if not context_dir.is_dir():
                problem(f"{where}.build.context {context!r} is not a directory")
            elif not (context_dir / dockerfile).is_file():
                problem(f"{where}.build.dockerfile {dockerfile!r} does not exist in {context!r}")

        one_shot = str(service.get("restart", "no")) == "no"
        if not one_shot and "healthcheck" not in service:
            problem(f"{where}: long-running service without a healthcheck")
        if "restart" not in service:
            problem(f"{where}: no restart policy")
        elif not re.fullmatch(r"no|always|unless-stopped|on-failure(:\d+)?", str(service["restart"])):
            # The schema says only "string"; Docker refuses anything else when it starts.
            problem(f"{where}.restart: {service['restart']!r} is not a Docker restart policy")

        for target, spec in depends_on(service).items():
            if target not in services:
                problem(f"{where}.depends_on: {target!r} is not a service")
                continue
            condition = spec.get("condition", "service_started")
            other = services[target]
            if condition == "service_healthy" and "healthcheck" not in other:
                problem(f"{where}.depends_on.{target}: service_healthy, but {target} has no healthcheck")
            if condition == "service_completed_successfully" and str(other.get("restart", "no")) != "no":
                problem(f"{where}.depends_on.{target}: waits for completion of a service that restarts")

        for entry in service.get("volumes") or []:
            source, target = short_volume(entry)
            if source is None:
                continue
            if source.startswith((".", "/", "~")):
                if not (ROOT / source).exists():
                    problem(f"{where}.volumes: bind-mount source {source!r} does not exist")
            elif source not in declared_volumes:
                problem(f"{where}.volumes: named volume {source!r} is not declared under volumes:")
    published: dict[str, str] = {}
    for name, service in services.items():
        for entry in (service.get("ports") or []) if isinstance(service, dict) else []:
            text = str(entry.get("published")) if isinstance(entry, dict) else str(entry)
            parts = text.split(":")
            host = parts[-2] if len(parts) >= 2 else parts[0]
            if host in published:
                problem(f"docker-compose.yml: host port {host} is published by both {published[host]} and {name}")
            published[host] = name
    ok(f"compose services {sorted(services)}: image or build, build contexts and Dockerfiles exist, "
       "depends_on targets exist with healthchecks, restart policies, bind mounts and volumes exist, "
       f"no host port published twice ({', '.join(sorted(published, key=int))})")
    return compose


def check_app_services(compose: dict) -> list[str]:
    """The services built from services/<name>/Dockerfile follow the project's conventions."""
    services: dict = compose.get("services") or {}
    apps = sorted(name for name, service in services.items() if isinstance(service, dict) and "build" in service)
    if "gateway" not in apps:
        problem("docker-compose.yml: no gateway service built from services/gateway/Dockerfile")

    for name in apps:
        service = services[name]
        where = f"docker-compose.yml services.{name}"
        build = service["build"]
        dockerfile = build.get("dockerfile") if isinstance(build, dict) else None
        if dockerfile != f"services/{name}/Dockerfile" or (build.get("context") if isinstance(build, dict) else build) != ".":
            problem(f"{where}.build: expected context '.' and dockerfile 'services/{name}/Dockerfile'")
        package = ROOT / "services" / name / "package.json"
        if not package.is_file():
            problem(f"{where}: services/{name}/package.json does not exist")
        elif json.loads(package.read_text()).get("name") != f"@marketplace/{name}":
            problem(f"services/{name}/package.json: name is not @marketplace/{name}")
        if name not in PORTS:
            problem(f"{where}: {name} has no port in the port table (infra/compose/check_ops.py PORTS)")
            continue
        port = PORTS[name]
        env = env_of(service)
        expected = {"SERVICE_NAME": name, "HOST": "0.0.0.0", "PORT": str(port)}
        if name in OBJECT_STORAGE_ONLY:
            expected.update(
                S3_ENDPOINT="http://minio:9000",
                KAFKA_BROKERS="kafka:9092",
                JWT_ISSUER="marketplace-auth",
                JWT_AUDIENCE="marketplace",
            )
            for key in ("S3_PUBLIC_URL", "S3_ACCESS_KEY", "S3_SECRET_KEY", "APP_ORIGINS"):
                if key not in env:
                    problem(f"{where}.environment: {key} missing")
        elif name != "gateway":
            expected.update(
                MONGO_URL=f"mongodb://mongo:27017/{name}",
                KAFKA_BROKERS="kafka:9092",
                JWT_ISSUER="marketplace-auth",
                JWT_AUDIENCE="marketplace",
            )
        for key, value in expected.items():
            if env.get(key) != value:
                problem(f"{where}.environment.{key} is {env.get(key)!r}, expected {value!r}")
        if "LOG_LEVEL" not in env:
            problem(f"{where}.environment: LOG_LEVEL missing")
        if name != "gateway":
            command = " ".join(service.get("command") or [])
            mounts = [short_volume(entry) for entry in service.get("volumes") or []]
            if ("jwt-public", "/run/marketplace/jwt-public") not in mounts or "jwt-public.pem.b64" not in command:
                problem(f"{where}: must mount jwt-public and export JWT_PUBLIC_KEY from it in its command")
            if name == "auth":
                if ("jwt-private", "/run/marketplace/jwt-private") not in mounts or "JWT_PRIVATE_KEY" not in command:
                    problem(f"{where}: must mount jwt-private and export JWT_PRIVATE_KEY from it")
            elif any(source == "jwt-private" for source, _ in mounts):
                problem(f"{where}: only auth may mount the private signing key")
            if name in SENDS_MAIL:
                for key in MAIL_SETTINGS:
                    if key not in env:
                        problem(f"{where}.environment: {key} missing")
            if "jwt-keys" not in depends_on(service):
                problem(f"{where}.depends_on: must wait for jwt-keys")
        check_dockerfile(name, port)

    gateway = services.get("gateway") or {}
    if gateway:
        env = env_of(gateway)
        for key in ("WEB_DIST_DIR", "PUBLIC_BUCKET_URL", "S3_ENDPOINT", "TRUST_PROXY"):
            if key not in env:
                problem(f"docker-compose.yml services.gateway.environment: {key} missing")
        if env.get("TRUST_PROXY") != "false":
            problem("docker-compose.yml services.gateway: TRUST_PROXY must be 'false' (clients connect directly)")
        published = [str(entry) for entry in gateway.get("ports") or []]
        if not any(entry.endswith(":8080:8080") or entry == "8080:8080" for entry in published):
            problem("docker-compose.yml services.gateway: must publish 8080:8080")
        for name in apps:
            if name == "gateway":
                continue
            key = f"{name.upper()}_URL"
            if env.get(key) != f"http://{name}:{PORTS.get(name)}":
                problem(f"docker-compose.yml services.gateway.environment.{key} is {env.get(key)!r}, "
                        f"expected 'http://{name}:{PORTS.get(name)}'")
            if depends_on(gateway).get(name, {}).get("condition") != "service_healthy":
                problem(f"docker-compose.yml services.gateway.depends_on: {name} (service_healthy) missing")

    # A service with a Dockerfile must be in the stack; one without is "not containerized yet".
    for directory in sorted((ROOT / "services").iterdir()):
        if not (directory / "package.json").is_file():
            continue
        if (directory / "Dockerfile").is_file() and directory.name not in apps:
            problem(f"services/{directory.name}/Dockerfile exists but docker-compose.yml has no {directory.name} service")
        if not (directory / "Dockerfile").is_file():
            checked.append(f"note: services/{directory.name} has no Dockerfile yet, so it is in neither compose nor k8s")
    ok(f"app services {apps}: package names, ports, SERVICE_NAME/HOST/PORT/LOG_LEVEL, Mongo/Kafka/JWT "
       "settings, key mounts, gateway upstream URLs and depends_on")
    return apps


# ---------------------------------------------------------------- Dockerfiles

def dockerfile_instructions(path: Path) -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) with continuation lines joined and comments dropped."""
    instructions: list[tuple[str, str]] = []
    pending = ""
    for line in path.read_text().splitlines():
        stripped = line.strip()
        if not pending and (not stripped or stripped.startswith("#")):
            continue
        if pending and stripped.startswith("#"):
            continue
        if stripped.endswith("\\"):
            pending += stripped[:-1] + " "
            continue
        full = re.sub(r"\s+", " ", pending + stripped).strip()
        pending = ""
        keyword, _, rest = full.partition(" ")
        instructions.append((keyword.upper(), rest.strip()))
    if pending:
        problem(f"{rel(path)}: ends inside a continued line")
    return instructions


def check_dockerfile(name: str, port: int) -> None:
    path = ROOT / "services" / name / "Dockerfile"
    where = rel(path)
    if not path.is_file():
        problem(f"{where} does not exist")
        return
    instructions = dockerfile_instructions(path)
    known = {"ARG", "FROM", "ENV", "RUN", "WORKDIR", "COPY", "USER", "EXPOSE", "HEALTHCHECK", "CMD",
             "LABEL", "ENTRYPOINT", "STOPSIGNAL", "SHELL", "VOLUME", "ONBUILD", "ADD"}
    for keyword, _ in instructions:
        if keyword not in known:
            problem(f"{where}: unknown instruction {keyword}")

    args = {}
    for keyword, rest in instructions:
        if keyword == "ARG" and "=" in rest:
            key, value = rest.split("=", 1)
            args[key] = value
    stages = []
    for keyword, rest in instructions:
        if keyword == "FROM":
            parts = rest.split()
            image = re.sub(r"\$\{(\w+)\}", lambda m: args.get(m.group(1), m.group(0)), parts[0])
            stage = parts[2] if len(parts) >= 3 and parts[1].upper() == "AS" else None
            stages.append((image, stage))
    if [image for image, _ in stages] != [NODE_IMAGE, NODE_IMAGE]:
        problem(f"{where}: expected two stages FROM {NODE_IMAGE}, found {stages}")
    stage_names = {stage for _, stage in stages if stage}
    for keyword, rest in instructions:
        if keyword == "COPY":
            from_flag = re.search(r"--from=(\S+)", rest)
            if from_flag and from_flag.group(1) not in stage_names:
                problem(f"{where}: COPY --from={from_flag.group(1)} names no stage")

    pnpm_version = json.loads((ROOT / "package.json").read_text())["packageManager"].split("@", 1)[1]
    if args.get("PNPM_VERSION") != pnpm_version:
        problem(f"{where}: PNPM_VERSION {args.get('PNPM_VERSION')!r} differs from package.json's pnpm@{pnpm_version}")

    runs = " ; ".join(rest for keyword, rest in instructions if keyword == "RUN")
    needed = {
        "npm installs pnpm": 'npm install -g "pnpm@${PNPM_VERSION}"',
        "frozen install": "pnpm install --frozen-lockfile",
        "turbo build of the service and its dependencies": f"pnpm turbo run build --filter=@marketplace/{name}...",
        "pnpm 10 deploy of injected workspace packages": "--config.inject-workspace-packages=true",
        "production deploy of this package": f"--filter=@marketplace/{name} deploy --prod",
    }
    for what, text in needed.items():
        if text not in runs:
            problem(f"{where}: missing the {what} ({text!r})")
    for filters in re.findall(r"turbo run build((?: --filter=\S+)+)", runs):
        if f"--filter=@marketplace/{name}..." not in filters.replace(";", " ").split():
            problem(f"{where}: a turbo build without --filter=@marketplace/{name}... ({filters.strip()})")

    runtime = instructions[max(i for i, (k, _) in enumerate(instructions) if k == "FROM"):]
    def last(keyword: str) -> str | None:
        values = [rest for k, rest in runtime if k == keyword]
        return values[-1] if values else None
    env_text = " ".join(rest for k, rest in runtime if k == "ENV")
    for key, value in {"NODE_ENV": "production", "SERVICE_NAME": name, "HOST": "0.0.0.0", "PORT": str(port)}.items():
        if not re.search(rf"(^|\s){key}={re.escape(value)}(\s|$)", env_text):
            problem(f"{where}: the runtime stage must set ENV {key}={value}")
    if name == "gateway" and "WEB_DIST_DIR=/app/web" not in env_text:
        problem(f"{where}: the runtime stage must set WEB_DIST_DIR=/app/web")
    if last("USER") != "node":
        problem(f"{where}: the runtime stage must run as USER node")
    if last("EXPOSE") != str(port):
        problem(f"{where}: EXPOSE {last('EXPOSE')!r}, expected {port}")
    healthcheck = last("HEALTHCHECK") or ""
    if "/healthz" not in healthcheck or "fetch(" not in healthcheck:
        problem(f"{where}: HEALTHCHECK must fetch /healthz with node")
    if last("CMD") != '["node", "dist/server.js"]':
        problem(f"{where}: CMD must be [\"node\", \"dist/server.js\"]")
    if "--from=build /out /app" not in " ".join(rest for k, rest in runtime if k == "COPY"):
        problem(f"{where}: the runtime stage must copy the deployed /out to /app")
    ok(f"{where}: stages, base image, pnpm {pnpm_version}, frozen install, turbo build, pnpm deploy, "
       f"non-root USER, ENV, EXPOSE {port}, HEALTHCHECK, CMD")


def check_dockerignore() -> None:
    path = ROOT / ".dockerignore"
    if not path.is_file():
        problem(".dockerignore does not exist (the build context would carry node_modules and .data)")
        return
    patterns = [line.strip() for line in path.read_text().splitlines() if line.strip() and not line.startswith("#")]
    for needed in ("**/node_modules", "**/dist", ".data", ".git"):
        if needed not in patterns:
            problem(f".dockerignore: {needed!r} should be excluded")
    for kept in ("package.json", "pnpm-lock.yaml", "pnpm-workspace.yaml", ".npmrc", "turbo.json"):
        if kept in patterns or f"**/{kept}" in patterns:
            problem(f".dockerignore: {kept} is needed by the image build")
        if not (ROOT / kept).is_file():
            problem(f"{kept} is missing: the image build needs it")
    ok(".dockerignore keeps the workspace manifests and lockfile, drops node_modules, dist, .data, .git")


# ---------------------------------------------------------------- Kubernetes

def load_documents(path: Path) -> list[dict]:
    try:
        documents = [doc for doc in yaml.safe_load_all(path.read_text()) if doc is not None]
    except yaml.YAMLError as error:
        problem(f"{rel(path)} is not valid YAML: {error}")
        return []
    for doc in documents:
        if not isinstance(doc, dict) or not doc.get("apiVersion") or not doc.get("kind"):
            problem(f"{rel(path)}: a document without apiVersion/kind")
    return [doc for doc in documents if isinstance(doc, dict)]


def check_kubernetes(compose_apps: list[str]) -> None:
    if not K8S_DIR.is_dir():
        problem("infra/k8s does not exist")
        return
    kustomization = load_documents(K8S_DIR / "kustomization.yaml")
    if not kustomization:
        problem("infra/k8s/kustomization.yaml is missing or empty")
        return
    kustomization = kustomization[0]
    resources = kustomization.get("resources") or []
    for resource in resources:
        if not (K8S_DIR / resource).is_file():
            problem(f"infra/k8s/kustomization.yaml: resource {resource!r} does not exist")
    for path in sorted(K8S_DIR.glob("*.yaml")):
        if path.name not in resources and path.name not in ("kustomization.yaml", SECRETS_TEMPLATE):
            problem(f"infra/k8s/{path.name} is not listed in kustomization.yaml resources")
    if SECRETS_TEMPLATE in resources:
        problem(f"infra/k8s/kustomization.yaml must not apply the placeholder {SECRETS_TEMPLATE}")

    objects: list[tuple[str, dict]] = []
    for resource in resources:
        for doc in load_documents(K8S_DIR / resource):
            objects.append((resource, doc))
    secrets_docs = load_documents(K8S_DIR / SECRETS_TEMPLATE) if (K8S_DIR / SECRETS_TEMPLATE).is_file() else []
    if not secrets_docs:
        problem(f"infra/k8s/{SECRETS_TEMPLATE} is missing: the Deployments' Secrets are documented there")
    ok(f"infra/k8s: every file parses as YAML; kustomization.yaml lists {len(resources)} existing files")

    def of_kind(kind: str) -> dict[str, dict]:
        return {doc["metadata"]["name"]: doc for _, doc in objects if doc.get("kind") == kind}

    namespaces = of_kind("Namespace")
    namespace = kustomization.get("namespace")
    if namespace not in namespaces:
        problem(f"infra/k8s: kustomization namespace {namespace!r} has no Namespace manifest")
    configmaps = {name: doc.get("data") or {} for name, doc in of_kind("ConfigMap").items()}
    secrets = {doc["metadata"]["name"]: {**(doc.get("data") or {}), **(doc.get("stringData") or {})}
               for doc in secrets_docs if doc.get("kind") == "Secret"}
    for name, values in secrets.items():
        for key, value in values.items():
            if not (str(value).startswith("<") or "<" in str(value)):
                problem(f"infra/k8s/{SECRETS_TEMPLATE}: {name}.{key} looks like a real value, keep placeholders")
    deployments = of_kind("Deployment")
    services = of_kind("Service")
    image_names = {entry.get("name") for entry in kustomization.get("images") or []}

    for name, deployment in deployments.items():
        where = f"infra/k8s Deployment {name}"
        spec = deployment.get("spec") or {}
        selector = (spec.get("selector") or {}).get("matchLabels") or {}
        template = spec.get("template") or {}
        labels = (template.get("metadata") or {}).get("labels") or {}
        if not selector or any(labels.get(k) != v for k, v in selector.items()):
            problem(f"{where}: selector {selector} does not match the pod labels {labels}")
        pod = template.get("spec") or {}
        security = pod.get("securityContext") or {}
        if security.get("runAsNonRoot") is not True or security.get("runAsUser") != 1000:
            problem(f"{where}: pods must run as non-root user 1000 (the image's node user)")
        containers = pod.get("containers") or []
        if len(containers) != 1:
            problem(f"{where}: expected one container")
            continue
        container = containers[0]
        if container.get("image") not in image_names:
            problem(f"{where}: image {container.get('image')!r} has no entry in kustomization.yaml images")
        if container.get("image") != f"marketplace/{name}":
            problem(f"{where}: image should be marketplace/{name}")
        env = {item["name"]: item for item in container.get("env") or []}
        port = PORTS.get(name)
        if port is None:
            problem(f"{where}: {name} has no port in the port table")
        container_ports = {p.get("name"): p.get("containerPort") for p in container.get("ports") or []}
        if container_ports.get("http") != port:
            problem(f"{where}: container port 'http' is {container_ports.get('http')}, expected {port}")
        for key, value in {"SERVICE_NAME": name, "HOST": "0.0.0.0", "PORT": str(port)}.items():
            if (env.get(key) or {}).get("value") != value:
                problem(f"{where}: env {key} should be {value!r}")
        for source in container.get("envFrom") or []:
            ref = (source.get("configMapRef") or {}).get("name") or (source.get("secretRef") or {}).get("name")
            if source.get("configMapRef") and ref not in configmaps:
                problem(f"{where}: envFrom ConfigMap {ref!r} does not exist")
            if source.get("secretRef") and ref not in secrets:
                problem(f"{where}: envFrom Secret {ref!r} is not in {SECRETS_TEMPLATE}")
        visible = set(env)
        for source in container.get("envFrom") or []:
            if source.get("configMapRef"):
                visible |= set(configmaps.get(source["configMapRef"]["name"], {}))
        for key, item in env.items():
            value_from = item.get("valueFrom") or {}
            if "secretKeyRef" in value_from:
                ref = value_from["secretKeyRef"]
                if ref.get("key") not in secrets.get(ref.get("name"), {}):
                    problem(f"{where}: env {key} reads Secret {ref.get('name')}/{ref.get('key')}, "
                            f"which {SECRETS_TEMPLATE} does not define")
            if "configMapKeyRef" in value_from:
                ref = value_from["configMapKeyRef"]
                if ref.get("key") not in configmaps.get(ref.get("name"), {}):
                    problem(f"{where}: env {key} reads ConfigMap {ref.get('name')}/{ref.get('key')}, which does not exist")
        required = {"SERVICE_NAME", "HOST", "PORT", "LOG_LEVEL"}
        if name == "gateway":
            required |= {"WEB_DIST_DIR", "PUBLIC_BUCKET_URL", "S3_ENDPOINT", "TRUST_PROXY"}
            for other in compose_apps:
                if other != "gateway":
                    required.add(f"{other.upper()}_URL")
            for key, item in env.items():
                match = re.fullmatch(r"([A-Z]+)_URL", key)
                if match and match.group(1).lower() in PORTS:
                    target = match.group(1).lower()
                    wanted = f"http://{target}:{PORTS[target]}"
                    if item.get("value") != wanted:
                        problem(f"{where}: env {key} is {item.get('value')!r}, expected {wanted!r}")
                    if target not in services:
                        problem(f"{where}: env {key} points at Service {target!r}, which does not exist")
        elif name in OBJECT_STORAGE_ONLY:
            required |= {"S3_ENDPOINT", "S3_PUBLIC_URL", "S3_ACCESS_KEY", "S3_SECRET_KEY", "APP_ORIGINS",
                         "KAFKA_BROKERS", "JWT_PUBLIC_KEY", "JWT_ISSUER", "JWT_AUDIENCE"}
        else:
            required |= {"MONGO_URL", "KAFKA_BROKERS", "JWT_PUBLIC_KEY", "JWT_ISSUER", "JWT_AUDIENCE"}
            if name == "auth":
                required.add("JWT_PRIVATE_KEY")
            elif "JWT_PRIVATE_KEY" in env:
                problem(f"{where}: only auth may read the private signing key")
            if name in SENDS_MAIL:
                required |= set(MAIL_SETTINGS)
        for key in sorted(required - visible):
            problem(f"{where}: {key} is not provided (env or envFrom)")
        for probe, path in (("livenessProbe", "/healthz"), ("readinessProbe", "/readyz")):
            http_get = (container.get(probe) or {}).get("httpGet") or {}
            if http_get.get("path") != path or http_get.get("port") not in ("http", port):
                problem(f"{where}: {probe} must GET {path} on port http")
        resources_spec = container.get("resources") or {}
        for bound in ("requests", "limits"):
            for unit in ("cpu", "memory"):
                if unit not in (resources_spec.get(bound) or {}):
                    problem(f"{where}: resources.{bound}.{unit} missing")
        if (container.get("securityContext") or {}).get("allowPrivilegeEscalation") is not False:
            problem(f"{where}: allowPrivilegeEscalation must be false")
        mounts = {m.get("name") for m in container.get("volumeMounts") or []}
        volumes = {v.get("name") for v in pod.get("volumes") or []}
        for mount in mounts - volumes:
            problem(f"{where}: volumeMount {mount!r} has no volume")

    for name, service in services.items():
        where = f"infra/k8s Service {name}"
        selector = (service.get("spec") or {}).get("selector") or {}
        matches = [
            d for d in deployments.values()
            if selector and all((((d.get("spec") or {}).get("template") or {}).get("metadata") or {}).get("labels", {}).get(k) == v
                                for k, v in selector.items())
        ]
        if not matches:
            problem(f"{where}: selector {selector} matches no Deployment's pods")
        for entry in (service.get("spec") or {}).get("ports") or []:
            target = entry.get("targetPort")
            for deployment in matches:
                container = deployment["spec"]["template"]["spec"]["containers"][0]
                names = {p.get("name") for p in container.get("ports") or []}
                numbers = {p.get("containerPort") for p in container.get("ports") or []}
                if target not in names and target not in numbers:
                    problem(f"{where}: targetPort {target!r} is not a port of Deployment {deployment['metadata']['name']}")
        if name != "gateway" and name in PORTS:
            if [p.get("port") for p in (service.get("spec") or {}).get("ports") or []] != [PORTS[name]]:
                problem(f"{where}: should expose port {PORTS[name]} (the gateway's {name.upper()}_URL)")

    ingresses = of_kind("Ingress")
    if len(ingresses) != 1:
        problem(f"infra/k8s: expected exactly one Ingress, found {len(ingresses)}")
    for name, ingress in ingresses.items():
        spec = ingress.get("spec") or {}
        backends = []
        if spec.get("defaultBackend"):
            backends.append(spec["defaultBackend"])
        for rule in spec.get("rules") or []:
            for path in (rule.get("http") or {}).get("paths") or []:
                backends.append(path.get("backend") or {})
        for backend in backends:
            target = backend.get("service") or {}
            if target.get("name") != "gateway":
                problem(f"infra/k8s Ingress {name}: routes to {target.get('name')!r}; only the gateway is public")
            port = target.get("port") or {}
            service_ports = (services.get(target.get("name")) or {}).get("spec", {}).get("ports") or []
            def same_port(service_port: dict) -> bool:
                if port.get("name"):
                    return port["name"] == service_port.get("name")
                return port.get("number") == service_port.get("port")
            if not any(same_port(p) for p in service_ports):
                problem(f"infra/k8s Ingress {name}: port {port} is not a port of Service {target.get('name')!r}")

    for app in compose_apps:
        if app not in deployments or app not in services:
            problem(f"infra/k8s: {app} is in docker-compose.yml but has no Deployment and Service")
    for name in deployments:
        if name not in compose_apps:
            problem(f"infra/k8s: Deployment {name} is not in docker-compose.yml")
    ok(f"infra/k8s: Deployments {sorted(deployments)} (selectors, non-root, image entries, ports, env and "
       "their ConfigMap/Secret keys, /healthz and /readyz probes, requests and limits), Services "
       f"{sorted(services)} (selectors, target ports), Ingress to the gateway only, same services as compose")


def main() -> int:
    compose = check_compose()
    apps = check_app_services(compose) if compose else []
    check_dockerignore()
    check_kubernetes(apps)
    for line in checked:
        print(f"  ok  {line}" if not line.startswith("note:") else f"  --  {line[6:]}")
    for line in problems:
        print(f"  FAIL {line}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
