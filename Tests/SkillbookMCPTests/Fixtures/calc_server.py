"""A server built with the official Python SDK (MCPServer, formerly FastMCP), whose tools the
Swift client lists and calls in SkillbookMCPTests."""

import os
import sys
import time
from typing import Annotated, Optional

from pydantic import BaseModel, Field

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations

server = MCPServer("calc")


class Sum(BaseModel):
    sum: int
    terms: list[int]


@server.tool(annotations=ToolAnnotations(readOnlyHint=True))
def add(a: int, b: int) -> Sum:
    """Adds two whole numbers."""
    return Sum(sum=a + b, terms=[a, b])


@server.tool(name="Shout-Text", annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False))
def shout(text: str, times: Optional[int] = 1) -> str:
    """Upper-cases a text."""
    return " ".join([text.upper()] * (times or 1))


@server.tool(structured_output=False)
def wipe(folder: str) -> str:
    """Pretends to delete a folder (destructive by the spec's default)."""
    return f"wiped {folder}"


@server.tool(annotations=ToolAnnotations(readOnlyHint=True))
def broken(reason: str) -> str:
    """Always fails (a ToolError keeps its text in the result)."""
    raise ToolError(f"broken on purpose: {reason}")


@server.tool(annotations=ToolAnnotations(readOnlyHint=True))
def nap(seconds: float) -> str:
    """Sleeps."""
    time.sleep(seconds)
    return "rested"


class Process(BaseModel):
    pid: int


@server.tool(annotations=ToolAnnotations(readOnlyHint=True))
def whoami() -> Process:
    """The server's process id."""
    return Process(pid=os.getpid())


@server.tool(annotations=ToolAnnotations(readOnlyHint=True))
def scale(value: Annotated[float, Field(multiple_of=0.5)], factor: Annotated[int, Field(gt=0)] = 2) -> float:
    """Multiplies a value (its schema has keywords outside Skillbook's subset)."""
    return value * factor


if __name__ == "__main__":
    print("calc server starting", file=sys.stderr)
    server.run("stdio")
