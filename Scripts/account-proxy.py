#!/usr/bin/env python3
"""A recording proxy in front of a sync server, for the account tests: it passes every request to
UPSTREAM and its answer back, writes both to CONTROL/exchange.log (the Authorization header and
any password masked), and kills the client at a chosen request, to test that an exchange
killed at any moment loses nothing and applies nothing twice.

    account-proxy.py UPSTREAM CONTROL_DIR          prints http://127.0.0.1:PORT, serves until killed

Killing: the test writes CONTROL/plan, "N MODE", then starts the client and writes its pid to
CONTROL/pid. Counting from the plan's writing, the Nth request is met with SIGKILL to that pid:
MODE "before" kills it as the request arrives (the server never sees it), "after" once the
server has answered (the server applied it; the client never hears so). Each plan is used
once; CONTROL/killed records that it was.

Only the Python standard library: it runs in the phone's venv or any python3.
"""
import http.client
import http.server
import os
import signal
import socketserver
import sys
import threading
import time
import urllib.parse

UPSTREAM = urllib.parse.urlsplit(sys.argv[1])
CONTROL = sys.argv[2]
SECRET = os.environ.get("SYNC_PROXY_MASK", "")
state = {"plan": None, "count": 0}
lock = threading.Lock()


def read(name):
    try:
        with open(os.path.join(CONTROL, name)) as f:
            return f.read().strip()
    except OSError:
        return None


def masked(text):
    return text.replace(SECRET, "…") if SECRET else text


def log(lines):
    with open(os.path.join(CONTROL, "exchange.log"), "a") as f:
        f.write(masked("\n".join(lines)) + "\n\n")


def kill_client():
    """SIGKILL to the pid the test wrote (waiting for it to be written, briefly)."""
    for _ in range(200):
        pid = read("pid")
        if pid:
            try:
                os.kill(int(pid), signal.SIGKILL)
            except (ProcessLookupError, ValueError):
                pass
            with open(os.path.join(CONTROL, "killed"), "w") as f:
                f.write(pid + "\n")
            return
        time.sleep(0.01)


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def handle_any(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        with lock:
            plan = read("plan")
            if plan != state["plan"]:
                state["plan"], state["count"] = plan, 0
            state["count"] += 1
            number, mode = (plan.split() + ["", ""])[:2] if plan else ("", "")
            due = plan is not None and number.isdigit() and int(number) == state["count"]
            if due:
                os.remove(os.path.join(CONTROL, "plan"))
                state["plan"] = None
        if due and mode == "before":
            kill_client()
            self.close_connection = True
            return
        headers = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "connection")}
        connection = http.client.HTTPConnection(UPSTREAM.hostname, UPSTREAM.port, timeout=30)
        connection.request(self.command, self.path, body=body, headers=headers)
        answer = connection.getresponse()
        data = answer.read()
        shown = {k: ("Basic …" if k.lower() == "authorization" else v) for k, v in headers.items()}
        log([f"> {self.command} {self.path}"]
            + [f"> {k}: {v}" for k, v in shown.items()]
            + ([f"> {body.decode('utf-8', 'replace')}"] if body else [])
            + [f"< {answer.status} {answer.reason}"]
            + [f"< {data.decode('utf-8', 'replace')}"])
        if due and mode == "after":
            kill_client()
        self.send_response(answer.status, answer.reason)
        for k, v in answer.getheaders():
            if k.lower() not in ("transfer-encoding", "connection", "content-length"):
                self.send_header(k, v)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    do_GET = do_POST = do_PUT = do_DELETE = handle_any


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        # A client killed mid-request resets its connection: that is the point, not news.
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    server = Server(("127.0.0.1", 0), Handler)
    print(f"http://127.0.0.1:{server.server_address[1]}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
