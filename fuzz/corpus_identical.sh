#!/usr/bin/env bash
# Compiles every .dxil under a corpus folder with two dxjit binaries (built
# from different commits) and compares the results byte for byte: the SPIR-V
# of every shader that compiles, and the exit code and message of every one
# that does not; a DXIL library export by export. Prints a summary and
# exits 1 on any difference.
#
#   fuzz/corpus_identical.sh BASE_DXJIT NEW_DXJIT [CORPUS_DIR]
#
# Used to show that the verifier changes no output of the corpus: BASE is
# main's `target/release/dxjit` copied aside before the change.
set -uo pipefail
base=$1 new=$2
src=${3:-${DXJIT_CORPUS:-$(dirname "$0")/../../shared/corpus}}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
same=0 compiled=0 diff=0
# compare FILE [EXPORT]: one compile with each binary.
compare() {
    local f=$1 entry=() what=$1
    if [ $# -gt 1 ]; then entry=(--entry "$2"); what="$1 export $2"; fi
    "$base" compile "$f" "${entry[@]}" -o "$tmp/a.spv" >"$tmp/a.txt" 2>&1; ra=$?
    "$new" compile "$f" "${entry[@]}" -o "$tmp/b.spv" >"$tmp/b.txt" 2>&1; rb=$?
    if [ $ra -ne $rb ] || ! cmp -s "$tmp/a.txt" "$tmp/b.txt" ||
        { [ $ra -eq 0 ] && ! cmp -s "$tmp/a.spv" "$tmp/b.spv"; }; then
        diff=$((diff + 1))
        echo "DIFFERS: $what (exit $ra vs $rb)"; head -c 300 "$tmp/b.txt"; echo
    else
        same=$((same + 1))
        [ $ra -eq 0 ] && compiled=$((compiled + 1))
    fi
    rm -f "$tmp/a.spv" "$tmp/b.spv"
}
exports=0
while IFS= read -r -d '' f; do
    compare "$f"
    # A DXIL library: each export too (the names under `library exports:` of `dxjit dis`, which
    # prints them as comments: `;   RayGen  raygeneration`).
    if grep -q "a DXIL library without an export" "$tmp/a.txt"; then
        while read -r name; do
            exports=$((exports + 1))
            compare "$f" "$name"
        done < <("$base" dis "$f" 2>/dev/null | sed -n '/^;* *library exports:/,/^;* *$/p' | sed '1d;s/^;//' |
            awk 'NF {print $1}')
    fi
done < <(find "$src" -name '*.dxil' -print0 | sort -z)
echo "identical: $same ($compiled compiled to byte-identical SPIR-V; $exports library exports compiled one by one), different: $diff"
[ $diff -eq 0 ]
