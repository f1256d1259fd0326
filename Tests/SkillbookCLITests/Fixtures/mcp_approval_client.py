"""The official Python SDK's stdio client, declaring no elicitation, against the real
`skillbook mcp` (see MCPApprovalTests): a call that needs a confirmation answers with its run id
and that it waits (not an error); once another process approves the run, the note is gone.

usage: mcp_approval_client.py SKILLBOOK WORKSPACE STATE
Prints 'run: ID' when the run waits, and one 'ok: ...' line per check; exits 1 at the first failed check."""

import sys

import anyio

from mcp_waiting import announce, check, client, expect_waiting, text, titles, until

skillbook, workspace, state = sys.argv[1:4]


async def main():
    async with client(skillbook, workspace, state) as session:
        made = await session.call_tool("notes.create", {"title": "doomed"})
        check(not made.is_error, "a note is made", text(made))
        answer = expect_waiting(await session.call_tool("purge", {"id": made.structured_content["id"]}), "delete")
        check(await titles(session) == ["doomed"], "nothing is deleted yet")
        announce(answer)

        async def deleted():
            return "doomed" not in await titles(session)

        await until(deleted, "approved from another process, the run finished")


anyio.run(main)
