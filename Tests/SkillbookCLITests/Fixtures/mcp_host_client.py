"""The official Python SDK's stdio client against the real `skillbook mcp` on a workspace
(see MCPCommandTests): lists the tools, calls a playbook with mapped outputs and a skill, sends
invalid arguments, declines and accepts a confirmation through elicitation, watches progress,
and cancels a slow playbook, whose run rolls back.

usage: mcp_host_client.py SKILLBOOK WORKSPACE STATE
Prints one 'ok: ...' line per check; exits 1 at the first failed check."""

import json
import sys

import anyio
import mcp.types as types
from mcp import Client, StdioServerParameters
from mcp.shared.exceptions import MCPError

skillbook, workspace, state = sys.argv[1:4]
answers: list[str] = []
asked: list[str] = []


def check(condition, what, detail=""):
    if not condition:
        print(f"FAILED: {what} {detail}", flush=True)
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
    parameters = StdioServerParameters(
        command=skillbook, args=["mcp", "--state", state], cwd=workspace)
    async with Client(parameters, mode="legacy", elicitation_callback=elicit) as client:
        check(client.session.initialize_result.protocol_version == "2025-11-25", "the handshake agrees on 2025-11-25")

        async def titles():
            listed = await client.call_tool("notes.list", {})
            return [item["title"] for item in listed.structured_content["items"]]

        listed = await client.list_tools()
        names = [tool.name for tool in listed.tools]
        check(names[:3] == ["note", "purge", "slow"], "playbooks first, by name", names[:5])
        check("notes.create" in names and names[3:] == sorted(names[3:]), "then every skill, by id")
        tools = {tool.name: tool for tool in listed.tools}
        check(tools["note"].input_schema["required"] == ["title"], "a playbook's inputSchema from its inputs")
        schema = tools["note"].output_schema
        check(schema["required"] == ["status", "run"] and schema["else"]["required"] == ["outputs"]
              and schema["then"]["required"] == ["approval", "approve"], "its outputSchema is {status, run, outputs}", schema)
        check(tools["purge"].annotations.destructive_hint is True, "a playbook with a confirm skill is destructive")
        check(tools["notes.list"].annotations.read_only_hint is True, "a query skill is read-only")
        check(tools["notes.delete"].annotations.destructive_hint is True, "a confirm skill is destructive")

        result = await client.call_tool("note", {"title": "milk"})
        content = result.structured_content
        check(not result.is_error and content["status"] == "succeeded", "a playbook runs", text(result))
        check(content["outputs"]["title"] == "milk" and content["outputs"]["id"], "with its mapped outputs")
        check(json.loads(text(result)) == content, "the same JSON as text")
        note_id = content["outputs"]["id"]

        result = await client.call_tool("text.template", {"template": "Hi {{who}}", "values": {"who": "Ada"}})
        check(not result.is_error and result.structured_content == {"text": "Hi Ada"}, "a skill runs", text(result))

        result = await client.call_tool("note", {"titel": "x"})
        check(result.is_error and "has no input 'titel'; did you mean 'title'?" in text(result),
              "invalid playbook arguments are an error result", text(result))
        result = await client.call_tool("notes.create", {"title": ""})
        check(result.is_error and "title" in text(result) and "nothing ran" in text(result),
              "invalid skill arguments are an error result", text(result))
        check(await titles() == ["milk"], "and nothing ran")

        try:
            await client.call_tool("nope", {})
            check(False, "an unknown tool is a JSON-RPC error")
        except MCPError as error:
            check(error.error.code == -32602 and "note" in error.error.message, "an unknown tool is -32602", error.error.message)

        answers.append("decline")
        result = await client.call_tool("purge", {"id": note_id})
        check(result.is_error and "not approved" in text(result), "a declined confirmation is an error result", text(result))
        check(await titles() == ["milk"], "and nothing was deleted")
        check("Step 'delete' runs notes.delete" in asked[0] and f'id: "{note_id}"' in asked[0],
              "the elicitation shows the summary", asked)

        answers.append("accept")
        result = await client.call_tool("purge", {"id": note_id})
        check(not result.is_error and result.structured_content["status"] == "succeeded", "an accepted confirmation runs", text(result))
        check(await titles() == [], "and the note is deleted")

        seen = []

        async def on_progress(progress, total, message):
            seen.append((progress, total, message))

        result = await client.call_tool("note", {"title": "two"}, progress_callback=on_progress)
        check(not result.is_error, "a call with a progress token runs")
        values = [progress for progress, _, _ in seen]
        check(len(seen) >= 2 and values == sorted(values) and seen[-1][:2] == (2, 2), "progress notifications per step", seen)

        with anyio.move_on_after(2.0):
            await client.call_tool("slow", {"title": "temp"})
            check(False, "the slow call was cancelled")
        for _ in range(100):
            if await titles() == ["two"]:
                break
            await anyio.sleep(0.1)
        check(await titles() == ["two"], "cancelling rolls the run back", await titles())


anyio.run(main)
