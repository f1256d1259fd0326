"""The official Python SDK's client against Skillbook's MCP server (the demo test server):
lists and calls its tools, sends invalid arguments, declines and accepts a confirmation
through elicitation, watches progress, and cancels a slow call.

usage: sdk_client.py SERVER_EXECUTABLE MODE EVENTS_FILE
MODE is 'legacy' (initialize handshake) or 'auto' (server/discover, then 2026-07-28).
Prints one 'ok: ...' line per check; exits 1 at the first failed check."""

import json
import sys

import anyio
import mcp.types as types
from mcp import Client, StdioServerParameters
from mcp.shared.exceptions import MCPError

server, mode, events = sys.argv[1:4]
answers: list[str] = []
asked: list[str] = []


def check(condition, what):
    if not condition:
        print(f"FAILED: {what}", flush=True)
        sys.exit(1)
    print(f"ok: {what}", flush=True)


async def elicit(context, params):
    asked.append(params.message)
    action = answers.pop(0)
    if action == "accept":
        return types.ElicitResult(action="accept", content={"confirm": True})
    return types.ElicitResult(action=action)


def text(result):
    return "\n".join(block.text for block in result.content if block.type == "text")


async def main():
    parameters = StdioServerParameters(command=server, args=["--events", events])
    async with Client(parameters, mode=mode, elicitation_callback=elicit) as client:
        session = client.session
        if mode == "legacy":
            version = session.initialize_result.protocol_version
            check(version == "2025-11-25", "the initialize handshake agrees on 2025-11-25")
        else:
            discovered = session.discover_result
            check(session.initialize_result is None and discovered is not None, "server/discover, no handshake")
            check(discovered.supported_versions[0] == "2026-07-28", "2026-07-28 is the newest supported revision")

        listed = await client.list_tools()
        names = [tool.name for tool in listed.tools]
        check(names == ["demo.add_note", "demo.count", "demo.echo", "demo.fail", "demo.list_notes"], "lists the tools in order")
        byname = {tool.name: tool for tool in listed.tools}
        check(byname["demo.echo"].annotations.read_only_hint is True, "a query is read-only")
        check(byname["demo.add_note"].annotations.destructive_hint is True, "a confirming skill is destructive")
        check(byname["demo.count"].annotations.idempotent_hint is True, "an idempotent skill says so")
        check(byname["demo.echo"].output_schema["required"] == ["text"], "outputSchema from the skill's output")

        result = await client.call_tool("demo.echo", {"text": "hi", "times": 2})
        check(not result.is_error and result.structured_content == {"text": "hi hi"}, "structuredContent")
        check(json.loads(text(result)) == {"text": "hi hi"}, "the same JSON as text")

        result = await client.call_tool("demo.echo", {"times": 9})
        check(result.is_error, "invalid arguments are an error result")
        check("missing required property 'text'" in text(result) and "times must be at most 5, got 9" in text(result),
              "with every problem as text")

        try:
            await client.call_tool("demo.nope", {})
            check(False, "an unknown tool is a JSON-RPC error")
        except MCPError as error:
            check(error.error.code == -32602, "an unknown tool is JSON-RPC error -32602")

        result = await client.call_tool("demo.fail", {})
        check(result.is_error and "the demo failure" in text(result), "a failure is an error result with its error")

        answers.append("decline")
        result = await client.call_tool("demo.add_note", {"title": "milk"})
        check(result.is_error and "not approved" in text(result), "a declined confirmation is an error result")
        notes = await client.call_tool("demo.list_notes", {})
        check(notes.structured_content == {"titles": [], "count": 0}, "and nothing ran")

        answers.append("accept")
        result = await client.call_tool("demo.add_note", {"title": "milk"})
        check(result.structured_content == {"id": 1, "title": "milk"}, "an accepted confirmation runs")
        check(asked == ['Run demo.add_note with title: "milk"'] * 2, "the elicitation shows the summary")

        seen = []

        async def on_progress(progress, total, message):
            seen.append((progress, total))

        result = await client.call_tool("demo.count", {"to": 3, "delay_ms": 1}, progress_callback=on_progress)
        check(result.structured_content == {"counted": 3}, "a slow call finishes")
        check(seen == [(1, 3), (2, 3), (3, 3)], "with progress notifications")

        with anyio.move_on_after(1.0):
            await client.call_tool("demo.count", {"to": 1000, "delay_ms": 20})
            check(False, "the slow call was cancelled")
        for _ in range(100):
            with open(events) as file:
                log = file.read()
            if "cancelled demo.count" in log:
                break
            await anyio.sleep(0.1)
        check("counting stopped at" in log and "cancelled demo.count" in log, "cancelling stops the run on the server")
        result = await client.call_tool("demo.echo", {"text": "still here"})
        check(result.structured_content == {"text": "still here"}, "and the server goes on")


anyio.run(main)
