"""Minimal re-implementation of what OpenEnv does with an exported package, written from
meta-pytorch/OpenEnv 685de411 (2026-05-01), not installed (it cannot be installed here):
- src/openenv/cli/_validation.py validate_multi_mode_deployment (10bcdbad): pyproject, uv.lock,
  [project.scripts] server with ":main", an openenv dependency, server/app.py with def main( and
  main() called under `if __name__ == "__main__"`.
- src/openenv/auto/_discovery.py: distribution "openenv-*" -> module name; openenv.yaml name (+"_env");
  client/action/observation class names from _infer_class_name; all three imported from "<module>.client".
- src/openenv/core: EnvClient (abstract _step_payload/_parse_result/_parse_state), StepResult,
  env_server.types Action/Observation (extra="forbid")/State (extra="allow"),
  serialization.serialize_observation (reward, done, metadata moved out), one Environment per WS session.
- src/openenv/core/env_server/mcp_types.py as of huggingface/OpenEnv 385de5eb (2026-06-13; unchanged
  there since 8823fc79, docs only): Tool, ToolErrorType, ToolError, ListToolsAction, CallToolAction,
  ListToolsObservation, CallToolObservation and the JSON-RPC models, field for field. Used by
  openenv_mcp_harness.py, which re-implements the /mcp and /ws routes that step them.

usage: python3 openenv_harness.py <export_dir> <pkg> < {"scenario_id": ..., "calls": [{"name", "arguments"}]}
"""
import abc
import ast
import json
import sys
import tomllib
import types
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any, Dict, Generic, List, Literal, Optional, TypeVar, Union

import yaml
from pydantic import BaseModel, ConfigDict, Field

T = TypeVar("T")


class Action(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=True, arbitrary_types_allowed=True)
    metadata: Dict[str, Any] = {}


class Observation(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=True, arbitrary_types_allowed=True)
    done: bool = False
    reward: bool | int | float | None = None
    metadata: Dict[str, Any] = {}


class State(BaseModel):
    model_config = ConfigDict(extra="allow", validate_assignment=True, arbitrary_types_allowed=True)
    episode_id: Optional[str] = None
    step_count: int = 0


class Environment(abc.ABC):
    SUPPORTS_CONCURRENT_SESSIONS = False

    def __init__(self, transform=None, rubric=None):
        self.transform, self.rubric = transform, rubric

    def close(self) -> None:
        pass


# --- mcp_types.py (385de5eb) ---


class JsonRpcErrorCode(int, Enum):
    PARSE_ERROR = -32700
    INVALID_REQUEST = -32600
    METHOD_NOT_FOUND = -32601
    INVALID_PARAMS = -32602
    INTERNAL_ERROR = -32603
    SERVER_ERROR = -32000


class McpMethod(str, Enum):
    TOOLS_LIST = "tools/list"
    TOOLS_CALL = "tools/call"


class JsonRpcError(BaseModel):
    model_config = ConfigDict(extra="forbid")
    code: int
    message: str
    data: Optional[Any] = None

    @classmethod
    def from_code(cls, code: JsonRpcErrorCode, message: Optional[str] = None, data: Any = None) -> "JsonRpcError":
        default_messages = {
            JsonRpcErrorCode.PARSE_ERROR: "Parse error",
            JsonRpcErrorCode.INVALID_REQUEST: "Invalid Request",
            JsonRpcErrorCode.METHOD_NOT_FOUND: "Method not found",
            JsonRpcErrorCode.INVALID_PARAMS: "Invalid params",
            JsonRpcErrorCode.INTERNAL_ERROR: "Internal error",
            JsonRpcErrorCode.SERVER_ERROR: "Server error",
        }
        return cls(code=code.value, message=message or default_messages.get(code, "Unknown error"), data=data)


class JsonRpcRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    jsonrpc: Literal["2.0"]
    method: str
    params: Dict[str, Any] = Field(default_factory=dict)
    id: Optional[Union[str, int]] = None


class JsonRpcResponse(BaseModel):
    model_config = ConfigDict(extra="forbid")
    jsonrpc: Literal["2.0"] = "2.0"
    result: Optional[Any] = None
    error: Optional[JsonRpcError] = None
    id: Optional[Union[str, int]] = None

    def model_dump(self, **kwargs) -> Dict[str, Any]:
        data: Dict[str, Any] = {"jsonrpc": self.jsonrpc, "id": self.id}
        if self.error is not None:
            data["error"] = self.error.model_dump() if hasattr(self.error, "model_dump") else self.error
        else:
            data["result"] = self.result
        return data

    @classmethod
    def success(cls, result: Any, request_id: Optional[Union[str, int]] = None) -> "JsonRpcResponse":
        return cls(result=result, id=request_id)

    @classmethod
    def error_response(cls, code: JsonRpcErrorCode, message: Optional[str] = None, data: Any = None,
                       request_id: Optional[Union[str, int]] = None) -> "JsonRpcResponse":
        return cls(error=JsonRpcError.from_code(code, message, data), id=request_id)


class Tool(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str
    description: str
    input_schema: Dict[str, Any]


class ToolErrorType(str, Enum):
    EXECUTION_ERROR = "execution_error"
    INVALID_ARGS = "invalid_args"
    TRANSPORT_ERROR = "transport_error"
    TOOL_NOT_FOUND = "tool_not_found"
    TIMEOUT = "timeout"


class ToolError(BaseModel):
    model_config = ConfigDict(extra="forbid")
    error_type: ToolErrorType
    message: str


class ListToolsAction(Action):
    type: Literal["list_tools"] = "list_tools"


class CallToolAction(Action):
    type: Literal["call_tool"] = "call_tool"
    tool_name: str
    arguments: Dict[str, Any] = Field(default_factory=dict)


class ListToolsObservation(Observation):
    tools: List[Tool]


class CallToolObservation(Observation):
    tool_name: str
    result: Any = None
    error: Optional[ToolError] = None


MCP_TYPES = (JsonRpcErrorCode, McpMethod, JsonRpcError, JsonRpcRequest, JsonRpcResponse, Tool, ToolErrorType, ToolError,
             ListToolsAction, CallToolAction, ListToolsObservation, CallToolObservation)


@dataclass
class StepResult(Generic[T]):
    observation: T
    reward: Optional[float] = None
    done: bool = False


class EnvClient(abc.ABC):
    @abc.abstractmethod
    def _step_payload(self, action): ...

    @abc.abstractmethod
    def _parse_result(self, payload): ...

    @abc.abstractmethod
    def _parse_state(self, payload): ...

    def __class_getitem__(cls, params):  # EnvClient[ActT, ObsT, StateT]
        return cls


def install_openenv_modules() -> None:
    mods = {name: types.ModuleType(name) for name in ["openenv", "openenv.core", "openenv.core.client_types", "openenv.core.env_server", "openenv.core.env_server.types", "openenv.core.env_server.interfaces", "openenv.core.env_server.http_server", "openenv.core.env_server.mcp_types"]}
    mods["openenv.core"].EnvClient = EnvClient
    mods["openenv.core.client_types"].StepResult = StepResult
    for cls in (Action, Observation, State):
        setattr(mods["openenv.core.env_server.types"], cls.__name__, cls)
    mods["openenv.core.env_server.interfaces"].Environment = Environment
    for cls in MCP_TYPES:
        setattr(mods["openenv.core.env_server.mcp_types"], cls.__name__, cls)
    mods["openenv.core.env_server.mcp_types"].RESERVED_TOOL_NAMES = frozenset(["reset", "step", "state", "close"])
    mods["openenv.core.env_server.http_server"].create_app = lambda env, act, obs, **kw: {"env": env, "action": act, "observation": obs, **kw}
    sys.modules.update(mods)


def validate(env_path: Path) -> list:
    issues = []
    if not (env_path / "uv.lock").exists():
        issues.append("Missing uv.lock - run 'uv lock' to generate it")
    pyproject = tomllib.loads((env_path / "pyproject.toml").read_text())
    scripts = pyproject.get("project", {}).get("scripts", {})
    if "server" not in scripts:
        issues.append("Missing [project.scripts] server entry point")
    if scripts.get("server") and ":main" not in scripts["server"]:
        issues.append("Server entry point should reference main function")
    deps = [d.lower() for d in pyproject.get("project", {}).get("dependencies", [])]
    if not any(d.startswith("openenv") for d in deps):
        issues.append("Missing required dependency: openenv-core>=0.2.0 (or openenv>=0.2.0)")
    app = (env_path / "server" / "app.py").read_text()
    if "def main(" not in app:
        issues.append("server/app.py missing main() function")
    guarded = any(isinstance(n, ast.If) and isinstance(n.test, ast.Compare) and getattr(n.test.left, "id", None) == "__name__"
                  and any(isinstance(c, ast.Call) and getattr(c.func, "id", None) == "main" for b in n.body for c in ast.walk(b))
                  for n in ast.iter_child_nodes(ast.parse(app)))
    if not guarded:
        issues.append("server/app.py main() function not callable (missing if __name__ == '__main__')")
    return issues


def discover(env_path: Path) -> dict:
    package_name = tomllib.loads((env_path / "pyproject.toml").read_text())["project"]["name"]
    if not package_name.startswith("openenv-") or package_name == "openenv-core":
        return {}
    module_name = package_name.replace("openenv-", "").replace("-", "_")
    manifest = yaml.safe_load((env_path / "openenv.yaml").read_text())
    env_name = manifest.get("name", module_name)
    env_name = env_name if env_name.endswith("_env") else f"{env_name}_env"
    pascal = "".join(w.capitalize() for w in env_name.replace("_env", "").split("_"))
    return {"module": module_name, "client_module": f"{module_name}.client", "client": f"{pascal}Env", "action": f"{pascal}Action", "observation": f"{pascal}Observation"}


def main() -> None:
    export_dir, pkg = Path(sys.argv[1]), sys.argv[2]
    job = json.load(sys.stdin)
    install_openenv_modules()
    env_path = export_dir / pkg
    info = discover(env_path)
    sys.path.insert(0, str(export_dir))  # as if installed: the folder is the module
    client_module = __import__(info["client_module"], fromlist=["_"])
    client_cls, action_cls, obs_cls = (getattr(client_module, info[k]) for k in ("client", "action", "observation"))
    server = __import__(f"{pkg}.server.app", fromlist=["_"]).app
    env = server["env"]()  # one Environment per WebSocket session
    client = client_cls.__new__(client_cls)
    reset = env.reset(scenario_id=job["scenario_id"])
    rewards = []
    for call in job["calls"] + [{"name": "submit", "arguments": {}}]:
        payload = client._step_payload(action_cls(tool_name=call["name"], arguments=call["arguments"]))
        obs = env.step(server["action"].model_validate(payload))
        wire = {"observation": obs.model_dump(exclude={"reward", "done", "metadata"}), "reward": obs.reward, "done": obs.done}
        rewards.append(client._parse_result(wire).reward)
    state = client._parse_state(json.loads(env.state.model_dump_json()))
    print(json.dumps({"issues": validate(env_path), "discovery": info, "is_env_client": issubclass(client_cls, EnvClient),
                      "observation_class": obs_cls.__name__, "task": reset.content, "reward": rewards[-1], "step_count": state.step_count}))


if __name__ == "__main__":
    main()
