// @ts-check
// Builds a Pyodide memory snapshot (stdlib modules pre-imported) so workers boot in ~1 s instead
// of ~3 s. Runs only trusted code, in its own short-lived process: the long-lived sandbox host
// never gets write access to the cache. Usage: node make-snapshot.mjs <output-file> <pyodide.mjs path>
import { renameSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { disableChildProcesses } from "./harden.mjs";

/** @import { LoadPyodide } from "./harden.mjs" */

// Modules environments commonly use, imported (and strptime's lazy regex tables built) once here
// rather than on a tool's first call in every fresh worker: in wasm the first strptime took
// ~400 ms, zoneinfo ~1.2 s, difflib ~0.8 s, secrets ~0.4 s — enough, on a loaded machine, to push
// a step past its 2 s limit and end the episode.
const PRELOAD = [
  "import json, ast, copy, random, typing, collections, re, dataclasses, datetime, itertools, functools",
  "import enum, math, types, uuid, hashlib, string, decimal, statistics, time, calendar, operator",
  "import _strptime, zoneinfo, csv, textwrap, heapq, bisect, difflib, pprint, secrets, base64, io",
  "import urllib.parse, email.utils, numbers, fractions, contextlib, abc, collections.abc, warnings",
  "import traceback, logging, locale, shlex, unicodedata, inspect, pathlib, struct, binascii, html",
  "datetime.datetime.strptime('2024-01-02 03:04:05', '%Y-%m-%d %H:%M:%S')",
  "datetime.date.fromisoformat('2024-01-02')",
  "time.strptime('2024-01-02', '%Y-%m-%d')",
].join("\n");
const [output, pyodidePath] = process.argv.slice(2);
if (!output || !pyodidePath) {
  process.stderr.write("usage: make-snapshot.mjs <output-file> <pyodide.mjs path>\n");
  process.exit(2);
}
disableChildProcesses(); // also shims process.binding, which the permission model denies
const { loadPyodide } = /** @type {{ loadPyodide: LoadPyodide }} */ (
  await import(pathToFileURL(pyodidePath).href)
);
const py = await loadPyodide({ _makeSnapshot: true, env: {}, stdout: () => {}, stderr: () => {} });
py.runPython(PRELOAD);
const bytes = py.makeMemorySnapshot();
const partial = `${output}.${process.pid}.partial`;
writeFileSync(partial, bytes, { mode: 0o600 }); // private: it is an interpreter image
renameSync(partial, output); // atomic: readers never see half a snapshot
process.exit(0);
