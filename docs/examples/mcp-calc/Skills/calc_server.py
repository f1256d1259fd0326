from pydantic import BaseModel
from mcp.server.mcpserver import MCPServer
from mcp.types import ToolAnnotations

server = MCPServer("calc")


class Sum(BaseModel):
    sum: int
    terms: list[int]


@server.tool(annotations=ToolAnnotations(readOnlyHint=True))
def add(a: int, b: int) -> Sum:
    """Adds two whole numbers."""
    return Sum(sum=a + b, terms=[a, b])


@server.tool(name="Shout-Text", annotations=ToolAnnotations(destructiveHint=False))
def shout(text: str, times: int = 1) -> str:
    """Upper-cases a text."""
    return " ".join([text.upper()] * times)


if __name__ == "__main__":
    server.run("stdio")
