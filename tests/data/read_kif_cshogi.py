"""Reads KIF files with cshogi's KIF parser and prints, as one JSON array, each file's start
position (SFEN) and main line (USI moves). cshogi reads no variations. For
tests/kif_readers.rs; exits with 77 when cshogi is missing."""
import json
import sys

try:
    import cshogi
    import cshogi.KIF
except ImportError as e:
    print(f"cshogi cannot be imported ({e}); python3 -m pip install cshogi")
    sys.exit(77)

out = []
for path in sys.argv[1:]:
    try:
        p = cshogi.KIF.Parser.parse_file(path)
    except Exception as e:  # the test reports which file and why
        out.append({"file": path, "error": f"{type(e).__name__}: {e}"})
        continue
    out.append({"file": path, "sfen": p.sfen, "moves": [cshogi.move_to_usi(m) for m in p.moves]})
print(json.dumps(out))
