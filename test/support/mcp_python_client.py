#!/usr/bin/env python3
"""A 2025-era MCP client: the official Python SDK (PyPI `mcp`, 1.x), driven by
test/integration/mcp-python.int.test.ts.

argv[1] is a JSON plan: {"transport": "http", "url": ..., "headers": {...}} or
{"transport": "stdio", "command": ..., "args": [...], "env": {...}, "cwd": ...}, and "calls":
[{"tool": ..., "arguments": {...}}, ...]. It connects, lists the tools, makes the calls in order
and prints one JSON object on stdout: the negotiated protocol version, the tool names, the
server's instructions, and each call's isError and text.
"""

import asyncio
import json
import sys
from datetime import timedelta

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamablehttp_client


async def drive(session: ClientSession, calls: list) -> dict:
    init = await session.initialize()
    tools = await session.list_tools()
    results = []
    for call in calls:
        result = await session.call_tool(call["tool"], call.get("arguments", {}))
        texts = [block.text for block in result.content if block.type == "text"]
        results.append({"isError": bool(result.isError), "text": "".join(texts), "blocks": len(result.content)})
    return {
        "protocolVersion": init.protocolVersion,
        "serverName": init.serverInfo.name,
        "instructions": init.instructions,
        "tools": sorted(tool.name for tool in tools.tools),
        "results": results,
    }


async def main() -> None:
    plan = json.loads(sys.argv[1])
    timeout = timedelta(seconds=plan.get("timeoutSeconds", 180))
    if plan["transport"] == "http":
        async with streamablehttp_client(plan["url"], headers=plan.get("headers", {})) as (read, write, _):
            async with ClientSession(read, write, read_timeout_seconds=timeout) as session:
                out = await drive(session, plan["calls"])
    else:
        params = StdioServerParameters(
            command=plan["command"], args=plan.get("args", []), env=plan.get("env"), cwd=plan.get("cwd")
        )
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write, read_timeout_seconds=timeout) as session:
                out = await drive(session, plan["calls"])
    print(json.dumps(out))


if __name__ == "__main__":
    asyncio.run(main())
