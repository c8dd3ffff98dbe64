"""A server on the official Python SDK v2 (`mcp` 2.3.0, installed with FastMCP in
.tools/venv-fastmcp by scripts/install-tools.sh), run on stdio as most local servers are.

It speaks both eras: a 2026-07-28 client (`server/discover`) gets MRTR rounds, a 2025-11-25
client (`initialize`) gets the same question as a server-initiated `elicitation/create` in the
middle of the call. The end-to-end tests reach it through `holdbay serve --stdio`.
"""

from typing import Annotated

from pydantic import BaseModel

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.resolve import Elicit, Resolve

server = MCPServer("python-mcp-peer")


class Visitor(BaseModel):
    name: str


def ask_visitor() -> Elicit[Visitor]:
    return Elicit("Who is visiting?", Visitor)


@server.tool()
def greet(visitor: Annotated[Visitor, Resolve(ask_visitor)]) -> str:
    """Greets the visitor, whose name it asks for."""
    return f"Hello, {visitor.name}, from Python"


@server.tool()
def add(a: int, b: int) -> str:
    """Adds two numbers."""
    return f"{a} + {b} = {a + b}"


@server.resource("peer://motto")
def motto() -> str:
    """The peer's motto."""
    return "Small, typed and honest."


@server.prompt()
def review(topic: str) -> str:
    """Asks for a short review of a topic."""
    return f"Review {topic} in three sentences."


if __name__ == "__main__":
    server.run("stdio")
