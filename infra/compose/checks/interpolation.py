"""Compose's variable interpolation, applied before the schema check as compose applies it:
$VAR, ${VAR}, ${VAR:-default}, ${VAR-default}, ${VAR:?error}, ${VAR?error}, ${VAR:+other},
${VAR+other} and $$ for a literal $. The checks give it no variables: the file must work as
committed, with its defaults, the way a fresh `docker compose up` reads it."""

from __future__ import annotations

import re

VARIABLE = re.compile(
    r"\$(?:(?P<escaped>\$)"
    r"|\{(?P<braced>[A-Za-z_]\w*)(?:(?P<op>:?[-?+])(?P<arg>[^}]*))?\}"
    r"|(?P<named>[A-Za-z_]\w*)"
    r"|(?P<bad>\{[^}]*\}?))"
)


def interpolate(value, env: dict[str, str], problems: list[str], where: str = ""):
    if isinstance(value, dict):
        return {key: interpolate(item, env, problems, f"{where}.{key}".lstrip(".")) for key, item in value.items()}
    if isinstance(value, list):
        return [interpolate(item, env, problems, f"{where}[{index}]") for index, item in enumerate(value)]
    if not isinstance(value, str):
        return value

    def replace(match: re.Match) -> str:
        if match.group("escaped"):
            return "$"
        if match.group("bad") is not None:
            problems.append(f"{where}: invalid interpolation {match.group(0)!r}")
            return ""
        name = match.group("braced") or match.group("named")
        op, arg, current = match.group("op"), match.group("arg") or "", env.get(name)
        if op is None:
            return current or ""
        unset = current is None or (op.startswith(":") and current == "")
        if op.endswith("-"):
            return arg if unset else current
        if op.endswith("?"):
            if unset:
                problems.append(f"{where}: required variable {name} is not set ({arg})")
            return current or ""
        return "" if unset else arg

    return VARIABLE.sub(replace, value)
