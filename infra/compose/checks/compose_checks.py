"""docker-compose.yml: the compose specification's schema, and what the schema cannot see
(references between services, volumes, files and ports) but `docker compose up` trips on."""

from __future__ import annotations

import json
import re

import jsonschema

from .model import COMPOSE_SCHEMA, Ops

RESTART = re.compile(r"no|always|unless-stopped|on-failure(:\d+)?")
_URL = re.compile(r"^[a-z][a-z0-9+.-]*://(?:[^@/]*@)?([A-Za-z0-9_.-]+):(\d+)")


def peer_address(value: str) -> tuple[str, str] | None:
    """(host, port) of a URL to a bare host name: another container, or a Service in the cluster."""
    match = _URL.match(value)
    if not match or "." in match.group(1) or match.group(1) == "localhost":
        return None
    return match.group(1), match.group(2)


def services(ops: Ops) -> dict[str, dict]:
    return {name: service for name, service in (ops.compose.get("services") or {}).items() if isinstance(service, dict)}


def build_args(service: dict) -> dict[str, str]:
    build = service.get("build")
    args = build.get("args") if isinstance(build, dict) else None
    if isinstance(args, list):
        return dict(item.partition("=")[::2] for item in args)
    return {key: "" if value is None else str(value) for key, value in (args or {}).items()}


def environment(service: dict) -> dict[str, str]:
    env = service.get("environment") or {}
    if isinstance(env, list):
        return dict(item.partition("=")[::2] for item in env)
    return {key: "" if value is None else str(value) for key, value in env.items()}


def _depends_on(service: dict) -> dict[str, dict]:
    value = service.get("depends_on") or {}
    if isinstance(value, list):
        return {name: {} for name in value}
    return {name: spec or {} for name, spec in value.items()}


def _volume_source(entry) -> str | None:
    if isinstance(entry, dict):
        return entry.get("source")
    parts = str(entry).split(":")
    return parts[0] if len(parts) > 1 else None


def _host_port(entry) -> str | None:
    if isinstance(entry, dict):
        return str(entry["published"]) if entry.get("published") else None
    parts = str(entry).split(":")
    return parts[-2] if len(parts) >= 2 else None


def check_schema(ops: Ops) -> list[str]:
    problems = list(ops.compose_problems)
    schema = json.loads((ops.root / COMPOSE_SCHEMA).read_text())
    for error in sorted(
        jsonschema.Draft7Validator(schema).iter_errors(ops.compose), key=lambda e: list(e.absolute_path)
    ):
        problems.append(f"{'.'.join(map(str, error.absolute_path)) or '(top level)'}: {error.message}")
    return problems


def check_references(ops: Ops, has_image_healthcheck) -> list[str]:
    problems: list[str] = []
    stack = services(ops)
    declared_volumes = set(ops.compose.get("volumes") or {})
    published: dict[str, str] = {}
    for name, service in stack.items():
        where = f"services.{name}"
        for target, spec in _depends_on(service).items():
            other = stack.get(target)
            condition = spec.get("condition", "service_started")
            if other is None:
                problems.append(f"{where}.depends_on: {target!r} is not a service")
            elif condition == "service_healthy" and not ("healthcheck" in other or has_image_healthcheck(other)):
                problems.append(f"{where}.depends_on.{target}: waits for it to be healthy, but it has no healthcheck")
            elif condition == "service_completed_successfully" and str(other.get("restart", "no")) != "no":
                problems.append(f"{where}.depends_on.{target}: waits for it to finish, but it restarts")
        for entry in service.get("volumes") or []:
            source = _volume_source(entry)
            if source and source.startswith((".", "/", "~")):
                if not (ops.root / source).exists():
                    problems.append(f"{where}.volumes: bind-mount source {source} does not exist")
            elif source and source not in declared_volumes:
                problems.append(f"{where}.volumes: {source!r} is not declared under volumes:")
        if not RESTART.fullmatch(str(service.get("restart", "no"))):
            problems.append(f"{where}.restart: {service['restart']!r} is not a restart policy Docker knows")
        for entry in service.get("ports") or []:
            host = _host_port(entry)
            if host and host in published:
                problems.append(f"host port {host} is published by both {published[host]} and {name}")
            elif host:
                published[host] = name
    return problems


def check_addresses(ops: Ops) -> list[str]:
    """A URL naming another container reaches a service of the stack, on the port it
    listens on (its PORT build argument)."""
    problems: list[str] = []
    stack = services(ops)
    ports = {name: build_args(service).get("PORT") for name, service in stack.items()}
    for name, service in stack.items():
        for key, value in environment(service).items():
            if not (peer := peer_address(value)):
                continue
            host, port = peer
            if host not in stack:
                problems.append(f"services.{name}.environment.{key}: {host!r} is not a service of the stack")
            elif ports[host] and ports[host] != port:
                problems.append(f"services.{name}.environment.{key}: {host} listens on {ports[host]}, not {port}")
    return problems


def check_every_service_is_built(ops: Ops) -> list[str]:
    built = {build_args(service).get("SERVICE") for service in services(ops).values() if "build" in service}
    return [
        f"{package.directory} is a service of the workspace, but no compose service builds it (build arg SERVICE)"
        for package in ops.packages.values()
        if package.directory.startswith("services/") and package.directory.split("/", 1)[1] not in built
    ]
