"""The serve bench's peer application: the environment class served natively by FastAPI, over the
same WebSocket messages as `envstudio serve` (`{type: reset|step|close, data}` in, `{type:
observation|error, data}` out). No sandbox. Started by bench/serve-peer.py with one or several
uvicorn workers; every worker imports this module and holds its own sessions, so a WebSocket
connection and its session live in one process.

Each message takes the path upstream OpenEnv's server gives it (meta-pytorch/OpenEnv,
src/openenv/core/env_server/http_server.py, `websocket_endpoint`, commit 16602b4d): the message
and the action are validated into pydantic models, reset and step run on the session's own
one-thread executor, and the observation goes out through a pydantic response model. OpenEnv
itself is not a Debian package; this reproduces that per-message work with FastAPI and pydantic.

It also answers upstream's MCP JSON-RPC on POST /mcp (http_server.py's `mcp_handler`, as
huggingface/OpenEnv commit 434bb1dc serves it and its `MCPToolClient` at 00173d47 sends it):
`openenv/session/create` starts a session (its environment reset) and answers its `session_id`;
`tools/call` with `{name, arguments, session_id}` steps that session on its own one-thread
executor and answers the serialized tool result (`content`, `structured_content`, `data`,
`is_error`); `openenv/session/close` ends it. The request is validated into a pydantic model and
the reply goes out through one, as upstream's JsonRpcRequest / JsonRpcResponse. Sessions live in
the worker process that created them, as upstream's do, so the HTTP lane runs against one worker.

The scenario file, named by SERVE_PEER_SCENARIO, is [source, class_name, initial_state, checks, task].
Needs Debian's python3-fastapi and python3-uvicorn.
"""
import asyncio
import json
import os
import uuid
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Dict, Optional

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, ValidationError


class WSMessage(BaseModel):
    type: str
    data: Dict[str, Any] = {}


class ToolAction(BaseModel):
    tool_name: str
    arguments: Dict[str, Any] = {}


class ToolObservation(BaseModel):
    observation: Dict[str, Any]
    reward: Optional[float] = None
    done: bool = False


class WSResponse(BaseModel):
    type: str
    data: Dict[str, Any]


class JsonRpcRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    jsonrpc: str
    method: str
    params: Dict[str, Any] = {}
    id: Optional[Any] = None


class JsonRpcResponse(BaseModel):
    jsonrpc: str = "2.0"
    id: Optional[Any] = None
    result: Optional[Any] = None
    error: Optional[Dict[str, Any]] = None

def _no_delay_on_accept():
    """TCP_NODELAY on every accepted connection. Debian's uvicorn (0.17, h11) writes a response's
    headers and body separately and leaves Nagle on, so on a kept-alive connection the body waits
    for the client's delayed ACK: about 40 ms per HTTP request (measured with curl reusing one
    connection: 5 ms, then 43 ms, 44 ms). WebSocket frames are single writes and do not stall. A
    peer handicapped by that would not be a fair one."""
    import socket

    from uvicorn.protocols.http.h11_impl import H11Protocol

    made = H11Protocol.connection_made

    def connection_made(self, transport):
        sock = transport.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        made(self, transport)

    H11Protocol.connection_made = connection_made


_no_delay_on_accept()

SOURCE, CLASS_NAME, INITIAL, CHECKS, TASK = json.load(open(os.environ["SERVE_PEER_SCENARIO"]))
module = {"__name__": "environment"}
exec(compile(SOURCE, "<environment>", "exec"), module)
ENV_CLASS = module[CLASS_NAME]
app = FastAPI()


def instantiate():
    """EnvScaler's convention, as the sandbox harness does: cls({}) then one setattr per key."""
    env = ENV_CLASS({})
    for key, value in json.loads(json.dumps(INITIAL)).items():
        setattr(env, key, value)
    return env


def public_state(env):
    return json.loads(json.dumps({k: v for k, v in vars(env).items() if not k.startswith("_")}, default=repr))


def reward(env, initial):
    passed = 0
    final = public_state(env)
    for code in CHECKS:
        scope = {"initial_state": json.loads(json.dumps(initial))}
        try:
            exec(code, scope)
            passed += scope["check_func"](json.loads(json.dumps(final))) is True
        except Exception:
            pass
    return round(passed / len(CHECKS), 4) if CHECKS else 0


def observation(content, metadata, reward_value=None, done=False):
    return ToolObservation(observation={"content": content, "metadata": metadata}, reward=reward_value, done=done)


def reset(session):
    session.update(env=instantiate(), steps=0)
    session["initial"] = public_state(session["env"])
    return observation(TASK, {})


def step(session, action):
    env = session["env"]
    if env is None:
        return observation({"success": False, "error": "reset first"}, {}, None, True)
    session["steps"] += 1
    meta = {"step_count": session["steps"]}
    name, arguments = action.tool_name, action.arguments
    if name == "submit":
        session["env"] = None
        return observation({"success": True}, meta, reward(env, session["initial"]), True)
    if name.startswith("_") or not callable(getattr(env, name, None)):
        return observation({"success": False, "error": f"Unknown tool '{name}'"}, meta)
    try:
        result = getattr(env, name)(**arguments)
    except Exception as e:
        result = {"success": False, "error": f"{type(e).__name__}: {e}"}
    return observation(result, meta)


@app.websocket("/ws")
async def ws_session(ws: WebSocket):
    await ws.accept()
    session = {"env": None, "initial": None, "steps": 0}
    executor = ThreadPoolExecutor(max_workers=1)  # the session's own thread, as upstream's
    loop = asyncio.get_running_loop()
    try:
        while True:
            try:
                msg = WSMessage(**json.loads(await ws.receive_text()))
                if msg.type == "reset":
                    result = await loop.run_in_executor(executor, reset, session)
                elif msg.type == "step":
                    result = await loop.run_in_executor(executor, step, session, ToolAction(**msg.data))
                else:
                    break
                reply = WSResponse(type="observation", data=result.dict())
            except (ValueError, ValidationError) as e:
                reply = WSResponse(type="error", data={"code": "VALIDATION_ERROR", "message": str(e)})
            await ws.send_text(reply.json())
        await ws.close()
    except WebSocketDisconnect:
        pass
    finally:
        executor.shutdown(wait=False)


HTTP_SESSIONS = {}


def tool_result(result):
    """A step as upstream serializes a tool call's result for a JSON-RPC reply."""
    content = result.observation["content"]
    return {
        "content": [{"type": "text", "text": json.dumps(content), "annotations": None, "meta": None}],
        "structured_content": result.dict(),
        "meta": None,
        "data": content,
        "is_error": False,
    }


@app.post("/mcp")
async def mcp(request: Request):
    loop = asyncio.get_running_loop()
    try:
        rpc = JsonRpcRequest(**json.loads(await request.body()))
    except (ValueError, ValidationError) as e:
        reply = JsonRpcResponse(error={"code": -32600, "message": f"Invalid request: {e}"})
        return Response(reply.json(), media_type="application/json")
    params = rpc.params
    if rpc.method == "openenv/session/create":
        session_id = str(uuid.uuid4())
        session = {"env": None, "initial": None, "steps": 0, "executor": ThreadPoolExecutor(max_workers=1)}
        await loop.run_in_executor(session["executor"], reset, session)
        HTTP_SESSIONS[session_id] = session
        reply = JsonRpcResponse(id=rpc.id, result={"session_id": session_id})
    elif rpc.method == "tools/call" and params.get("session_id") in HTTP_SESSIONS:
        session = HTTP_SESSIONS[params["session_id"]]
        action = ToolAction(tool_name=params["name"], arguments=params.get("arguments", {}))
        result = await loop.run_in_executor(session["executor"], step, session, action)
        reply = JsonRpcResponse(id=rpc.id, result=tool_result(result))
    elif rpc.method == "openenv/session/close" and params.get("session_id") in HTTP_SESSIONS:
        HTTP_SESSIONS.pop(params["session_id"])["executor"].shutdown(wait=False)
        reply = JsonRpcResponse(id=rpc.id, result={"session_id": params["session_id"], "closed": True})
    else:
        reply = JsonRpcResponse(id=rpc.id, error={"code": -32602, "message": f"Unknown session_id or method: {rpc.method}"})
    return Response(reply.json(), media_type="application/json")
