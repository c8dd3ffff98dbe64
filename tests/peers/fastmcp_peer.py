"""A small third-party MCP peer: FastMCP 4.1.4 + fastmcp-tasks 4.1.4.

It serves MCP 2026-07-28 over Streamable HTTP on http://127.0.0.1:$PORT/mcp
(loopback only), with Starlette's CORS middleware so a browser page on another
origin can call it. The tools cover what Holdbay needs to see on a real wire:

- ``echo(message)``: a plain tool.
- ``confirm_action(action)``: MRTR. Round 1 returns ``InputRequiredResult`` with
  one form elicitation (key ``confirm``) and a ``requestState``; the retry reads
  ``ctx.input_responses`` and echoes back the state it saw.
- ``deploy(env)``: a task (``task=True``). It works for ~3 s, then asks for
  approval with the in-task guard pattern (``input_required`` in ``tasks/get``),
  and after ``tasks/update`` answers it, works ~2.5 s more and completes.
- ``sleepy(seconds)``: a task that only sleeps, long enough to be cancelled.

Run (see README.md):  PORT=3200 /work/peers/venv-fastmcp/bin/python tests/peers/fastmcp_peer.py
On stdio:             .tools/venv-fastmcp/bin/python tests/peers/fastmcp_peer.py stdio
"""

from __future__ import annotations

import asyncio
import os
import sys

import mcp_types
from fastmcp import Context, FastMCP
from fastmcp_tasks import TasksExtension
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware

HOST = "127.0.0.1"  # loopback only, never another interface
PORT = int(os.environ.get("PORT", "3200"))

mcp = FastMCP("holdbay-fastmcp-peer", version="4.1.4")
mcp.add_extension(TasksExtension(url="memory://"))

CONFIRM_SCHEMA = {
    "type": "object",
    "properties": {"confirm": {"type": "boolean", "title": "Confirm"}},
    "required": ["confirm"],
}

APPROVE_SCHEMA = {
    "type": "object",
    "properties": {"approved": {"type": "boolean", "title": "Approve"}},
    "required": ["approved"],
}


def _form(message: str, schema: dict) -> mcp_types.ElicitRequest:
    return mcp_types.ElicitRequest(
        params=mcp_types.ElicitRequestFormParams(message=message, requested_schema=schema)
    )


def _answer_text(answer: object, key: str) -> tuple[str, object]:
    """Describe one elicitation answer: (action, value of `key` or None)."""
    if not isinstance(answer, mcp_types.ElicitResult):
        return ("unexpected", None)
    value = (answer.content or {}).get(key) if answer.action == "accept" else None
    return (answer.action, value)


@mcp.tool
def echo(message: str) -> str:
    """Echo the message back unchanged."""
    return message


@mcp.tool
async def confirm_action(action: str, ctx: Context) -> str | mcp_types.InputRequiredResult:
    """Ask the user (MRTR, one form elicitation) to confirm `action`, then report."""
    responses = ctx.input_responses
    if not responses or "confirm" not in responses:
        return mcp_types.InputRequiredResult(
            input_requests={"confirm": _form(f"Confirm action: {action}?", CONFIRM_SCHEMA)},
            request_state=f"round-1:{action}",
        )
    seen = ctx.request_state
    action_taken, value = _answer_text(responses["confirm"], "confirm")
    if action_taken == "accept":
        return f"confirm_action({action}): confirm={value} requestState={seen}"
    if action_taken in ("decline", "cancel"):
        return f"confirm_action({action}): not done, user chose {action_taken} requestState={seen}"
    return f"confirm_action({action}): unexpected answer requestState={seen}"


@mcp.tool(task=True)
async def deploy(env: str, ctx: Context) -> str | mcp_types.InputRequiredResult:
    """A background task: build ~3 s, ask for approval mid-task, deploy ~2.5 s, finish."""
    responses = ctx.input_responses
    if not responses or "approve" not in responses:
        # Leg 1: work, then park on an input request (the in-task guard pattern).
        for step in range(1, 4):
            await ctx.report_progress(step, 4, f"Building {env} ({step}/3)")
            await asyncio.sleep(1.0)
        return mcp_types.InputRequiredResult(
            input_requests={"approve": _form(f"Approve deployment to {env}?", APPROVE_SCHEMA)},
            request_state=f"built:{env}",
        )
    # Leg 2 (after tasks/update): the tool sees its own key and its carried state.
    seen = ctx.request_state
    action_taken, value = _answer_text(responses["approve"], "approved")
    await ctx.report_progress(4, 4, f"Deploying {env}")
    await asyncio.sleep(2.5)
    if action_taken == "accept" and value is True:
        return f"deployed to {env} (requestState={seen})"
    return f"deployment to {env} not approved: {action_taken} approved={value} (requestState={seen})"


@mcp.tool(task=True)
async def sleepy(seconds: float, ctx: Context) -> str:
    """A background task that only sleeps (for tasks/cancel)."""
    seconds = max(0.0, min(float(seconds), 300.0))
    await ctx.report_progress(0, seconds, f"Sleeping {seconds:g}s")
    await asyncio.sleep(seconds)
    return f"slept {seconds:g}s"


CORS = Middleware(
    CORSMiddleware,
    allow_origins=["*"],
    allow_methods=["*"],
    allow_headers=["*"],  # Starlette reflects Access-Control-Request-Headers
    expose_headers=["WWW-Authenticate"],
    max_age=600,
)


if __name__ == "__main__":
    # `fastmcp_peer.py stdio`: the same server on stdin/stdout (through `holdbay serve --stdio`).
    if sys.argv[1:] == ["stdio"]:
        mcp.run(transport="stdio", show_banner=False)
        sys.exit(0)
    mcp.run(
        transport="http",
        host=HOST,
        port=PORT,
        path="/mcp",
        middleware=[CORS],
        show_banner=False,
    )
