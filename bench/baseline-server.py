"""Baseline for `npm run bench -- serve`: the same environment served natively by python3's
http.server (no sandbox, no isolation), one in-process instance per session."""
import copy
import json
import sys
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

SOURCE, CLASS_NAME, INIT, CHECKS = json.load(open(sys.argv[1]))
module = {"__name__": "env"}
exec(SOURCE, module)
SESSIONS = {}


def state(env):
    return copy.deepcopy({k: v for k, v in vars(env).items() if not k.startswith("__")})


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def reply(self, body):
        data = json.dumps(body).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))) or b"{}")
        if self.path == "/reset":
            env = module[CLASS_NAME]()
            for key, value in copy.deepcopy(INIT).items():
                setattr(env, key, value)
            sid = str(uuid.uuid4())
            SESSIONS[sid] = (env, state(env))
            return self.reply({"observation": {"metadata": {"episode_id": sid}}, "reward": None, "done": False})
        env, initial = SESSIONS[body["episode_id"]]
        action = body["action"]
        if action["tool_name"] == "submit":
            passed = 0
            for code in CHECKS:
                scope = {"initial_state": copy.deepcopy(initial)}
                exec(code, scope)
                passed += scope["check_func"](state(env)) is True
            del SESSIONS[body["episode_id"]]
            return self.reply({"observation": {}, "reward": passed / len(CHECKS), "done": True})
        result = getattr(env, action["tool_name"])(**action.get("arguments", {}))
        return self.reply({"observation": {"content": result}, "reward": None, "done": False})


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
