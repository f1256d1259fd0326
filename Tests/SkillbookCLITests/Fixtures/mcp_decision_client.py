"""The official Python SDK's stdio client, declaring no elicitation, against the real
`skillbook mcp` (see MCPApprovalTests): the playbook 'nightly' makes a note, then waits for an
approval at its step 'purge'; another process declines it (or lets its request expire), and the
run rolls back: the note is gone.

usage: mcp_decision_client.py SKILLBOOK WORKSPACE STATE
Prints 'run: ID' when the run waits, and one 'ok: ...' line per check; exits 1 at the first failed check."""

import sys

import anyio

from mcp_waiting import announce, check, client, expect_waiting, titles, until

skillbook, workspace, state = sys.argv[1:4]


async def main():
    async with client(skillbook, workspace, state) as session:
        answer = expect_waiting(await session.call_tool("nightly", {}), "purge")
        check(await titles(session) == ["nightly ran"], "the step before it ran")
        announce(answer)

        async def rolled_back():
            return not await titles(session)

        await until(rolled_back, "decided from another process, the run rolled back: its note is gone")


anyio.run(main)
