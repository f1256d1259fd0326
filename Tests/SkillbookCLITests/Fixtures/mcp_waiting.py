"""What the MCP approval clients share (mcp_approval_client.py, mcp_decision_client.py): the
official Python SDK's stdio client, declaring no elicitation, against the real `skillbook mcp`;
checks printed as 'ok: ...' (exit 1 at the first that fails), the run id as 'run: ID' once it waits."""

import sys

import anyio
from mcp import Client, StdioServerParameters


def check(condition, what, detail=""):
    if not condition:
        print(f"FAILED: {what} {detail}", flush=True)
        sys.exit(1)
    print(f"ok: {what}", flush=True)


def text(result):
    return "\n".join(block.text for block in result.content if block.type == "text")


def client(skillbook, workspace, state):
    parameters = StdioServerParameters(command=skillbook, args=["mcp", "--state", state], cwd=workspace)
    return Client(parameters, mode="legacy")


async def titles(client):
    listed = await client.call_tool("notes.list", {})
    return [item["title"] for item in listed.structured_content["items"]]


def expect_waiting(result, step):
    """The call's answer: not an error, the run id, that it waits, and at which step; prints the id."""
    check(not result.is_error, "a call that needs a confirmation is not an error", text(result))
    answer = result.structured_content
    check(answer["status"] == "waiting" and answer["run"], "it answers with its run id and that it waits", answer)
    check(answer["approval"]["step"] == step and f"waits for an approval at step '{step}'" in text(result),
          "and where it waits", text(result))
    return answer


def announce(answer):
    print(f"run: {answer['run']}", flush=True)


async def until(condition, what):
    """Polls `condition` (async) every 0.1 s for up to 60 s, then checks it."""
    with anyio.fail_after(60):
        while not await condition():
            await anyio.sleep(0.1)
    check(True, what)
