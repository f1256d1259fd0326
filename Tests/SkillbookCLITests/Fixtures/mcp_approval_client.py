"""The official Python SDK's stdio client, declaring no elicitation, against the real
`skillbook mcp` (see MCPApprovalTests): a call that needs a confirmation answers with its run id
and that it waits (not an error); once another process approves the run, the note is gone.

usage: mcp_approval_client.py SKILLBOOK WORKSPACE STATE
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

        made = await client.call_tool("notes.create", {"title": "doomed"})
        check(not made.is_error, "a note is made", text(made))
        result = await client.call_tool("purge", {"id": made.structured_content["id"]})
        check(not result.is_error, "a call that needs a confirmation is not an error", text(result))
        answer = result.structured_content
        check(answer["status"] == "waiting" and answer["run"], "it answers with its run id and that it waits", answer)
        check(answer["approval"]["step"] == "delete" and "waits for an approval at step 'delete'" in text(result),
              "and where it waits", text(result))
        check(await titles() == ["doomed"], "nothing is deleted yet")
        print(f"run: {answer['run']}", flush=True)

        with anyio.fail_after(60):
            while "doomed" in await titles():
                await anyio.sleep(0.1)
        check(True, "approved from another process, the run finished")


anyio.run(main)
