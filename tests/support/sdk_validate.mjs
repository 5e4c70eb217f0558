// Validates many files in one node process with Microsoft's Open XML SDK validator (WebAssembly):
// reads file paths, one per line, on stdin; writes one JSON line per file on stdout.
import { readFile } from "node:fs/promises";
import { createInterface } from "node:readline";
import validate, { ready } from "@ooxml-tools/validate";

await ready();
const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  const path = line.trim();
  if (!path) continue;
  let out;
  try {
    const errors = await validate(new Uint8Array(await readFile(path)), "docx", "Microsoft365");
    out = { path, errors: errors.map((e) => ({ id: e.id, description: e.description, part: e.path?.partUri ?? "", xpath: e.path?.xpath ?? "" })) };
  } catch (e) {
    out = { path, failure: String(e && e.message ? e.message : e) };
  }
  process.stdout.write(JSON.stringify(out) + "\n");
}
