// Reads KIF files with tsshogi (ShogiHome's record library) and prints, as one JSON array,
// each file's start position (SFEN) and every line of its move tree from the start (USI
// moves): the main line and each variation. For tests/kif_readers.rs.
import { importKIF, Move } from "tsshogi";
import { readFileSync } from "node:fs";

const out = [];
for (const file of process.argv.slice(2)) {
  const record = importKIF(readFileSync(file, "utf8"));
  if (record instanceof Error) {
    out.push({ file, error: record.message });
    continue;
  }
  const lines = [];
  // A node's continuations are its `next` and that node's chain of `branch` siblings.
  const walk = (node, prefix) => {
    if (!node.next) {
      lines.push(prefix);
      return;
    }
    for (let c = node.next; c; c = c.branch) {
      if (c.move instanceof Move) {
        walk(c, [...prefix, c.move.usi]);
      } else {
        lines.push(prefix);
      }
    }
  };
  walk(record.first, []);
  out.push({ file, sfen: record.initialPosition.sfen, lines });
}
console.log(JSON.stringify(out));
