"""Reads an export folder back the way Python trainers do, for the hostile-input tests.

usage: python3 read_back.py <export_dir>
- compiles every .py file, then imports the OpenEnv/TRL package modules (with OpenEnv stubbed as in
  upstream/openenv_harness.py) and envstudio_verl.py (verl stubbed as in upstream/verl_harness.py);
- loads every .json (json.load), .jsonl (json.loads per line of the file iterated as text), .yaml
  (yaml.safe_load; tool_config.yaml also as OmegaConf resolves it) and .toml (tomllib) file, and the
  YAML header of a README.md dataset card;
- reports each TRL tool's docstring and Literal values, and the package modules' docstrings.
prints one JSON object (ASCII) with all of it.
"""
import importlib
import importlib.util
import json
import sys
import tomllib
import typing
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).parent / "upstream"))
from omegaconf_strings import resolve_values  # noqa: E402
from openenv_harness import install_openenv_modules  # noqa: E402
from verl_harness import install_verl_modules  # noqa: E402


def literal_values(hint):
    if typing.get_origin(hint) is typing.Literal:
        return list(typing.get_args(hint))
    return [v for arg in typing.get_args(hint) for v in literal_values(arg)]


def trl_tools(module) -> dict:
    cls = next(v for k, v in vars(module).items() if k.endswith("TrlEnv"))
    tools = {}
    for name, method in vars(cls).items():
        if name.startswith("_") or name in ("reset", "get_reward"):
            continue
        hints = typing.get_type_hints(method)
        tools[name] = {"doc": method.__doc__, "literals": {p: literal_values(h) for p, h in hints.items() if literal_values(h)}}
    return tools


def import_package(root: Path, pkg: str) -> dict:
    install_openenv_modules()
    sys.path.insert(0, str(root))
    names = ["", ".client", ".models", ".runtime", ".env_class", ".trl_env", ".server", ".server.app", f".server.{pkg}_environment",
             ".server.mcp_app", f".server.{pkg}_mcp_environment"]
    modules = {n: importlib.import_module(pkg + n) for n in names}
    return {
        "docs": {n or pkg: m.__doc__ for n, m in modules.items()},
        "env_class_name": modules[".env_class"].ENV_CLASS_NAME,
        "trl_tools": trl_tools(modules[".trl_env"]),
    }


def import_verl(path: Path) -> dict:
    install_verl_modules(None)  # the reader needs only the modules, not a verl version
    spec = importlib.util.spec_from_file_location("envstudio_verl", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return {"has_compute_score": callable(module.compute_score)}


def load(path: Path):
    if path.suffix not in (".json", ".jsonl", ".yaml", ".toml", ".md"):
        return None
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".json":
        return json.loads(text)
    if path.suffix == ".jsonl":
        with open(path, encoding="utf-8") as f:
            return [json.loads(line) for line in f]
    if path.suffix == ".yaml":
        return yaml.safe_load(text)
    if path.suffix == ".toml":
        return tomllib.loads(text)
    if path.name == "README.md" and text.startswith("---\n"):
        return yaml.safe_load(text.split("\n---\n", 1)[0][4:])
    return None


def main() -> None:
    root = Path(sys.argv[1])
    files = sorted(p for p in root.rglob("*") if p.is_file())
    for p in files:
        if p.suffix == ".py":
            compile(p.read_bytes(), str(p), "exec")
    out = {"files": {}, "omegaconf": {}, "python": {}}
    for p in files:
        value = load(p)
        if value is not None:
            out["files"][str(p.relative_to(root))] = value
        if p.name == "tool_config.yaml":
            out["omegaconf"] = resolve_values(value)
        if p.name == "openenv.yaml":
            out["python"]["package"] = import_package(root, p.parent.name)
        if p.name == "envstudio_verl.py":
            out["python"]["verl"] = import_verl(p)
    print(json.dumps(out, ensure_ascii=True))


if __name__ == "__main__":
    main()
