"""Peer server for `npm run bench -- serve`: bench/serve_peer_app.py under uvicorn, with one worker
or several, as an OpenEnv environment is deployed (`uvicorn server.app:app --workers 4` in the
usage notes of huggingface/OpenEnv's envs/*/server/app.py, commit 385de5eb).

With several workers this is what `uvicorn module:app --workers N` does: the parent binds the
socket and runs uvicorn's own supervisor, which spawns N processes that each import the app and
accept connections from the shared socket. The socket is bound here (port 0) so the port can be
printed before the workers start; connections queue in its backlog until a worker accepts them.
A WebSocket connection is accepted by one worker and stays there, and so does its session.

Usage: python3 serve-peer.py <scenario.json> <workers>   (prints the port once bound)
Needs Debian's python3-fastapi and python3-uvicorn.
"""
import os
import socket
import sys

import uvicorn
from uvicorn.supervisors import Multiprocess

APP = "serve_peer_app:app"  # imported from this script's folder, which is on sys.path


def main(scenario, workers):
    os.environ["SERVE_PEER_SCENARIO"] = scenario  # inherited by the spawned workers
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(2048)
    print(sock.getsockname()[1], flush=True)
    config = uvicorn.Config(APP, workers=workers, log_level="warning", ws_max_size=16 * 1024 * 1024)
    server = uvicorn.Server(config)
    if workers == 1:
        server.run(sockets=[sock])
    else:
        Multiprocess(config, target=server.run, sockets=[sock]).run()


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
