#!/usr/bin/env python3
"""Record real HTTP exchanges with the FastMCP peer as transcript fixtures.

Python standard library only. It starts nothing: run the peer first (see
README.md), then

    python3 tests/peers/record_fastmcp.py [--url http://127.0.0.1:3200/mcp] [--out DIR] [SCENARIO ...]

Each scenario writes one JSON file into crates/engine/tests/transcripts/fastmcp/
(or --out). Every request is built the way Holdbay's engine builds it: JSON-RPC
2.0, ids 1, 2, 3, ... per scenario, the full 2026-07-28 `_meta` envelope, and the
headers Content-Type, Accept, MCP-Protocol-Version, Mcp-Method and (tools/call,
tasks/*) Mcp-Name. Response bodies are stored as the exact text received.
"""

from __future__ import annotations

import argparse
import base64
import datetime
import http.client
import json
import re
import sys
import time
import urllib.parse
from pathlib import Path

PROTOCOL_VERSION = "2026-07-28"
CLIENT_INFO = {"name": "holdbay", "title": "Holdbay", "version": "0.1.0"}
# Capabilities Holdbay declares on tools/call and tasks/*; discover and lists declare none.
# Holdbay declares the same capabilities on every request (tools/call without the tasks
# extension is the one exception, when it does not accept a task).
CALL_CAPS = {"elicitation": {"form": {}, "url": {}}, "extensions": {"io.modelcontextprotocol/tasks": {}}}
NO_CAPS: dict = CALL_CAPS
NAMED_METHODS = {"tools/call": "name", "tasks/get": "taskId", "tasks/update": "taskId", "tasks/cancel": "taskId"}

POLL_CAP_S = 1.5  # never wait longer than this between tasks/get polls
MAX_TASK_POLLS = 20  # hard bound on tasks/get polls per scenario
MAX_CANCEL_POLLS = 5
HTTP_TIMEOUT_S = 30

REPO = Path(__file__).resolve().parents[2]
DEFAULT_OUT = REPO / "crates" / "engine" / "tests" / "transcripts" / "fastmcp"
SOURCE = (
    "FastMCP 4.1.4 + fastmcp-tasks 4.1.4 via tests/peers/fastmcp_peer.py, "
    "recorded {date} by tests/peers/record_fastmcp.py"
)
TERMINAL = {"completed", "failed", "cancelled"}


def encode_header_value(value: str) -> str:
    """Mcp-Name / Mcp-Param-* value encoding (2026-07-28 §10.2)."""
    plain = re.fullmatch(r"[\x21-\x7e]([\x20-\x7e\t]*[\x21-\x7e])?", value) is not None
    looks_encoded = value.startswith("=?base64?") and value.endswith("?=")
    if plain and not looks_encoded:
        return value
    return "=?base64?" + base64.b64encode(value.encode("utf-8")).decode("ascii") + "?="


class Scenario:
    """One scenario: a fresh id counter and the exchanges recorded so far."""

    def __init__(self, url: str, description: str):
        parts = urllib.parse.urlsplit(url)
        if parts.scheme != "http" or parts.hostname not in ("127.0.0.1", "localhost"):
            raise SystemExit(f"refusing non-loopback URL {url!r}")
        self.host = parts.hostname
        self.port = parts.port or 80
        self.path = parts.path or "/"
        self.description = description
        self.next_id = 1
        self.exchanges: list[dict] = []

    def request(
        self,
        method: str,
        params: dict,
        caps: dict,
        *,
        version: str = PROTOCOL_VERSION,
        omit_headers: tuple[str, ...] = (),
    ) -> tuple[int, dict | None]:
        """Send one request; return (HTTP status, parsed JSON-RPC message or None)."""
        request_id = self.next_id
        self.next_id += 1
        meta = {
            "io.modelcontextprotocol/protocolVersion": version,
            "io.modelcontextprotocol/clientInfo": CLIENT_INFO,
            "io.modelcontextprotocol/clientCapabilities": caps,
        }
        body = {"jsonrpc": "2.0", "id": request_id, "method": method, "params": {"_meta": meta, **params}}
        headers = {
            "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
            "MCP-Protocol-Version": version,
            "Mcp-Method": method,
        }
        if method in NAMED_METHODS:
            headers["Mcp-Name"] = encode_header_value(str(params[NAMED_METHODS[method]]))
        for name in omit_headers:
            headers.pop(name, None)

        raw = json.dumps(body, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
        conn = http.client.HTTPConnection(self.host, self.port, timeout=HTTP_TIMEOUT_S)
        try:
            conn.putrequest("POST", self.path, skip_accept_encoding=True)
            for name, value in headers.items():
                conn.putheader(name, value)
            conn.putheader("Content-Length", str(len(raw)))
            conn.endheaders(raw)
            resp = conn.getresponse()
            status = resp.status
            content_type = resp.getheader("Content-Type")
            text = resp.read().decode("utf-8")  # strict: the body must be UTF-8
        finally:
            conn.close()

        self.exchanges.append(
            {
                "request": {"headers": headers, "body": body},
                "response": {"status": status, "content_type": content_type, "body": text},
            }
        )
        message = parse_message(content_type, text)
        summary = (message or {}).get("result") or (message or {}).get("error") or {}
        detail = " ".join(str(summary[k]) for k in ("resultType", "status", "code") if k in summary)
        print(f"  #{request_id} {method:<16} -> {status} {content_type} {detail}", file=sys.stderr)
        return status, message

    def fixture(self, date: str) -> dict:
        return {"source": SOURCE.format(date=date), "scenario": self.description, "exchanges": self.exchanges}


def parse_message(content_type: str | None, text: str) -> dict | None:
    """The JSON-RPC response in a JSON or SSE body (the last data event for SSE)."""
    if not text:
        return None
    essence = (content_type or "").split(";")[0].strip().lower()
    if essence == "text/event-stream":
        message = None
        for event in re.split(r"\r\n\r\n|\n\n|\r\r", text):
            data = [line[5:].lstrip(" ") for line in re.split(r"\r\n|\n|\r", event) if line.startswith("data:")]
            if data:
                parsed = json.loads("\n".join(data))
                if "id" in parsed:
                    message = parsed
        return message
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return None


def answer_for(schema: dict) -> dict:
    """An `accept` content object that satisfies a flat elicitation schema."""
    content = {}
    for name, prop in (schema.get("properties") or {}).items():
        kind = prop.get("type")
        if "default" in prop:
            content[name] = prop["default"]
        elif kind == "boolean":
            content[name] = True
        elif kind in ("integer", "number"):
            content[name] = prop.get("minimum", 1)
        elif kind == "string":
            content[name] = (prop.get("enum") or ["yes"])[0]
    return content


def accept_all(input_requests: dict) -> dict:
    return {
        key: {"action": "accept", "content": answer_for(req["params"].get("requestedSchema") or {})}
        for key, req in input_requests.items()
    }


def result_of(message: dict | None) -> dict:
    if not message or "result" not in message:
        raise SystemExit(f"expected a result, got {message!r}")
    return message["result"]


# ---------------------------------------------------------------- scenarios


def discover(url: str) -> Scenario:
    s = Scenario(url, "server/discover with no optional client capabilities")
    s.request("server/discover", {}, NO_CAPS)
    return s


def tools_list(url: str) -> Scenario:
    s = Scenario(url, "tools/list with no optional client capabilities")
    s.request("tools/list", {}, NO_CAPS)
    return s


def echo_call(url: str) -> Scenario:
    s = Scenario(url, "tools/call of the plain echo tool")
    s.request("tools/call", {"name": "echo", "arguments": {"message": "hello from holdbay"}}, CALL_CAPS)
    return s


def _mrtr(url: str, description: str, decide) -> Scenario:
    s = Scenario(url, description)
    call = {"name": "confirm_action", "arguments": {"action": "delete report.txt"}}
    _, first = s.request("tools/call", call, CALL_CAPS)
    round1 = result_of(first)
    if round1.get("resultType") != "input_required":
        raise SystemExit(f"expected input_required, got {round1!r}")
    retry = dict(call)
    retry["inputResponses"] = decide(round1.get("inputRequests") or {})
    if "requestState" in round1:
        retry["requestState"] = round1["requestState"]  # echoed exactly, never inspected
    s.request("tools/call", retry, CALL_CAPS)
    return s


def mrtr_accept(url: str) -> Scenario:
    return _mrtr(
        url,
        "MRTR: tools/call -> input_required (form elicitation + requestState); retry with accept -> complete",
        accept_all,
    )


def mrtr_decline(url: str) -> Scenario:
    return _mrtr(
        url,
        "MRTR: tools/call -> input_required; retry with decline -> complete (tool reports the decline)",
        lambda reqs: {key: {"action": "decline"} for key in reqs},
    )


def _poll_wait(task: dict) -> None:
    interval_ms = task.get("pollIntervalMs")
    time.sleep(min(POLL_CAP_S, interval_ms / 1000) if isinstance(interval_ms, (int, float)) else POLL_CAP_S)


def task_lifecycle(url: str) -> Scenario:
    s = Scenario(url, "task: tools/call -> task; tasks/get polls working -> input_required; tasks/update; polls -> completed")
    _, created = s.request("tools/call", {"name": "deploy", "arguments": {"env": "staging"}}, CALL_CAPS)
    task = result_of(created)
    if task.get("resultType") != "task":
        raise SystemExit(f"expected a task, got {task!r}")
    task_id = task["taskId"]
    answered: set[str] = set()
    for _ in range(MAX_TASK_POLLS):
        _poll_wait(task)
        _, got = s.request("tasks/get", {"taskId": task_id}, CALL_CAPS)
        task = result_of(got)
        if task.get("status") in TERMINAL:
            break
        if task.get("status") == "input_required":
            # Answer with the keys of this (the latest) tasks/get, exactly as sent; never twice.
            fresh = {k: v for k, v in (task.get("inputRequests") or {}).items() if k not in answered}
            if fresh:
                s.request("tasks/update", {"taskId": task_id, "inputResponses": accept_all(fresh)}, CALL_CAPS)
                answered.update(fresh)
    else:
        print("  (task did not reach a terminal status within the poll bound)", file=sys.stderr)
    return s


def task_cancel(url: str) -> Scenario:
    s = Scenario(url, "task: tools/call -> task; tasks/get; tasks/cancel; tasks/get until terminal")
    _, created = s.request("tools/call", {"name": "sleepy", "arguments": {"seconds": 60}}, CALL_CAPS)
    task = result_of(created)
    if task.get("resultType") != "task":
        raise SystemExit(f"expected a task, got {task!r}")
    task_id = task["taskId"]
    _poll_wait(task)
    _, got = s.request("tasks/get", {"taskId": task_id}, CALL_CAPS)
    task = result_of(got)
    s.request("tasks/cancel", {"taskId": task_id}, CALL_CAPS)
    for _ in range(MAX_CANCEL_POLLS):
        _, got = s.request("tasks/get", {"taskId": task_id}, CALL_CAPS)
        task = result_of(got)
        if task.get("status") in TERMINAL:
            break
        _poll_wait(task)
    return s


def errors(url: str) -> Scenario:
    s = Scenario(
        url,
        "errors: tools/call of an unknown tool; tools/call without Mcp-Name; tools/list at protocol version 2099-01-01",
    )
    s.request("tools/call", {"name": "no_such_tool", "arguments": {}}, CALL_CAPS)
    s.request("tools/call", {"name": "echo", "arguments": {"message": "no Mcp-Name"}}, CALL_CAPS, omit_headers=("Mcp-Name",))
    s.request("tools/list", {}, NO_CAPS, version="2099-01-01")
    return s


SCENARIOS = {
    "discover": discover,
    "tools_list": tools_list,
    "echo_call": echo_call,
    "mrtr_accept": mrtr_accept,
    "mrtr_decline": mrtr_decline,
    "task_lifecycle": task_lifecycle,
    "task_cancel": task_cancel,
    "errors": errors,
}


def verify(fixture: dict) -> list[str]:
    """Consistency checks on a recorded fixture; returns the problems found."""
    problems = []
    for index, exchange in enumerate(fixture["exchanges"]):
        body, headers = exchange["request"]["body"], exchange["request"]["headers"]
        if body["id"] != index + 1:
            problems.append(f"exchange {index}: request id {body['id']} != {index + 1}")
        if headers.get("Mcp-Method") != body["method"]:
            problems.append(f"exchange {index}: Mcp-Method disagrees with the body")
        response = exchange["response"]
        message = parse_message(response["content_type"], response["body"])
        if message is None:
            problems.append(f"exchange {index}: response body is not a JSON-RPC message")
        elif message.get("id") not in (body["id"], None):
            problems.append(f"exchange {index}: response id {message.get('id')} != request id {body['id']}")
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", default="http://127.0.0.1:3200/mcp")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("scenarios", nargs="*", metavar="SCENARIO", help=f"any of: {', '.join(SCENARIOS)} (default: all)")
    args = parser.parse_args()
    unknown = [name for name in args.scenarios if name not in SCENARIOS]
    if unknown:
        parser.error(f"unknown scenario(s): {', '.join(unknown)}")

    args.out.mkdir(parents=True, exist_ok=True)
    date = datetime.date.today().isoformat()
    failed = False
    for name in args.scenarios or SCENARIOS:
        print(f"{name}:", file=sys.stderr)
        fixture = SCENARIOS[name](args.url).fixture(date)
        problems = verify(fixture)
        for problem in problems:
            print(f"  PROBLEM: {problem}", file=sys.stderr)
        failed |= bool(problems)
        path = args.out / f"{name}.json"
        path.write_text(json.dumps(fixture, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"  wrote {path.relative_to(REPO) if path.is_relative_to(REPO) else path}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
