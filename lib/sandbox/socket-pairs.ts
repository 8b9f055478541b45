/**
 * Connected, non-blocking socket pairs for the sandbox host's slot channels. Node has no
 * socketpair(2); `stdio: "pipe"` makes one whose child end is *blocking*, and the host cannot make
 * it non-blocking itself: registering it with its event loop needs a net.Socket, which Node's
 * permission model refuses without network permission (the host has none). So the server makes
 * the pairs: a Unix listener in a private (0700) directory, one connection per slot; the child
 * end is handed to spawn() as a stream, which duplicates the descriptor and with it the
 * non-blocking flag the server's event loop set, so a worker can poll its slot (channel.mjs).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { once } from "node:events";
import { type Socket, connect, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

export type SocketPair = { server: Socket; child: Socket };

export async function createSocketPairs(count: number): Promise<SocketPair[]> {
  const dir = mkdtempSync(join(tmpdir(), "envstudio-slots-")); // mode 0700: nobody else can connect
  // A socket in a fresh temp directory, not a project file: keep Turbopack from tracing the project.
  const path = join(/*turbopackIgnore: true*/ dir, "s");
  const listener = createServer();
  const pairs: SocketPair[] = [];
  try {
    listener.listen(path);
    await once(listener, "listening");
    // One at a time, so each accepted socket is known to be the other end of the client just made.
    for (let i = 0; i < count; i++) {
      const accepted = once(listener, "connection") as Promise<[Socket]>;
      const child = connect(path);
      const [[server]] = await Promise.all([accepted, once(child, "connect")]);
      child.pause();
      pairs.push({ server, child });
    }
    return pairs;
  } catch (error) {
    for (const pair of pairs) {
      pair.server.destroy();
      pair.child.destroy();
    }
    throw error;
  } finally {
    listener.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
