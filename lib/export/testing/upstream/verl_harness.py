"""Minimal re-implementation of the verl interfaces an EnvStudio verl export meets, written from
verl-project/verl at 1dda039c (2026-08-22). Not verl itself (it cannot be installed here):
- verl/tools/schemas.py: OpenAIFunctionPropertySchema (type: str | list[str]; before 8c3bee471 a
  plain str), OpenAIFunctionParametersSchema, OpenAIFunctionSchema, OpenAIFunctionToolSchema, ToolResponse
- verl/tools/base_tool.py: BaseTool.__init__(config, tool_schema) sets config, tool_schema, name
- verl/tools/tool_registry.py: initialize_tools_from_config (yaml -> model_validate -> tool_cls(config=, tool_schema=))
- verl/experimental/agent_loop/tool_agent_loop.py: AgentData.extra_fields; _call_tool runs
  create(create_kwargs=...) -> execute(instance_id, args, agent_data=agent_data) -> release(instance_id) per call,
  and each call's reward joins agent_data.tool_rewards (an unknown tool's too, refused with 0.0); run() returns extra_fields=agent_data.extra_fields
  plus turn_scores and tool_rewards (before 9aaa5761a, verl 0.7.0 and older: extra_fields={} plus those two)
- verl/experimental/reward_loop/reward_manager/naive.py: extra_info.update(tool_extra_fields), then
  compute_score(data_source=, solution_str=, ground_truth=, extra_info=)
- verl/utils/import_utils.py: load_module via spec_from_file_location (custom_reward_function.path)

usage: python3 verl_harness.py <export_dir> < {"row": <parquet row>, "calls": [{"name", "arguments"}], "strict_types": bool,
                                              "interleave": [<calls of a concurrent trajectory of the same row>],
                                              "before_9aaa5761a": bool, "verl_version": str}
prints {"score": ..., "tool_texts": [...], "schema_error": ..., "other_score": ...} or {"score_error": ...}
"""
import asyncio
import importlib.util
import json
import sys
import types
import uuid
from typing import Any

import yaml
from pydantic import BaseModel, Field


class OpenAIFunctionPropertySchema(BaseModel):
    type: str | list[str]
    description: str | None = None
    enum: list[Any] | None = None


class StrictPropertySchema(OpenAIFunctionPropertySchema):
    type: str  # verl before 8c3bee471 (2026-05-08)


class OpenAIFunctionParametersSchema(BaseModel):
    type: str
    properties: dict[str, OpenAIFunctionPropertySchema]
    required: list[str] = Field(default_factory=list)


class OpenAIFunctionSchema(BaseModel):
    name: str
    description: str
    parameters: OpenAIFunctionParametersSchema
    strict: bool = False


class OpenAIFunctionToolSchema(BaseModel):
    type: str
    function: OpenAIFunctionSchema


class ToolResponse(BaseModel):
    text: str | None = None


class BaseTool:
    def __init__(self, config: dict, tool_schema: OpenAIFunctionToolSchema):
        self.config = config
        self.tool_schema = tool_schema
        self.name = tool_schema.function.name


def install_verl_modules(version: str | None) -> None:
    verl = types.ModuleType("verl")
    if version is not None:
        verl.__version__ = version
    tools = types.ModuleType("verl.tools")
    base_tool = types.ModuleType("verl.tools.base_tool")
    schemas = types.ModuleType("verl.tools.schemas")
    base_tool.BaseTool = BaseTool
    schemas.OpenAIFunctionToolSchema = OpenAIFunctionToolSchema
    schemas.ToolResponse = ToolResponse
    sys.modules.update({"verl": verl, "verl.tools": tools, "verl.tools.base_tool": base_tool, "verl.tools.schemas": schemas})


def initialize_tools_from_config(path: str, strict_types: bool) -> list:
    with open(path, encoding="utf-8") as f:
        config = yaml.safe_load(f)
    out = []
    for entry in config["tools"]:
        module_name, class_name = entry["class_name"].rsplit(".", 1)
        cls = getattr(importlib.import_module(module_name), class_name)
        schema = OpenAIFunctionToolSchema.model_validate(entry["tool_schema"])
        if strict_types:
            for prop in entry["tool_schema"]["function"]["parameters"]["properties"].values():
                StrictPropertySchema.model_validate(prop)
        out.append(cls(config=entry["config"], tool_schema=schema))
    return out


class AgentData:
    def __init__(self, tools_kwargs: dict):
        self.request_id = uuid.uuid4().hex
        self.tools_kwargs = tools_kwargs
        self.tool_rewards: list = []
        self.extra_fields: dict = {}


async def call_tool(tools: dict, name: str, args: dict, agent_data: AgentData) -> str:
    if name not in tools:  # refused before any tool runs, with reward 0.0
        agent_data.tool_rewards.append(0.0)
        return f"Unknown function '{name}'. Available tools: {list(tools)}"
    tool, instance_id = tools[name], None
    try:
        kwargs = agent_data.tools_kwargs.get(name, {}) or {}
        instance_id, _ = await tool.create(create_kwargs=kwargs.get("create_kwargs", {}))
        response, reward, _ = await tool.execute(instance_id, args, agent_data=agent_data)
    finally:
        if instance_id:
            await tool.release(instance_id)
    if reward is not None:
        agent_data.tool_rewards.append(reward)
    return response.text


def output_extra_fields(agent_data: AgentData, before_9aaa5761a: bool) -> dict:
    """ToolAgentLoop.run's AgentLoopOutput.extra_fields, which the reward manager receives as tool_extra_fields."""
    fields = {} if before_9aaa5761a else agent_data.extra_fields
    fields.update({"turn_scores": [], "tool_rewards": agent_data.tool_rewards})
    return fields


def score(export_dir: str, row: dict, agent_data: AgentData, before_9aaa5761a: bool = False) -> dict:
    extra_info = dict(row["extra_info"])
    extra_info.update(output_extra_fields(agent_data, before_9aaa5761a).items())
    spec = importlib.util.spec_from_file_location("custom_module_reward", f"{export_dir}/envstudio_verl.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.compute_score(data_source=row["data_source"], solution_str="Task Completed", ground_truth=row["reward_model"]["ground_truth"], extra_info=extra_info)


def main() -> None:
    export_dir = sys.argv[1]
    job = json.load(sys.stdin)
    install_verl_modules(job.get("verl_version"))
    sys.path.insert(0, export_dir)
    try:
        tools = {t.name: t for t in initialize_tools_from_config(f"{export_dir}/tool_config.yaml", job.get("strict_types", False))}
    except Exception as error:  # what ToolAgentLoop's start-up would raise
        print(json.dumps({"schema_error": f"{type(error).__name__}: {error}"}))
        return
    row = job["row"]
    agent_data = AgentData(row["extra_info"].get("tools_kwargs") or {})
    other = AgentData(row["extra_info"].get("tools_kwargs") or {})  # a concurrent rollout of the same prompt
    texts = []
    for i, c in enumerate(job["calls"]):
        texts.append(asyncio.run(call_tool(tools, c["name"], c["arguments"], agent_data)))
        if i < len(job.get("interleave", [])):
            c2 = job["interleave"][i]
            asyncio.run(call_tool(tools, c2["name"], c2["arguments"], other))
    try:
        result = score(export_dir, row, agent_data, job.get("before_9aaa5761a", False))
    except Exception as error:  # what the reward loop would raise, stopping the training step
        print(json.dumps({"score_error": f"{type(error).__name__}: {error}", "tool_texts": texts}))
        return
    print(json.dumps({"score": result["score"], "result": result, "tool_texts": texts, "other_score": score(export_dir, row, other)["score"]}))


if __name__ == "__main__":
    main()
