// The rules engine in the page, for practice that goes on offline (docs/offline.md): Pyodide runs
// the server's own `games/engine` (its source fetched from /app/engine-<digest>.zip), never a
// second implementation of the rules. A module Web Worker, so the page's thread never waits for
// it; its own Content-Security-Policy (frontend/headers.py) lets WebAssembly compile here only.
//
// Messages: {id, op, ...args} in, {id, ok: result} or {id, error: reason} out. Operations (each the
// engine's own call, the view its Game.view(), the player's view with "XX" for face-down cards):
//   init {pyodide, engine}   load Pyodide and the engine                       -> {ms}
//   load {code, log}         Game.replay(code, log): the game after its log    -> view
//   play {move}              Game.play(Move.from_json(move))                   -> {entry, view}
//   undo                     Game.undo()                                       -> {view}
//   finish                   Game.finish(): every card left up                 -> {moves, entries, view}
//   deal {rule}              a new game of GameCode.random(rule)               -> {code, view}
// A refused move answers {error: reason, relaxed}: the engine's reason code (IllegalMove).
let python = null;
let ready = null;

const GLUE = `
import json
from games.engine import Game, GameCode, IllegalMove, BadMove, Move, Rule

_game = None

def _answer(**fields):
    return json.dumps(fields)

def _refused(exc):
    reason = exc.reason if isinstance(exc, IllegalMove) else "illegal_move"
    return _answer(error=reason, relaxed=bool(getattr(exc, "relaxed", False)))

def load(code, log):
    global _game
    _game = Game.replay(code, json.loads(log))
    return _answer(ok=_game.view())

def play(move):
    try:
        result = _game.play(Move.from_json(json.loads(move)))
    except (IllegalMove, BadMove) as exc:
        return _refused(exc)
    return _answer(ok={"entry": str(result.move), "view": _game.view()})

def undo():
    try:
        _game.undo()
    except IllegalMove as exc:
        return _refused(exc)
    return _answer(ok={"view": _game.view()})

def finish():
    try:
        results = _game.finish()
    except IllegalMove as exc:
        return _refused(exc)
    moves = [r.move for r in results if r.move is not None]
    return _answer(ok={"moves": [m.to_json() for m in moves], "entries": [str(m) for m in moves], "view": _game.view()})

def deal(rule):
    code = str(GameCode.random(Rule(rule)))
    load(code, "[]")
    return _answer(ok={"code": code, "view": _game.view()})
`;

async function init({ pyodide, engine }) {
  const started = performance.now();
  const { loadPyodide } = await import(pyodide);
  python = await loadPyodide({ indexURL: new URL(".", new URL(pyodide, self.location.href)).href });
  const source = await fetch(engine, { credentials: "same-origin" });
  if (!source.ok) throw new Error(`engine: HTTP ${source.status}`);
  python.unpackArchive(await source.arrayBuffer(), "zip", { extractDir: "/yukon" });
  python.runPython(`import sys; sys.path.insert(0, "/yukon")\n${GLUE}`);
  // The files Pyodide loaded beside its module (for the service worker to keep).
  const files = ["pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"];
  return { ms: Math.round(performance.now() - started), files };
}

function call(name, ...args) {
  const answer = JSON.parse(python.globals.get(name)(...args));
  if ("error" in answer) return answer;
  return { ok: answer.ok };
}

const OPERATIONS = {
  load: ({ code, log }) => call("load", code, JSON.stringify(log)),
  play: ({ move }) => call("play", JSON.stringify(move)),
  undo: () => call("undo"),
  finish: () => call("finish"),
  deal: ({ rule }) => call("deal", rule),
};

self.onmessage = async ({ data }) => {
  const { id, op } = data;
  try {
    if (op === "init") {
      ready = ready || init(data);
      self.postMessage({ id, ok: await ready });
      return;
    }
    await ready;
    const answer = OPERATIONS[op](data);
    self.postMessage({ id, ...answer });
  } catch (err) {
    self.postMessage({ id, error: "engine_failed", detail: String(err && err.message ? err.message : err) });
  }
};
