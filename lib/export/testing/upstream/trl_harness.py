"""Minimal re-implementation of what TRL and transformers do with an environment_factory class,
written from (not installed; neither can be installed here):
- huggingface/trl f2cd57710 (2026-07-24) trl/trainer/grpo_trainer.py: the probe takes
  inspect.getmembers(instance, inspect.ismethod), skips reset / get_reward / _private, and every
  other method is a tool; per example, observation = env.reset(**example); a str observation is
  appended to the last prompt message's content (content + observation, no separator); a
  get_reward() method is called once per finished rollout.
- huggingface/transformers main, src/transformers/utils/chat_template_utils.py: get_json_schema
  (_parse_type_hint, _convert_type_hints_to_json_schema skipping an unannotated self,
  parse_google_format_docstring); the version with Literal, types.UnionType and "null".

usage: python3 trl_harness.py <package_dir> <class_name> < {"example": {...}, "calls": [{"name", "arguments"}], "previous": [calls]}
("previous": a rollout the pooled instance ran before this one, as TRL reuses instances across batches)
prints {"tools": [<rendered schemas>], "prompt": [...], "reward": float, "results": [...]}
"""
import inspect
import json
import re
import sys
import types
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints

description_re = re.compile(r"^(.*?)[\n\s]*(Args:|Returns:|Raises:|\Z)", re.DOTALL)
args_re = re.compile(r"\n\s*Args:\n\s*(.*?)[\n\s]*(Returns:|Raises:|\Z)", re.DOTALL)
args_split_re = re.compile(r"(?:^|\n)\s*(\w+):\s*(.*?)\s*(?=\n\s*\w+:|\Z)", re.DOTALL)


def _json_type(t) -> dict:
    mapping = {int: {"type": "integer"}, float: {"type": "number"}, str: {"type": "string"}, bool: {"type": "boolean"}, type(None): {"type": "null"}, Any: {}}
    return mapping.get(t, {"type": "object"})


def _parse_type_hint(hint) -> dict:
    origin, args = get_origin(hint), get_args(hint)
    if origin is None:
        return _json_type(hint)
    if origin is Union or origin is types.UnionType:
        subtypes = [_parse_type_hint(t) for t in args if t is not type(None)]
        if len(subtypes) == 1:
            out = subtypes[0]
        elif all("type" in s and isinstance(s["type"], str) for s in subtypes):
            out = {"type": sorted(s["type"] for s in subtypes)}
        else:
            out = {"anyOf": subtypes}
        if type(None) in args:
            out["nullable"] = True
        return out
    if origin is Literal and args:
        kinds = []
        for a in args:
            k = _json_type(type(a)).get("type")
            if k is not None and k not in kinds:
                kinds.append(k)
        return {"type": kinds.pop() if len(kinds) == 1 else list(kinds), "enum": list(args)}
    if origin is list:
        return {"type": "array", "items": _parse_type_hint(args[0])} if args else {"type": "array"}
    if origin is dict:
        out = {"type": "object"}
        if len(args) == 2:
            out["additionalProperties"] = _parse_type_hint(args[1])
        return out
    raise TypeError(f"unparseable hint {hint}")


def get_json_schema(func) -> dict:
    doc = inspect.getdoc(func).strip()
    main_doc = description_re.search(doc).group(1).strip()
    args_match = args_re.search(doc)
    descriptions = {}
    if args_match:
        block = "\n".join(line for line in args_match.group(1).strip().split("\n") if line.strip())
        descriptions = {m[0]: re.sub(r"\s*\n+\s*", " ", m[1].strip()) for m in args_split_re.findall(block)}
    hints = get_type_hints(func)
    signature = inspect.signature(func)
    required = [n for n, p in signature.parameters.items() if p.default is inspect.Parameter.empty]
    properties = {n: _parse_type_hint(t) for n, t in hints.items() if n != "return"}
    for name, schema in properties.items():
        schema["description"] = descriptions[name]  # transformers raises when an argument has none
    parameters = {"type": "object", "properties": properties}
    if required:
        parameters["required"] = required
    return {"type": "function", "function": {"name": func.__name__, "description": main_doc, "parameters": parameters}}


def main() -> None:
    package_dir, class_name = sys.argv[1], sys.argv[2]
    job = json.load(sys.stdin)
    sys.path.insert(0, package_dir)
    import trl_env

    env = getattr(trl_env, class_name)()
    tools = [m for n, m in inspect.getmembers(env, predicate=inspect.ismethod) if n not in ("reset", "get_reward") and not n.startswith("_")]
    example = job["example"]
    if "previous" in job:
        env.reset(**example)
        for c in job["previous"]:
            getattr(env, c["name"])(**c["arguments"])
        env.get_reward()
    prompt = list(example["prompt"])
    observation = env.reset(**example)
    if observation is not None:
        prompt = prompt[:-1] + [{**prompt[-1], "content": prompt[-1]["content"] + observation}]
    by_name = {t.__name__: t for t in tools}
    results = [json.loads(by_name[c["name"]](**c["arguments"])) for c in job["calls"]]
    print(json.dumps({"tools": [get_json_schema(t) for t in tools], "prompt": prompt, "reward": env.get_reward(), "results": results}))


if __name__ == "__main__":
    main()
