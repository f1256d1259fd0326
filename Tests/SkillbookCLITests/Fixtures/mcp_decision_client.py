"""The official Python SDK's stdio client, declaring no elicitation, against the real
`skillbook mcp` (see MCPApprovalTests): the playbook 'nightly' makes a note, then waits for an
approval at its step 'purge'; another process declines it (or lets its request expire), and the
run rolls back: the note is gone.

usage: mcp_decision_client.py SKILLBOOK WORKSPACE STATE
Prints 'run: ID' when the run waits, and one 'ok: ...' line per check; exits 1 at the first failed check."""

import sys

import anyio
from mcp import Client, StdioServerParameters

skillbook, workspace, state = sys.argv[1:4]


def check(condition, what, detail=""):
    if not condition:
        print(f"FAILED: {what} {detail}", flush=True)
        sys.exit(1)
    print(f"ok: {what}", flush=True)


def text(result):
    return "\n".join(block.text for block in result.content if block.type == "text")


async def main():
    parameters = StdioServerParameters(command=skillbook, args=["mcp", "--state", state], cwd=workspace)
    async with Client(parameters, mode="legacy") as client:
        async def titles():
            listed = await client.call_tool("notes.list", {})
            return [item["title"] for item in listed.structured_content["items"]]

        result = await client.call_tool("nightly", {})
        check(not result.is_error, "a call that needs a confirmation is not an error", text(result))
        answer = result.structured_content
        check(answer["status"] == "waiting" and answer["run"], "it answers with its run id and that it waits", answer)
        check(answer["approval"]["step"] == "purge" and "waits for an approval at step 'purge'" in text(result),
              "and where it waits", text(result))
        check(await titles() == ["nightly ran"], "the step before it ran")
        print(f"run: {answer['run']}", flush=True)

        with anyio.fail_after(60):
            while await titles():
                await anyio.sleep(0.1)
        check(True, "decided from another process, the run rolled back: its note is gone")


anyio.run(main)
