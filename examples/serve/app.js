// The composer's page: a board to set up or load a problem, Solve and Check through the
// server's JSON API (see examples/serve.rs), lines stepped through on the board.
"use strict";

const KANJI = { P: "歩", L: "香", N: "桂", S: "銀", G: "金", B: "角", R: "飛", K: "玉",
  "+P": "と", "+L": "杏", "+N": "圭", "+S": "全", "+B": "馬", "+R": "龍" };
const HAND_ORDER = ["R", "B", "G", "S", "N", "L", "P"];
const FULL_SET = { R: 2, B: 2, G: 4, S: 4, N: 4, L: 4, P: 18 };
const RANKS = "abcdefghi";
const RANK_KANJI = "一二三四五六七八九";
const $ = (id) => document.getElementById(id);

// The position shown and edited: board[rank 0-8][file index 0-8, file 9 first] = token or "".
let state = emptyState();
// The problem as loaded: its moves (the intended line) while the board is not edited.
let loaded = { moves: [] };
// The line stepped through: positions (SFEN, the start first), moves (USI), labels, first ply.
let line = null;
let step = 0;
let lastResult = null;
let job = null;
let selectedPiece = "P";

function emptyState() {
  return { board: Array.from({ length: 9 }, () => Array(9).fill("")), side: "b",
    hands: { b: {}, w: {} } };
}

function parseSfen(sfen) {
  const [boardText, side, handText] = sfen.trim().split(/\s+/);
  const s = emptyState();
  boardText.split("/").forEach((rank, r) => {
    let f = 0;
    for (let i = 0; i < rank.length; i++) {
      const c = rank[i];
      if (/[0-9]/.test(c)) { f += Number(c); continue; }
      let tok = c;
      if (c === "+") { i++; tok = "+" + rank[i]; }
      s.board[r][f++] = tok;
    }
  });
  s.side = side === "w" ? "w" : "b";
  if (handText && handText !== "-") {
    const re = /(\d*)([A-Za-z])/g;
    let m;
    while ((m = re.exec(handText))) {
      const n = m[1] ? Number(m[1]) : 1;
      const color = m[2] === m[2].toUpperCase() ? "b" : "w";
      const k = m[2].toUpperCase();
      s.hands[color][k] = (s.hands[color][k] || 0) + n;
    }
  }
  return s;
}

function handText(hand, lower) {
  let t = "";
  for (const k of HAND_ORDER) {
    const n = hand[k] || 0;
    if (n > 0) t += (n > 1 ? n : "") + (lower ? k.toLowerCase() : k);
  }
  return t;
}

function toSfen(s) {
  const rows = s.board.map((row) => {
    let t = "", empty = 0;
    for (const tok of row) {
      if (!tok) { empty++; continue; }
      if (empty) { t += empty; empty = 0; }
      t += tok;
    }
    return t + (empty ? empty : "");
  });
  const hands = handText(s.hands.b, false) + handText(s.hands.w, true);
  return `${rows.join("/")} ${s.side} ${hands || "-"} 1`;
}

// Gives the defender every piece that is neither on the board nor in the attacker's hand.
function fillRest(s) {
  const attacker = s.side, defender = s.side === "b" ? "w" : "b";
  const used = {};
  for (const row of s.board) for (const tok of row) {
    if (!tok) continue;
    const k = tok.replace("+", "").toUpperCase();
    used[k] = (used[k] || 0) + 1;
  }
  const rest = {};
  for (const k of HAND_ORDER) {
    rest[k] = Math.max(0, FULL_SET[k] - (used[k] || 0) - (s.hands[attacker][k] || 0));
  }
  s.hands[defender] = rest;
}

function squareName(r, f) { return `${9 - f}${RANKS[r]}`; }

function usiTarget(mv) {
  if (!mv) return null;
  const m = mv.replace("+", "");
  return m.slice(m.length - 2);
}

function drawBoard(s, lastMove) {
  const board = $("board");
  board.innerHTML = "";
  const mark = usiTarget(lastMove);
  for (let r = 0; r < 9; r++) for (let f = 0; f < 9; f++) {
    const tok = s.board[r][f];
    const sq = document.createElement("div");
    const name = squareName(r, f);
    sq.className = "sq";
    sq.dataset.square = name;
    if (tok) {
      const white = tok === tok.toLowerCase();
      const key = tok.toUpperCase();
      sq.classList.add(white ? "white" : "black");
      if (key.startsWith("+")) sq.classList.add("promoted");
      const span = document.createElement("span");
      span.textContent = key === "K" && !white ? "王" : KANJI[key];
      sq.appendChild(span);
      sq.dataset.piece = tok;
    }
    if (name === mark) sq.classList.add("last");
    if (f === 8) {
      const label = document.createElement("i");
      label.className = "rank";
      label.textContent = RANK_KANJI[r];
      sq.appendChild(label);
    }
    sq.addEventListener("click", () => editSquare(r, f, false));
    sq.addEventListener("contextmenu", (e) => { e.preventDefault(); editSquare(r, f, true); });
    board.appendChild(sq);
  }
  drawHand($("hand-top"), s.hands.w, "△ White 後手", true);
  drawHand($("hand-bottom"), s.hands.b, "▲ Black 先手", false);
}

function drawHand(el, hand, who, white) {
  el.innerHTML = "";
  const label = document.createElement("span");
  label.className = "who";
  label.textContent = who + "の持駒:";
  el.appendChild(label);
  let any = false;
  for (const k of HAND_ORDER) {
    const n = hand[k] || 0;
    if (!n) continue;
    any = true;
    const p = document.createElement("span");
    p.className = white ? "white-piece" : "black-piece";
    p.textContent = KANJI[k];
    el.appendChild(p);
    if (n > 1) {
      const c = document.createElement("sub");
      c.textContent = n;
      el.appendChild(c);
    }
  }
  if (!any) el.appendChild(document.createTextNode("なし"));
}

// ---- the editor ----

function editSquare(r, f, clear) {
  if (line && step !== 0) { setStep(0); }
  const cur = state.board[r][f];
  if (clear || cur === selectedPiece) state.board[r][f] = "";
  else state.board[r][f] = selectedPiece;
  edited();
}

function edited() {
  loaded = { moves: [] };
  // A result is for the position it was asked for, not the edited one.
  clearResult();
  if ($("rest").checked) fillRest(state);
  line = null;
  showPosition();
  refreshNotation();
}

function buildPalette() {
  const pal = $("palette");
  const kinds = ["K", "R", "B", "G", "S", "N", "L", "P", "+R", "+B", "+S", "+N", "+L", "+P"];
  for (const white of [false, true]) for (const k of kinds) {
    const tok = white ? k.toLowerCase() : k;
    const b = document.createElement("button");
    b.className = white ? "white" : "black";
    b.dataset.piece = tok;
    b.title = (white ? "△ " : "▲ ") + KANJI[k];
    const span = document.createElement("span");
    span.textContent = k === "K" && !white ? "王" : KANJI[k];
    b.appendChild(span);
    if (tok === selectedPiece) b.classList.add("selected");
    b.addEventListener("click", () => {
      selectedPiece = tok;
      for (const o of pal.children) o.classList.toggle("selected", o === b);
    });
    pal.appendChild(b);
  }
}

function buildHandEditor() {
  const ed = $("hand-editor");
  ed.innerHTML = "";
  const attacker = state.side;
  const title = document.createElement("span");
  title.textContent = (attacker === "b" ? "▲" : "△") + " attacker's hand:";
  ed.appendChild(title);
  for (const k of HAND_ORDER) {
    const label = document.createElement("label");
    label.textContent = KANJI[k] + " ";
    const input = document.createElement("input");
    input.type = "number";
    input.min = 0;
    input.max = FULL_SET[k];
    input.value = state.hands[attacker][k] || 0;
    input.dataset.kind = k;
    input.addEventListener("change", () => {
      state.hands[attacker][k] = Math.max(0, Math.min(FULL_SET[k], Number(input.value) || 0));
      edited();
    });
    label.appendChild(input);
    ed.appendChild(label);
  }
}

// ---- talking to the server ----

async function api(path, body) {
  const res = await fetch(path, body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  let data;
  try { data = await res.json(); } catch (e) { data = { error: `${res.status} ${res.statusText}` }; }
  return { ok: res.ok, status: res.status, data };
}

function problemText() {
  const sfen = toSfen(state);
  return loaded.moves.length ? `${sfen} moves ${loaded.moves.join(" ")}` : sfen;
}

let notationSeq = 0;
async function refreshNotation() {
  const seq = ++notationSeq;
  $("sfen").value = toSfen(state);
  const r = await api("/api/parse", { problem: problemText() });
  if (seq !== notationSeq) return;
  if (r.ok) {
    $("kif").value = r.data.kif;
    $("parse-error").textContent = "";
  } else {
    $("kif").value = "";
    $("parse-error").textContent = r.data.error;
  }
}

function errorText(d) {
  return d.error || "error";
}

async function loadProblem(body) {
  const r = await api("/api/parse", body);
  if (!r.ok) {
    $("parse-error").textContent = errorText(r.data);
    return;
  }
  $("parse-error").textContent = "";
  state = parseSfen(r.data.sfen);
  $("side").value = state.side;
  loaded = { moves: r.data.moves };
  buildHandEditor();
  clearResult();
  if (r.data.moves.length) {
    setLine({ title: `the record's line (${r.data.format}), ${r.data.moves.length} plies`,
      positions: r.data.positions, moves: r.data.moves, labels: r.data.japanese, firstPly: 1 });
  } else {
    line = null;
    showPosition();
  }
  $("sfen").value = r.data.sfen;
  $("kif").value = r.data.kif;
}

function clearResult() {
  for (const id of ["status", "verdict", "unnecessary-list", "undecided", "progress"]) $(id).textContent = "";
  $("verdict").className = "";
  $("flaws").innerHTML = "";
  $("download").disabled = true;
  lastResult = null;
}

function limits() {
  const out = {};
  const t = Number($("time").value);
  if (t > 0) out.time_s = t;
  const n = Number($("nodes").value);
  if (n > 0) out.nodes = Math.floor(n);
  return out;
}

async function run(kind) {
  if (job) return;
  clearResult();
  const body = Object.assign({ problem: problemText(), wait: false }, limits());
  if (kind === "check") {
    body.first_flaw = $("first-flaw").checked;
    body.unnecessary_pieces = $("unnecessary").checked;
    body.strict = $("strict").checked;
  }
  const r = await api(`/api/${kind}`, body);
  if (!r.ok) {
    $("status").textContent = errorText(r.data);
    return;
  }
  job = r.data.job;
  setRunning(true);
  while (true) {
    await new Promise((ok) => setTimeout(ok, 150));
    const p = await api(`/api/jobs/${job}`);
    if (!p.ok) { $("status").textContent = errorText(p.data); break; }
    const g = p.data.progress;
    let text = `${kind === "solve" ? "solving" : "checking"}… nodes ${g.nodes.toLocaleString()}, ${(g.time_ms / 1000).toFixed(1)} s`;
    if (g.first_mate) text += `, first mate found: ${g.first_mate} plies`;
    if (g.shortest_mate && g.shortest_mate !== g.first_mate) text += `, shortest so far ${g.shortest_mate}`;
    $("progress").textContent = text;
    if (p.data.state === "done") {
      $("progress").textContent = `done: nodes ${p.data.result.nodes.toLocaleString()}, ${(p.data.result.time_ms / 1000).toFixed(2)} s`;
      if (kind === "solve") showSolve(p.data.result); else showCheck(p.data.result);
      break;
    }
  }
  job = null;
  setRunning(false);
}

function setRunning(on) {
  $("solve").disabled = on;
  $("check").disabled = on;
  $("stop").disabled = !on;
}

function showSolve(r) {
  lastResult = r;
  $("download").disabled = !r.kif;
  if (r.result === "mate") {
    $("status").textContent = r.status;
    setLine({ title: `main line: ${r.status}`, positions: r.positions, moves: r.moves,
      labels: r.japanese, firstPly: 1 });
  } else if (r.result === "nomate") {
    $("status").textContent = "no mate (不詰)";
  } else {
    $("status").textContent = `undecided: ${r.reason}`;
  }
}

function showCheck(r) {
  lastResult = r;
  $("download").disabled = !r.kif;
  const v = $("verdict");
  const fatal = r.flaws.filter((f) => f.fatal).length;
  const notes = r.flaws.length - fatal;
  const names = { sound: "sound (完全)", unsound: "unsound (不完全)", undecided: "undecided (未決)" };
  v.textContent = `${names[r.verdict] || r.verdict}: ${fatal} fatal flaw${fatal === 1 ? "" : "s"}, ${notes} note${notes === 1 ? "" : "s"}`;
  v.className = r.verdict;
  if (r.moves.length) {
    const what = r.intended ? "intended line (作意)" : "main line";
    $("status").textContent = `${what}: ${r.length} plies`;
    setLine({ title: `${what}, ${r.moves.length} plies`, positions: r.positions, moves: r.moves,
      labels: r.japanese, firstPly: 1 });
  }
  const list = $("flaws");
  list.innerHTML = "";
  r.flaws.forEach((f, i) => {
    const li = document.createElement("li");
    li.className = f.fatal ? "fatal" : "note";
    li.dataset.kind = f.kind;
    li.dataset.ply = f.ply;
    const kind = document.createElement("span");
    kind.className = "kind";
    kind.textContent = `${f.japanese} (${f.kind.replace(/_/g, " ")})`;
    li.appendChild(kind);
    li.appendChild(document.createTextNode(` at ply ${f.ply}${f.text ? ": " + f.text : ""}${f.length ? ` — mate in ${f.length}${f.length_exact ? "" : " or less"} from there` : ""}`));
    li.title = f.detail;
    li.addEventListener("click", () => {
      for (const o of list.children) o.classList.toggle("current", o === li);
      if (f.positions.length > 1) {
        setLine({ title: `${f.japanese} at ply ${f.ply}: ${f.detail}`, positions: f.positions,
          moves: f.line || f.moves, labels: f.japanese_moves, firstPly: f.ply });
        setStep(1);
      } else if (r.positions.length) {
        setLine({ title: `main line`, positions: r.positions, moves: r.moves, labels: r.japanese, firstPly: 1 });
        setStep(Math.min(f.ply, r.positions.length - 1));
      }
    });
    list.appendChild(li);
  });
  const u = r.unnecessary_pieces;
  if (u) {
    $("unnecessary-list").textContent = u.found.length
      ? `unnecessary pieces (不要駒): ${u.found.map((p) => p.japanese).join(" ")}`
      : "no unnecessary piece (不要駒なし)";
    if (u.undecided.length) $("unnecessary-list").textContent += `; not decided: ${u.undecided.map((p) => p.japanese).join(" ")}`;
  }
  const open = r.undecided.map((q) => `ply ${q.ply}: ${q.question} (${q.reason})`);
  $("undecided").textContent = open.length ? "open: " + open.join("; ") : "";
}

// ---- stepping ----

function setLine(l) {
  line = l;
  const ol = $("moves");
  ol.innerHTML = "";
  ol.start = l.firstPly;
  l.labels.forEach((label, i) => {
    const li = document.createElement("li");
    li.textContent = label;
    li.dataset.usi = l.moves[i];
    li.addEventListener("click", () => setStep(i + 1));
    ol.appendChild(li);
  });
  $("line-title").textContent = l.title;
  setStep(0);
}

function setStep(i) {
  if (!line) { showPosition(); return; }
  step = Math.max(0, Math.min(i, line.positions.length - 1));
  showPosition();
}

function showPosition() {
  if (!line) {
    drawBoard(state, null);
    $("ply").textContent = "—";
    $("line-title").textContent = "";
    $("moves").innerHTML = "";
    return;
  }
  const s = parseSfen(line.positions[step]);
  drawBoard(s, step > 0 ? line.moves[step - 1] : null);
  const ply = step === 0 ? line.firstPly - 1 : line.firstPly + step - 1;
  $("ply").textContent = `ply ${ply} / ${line.firstPly + line.positions.length - 2}`;
  const items = $("moves").children;
  for (let k = 0; k < items.length; k++) items[k].classList.toggle("current", k === step - 1);
  if (step > 0 && items[step - 1]) items[step - 1].scrollIntoView({ block: "nearest" });
}

// ---- files ----

function bytesToBase64(bytes) {
  let bin = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    bin += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
  }
  return btoa(bin);
}

async function loadFile(file) {
  const buf = new Uint8Array(await file.arrayBuffer());
  await loadProblem({ problem_base64: bytesToBase64(buf) });
}

function download() {
  if (!lastResult || !lastResult.kif) return;
  const text = "#KIF version=2.0 encoding=UTF-8\n" + lastResult.kif;
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([text], { type: "text/plain;charset=utf-8" }));
  a.download = "tsume.kifu";
  document.body.appendChild(a);
  a.click();
  a.remove();
}

function copy(id) {
  const el = $(id);
  el.select();
  if (navigator.clipboard) navigator.clipboard.writeText(el.value).catch(() => document.execCommand("copy"));
  else document.execCommand("copy");
}

// ---- wiring ----

function init() {
  buildPalette();
  buildHandEditor();
  $("load").addEventListener("click", () => loadProblem({ problem: $("problem-text").value }));
  $("file").addEventListener("change", (e) => { if (e.target.files[0]) loadFile(e.target.files[0]); });
  $("solve").addEventListener("click", () => run("solve"));
  $("check").addEventListener("click", () => run("check"));
  $("stop").addEventListener("click", () => { if (job) api(`/api/jobs/${job}/stop`, {}); });
  $("download").addEventListener("click", download);
  $("copy-sfen").addEventListener("click", () => copy("sfen"));
  $("copy-kif").addEventListener("click", () => copy("kif"));
  $("side").addEventListener("change", () => {
    state.side = $("side").value;
    buildHandEditor();
    edited();
  });
  $("rest").addEventListener("change", edited);
  $("clear-board").addEventListener("click", () => {
    state = emptyState();
    state.side = $("side").value;
    buildHandEditor();
    edited();
  });
  $("first").addEventListener("click", () => setStep(0));
  $("prev").addEventListener("click", () => setStep(step - 1));
  $("next").addEventListener("click", () => setStep(step + 1));
  $("last").addEventListener("click", () => setStep(1e9));
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "TEXTAREA" || e.target.tagName === "INPUT") return;
    if (e.key === "ArrowLeft") setStep(step - 1);
    else if (e.key === "ArrowRight") setStep(step + 1);
    else if (e.key === "Home") setStep(0);
    else if (e.key === "End") setStep(1e9);
    else return;
    e.preventDefault();
  });
  document.addEventListener("dragover", (e) => { e.preventDefault(); document.body.classList.add("drop-target"); });
  document.addEventListener("dragleave", () => document.body.classList.remove("drop-target"));
  document.addEventListener("drop", (e) => {
    e.preventDefault();
    document.body.classList.remove("drop-target");
    const f = e.dataTransfer.files[0];
    if (f) loadFile(f);
    else {
      const text = e.dataTransfer.getData("text/plain");
      if (text) { $("problem-text").value = text; loadProblem({ problem: text }); }
    }
  });
  // The classic mate in 3 to start with.
  $("problem-text").value = "3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1";
  loadProblem({ problem: $("problem-text").value });
}

init();
