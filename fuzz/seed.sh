#!/usr/bin/env bash
# Seeds the fuzz corpora from the shared DXIL corpus (containers, and the
# bitcode cut out of each). Usage: fuzz/seed.sh [CORPUS_DIR]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=${1:-${DXJIT_CORPUS:-$here/../../shared/corpus}}
mkdir -p "$here/corpus/container" "$here/corpus/bitcode" "$here/corpus/compile"
python3 - "$src" "$here/corpus" <<'PY'
import hashlib, pathlib, struct, sys
src, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
for p in sorted(src.rglob("*.dxil")):
    b = p.read_bytes()
    h = hashlib.sha1(b).hexdigest()
    (out / "container" / h).write_bytes(b)
    (out / "compile" / h).write_bytes(b)
    n = struct.unpack_from("<I", b, 28)[0]
    for i in range(n):
        off = struct.unpack_from("<I", b, 32 + 4 * i)[0]
        if b[off:off + 4] == b"DXIL":
            pay = off + 8
            bc_off, bc_size = struct.unpack_from("<II", b, pay + 16)
            bc = b[pay + 8 + bc_off: pay + 8 + bc_off + bc_size]
            (out / "bitcode" / hashlib.sha1(bc).hexdigest()).write_bytes(bc)
PY
ls "$here/corpus/container" | wc -l
