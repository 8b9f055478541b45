"""Minimal re-implementation of how OpenEnv's own server serves an MCP-action environment, written
from huggingface/OpenEnv, not installed (it cannot be installed here):
- src/openenv/core/env_server/http_server.py @ 434bb1dcf892119b1d7344c7fc1c1459a7da390a (the newest
  version readable; the MCP-action fallback came with commit dac82c6c): HTTPEnvServer.register_routes ->
  mcp_handler (openenv/session/create|close; tools/list and tools/call, where an env with neither
  `mcp_client` nor `mcp_server` whose action_cls is CallToolAction or ListToolsAction is stepped with
  ListToolsAction() / CallToolAction(tool_name=name, arguments=args)), POST /mcp (body parsing; every
  answer is HTTP 200 with the JSON-RPC body), /ws (`?session_id=` attach; reset, step, state, mcp frames).
- src/openenv/core/env_server/serialization.py @ ac39801e (= 385de5eb): deserialize_action,
  serialize_observation; types.py WS message models (BaseMessage extra="forbid").
- the mcp_types models are in openenv_harness.py.
Upstream is async and runs a sync env's step()/reset() in an executor; here they run in line, in the
same order. The mcp_client / mcp_server paths (FastMCP environments) are not re-implemented.

usage: python3 openenv_mcp_harness.py <export_dir> <pkg> < job
job: {"layout": "package" | "folder", "requests": [
        {"post_mcp": <JSON body, or a string sent as the raw body>}
      | {"ws": <frame object>, "socket": <name>, "session_id"?: <query of the socket's first frame>}]}
A string "$session" anywhere in a request is replaced by the id the last openenv/session/create gave.
prints {"app": {...}, "responses": [...]}, one response per request.
"""
import importlib
import inspect
import json
import sys
import uuid
from pathlib import Path
from typing import Any, Dict, Literal, Optional

from pydantic import BaseModel, ConfigDict, Field, ValidationError

sys.path.insert(0, str(Path(__file__).parent))
from openenv_harness import (  # noqa: E402
    Action,
    CallToolAction,
    CallToolObservation,
    JsonRpcErrorCode,
    JsonRpcRequest,
    JsonRpcResponse,
    ListToolsAction,
    ListToolsObservation,
    McpMethod,
    Observation,
    install_openenv_modules,
)

_MISSING = object()

# --- serialization.py ---

_MCP_ACTION_TYPES = {"list_tools": ListToolsAction, "call_tool": CallToolAction}


def deserialize_action(action_data: Dict[str, Any], action_cls) -> Action:
    action_type = action_data.get("type")
    if action_type in _MCP_ACTION_TYPES:
        mcp_cls = _MCP_ACTION_TYPES[action_type]
        if action_cls is Action or action_cls in _MCP_ACTION_TYPES.values():
            return mcp_cls.model_validate(action_data)
    return action_cls.model_validate(action_data)


def serialize_observation(observation: Observation) -> Dict[str, Any]:
    obs_dict = observation.model_dump(exclude={"reward", "done", "metadata"})
    return {"observation": obs_dict, "reward": observation.reward, "done": observation.done}


# --- http_server.py helpers ---


def _make_json_serializable(obj: Any) -> Any:
    if obj is None:
        return None
    if isinstance(obj, (str, int, float, bool)):
        return obj
    if isinstance(obj, (list, tuple)):
        return [_make_json_serializable(item) for item in obj]
    if isinstance(obj, dict):
        return {k: _make_json_serializable(v) for k, v in obj.items()}
    if hasattr(obj, "model_dump"):
        return obj.model_dump()
    if hasattr(obj, "__dict__"):
        return {k: _make_json_serializable(v) for k, v in obj.__dict__.items()}
    return str(obj)


class BaseMessage(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=True)


class WSResetMessage(BaseMessage):
    type: Literal["reset"] = "reset"
    data: Dict[str, Any] = Field(default_factory=dict)


class WSStepMessage(BaseMessage):
    type: Literal["step"] = "step"
    data: Dict[str, Any]


class WSStateMessage(BaseMessage):
    type: Literal["state"] = "state"


class WSMCPMessage(BaseMessage):
    type: Literal["mcp"] = "mcp"
    data: Dict[str, Any]


class SessionCapacityError(Exception):
    def __init__(self, active_sessions: int, max_sessions: int):
        super().__init__(f"Server at capacity: {active_sessions}/{max_sessions} sessions active. Try again later.")
        self.active_sessions, self.max_sessions = active_sessions, max_sessions


class HTTPEnvServer:
    def __init__(self, env, action_cls, observation_cls, max_concurrent_envs: Optional[int] = None, env_name: Optional[str] = None):
        self._env_factory = env
        self.action_cls, self.observation_cls = action_cls, observation_cls
        self._max_concurrent_envs = max_concurrent_envs or 1
        self.env_name = env_name or env.__name__
        self._sessions: Dict[str, Any] = {}
        self._session_websocket_attachments: set = set()
        self._session_pending_closes: set = set()

    def _get_valid_kwargs(self, sig: inspect.Signature, kwargs: Dict[str, Any]) -> Dict[str, Any]:
        has_kwargs = any(p.kind == inspect.Parameter.VAR_KEYWORD for p in sig.parameters.values())
        return {k: v for k, v in kwargs.items() if k in sig.parameters or has_kwargs}

    def _create_session(self):
        if len(self._sessions) >= self._max_concurrent_envs:
            raise SessionCapacityError(len(self._sessions), self._max_concurrent_envs)
        session_id = str(uuid.uuid4())
        self._sessions[session_id] = env = self._env_factory()
        return session_id, env

    def _destroy_session(self, session_id: str) -> None:
        env = self._sessions.pop(session_id, None)
        self._session_websocket_attachments.discard(session_id)
        self._session_pending_closes.discard(session_id)
        if env is not None:
            env.close()

    def mcp_handler(self, request: JsonRpcRequest, session_env=None, session_id: Optional[str] = None) -> JsonRpcResponse:
        method, request_id, params = request.method, request.id, request.params
        if not isinstance(params, dict):
            return JsonRpcResponse.error_response(JsonRpcErrorCode.INVALID_PARAMS, "Params must be an object", request_id=request_id)

        if method == "openenv/session/create":
            if session_env is not None and session_id is not None:
                return JsonRpcResponse.success(result={"session_id": session_id}, request_id=request_id)
            try:
                created_session_id, _ = self._create_session()
            except SessionCapacityError as e:
                return JsonRpcResponse.error_response(JsonRpcErrorCode.SERVER_ERROR, str(e), request_id=request_id,
                                                      data={"active_sessions": e.active_sessions, "max_sessions": e.max_sessions})
            return JsonRpcResponse.success(result={"session_id": created_session_id}, request_id=request_id)

        if method == "openenv/session/close":
            target_session_id = params.get("session_id")
            if not target_session_id:
                return JsonRpcResponse.error_response(JsonRpcErrorCode.INVALID_PARAMS, "Invalid params - 'session_id' is required", request_id=request_id)
            if session_id is not None and target_session_id == session_id:
                return JsonRpcResponse.error_response(JsonRpcErrorCode.INVALID_REQUEST, "Cannot close active WebSocket-managed session via MCP method", request_id=request_id)
            if target_session_id in self._session_websocket_attachments:
                self._session_pending_closes.add(target_session_id)
                return JsonRpcResponse.success(result={"session_id": target_session_id, "closed": False, "closing": True}, request_id=request_id)
            env = self._sessions.pop(target_session_id, _MISSING)
            if env is _MISSING:
                return JsonRpcResponse.error_response(JsonRpcErrorCode.INVALID_PARAMS, f"Unknown session_id: {target_session_id}", request_id=request_id)
            env.close()
            return JsonRpcResponse.success(result={"session_id": target_session_id, "closed": True}, request_id=request_id)

        requested_session_id = params.get("session_id")
        if session_env is not None:
            _env, should_close = session_env, False
        elif requested_session_id:
            _env = self._sessions.get(requested_session_id, _MISSING)
            if _env is _MISSING:
                return JsonRpcResponse.error_response(JsonRpcErrorCode.INVALID_PARAMS, f"Unknown session_id: {requested_session_id}", request_id=request_id)
            should_close = False
        else:
            _env, should_close = self._env_factory(), True
        try:
            mcp_client = getattr(_env, "mcp_client", None)
            mcp_server = getattr(_env, "mcp_server", None)
            supports_mcp_style_actions = self.action_cls in {CallToolAction, ListToolsAction}

            if method == McpMethod.TOOLS_LIST:
                if mcp_client is None and mcp_server is None:
                    if supports_mcp_style_actions:
                        observation = _env.step(ListToolsAction())
                        if isinstance(observation, ListToolsObservation):
                            return JsonRpcResponse.success(result={"tools": [tool.model_dump() for tool in observation.tools]}, request_id=request_id)
                        return JsonRpcResponse.error_response(
                            JsonRpcErrorCode.INTERNAL_ERROR,
                            f"MCP-style tools/list step returned {type(observation).__name__}, expected ListToolsObservation",
                            request_id=request_id)
                    return JsonRpcResponse.error_response(JsonRpcErrorCode.INTERNAL_ERROR, "Environment does not support MCP", request_id=request_id)
                raise NotImplementedError("harness: the mcp_client / mcp_server paths are not re-implemented")

            elif method == McpMethod.TOOLS_CALL:
                tool_name = params.get("name")
                arguments = params.get("arguments", {})
                if not tool_name:
                    return JsonRpcResponse.error_response(JsonRpcErrorCode.INVALID_PARAMS, "Missing 'name' in params", request_id=request_id)
                if mcp_client is None and mcp_server is None:
                    if supports_mcp_style_actions:
                        observation = _env.step(CallToolAction(tool_name=tool_name, arguments=arguments))
                        if isinstance(observation, CallToolObservation):
                            return JsonRpcResponse.success(result=_make_json_serializable(observation), request_id=request_id)
                        return JsonRpcResponse.error_response(
                            JsonRpcErrorCode.INTERNAL_ERROR,
                            f"MCP-style tools/call step returned {type(observation).__name__}, expected CallToolObservation",
                            request_id=request_id)
                    return JsonRpcResponse.error_response(JsonRpcErrorCode.INTERNAL_ERROR, "Environment does not support MCP", request_id=request_id)
                raise NotImplementedError("harness: the mcp_client / mcp_server paths are not re-implemented")

            else:
                return JsonRpcResponse.error_response(JsonRpcErrorCode.METHOD_NOT_FOUND, f"Method not found: {method}", request_id=request_id)
        except Exception as e:
            return JsonRpcResponse.error_response(JsonRpcErrorCode.INTERNAL_ERROR, str(e), request_id=request_id)
        finally:
            if should_close:
                _env.close()

    def post_mcp(self, body: bytes) -> Dict[str, Any]:
        """POST /mcp: always HTTP 200, the JSON-RPC response as the body."""
        try:
            request = JsonRpcRequest(**json.loads(body))
        except json.JSONDecodeError:
            return JsonRpcResponse.error_response(JsonRpcErrorCode.PARSE_ERROR).model_dump()
        except ValidationError as e:
            return JsonRpcResponse.error_response(JsonRpcErrorCode.INVALID_REQUEST, f"Invalid request: {e}").model_dump()
        except Exception:
            return JsonRpcResponse.error_response(JsonRpcErrorCode.PARSE_ERROR).model_dump()
        return self.mcp_handler(request).model_dump()


class WebSocket:
    """One /ws connection: its own session, or `?session_id=` attached to one made by openenv/session/create."""

    def __init__(self, server: HTTPEnvServer, requested_session_id: Optional[str]):
        self.server, self.error = server, None
        self.owns_session = False
        if requested_session_id:
            env = server._sessions.get(requested_session_id, _MISSING)
            if env is _MISSING:
                self.error = f"Unknown session_id: {requested_session_id}"
            elif requested_session_id in server._session_websocket_attachments:
                self.error = f"Session {requested_session_id} already has an attached WebSocket"
            else:
                server._session_websocket_attachments.add(requested_session_id)
                self.session_id, self.env = requested_session_id, env
        else:
            self.session_id, self.env = server._create_session()
            self.owns_session = True

    def receive(self, message_dict: Dict[str, Any]) -> Dict[str, Any]:
        if self.error:
            return {"type": "error", "data": {"message": self.error, "code": "SESSION_ERROR"}}
        server, env = self.server, self.env
        msg_type = message_dict.get("type", "")
        try:
            if msg_type == "reset":
                msg = WSResetMessage(**message_dict)
                valid_kwargs = server._get_valid_kwargs(inspect.signature(env.reset), msg.data)
                return {"type": "observation", "data": serialize_observation(env.reset(**valid_kwargs))}
            if msg_type == "step":
                msg = WSStepMessage(**message_dict)
                action = deserialize_action(msg.data, server.action_cls)
                return {"type": "observation", "data": serialize_observation(env.step(action))}
            if msg_type == "state":
                WSStateMessage(**message_dict)
                state = env.state
                return {"type": "state", "data": state.model_dump() if hasattr(state, "model_dump") else dict(state)}
            if msg_type == "mcp":
                msg = WSMCPMessage(**message_dict)
                try:
                    rpc_request = JsonRpcRequest(**msg.data)
                except Exception as e:
                    rpc_response = JsonRpcResponse.error_response(JsonRpcErrorCode.INVALID_REQUEST, f"Invalid request: {e}")
                else:
                    rpc_response = server.mcp_handler(rpc_request, session_env=env, session_id=self.session_id)
                return {"type": "mcp", "data": rpc_response.model_dump()}
            return {"type": "error", "data": {"message": f"Unknown message type: {msg_type}", "code": "UNKNOWN_TYPE"}}
        except ValidationError as e:
            return {"type": "error", "data": {"message": "Invalid message", "code": "VALIDATION_ERROR", "errors": e.errors(include_url=False)}}
        except Exception as e:
            return {"type": "error", "data": {"message": str(e), "code": "EXECUTION_ERROR"}}


def substitute(value: Any, session_id: Optional[str]) -> Any:
    if value == "$session":
        return session_id
    if isinstance(value, dict):
        return {k: substitute(v, session_id) for k, v in value.items()}
    if isinstance(value, list):
        return [substitute(v, session_id) for v in value]
    return value


def main() -> None:
    export_dir, pkg = Path(sys.argv[1]), sys.argv[2]
    job = json.load(sys.stdin)
    install_openenv_modules()
    if job.get("layout") == "folder":  # uvicorn server.mcp_app:app run inside the package folder
        sys.path.insert(0, str(export_dir / pkg))
        module = importlib.import_module("server.mcp_app")
    else:  # installed: <pkg>.server.mcp_app (the mcp-server script)
        sys.path.insert(0, str(export_dir))
        module = importlib.import_module(f"{pkg}.server.mcp_app")
    app = module.app  # what the generated file passed to create_app
    server = HTTPEnvServer(app["env"], app["action"], app["observation"], max_concurrent_envs=app.get("max_concurrent_envs"), env_name=app.get("env_name"))
    probe = app["env"]()
    info = {
        "env": app["env"].__name__,
        "action_is_upstream_call_tool_action": app["action"] is CallToolAction,
        "observation_is_upstream_call_tool_observation": app["observation"] is CallToolObservation,
        "env_name": server.env_name,
        "mcp_attributes": [a for a in ("mcp_client", "mcp_server", "mcp_session") if hasattr(probe, a)],
        "supports_concurrent_sessions": getattr(app["env"], "SUPPORTS_CONCURRENT_SESSIONS", False),
        "main_is_callable": callable(getattr(module, "main", None)),
    }
    probe.close()
    sockets: Dict[str, WebSocket] = {}
    last_session: Optional[str] = None
    responses = []
    for request in job["requests"]:
        request = substitute(request, last_session)
        if "post_mcp" in request:
            body = request["post_mcp"]
            response = server.post_mcp(body.encode() if isinstance(body, str) else json.dumps(body).encode())
            if isinstance(body, dict) and body.get("method") == "openenv/session/create" and "result" in response:
                last_session = response["result"]["session_id"]
        else:
            name = request.get("socket", "ws")
            if name not in sockets:
                sockets[name] = WebSocket(server, request.get("session_id"))
            response = sockets[name].receive(request["ws"])
        responses.append(json.loads(json.dumps(response, default=str)))
    print(json.dumps({"app": info, "responses": responses}))


if __name__ == "__main__":
    main()
