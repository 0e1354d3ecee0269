#!/usr/bin/env python3
"""The hub's peak memory for one push of a body just under its 8 MiB limit made of the
smallest records there are ({"a":0}, each refused), against its memory before the push.

    python3 scripts/hub_push_memory.py "$CARGO_TARGET_DIR/release/partie-hub" [KIND]

KIND: `tiny` (the default: {"a":0} objects), `ones` (the number 1: the most elements a body
holds), or `ids` ({"id":"N"} objects, refused one by one with their ids). Loopback only; the hub and its database live in a temporary folder and are
stopped at the end. Prints the hub's resident memory (VmHWM, peak; VmRSS) in MiB before and
after, the answer's status and size, and the push's time.
"""
import json, os, subprocess, sys, tempfile, time, urllib.request

def mib(pid, key):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1]) / 1024
    return float("nan")

def main():
    hub_bin = sys.argv[1]
    kind = sys.argv[2] if len(sys.argv) > 2 else "tiny"
    limit = 8 * 1024 * 1024
    with tempfile.TemporaryDirectory() as d:
        token = os.path.join(d, "token")
        with open(token, "w") as f:
            f.write("memory-check")
        p = subprocess.Popen([hub_bin, "--db", os.path.join(d, "hub.db"), "--listen", "127.0.0.1:0",
                              "--token-file", token], stdout=subprocess.PIPE, text=True)
        try:
            line = p.stdout.readline().strip()
            addr = line.split("http://", 1)[1]
            time.sleep(0.5)
            before = (mib(p.pid, "VmHWM"), mib(p.pid, "VmRSS"))
            one = {"tiny": '{"a":0}', "ones": "1"}.get(kind)
            parts, size, n = [], len('{"records":[]}'), 0
            while True:
                item = one if one else json.dumps({"id": str(n)}, separators=(",", ":"))
                if size + len(item) + 1 > limit:
                    break
                parts.append(item)
                size += len(item) + 1
                n += 1
            body = ('{"records":[' + ",".join(parts) + "]}").encode()
            req = urllib.request.Request(f"http://{addr}/v1/records", data=body, method="POST",
                                         headers={"Authorization": "Bearer memory-check",
                                                  "Content-Type": "application/json"})
            t0 = time.time()
            with urllib.request.urlopen(req, timeout=600) as r:
                answer = r.read()
                status = r.status
            took = time.time() - t0
            after = (mib(p.pid, "VmHWM"), mib(p.pid, "VmRSS"))
            print(f"records {n}, body {len(body) / 2**20:.2f} MiB, status {status}, "
                  f"answer {len(answer) / 2**20:.1f} MiB, {took:.1f} s")
            print(f"peak before {before[0]:.0f} MiB, after {after[0]:.0f} MiB (resident now {after[1]:.0f} MiB)")
        finally:
            p.terminate()
            p.wait(10)

if __name__ == "__main__":
    main()
