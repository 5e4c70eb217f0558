"""Object-store roots against folders, same run (docs/storage.md targets):

- open + edit + save of a 10 MB document on a local SeaweedFS <= 1.3 x the same on a local folder
  plus a raw GET + PUT of its bytes to the store;
- a 10 MB POST /files <= 1.5 x a raw PUT of the same bytes to the store.

    python tests/bench/bench_store.py [--repeats 5] [--mb 10]

Prints medians of wall and CPU time (this process; SeaweedFS runs in its own). Never fails on a time.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import anyio

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))


def big_document(path: Path, mb: int) -> bytes:
    from ooxml.model.document import Document
    doc = Document.create()
    doc.package.add_part("/word/media/blob.bin", os.urandom(mb << 20), "application/octet-stream")
    doc.save(path)
    doc.close()
    return path.read_bytes()


def timed(fn) -> tuple[float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - wall, time.process_time() - cpu


async def edit_cycle(client, path: str) -> None:
    sid = (await client.ok("docx_open", file_path=path)).head["Session ID"]
    await client.ok("docx_insert_paragraph", session_id=sid, text="bench", position="end:document_body")
    await client.ok("docx_save", session_id=sid)
    await client.ok("docx_close", session_id=sid)


def median_pair(samples):
    return statistics.median(s[0] for s in samples), statistics.median(s[1] for s in samples)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--mb", type=int, default=10)
    args = ap.parse_args()
    import httpx2
    import obstore
    from tests.support.client import open_client
    from tests.support.http_server import http_server
    from tests.support.seaweed import SeaweedFS
    from tools.config.model import Config
    from tools.services import Services
    from tools.storage.roots import ObjectRoot

    weed = SeaweedFS().start()
    tmp = Path(tempfile.mkdtemp(prefix="oxm-bench-store-"))
    try:
        bucket = weed.make_bucket("bench-store")
        raw = weed.client(bucket)
        data = big_document(tmp / "big.docx", args.mb)
        obstore.put(raw, "team/big.docx", data)
        config = Config(storage=weed.settings())
        results = {}

        def run(label, path, **opts):
            async def go():
                async with open_client([tmp], config=config, **opts) as c:
                    await edit_cycle(c, path)  # warm-up
                    out = []
                    for _ in range(args.repeats):
                        wall, cpu = time.perf_counter(), time.process_time()
                        await edit_cycle(c, path)
                        out.append((time.perf_counter() - wall, time.process_time() - cpu))
                    return out
            results[label] = median_pair(anyio.run(go))

        run("folder open+save", str(tmp / "big.docx"))
        run("s3 open+save", f"s3://{bucket}/team/big.docx", objects=[ObjectRoot(bucket, "team")])
        transfer = [timed(lambda: (obstore.put(raw, "team/raw.bin", data), bytes(obstore.get(raw, "team/raw.bin").bytes())))
                    for _ in range(args.repeats)]
        results["raw PUT+GET"] = median_pair(transfer)
        results["raw PUT"] = median_pair([timed(lambda: obstore.put(raw, "team/raw2.bin", data))
                                          for _ in range(args.repeats)])
        services = Services(roots=[tmp], config=Config(storage={**weed.settings(), "max_upload_bytes": 64 << 20}),
                            objects=[ObjectRoot(bucket, "team")], objects_first=True)
        with http_server(services) as url:
            base = url.removesuffix("/mcp")
            post = lambda: httpx2.post(f"{base}/files", params={"name": "u.docx"}, content=data,  # noqa: E731
                                       timeout=120).raise_for_status()
            post()
            results["POST /files"] = median_pair([timed(post) for _ in range(args.repeats)])
        print(f"{args.mb} MB document ({len(data)} bytes), {args.repeats} repeats, load {os.getloadavg()[0]:.2f}")
        for label, (wall, cpu) in results.items():
            print(f"  {label:18} wall {wall * 1000:8.1f} ms   cpu {cpu * 1000:8.1f} ms")
        folder, s3, transfer_t = results["folder open+save"], results["s3 open+save"], results["raw PUT+GET"]
        ratio = s3[0] / (folder[0] + transfer_t[0])
        upload = results["POST /files"][0] / results["raw PUT"][0]
        print(f"s3 open+save / (folder + raw transfer): {ratio:.2f} (target <= 1.3: {'met' if ratio <= 1.3 else 'NOT met'})")
        print(f"POST /files / raw PUT: {upload:.2f} (target <= 1.5: {'met' if upload <= 1.5 else 'NOT met'})")
    finally:
        weed.close()
        import shutil
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
