"""One episode on envstudio serve through Python's official `mcp` client (mcp.Client).

Usage: mcp_client_episode.py SERVER MODE SCENARIO_KIND
  SERVER  the MCP endpoint: <base>/mcp?scenario=... or an episode's <base>/mcp/episodes/<handle>;
          or `stdio:` and a JSON {"command", "args", "env"} to start a stdio server
  MODE    the client's `mode`: "auto" (probe server/discover, fall back to initialize),
          "legacy" (2025 handshake) or a 2026-07-28 pin
  SCENARIO_KIND  "counter" (gold path: add 1, submit), "explode" (the error paths), or a JSON list
          of gold calls [{"name", "arguments"}] (then submit)
Prints one JSON object: what the client saw, for the calling test to assert.
"""

import asyncio
import json
import sys

from mcp import Client, StdioServerParameters
from mcp.shared.exceptions import MCPError


def structured(result):
    return {
        "is_error": result.is_error,
        "structured": result.structured_content,
        "text": [block.text for block in result.content if getattr(block, "type", "") == "text"],
    }


async def counter(client):
    tools = (await client.list_tools()).tools
    add = await client.call_tool("add", {"amount": 1})
    submit = await client.call_tool("submit", {})
    after = await client.call_tool("add", {"amount": 1})
    return {
        "tools": [t.name for t in tools],
        "read_only": {t.name: bool(t.annotations and t.annotations.read_only_hint) for t in tools},
        "add_schema": next(t.input_schema for t in tools if t.name == "add"),
        "add": structured(add),
        "submit": structured(submit),
        "after": structured(after),
    }


async def explode(client):
    try:
        await client.call_tool("no_such_tool", {})
        unknown = None
    except MCPError as error:
        unknown = error.error.code
    wrong = await client.call_tool("add", {"amount": "three"})
    raised = await client.call_tool("explode", {})
    ok = await client.call_tool("add", {"amount": 1})
    return {
        "unknown_tool_code": unknown,
        "wrong_type": structured(wrong),
        "raised": structured(raised),
        "then": structured(ok),
    }


async def gold(client, calls):
    tools = (await client.list_tools()).tools
    steps = [structured(await client.call_tool(c["name"], c["arguments"])) for c in calls]
    submit = await client.call_tool("submit", {})
    return {"tools": [t.name for t in tools], "steps": steps, "submit": structured(submit)}


async def main(server, mode, kind):
    if server.startswith("stdio:"):
        spec = json.loads(server[len("stdio:"):])
        server = StdioServerParameters(command=spec["command"], args=spec["args"], env=spec.get("env"))
    async with Client(server, mode=mode, raise_exceptions=True) as client:
        if kind == "counter":
            seen = await counter(client)
        elif kind == "explode":
            seen = await explode(client)
        else:
            seen = await gold(client, json.loads(kind))
        seen["server"] = client.server_info.name if client.server_info else None
        seen["protocol"] = client.protocol_version
    print(json.dumps(seen))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3]))
