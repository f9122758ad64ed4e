/* fortress-solver playground: the solver service's games in a browser page.
 *
 * The games are the server's: the page asks GetServerInfo for them as it starts and lists
 * each in the game selector. The page has boards of its own for four of them (BOARDS,
 * keyed by the game's name):
 * Beleaguered Fortress: a deal or a pasted position, played by clicking a card and then a
 * pile, a free cell or the foundations (or by dragging the card there), the card's targets
 * coloured by whether their move still wins; Hint (within the server's default second,
 * its bounds when not proven, and a button to search longer for the proof), and Solve
 * with Previous / Next / Play along the optimal line. Its family's variants (Fortress,
 * Bastion, FreeCell, ...) are dealt from the variant selector and drawn from their
 * positions: as many piles as they have, the free cells where they have them, the reserve
 * only where they have one, a "K" on an empty pile only a king may fill; where a variant
 * moves built runs, a card below its pile's top moves with the run on it, as one move.
 * Auto-play (a switch, remembered) plays the moves home the server's answer lists as safe
 * (PlayResponse.safe_moves, the solver's own rule) after a deal and after each move made
 * by hand; Ctrl+Z / Ctrl+Y (Cmd on a Mac) undo and redo a move with the automatic ones
 * after it. The address holds the game, variant, deal and moves ("the address" below), so
 * that a link or a reload brings the position back; the deals won are kept in the
 * browser (localStorage) and listed per variant.
 * Fortress Fight
 * Kingdom and Farbduell: a game against the greedy bot from a seed (or a pasted position),
 * the person is seat 0 (or the seat to move) and sees only what that seat sees; each
 * Fortress Fight Kingdom card with its name, cost and effect from the server's card
 * table, Farbduell on the table chosen with 2 to 6 seats (the bot plays the others), a
 * hint as the chance of winning with its action ("wins this turn" when proven).
 * Stronghold: a pasted position and the attacker's plan (Hint) or the fewest turns to
 * clear (Solve).
 * A position pasted without a "game" key is one of the game in the selector.
 * Any other game gets the generic view (GENERIC): its picture as the server draws it, its
 * position's JSON in the paste box to edit and load again, its legal moves as buttons, and
 * a button for each of its questions (GameInfo.questions), whose answer is shown as JSON.
 *
 * It calls the server it is served from, in the Connect protocol with JSON bodies
 * (POST /fortress.solver.v1.Solver/<Method>, see protos/fortress_solver.proto):
 *   GetServerInfo - the games, with their questions
 *   Deal  - Beleaguered Fortress deal N (of a variant), a new duel from a seed (Farbduell:
 *           on the table and with the players chosen), any game that deals
 *   Play  - moves in the game's notation (the duels: with the bot's replies); with no
 *           moves it checks and draws a pasted position of any game
 *   Hint  - the next move, the best action with its runners-up, the attacker's plan;
 *           Beleaguered Fortress: also every legal move graded (all_moves)
 *   Solve - the optimal line of a Beleaguered Fortress position; Stronghold's clear; any
 *           other game's question by its name (question_options), answered as JSON
 * and GETs what the rules say (service/rules_routes.py): a game's rules page,
 * /docs/NAME.md, linked from the header (rules.html draws it), and Fortress Fight
 * Kingdom's card table (service/ffkingdom/routes.py).
 * Every call sends back the `position` the previous answer gave. A server started with
 * --token-file answers UNAUTHENTICATED without a token: the page then asks for one, keeps
 * it for the tab (sessionStorage) and sends it as `Authorization: Bearer TOKEN`.
 */
"use strict";

const RPC = "/fortress.solver.v1.Solver/";
const CARD_TABLE = "/games/fortress-fight-kingdom/cards.json";
const TOKEN_KEY = "fortress-solver-token";
// Kept in the browser (localStorage): auto-play's switch ("off" when off), and the deals
// won, {variant: [deal numbers as text]}.
const AUTOPLAY_KEY = "fortress-solver-autoplay";
const WON_KEY = "fortress-solver-won";
// A Solve's budget, and a hint's when asked to search longer. A patience hint and the
// grading of a card's targets are asked with none: the server's default second, the best
// line found by then answered with its bounds; a larger budget buys the proof.
const BUDGET = {seconds: 10};
const PLAY_INTERVAL_MS = 400;

// Beleaguered Fortress's family: the variant a position without a "variant" key is of. The
// selector offers the variants the server's GameInfo lists, in its order.
const DEFAULT_VARIANT = "beleaguered-fortress";

const STRONGHOLD_EXAMPLE = `{"game": "stronghold", "mode": "1v3", "turn": 2,               // A1 to move
 "units": [{"id": "u4", "owner": "A1", "might": 4},                    // in base, ready
           {"id": "d2", "owner": "D", "might": 2, "tank": true, "loc": "O2"}],
 "removed": [], "defender_score": 0}`;

// The games the page draws boards of its own for, by their names in GetServerInfo; any
// other game the server lists gets GENERIC. What each entry says:
//   label       the selector's text (else the game's name)
//   option      the selector's value, where it is not the game's name ("ffk", as it was)
//   input       the deal form's label; null: no deal form, the game loads `example`
//   seed        the deal form's first value
//   variants    deals a variant of the family chosen in the variant selector
//   example     the position loaded when the game is chosen ("Load example")
//   paste       the paste box is open when the game is chosen
//   steps       Previous / Next / Play (and the arrow keys) walk Solve's line
//   duel        played against the greedy bot: moves ask for its replies and are logged
//   hintsOver   Hint stays enabled once the game is over
//   draw        draws the board of state.view into the board element
//   status      the status line for a view
//   hint        fills the hint panel with a HintResponse
//   afterHint   called once a hint has come
//   solve       Solve's extra request fields (request) and where its answer goes (keep);
//               absent: no Solve button
//   solution    fills the solution panel's list; says whether there is one to show
//   click       a click on the board that is not on an action button
//   actionClass an action button's class
//   questions   a button for each of the game's questions (GameInfo.questions)
//   rules       the game's rules page (GET /docs/NAME, service/rules_routes.py)
//   tables      deals on the table and for the players chosen (Farbduell)
//   prepare     called when the game is chosen, before its first position comes
//   actionText  a legal move as the page shows it (else as the server writes it)
//   chance      a duel hint's (or runner-up's) chance of winning, 0 to 1, as it sends it
//   seats       a duel position's number of seats: with more than two, each bot is named
//               by its seat
//   quickHints  its hints are asked with no budget (the server's default second), and
//               with BUDGET when the person asks to search longer
const BOARDS = {
  "patience": {
    label: "Patience", input: "Deal", seed: 2, steps: true, variants: true,
    rules: "beleaguered-fortress.md",
    draw: renderBeleaguered, status: beleagueredStatus, hint: renderBeleagueredHint,
    afterHint: gradeMoves, solve: {request: {}, keep: keepSolution}, solution: solutionLine,
    click: onCardClick, quickHints: true,
  },
  "fortress-fight-kingdom": {
    label: "Fortress Fight Kingdom", option: "ffk", input: "Seed", seed: 1, duel: true,
    rules: "fortress-fight-kingdom.md", draw: renderFfk, status: ffkStatus,
    hint: (answer, more) => renderDuelHint(answer.ffk || {}, more),
    prepare: loadCardTable, click: onFfkCardClick, actionText: ffkActionText,
    chance: (valued) => valued.winChance, seats: (position) => position.players.length,
  },
  farbduell: {
    label: "Farbduell", input: "Seed", seed: 1, duel: true, tables: true,
    rules: "farbduell.md", draw: renderFarbduell, status: (view) => duelStatus(view, "", ""),
    hint: (answer, more) => renderDuelHint(answer.farbduell || {}, more),
    actionClass: fdActionClass, chance: (valued) => valued.value,
    seats: (position) => position.hands.length,
  },
  stronghold: {
    label: "Stronghold", input: null, example: STRONGHOLD_EXAMPLE, paste: true,
    rules: "stronghold.md",
    hintsOver: true, draw: renderStronghold,
    status: (view) => strongholdStatus(JSON.parse(view.positionJson)),
    hint: (answer, more) => renderStrongholdHint(answer.stronghold || {}, answer.status, more),
    solve: {request: {stronghold: {question: "clear"}},
            keep: (answer) => { state.strongholdClear = answer; }},
    solution: strongholdSolution,
  },
};
const GENERIC = {input: "Deal", seed: 1, paste: true, questions: true,
                 draw: renderGeneric, status: genericStatus};

const state = {
  games: null,        // GetServerInfo's games: name -> GameInfo, in the server's order
  game: null,         // the name of the game on show (a key of state.games)
  seeds: {},          // the last deal or seed typed, per game
  variants: new Map(),  // Beleaguered Fortress's family: name -> VariantInfo (its rules)
  view: null,         // the last PlayResponse; null before the game has loaded
  history: [],        // the moves made, each {view: the view before it, move: its text,
                      // auto: played by auto-play}; of automatic moves sent together only
                      // the first keeps its view (an undo goes back past them all)
  redo: [],           // the moves undone, for Ctrl+Y: {entries, view after them}
  dealt: null,        // Beleaguered Fortress: {variant, deal} of a numbered deal on show
  solution: null,     // {moves: [move text], start: history length when solved}
  strongholdClear: null,  // Stronghold: the last Solve's answer
  answer: null,       // the generic view: {question, response} of the last question asked
  shownJson: null,    // the generic view: the position JSON last put in the paste box
  selected: null,     // Beleaguered Fortress: {card, place} picked on the board
  hint: null,         // the last HintResponse, for the view it was asked for
  gradings: new Map(),  // Beleaguered Fortress: positionJson -> {moves: Map of move text
                        // to GradedMove (null while asked), error}
  log: [],            // the duels: [{who, seat, action}], who "you" or "bot"
  seat: 0,            // the duels: the person's seat (the bot plays the others)
  cardTable: null,    // Fortress Fight Kingdom: GET CARD_TABLE's answer, once it came
  cardTableAsked: false,
  playing: false,     // Play is stepping through the solution
  timer: null,
  busy: false,        // a call is under way
  call: null,         // which one
  ended: null,        // settles when it has ended
  generation: 0,      // bumped by every load, so an answer for an old game is dropped
  asked: null,        // what the address asks for as the page starts, until it has loaded
};

const $ = (id) => document.getElementById(id);

// A game's value in the selector: its name, or the shorter one its board has kept.
function optionOf(game) {
  return BOARDS[game]?.option ?? game;
}

// The entry of BOARDS that draws the game on show, else the generic view.
function boardOf(game = state.game) {
  return BOARDS[game] || GENERIC;
}

// ------------------------------------------------------------------ the server

async function rpc(method, body) {
  let response;
  const headers = {"Content-Type": "application/json", "Connect-Protocol-Version": "1"};
  const token = sessionStorage.getItem(TOKEN_KEY);
  if (token) headers.Authorization = `Bearer ${token}`;
  try {
    response = await fetch(RPC + method, {method: "POST", headers, body: JSON.stringify(body)});
  } catch (error) {
    throw new Error(`cannot reach the server: ${error.message}`);
  }
  const text = await response.text();
  let data = {};
  try {
    data = text ? JSON.parse(text) : {};
  } catch {
    data = {message: text};
  }
  if (data.code === "unauthenticated") {
    $("token-form").hidden = false;
    throw new Error(token ? `${data.message}: enter this server's token above`
      : "this server needs a token: enter it above");
  }
  if (!response.ok) {
    throw new Error(data.message || `${method}: HTTP ${response.status}`);
  }
  return data;
}

// A token typed in: kept for the tab, and the game loaded again with it.
function useToken() {
  const token = $("token").value.trim();
  if (token) {
    sessionStorage.setItem(TOKEN_KEY, token);
  } else {
    sessionStorage.removeItem(TOKEN_KEY);
  }
  loadGames();
}

// One user action at a time; a load may start at any time, and the answers of whatever
// was under way for the old game are then dropped (`current()` is false).
async function run(task, load = false) {
  if (state.busy && !load) return false;
  if (load) {
    state.generation += 1;
    stopPlaying();
  }
  const generation = state.generation;
  const current = () => generation === state.generation;
  const token = {};
  let end;
  state.call = token;
  state.ended = new Promise((resolve) => { end = resolve; });
  state.busy = true;
  showError("");
  renderControls();
  let ok = true;
  try {
    await task(current);
  } catch (error) {
    ok = false;
    if (current()) {
      stopPlaying();
      showError(error.message);
    }
  } finally {
    if (state.call === token) {
      state.call = null;
      state.busy = false;
    }
    end();
    renderControls();
  }
  return ok && current();
}

// A person's move: played now or, while a call runs (a hint on its way), as soon as it
// has ended, if the game on show is still the one it was made on; never dropped.
async function runMove(task) {
  const generation = state.generation;
  while (state.busy) await state.ended;
  return generation === state.generation ? run(task) : false;
}

function showError(message) {
  const line = $("error");
  line.textContent = message;
  line.hidden = !message;
}

// ------------------------------------------------------------------ loading

// The server's games (GetServerInfo) as the selector's options, in its order; then the
// game the address names as the page starts, else the game that was on show, if the
// server still has it, else its first game.
function loadGames() {
  run(async (current) => {
    const info = await rpc("GetServerInfo", {});
    if (!current()) return;
    state.games = new Map((info.games || []).map((game) => [game.name, game]));
    $("game").replaceChildren(...[...state.games.keys()].map((name) =>
      el("option", {value: optionOf(name), text: BOARDS[name]?.label ?? name})));
    const family = [...state.games.values()].find((game) => BOARDS[game.name]?.variants);
    fillVariants(family?.variants);
    const tabled = [...state.games.values()].find((game) => BOARDS[game.name]?.tables);
    fillTables(tabled?.variants || []);
  }, true).then((ok) => {
    if (!ok) return;
    const names = [...state.games.keys()];
    const asked = state.asked;
    state.asked = null;
    if (names.length === 0) showError("this server has no games");
    else if (asked) startGame(askedGame(asked, names) ?? names[0], asked);
    else startGame(names.includes(state.game) ? state.game : names[0]);
  });
}

// A new game on show (state.game is already its game): `view` is its first PlayResponse,
// or null until one has come, and the page then draws no board.
function reset(view) {
  state.view = view;
  state.history = [];
  state.redo = [];
  state.dealt = null;
  state.solution = null;
  state.strongholdClear = null;
  state.answer = null;
  state.shownJson = null;
  state.selected = null;
  state.hint = null;
  state.log = [];
  state.seat = view?.toMove ?? 0;  // a pasted duel: the person takes the seat to move
  stopPlaying();
}

// The variant selector's options: the variants the server's GameInfo lists (its shipped
// ones and its rules files'), else Beleaguered Fortress alone; the variant chosen stays
// chosen if the server has it.
function fillVariants(listed) {
  const named = (listed || []).filter((v) => v.name);
  state.variants = new Map(named.map((v) => [v.name, v]));
  const variants = named.length ? named.map((v) => ({name: v.name, title: v.title || v.name}))
    : [{name: DEFAULT_VARIANT, title: "Beleaguered Fortress"}];
  const chosen = $("variant").value;
  $("variant").replaceChildren(...variants.map((v) =>
    el("option", {value: v.name, text: v.title})));
  $("variant").value = variants.some((v) => v.name === chosen) ? chosen : variants[0].name;
}

// Farbduell's tables (its GameInfo.variants) as the table selector's options; the one
// chosen stays chosen.
function fillTables(tables) {
  const chosen = $("table").value;
  $("table").replaceChildren(...tables.map((t) =>
    el("option", {value: t.name, text: t.title || t.name})));
  if (tables.some((t) => t.name === chosen)) $("table").value = chosen;
}

// The variant a view's position is of: its "variant" key, absent for Beleaguered Fortress.
function variantOf(view) {
  return JSON.parse(view.positionJson).variant || DEFAULT_VARIANT;
}

// The variant selector shows the variant of the position on show (a pasted one's too,
// added to the options when the server knows a variant the page does not).
function showVariant() {
  if (!boardOf().variants || !state.view) return;
  const name = variantOf(state.view);
  const select = $("variant");
  if (![...select.options].some((option) => option.value === name)) {
    select.append(el("option", {value: name, text: name}));
  }
  select.value = name;
}

function selectGame(game) {
  state.game = game;
  $("game").value = optionOf(game);
  const info = boardOf();
  $("variant-field").hidden = !info.variants;
  $("autoplay-field").hidden = !info.variants;
  $("table-field").hidden = !info.tables;
  $("players-field").hidden = !info.tables;
  $("deal-form").hidden = !info.input;
  $("deal-label").textContent = info.input || "";
  $("deal").value = state.seeds[game] ?? info.seed ?? "";
  $("load-example").textContent = info.example ? "Load example" : "Current position";
  $("paste").open = Boolean(info.paste);
  renderQuestions();
  renderRules();
}

// The rules of the game on show, one click away: for Beleaguered Fortress's other
// variants their family's page at their own section (its heading's anchor is the
// variant's name), the FreeCell family's for those whose built runs move as one move.
function renderRules() {
  const page = boardOf().rules;
  const variant = state.view && boardOf().variants ? variantOf(state.view) : DEFAULT_VARIANT;
  $("rules").hidden = !page;
  if (page) {
    const family = state.variants.get(variant)?.sequenceMoves === "by-free-cells"
      ? "freecell-family.md" : "castle-family.md";
    const name = variant === DEFAULT_VARIANT ? page : family;
    const section = variant === DEFAULT_VARIANT ? "" : `#${variant}`;
    $("rules").href = `rules.html?page=${name}${section}`;
    $("rules").title = `the rules: docs/${name}`;
  }
}

// Deal N of the game (and variant) chosen, then auto-play's moves where it is on; or
// `replay`'s: the moves the address holds, and what it named that this server does not
// have.
function loadDeal(replay = null) {
  const seed = $("deal").value.trim();
  state.seeds[state.game] = seed;
  if (!/^\d+$/.test(seed)) {
    showError(`${boardOf().input.toLowerCase()} must be a whole number, not "${seed}"`);
    return;
  }
  // Beleaguered Fortress itself is dealt as it always was, without a variant
  const variant = boardOf().variants ? $("variant").value : DEFAULT_VARIANT;
  const request = {game: state.game, seed};
  if (variant !== DEFAULT_VARIANT) request.variant = variant;
  if (boardOf().tables) {
    request.variant = $("table").value;
    request.players = Number($("players").value);
  }
  run(async (current) => {
    const view = await rpc("Deal", request);
    if (!current()) return;
    reset(view);
    const dealt = boardOf().variants ? variantOf(view) : variant;
    state.dealt = {variant: boardOf().variants ? dealt : null, deal: BigInt(seed).toString()};
    render();
    if (dealt !== variant) {
      throw new Error(`asked for a deal of ${variant}, the server dealt one of ${dealt}: ` +
                      "it does not deal that variant");
    }
    let refused = replay?.problem ?? null;
    if (replay?.moves && !refused) {
      refused = await replayMoves(replay.moves, current);
    } else if (!replay?.moves && boardOf().variants && autoplayOn()) {
      await autoPlay(current);
    }
    if (!current()) return;
    render();
    if (refused) throw new Error(refused);
  }, true);
}

// Any game's position as JSON: the server checks and draws it (Play with no moves), or
// names every fault at once.
function loadPosition(text) {
  run(async (current) => {
    const view = await rpc("Play", {position: {json: withGame(text, state.game)}, moves: []});
    if (!current()) return;
    selectGame(view.game);
    reset(view);
    render();
  }, true);
}

function loadExample() {
  const example = boardOf().example;
  if (example) {
    $("position-text").value = example;
    loadPosition(example);
  } else if (state.view) {
    $("position-text").value = JSON.stringify(JSON.parse(state.view.positionJson), null, 1);
  }
}

// A pasted position without a "game" key is one of the game chosen in the selector: the
// key is added after its opening brace (past any leading comments, which a game's
// dialect may allow); any other text goes as it is, for the server to judge.
function withGame(text, game) {
  if (/"game"\s*:/.test(text)) return text;
  const opening = /^(\s*(?:\/\/[^\n]*\n\s*|\/\*[\s\S]*?\*\/\s*)*)\{(\s*)(\}?)/.exec(text);
  if (!opening) return text;
  const [whole, before, space, empty] = opening;
  return `${before}{${space}"game": ${JSON.stringify(game)}${empty ? "" : ", "}${empty}` +
    text.slice(whole.length);
}

// Whether a pasted text is a position of `game`: its "game" key names it.
function holdsGame(text, game) {
  const named = /"game"\s*:\s*"([^"]*)"/.exec(text);
  return named !== null && named[1] === game;
}

// Another game: its board stays empty until the server has answered for it. A game with
// an example loads the position pasted for it, else the example; any other deals (a game
// that deals none says so, and its position can be pasted: the paste box starts it): the
// deal the address asks for (`asked`), with its moves, as the page starts.
function startGame(game, asked = null) {
  selectGame(game);
  state.generation += 1;  // what was under way for the game before is dropped
  state.call = null;
  state.busy = false;
  reset(null);
  boardOf().prepare?.();
  const text = $("position-text").value;
  const example = boardOf().example;
  if (example) {
    $("position-text").value = holdsGame(text, game) ? text : example;
    loadPosition($("position-text").value);
  } else {
    if (boardOf().paste && !holdsGame(text, game)) {
      $("position-text").value = JSON.stringify({game}, null, 1);
    }
    loadDeal(asked && fromAddress(asked));
  }
  render();
}

// ------------------------------------------------------------------ the address

// The address holds the position on show: ?game=patience&variant=freecell&deal=617&
// moves=7H2.QSc0.AH*.JH5 (a pasted position: its game, and variant, alone). Each move
// is its card, then where it goes: a pile's number, "c" and a free cell's number, "f" the
// foundations, or "*" for a move home made by auto-play; the card's place before the move
// is where the board has it. Letters, digits, "*" and "." only: nothing to escape.
const TOKEN = /^([A2-9TJQK][CDHS])(\*|f|c\d{1,2}|\d{1,2})$/;

// What the address asks for, read as the page starts; null for an address without it.
function readAddress() {
  const params = new URLSearchParams(location.search);
  const [game, variant, deal, moves] = ["game", "variant", "deal", "moves"].map((key) =>
    params.get(key));
  return game === null && variant === null && deal === null ? null
    : {game, variant, deal, moves};
}

// The game the address names (a variant alone names Beleaguered Fortress's family); null
// when the server has none such, which `fromAddress` then says.
function askedGame(asked, names) {
  const name = asked.game ?? (asked.variant === null ? null
    : names.find((game) => BOARDS[game]?.variants));
  const found = names.find((game) => game === name || optionOf(game) === name);
  if (name !== null && !found) {
    asked.problem = `the address's game "${name}" is not one this server serves`;
  }
  return found ?? null;
}

// The address's deal and variant put in the form, for loadDeal; its moves to replay (null
// when it has none: a deal as dealt), and what it names that this server does not have.
function fromAddress(asked) {
  if (asked.deal !== null) $("deal").value = asked.deal;
  let problem = asked.problem ?? null;
  const variants = [...$("variant").options].map((option) => option.value);
  if (boardOf().variants && asked.variant !== null) {
    if (variants.includes(asked.variant)) $("variant").value = asked.variant;
    else problem ??= `the address's variant "${asked.variant}" is not one this server deals`;
  }
  return {moves: asked.moves ? asked.moves.split(".") : null, problem};
}

// The address's moves played one by one from the deal: the first that does not read or
// that the server refuses stops them, the position before it kept; its one line, or null.
async function replayMoves(tokens, current) {
  for (const [i, token] of tokens.entries()) {
    const which = `the address's move ${i + 1} of ${tokens.length}, "${token}"`;
    const move = moveOfToken(token, JSON.parse(state.view.positionJson));
    if (move === null) {
      return `${which}, is not a move: write a card and where it goes, as 7H2 (a pile), ` +
        "QSc0 (a free cell), AHf (the foundations) or AH* (home by auto-play)";
    }
    let view;
    try {
      view = await rpc("Play", {position: state.view.position, moves: [move.text]});
    } catch (error) {
      return `${which}, is refused: ${error.message}`;
    }
    if (!current()) return null;
    state.history.push({view: state.view, move: move.text, auto: move.auto});
    state.view = view;
  }
  return null;
}

// A move made (a history entry) as the address writes it.
function tokenOf(entry) {
  const [card, , target] = entry.move.split(/\s+/);
  if (entry.auto) return `${card}*`;
  if (target === "foundation") return `${card}f`;
  return card + (target.startsWith("cell:") ? `c${target.slice(5)}` : target.slice(8));
}

// An address's move as the server reads it, {text, auto}; null when it is none.
function moveOfToken(token, position) {
  const parts = TOKEN.exec(token);
  if (!parts) return null;
  const [, card, to] = parts;
  const target = to === "*" || to === "f" ? "foundation"
    : to.startsWith("c") ? `cell:${to.slice(1)}` : `tableau:${to}`;
  return {text: `${card} ${placeOf(card, position)} ${target}`, auto: to === "*"};
}

// Where a card is in a position's JSON: its pile, reserve slot or free cell, else home.
function placeOf(card, position) {
  const pile = position.tableau.findIndex((cards) => cards.includes(card));
  if (pile >= 0) return `tableau:${pile}`;
  const slot = (position.reserve || []).indexOf(card);
  if (slot >= 0) return `reserve:${slot}`;
  const cell = (position.cells || []).indexOf(card);
  return cell >= 0 ? `cell:${cell}` : "foundation";
}

// The address of the position on show, written in place (no new history entry).
function writeAddress() {
  if (!state.view || !state.game) return;
  const params = new URLSearchParams({game: state.game});
  const family = boardOf().variants;
  if (family) params.set("variant", variantOf(state.view));
  if (state.dealt) params.set("deal", state.dealt.deal);
  if (family && state.dealt && state.history.length) {
    params.set("moves", state.history.map(tokenOf).join("."));
  }
  const search = `?${params}`;
  if (location.search !== search) window.history.replaceState(null, "", search);
}

// ------------------------------------------------------------------ moves

function isOver(view) {
  return view !== null && view.winner !== undefined;
}

// A move, then (`follow`: one made by hand, where auto-play is on) the moves home the
// server's answer lists as safe.
async function playMove(move, current, follow = false) {
  const view = await rpc("Play", {position: state.view.position, moves: [move]});
  if (!current()) return;
  const from = state.history.length;
  state.history.push({view: state.view, move, auto: false});
  state.view = view;
  try {
    if (follow && boardOf().variants && autoplayOn()) await autoPlay(current);
  } finally {
    if (current()) moved(from);
  }
}

// Auto-play: the moves home the server listed with the position on show (safe_moves: what
// its solver plays at once, docs/castle-family.md 4.4), sent together.
async function autoPlay(current) {
  const moves = state.view.safeMoves || [];
  if (moves.length === 0) return;
  const view = await rpc("Play", {position: state.view.position, moves});
  if (!current()) return;
  moves.forEach((move, i) => state.history.push({view: i === 0 ? state.view : null, move,
                                                  auto: true}));
  state.view = view;
}

function autoplayOn() {
  return localStorage.getItem(AUTOPLAY_KEY) !== "off";
}

// The switch, remembered; turned on, it plays the safe moves of the position on show.
function switchAutoplay() {
  const on = $("autoplay").checked;
  localStorage.setItem(AUTOPLAY_KEY, on ? "on" : "off");
  if (!on || !state.view || !boardOf().variants) return;
  runMove(async (current) => {
    const from = state.history.length;
    await autoPlay(current);
    if (current() && state.history.length > from) moved(from);
  });
}

// Moves were made from history entry `from` on: nothing is left to redo, the solution
// stays on show only while they are its own, a deal they won is kept, and the board is
// drawn.
function moved(from) {
  state.redo = [];
  followSolution(from);
  recordWin();
  state.selected = null;
  state.hint = null;
  state.answer = null;
  render();
}

// Whether the moves made from history entry `from` on are the solution's next ones: each
// made by hand its move there, the automatic ones its moves there in any order (cards
// going home in another order reach the same position); if not, it no longer applies.
function followSolution(from) {
  const solution = state.solution;
  if (!solution) return;
  const entries = state.history.slice(from);
  const at = from - solution.start;
  const line = at < 0 ? [] : solution.moves.slice(at, at + entries.length);
  const sorted = (moves) => JSON.stringify([...moves].sort());
  const follows = line.length === entries.length
    && entries.every((entry, i) => entry.auto || entry.move === line[i])
    && sorted(entries.filter((entry) => entry.auto).map((entry) => entry.move))
       === sorted(line.filter((_, i) => entries[i].auto));
  if (!follows) state.solution = null;
}

async function playAction(action, current) {
  const view = await rpc("Play", {position: state.view.position, moves: [action],
                                  replies: true});
  if (!current()) return;
  state.log.push({who: "you", seat: state.seat, action});
  (view.replies || []).forEach((reply, i) => {
    state.log.push({who: "bot", seat: view.replySeats?.[i], action: reply});
  });
  state.history.push({view: state.view, move: action, auto: false});
  state.view = view;
  state.hint = null;
  render();
}

function nextSolutionMove() {
  const solution = state.solution;
  if (!solution) return null;
  const index = state.history.length - solution.start;
  return index >= 0 && index < solution.moves.length ? solution.moves[index] : null;
}

function next() {
  const move = nextSolutionMove();
  return move === null ? Promise.resolve(false) : run((current) => playMove(move, current));
}

// Undo (Previous, the left arrow, Ctrl+Z): the last move made by hand goes back, with the
// automatic moves after it.
function previous() {
  if (state.busy || state.history.length === 0) return;
  stopPlaying();
  const entries = [];
  do {
    entries.unshift(state.history.pop());
  } while (entries[0].auto && state.history.length > 0);
  state.redo.push({entries, view: state.view});
  state.view = entries[0].view;
  if (state.solution && state.history.length < state.solution.start) state.solution = null;
  shown();
}

// Redo (Ctrl+Y): the moves the last undo took back, made again.
function redo() {
  if (state.busy || state.redo.length === 0) return;
  stopPlaying();
  const {entries, view} = state.redo.pop();
  const from = state.history.length;
  state.history.push(...entries);
  state.view = view;
  followSolution(from);
  shown();
}

// Another position on show, from the moves made before: what was asked of the last goes.
function shown() {
  state.selected = null;
  state.hint = null;
  state.answer = null;
  showError("");
  render();
}

function togglePlay() {
  if (state.playing) {
    stopPlaying();
  } else if (nextSolutionMove() !== null) {
    state.playing = true;
    playStep();
  }
  renderControls();
}

async function playStep() {
  if (!state.playing) return;
  const ok = await next();
  if (state.playing && ok && nextSolutionMove() !== null) {
    state.timer = setTimeout(playStep, PLAY_INTERVAL_MS);
  } else {
    stopPlaying();
  }
}

function stopPlaying() {
  state.playing = false;
  clearTimeout(state.timer);
  state.timer = null;
  renderControls();
}

// An action button plays its move (a duel's with the bot's replies); any other click is
// the game's own.
function onBoardClick(event) {
  if (!state.view) return;
  const info = boardOf();
  const action = event.target.closest("[data-action]");
  if (action) {
    const play = info.duel ? playAction : playMove;
    if (!action.disabled) run((current) => play(action.dataset.action, current));
    return;
  }
  info.click?.(event);
}

// Beleaguered Fortress: a card, then where it goes. A card below its pile's top takes the
// run on it along (a sequence move, where the variant has them); a click on the selected
// card's own place picks the card clicked instead.
function onCardClick(event) {
  const card = event.target.closest("[data-card]");
  const target = event.target.closest("[data-target]");
  const selected = state.selected;
  if (selected && target && target.dataset.target !== selected.place) {
    playSelected(target.dataset.target);
  } else if (card && card.dataset.card !== selected?.card) {
    select(card);
    render();
  } else if (selected) {
    state.selected = null;
    render();
  }
}

// A card picked, by a click or a drag: its moves are graded, an old refusal goes.
function select(card) {
  state.selected = {card: card.dataset.card, place: card.dataset.place};
  showError("");
  gradeMoves();
}

// The selected card, with the run on it, to `target` as one move.
function playSelected(target) {
  const selected = state.selected;
  const move = `${selected.card} ${selected.place} ${target}`;
  runMove((current) => playMove(move, current, true)).then((ok) => {
    if (!ok && state.selected === selected) {  // refused: the reason stays on show
      state.selected = null;
      render();
    }
  });
}

// Beleaguered Fortress by drag and drop: a card with a legal move (markBeleaguered makes
// it draggable) is picked up as a click picks it, and dropped on its target as a click
// there plays it.
function onCardDragStart(event) {
  // a drag of selected text starts at a text node
  const card = event.target.closest?.('[data-card][draggable="true"]');
  if (!card) return;
  event.dataTransfer.effectAllowed = "move";
  event.dataTransfer.setData("text/plain", `${card.dataset.card} ${card.dataset.place}`);
  const carried = runOf(card);
  if (carried.length > 1) dragImage(event, carried);
  select(card);
  setTimeout(render);  // once the browser has its picture of what is dragged
}

function onCardDragOver(event) {
  if (state.selected && event.target.closest("[data-target]")) event.preventDefault();
}

function onCardDrop(event) {
  const target = event.target.closest("[data-target]");
  if (!state.selected || !target) return;
  event.preventDefault();
  if (target.dataset.target !== state.selected.place) playSelected(target.dataset.target);
}

// A dragged run under the pointer as on its pile: its cards fanned, the base card held
// where the pointer took it.
function dragImage(event, carried) {
  const image = el("div", {class: "drag-image", "aria-hidden": "true",
                           style: {"--cards": String(carried.length)}},
  carried.map((card, i) => cardFace(card.dataset.card, {style: {"--i": String(i)}})));
  carried[0].closest(".tableau").append(image);  // its cards as large as the piles'
  event.dataTransfer.setDragImage(image, event.offsetX, event.offsetY);
  setTimeout(() => image.remove());
}

// ------------------------------------------------------------------ hints and solutions

// `longer`: with BUDGET, where the board's hints are quick (a proof of the shortest line
// the default second did not find).
function hint(longer = false) {
  const quick = boardOf().quickHints && !longer;
  run(async (current) => {
    const answer = await rpc("Hint", {position: state.view.position,
                                      ...(quick ? {} : {budget: BUDGET})});
    if (!current()) return;
    state.hint = answer;
    boardOf().afterHint?.();
    render();
  });
}

function solve() {
  const solving = boardOf().solve;
  run(async (current) => {
    const request = {position: state.view.position, budget: BUDGET, ...solving.request};
    const answer = await rpc("Solve", request);
    if (!current()) return;
    solving.keep(answer);
    render();
  });
}

// Beleaguered Fortress: the optimal line, to walk with Next.
function keepSolution(answer) {
  state.solution = {moves: (answer.moves || []).map(moveText), start: state.history.length,
                    status: answer.status, optimal: answer.optimal,
                    lowerBound: answer.lowerBound};
}

// A game without a board of its own: one of its questions by name, asked through Solve;
// the answer is its JSON (answerJson), beside its status.
function ask(question) {
  run(async (current) => {
    const response = await rpc("Solve", {position: state.view.position, budget: BUDGET,
                                         questionOptions: {question}});
    if (!current()) return;
    state.answer = {question, response};
    render();
  });
}

function moveText(move) {
  return `${move.card} ${move.source} ${move.target}`;
}

// Beleaguered Fortress: every legal move of the position shown graded by the server, asked
// for once per position and without blocking; the board is drawn again when the grading
// arrives, if its position is still the one shown.
function gradeMoves() {
  const view = state.view;
  const key = view.positionJson;
  const known = state.gradings.get(key);
  if ((known && !known.error) || isOver(view) || !(view.legalMoves || []).length) return;
  const grading = {moves: null, error: null};
  state.gradings.set(key, grading);
  rpc("Hint", {position: view.position, beleaguered: {allMoves: true}})
    .then((answer) => {
      grading.moves = new Map((answer.allMoves || []).map((graded) => [moveText(graded.move),
        graded]));
    }, (error) => {
      grading.error = error.message;
    })
    .then(() => {
      if (state.view && state.view.positionJson === key) render();
    });
}

// ------------------------------------------------------------------ drawing: shared

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "text") node.textContent = value;
    else if (key === "class") node.className = value;
    // the CSS object model: the page's Content-Security-Policy refuses style attributes
    else if (key === "style") {
      for (const [name, set] of Object.entries(value)) node.style.setProperty(name, set);
    } else node.setAttribute(key, value === true ? "" : value);
  }
  node.append(...children.flat().filter((child) => child !== null && child !== undefined));
  return node;
}

function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

function render() {
  const board = $("board");
  const info = boardOf();
  board.replaceChildren();
  board.className = `board board-${state.game}${info === GENERIC ? " board-generic" : ""}`;
  if (state.view) info.draw(board);
  showVariant();
  renderWon();
  writeAddress();
  renderRules();
  renderHint();
  renderSolution();
  renderAnswer();
  renderLog();
  renderControls();
}

function statusText() {
  const view = state.view;
  if (!view) return state.busy ? "loading…" : "no game loaded";
  return boardOf().status(view);
}

// How many moves were made, and how many of them by auto-play.
function beleagueredStatus(view) {
  const made = plural(state.history.length, "move");
  const automatic = state.history.filter((entry) => entry.auto).length;
  const auto = automatic ? ` (${automatic} automatic)` : "";
  if (isOver(view)) return `won in ${made}${auto}`;
  if ((view.legalMoves || []).length === 0) {
    return `stuck: ${made} made${auto}, no legal move left`;
  }
  return `playing: ${made} made${auto}`;
}

// The deals won in this browser, per variant: {variant: [deal numbers as text]}.
function wonDeals() {
  try {
    const kept = JSON.parse(localStorage.getItem(WON_KEY) || "{}");
    return kept && typeof kept === "object" && !Array.isArray(kept) ? kept : {};
  } catch {
    return {};  // not ours to read: written anew by the next win
  }
}

// A numbered deal of the family won by a move made here (not opened won from an address):
// kept once, its variant's deals in order.
function recordWin() {
  const dealt = state.dealt;
  if (!dealt || !boardOf().variants || !isOver(state.view)) return;
  const won = wonDeals();
  const deals = Array.isArray(won[dealt.variant]) ? won[dealt.variant] : [];
  if (deals.includes(dealt.deal)) return;
  won[dealt.variant] = [...deals, dealt.deal].sort((a, b) =>
    a.length - b.length || (a < b ? -1 : a > b ? 1 : 0));
  localStorage.setItem(WON_KEY, JSON.stringify(won));
}

// The deals of the variant on show won in this browser: "won: deals 5, 617 (2)".
function renderWon() {
  const line = $("won");
  const variant = boardOf().variants && state.view ? variantOf(state.view) : null;
  const deals = variant === null ? [] : wonDeals()[variant] || [];
  line.hidden = deals.length === 0;
  if (line.hidden) return;
  const listed = deals.length > 12 ? [...deals.slice(0, 10), "…", deals.at(-1)] : deals;
  line.textContent = `won: ${deals.length === 1 ? "deal" : "deals"} ${listed.join(", ")} ` +
    `(${deals.length})`;
  line.title = `the deals of ${$("variant").selectedOptions[0]?.text ?? variant} won in ` +
    "this browser";
}

function ffkStatus(view) {
  const position = JSON.parse(view.positionJson);
  return duelStatus(view, ` (round ${position.round})`,
                    `, ${plural(position.actions_left, "action")} left`);
}

// A duel's status: `round` follows its outcome (and why it was won, when the server
// says) and the turn, `left` the person's turn.
function duelStatus(view, round, left) {
  if (isOver(view)) {
    const why = view.winReason ? `: ${view.winReason}` : "";
    return view.winner === state.seat ? `won: you beat the greedy bot${round}${why}`
      : `lost: the bot (seat ${view.winner}) won${round}${why}`;
  }
  if (view.toMove === state.seat) return `your turn${round}${left}`;
  return `seat ${view.toMove} to move`;
}

// The status line and the buttons, drawn again whenever a call starts or ends.
function renderControls() {
  $("status").textContent = statusText();
  const view = state.view;
  const info = boardOf();
  const idle = !state.busy && view !== null;
  $("hint").hidden = !info.hint;
  $("hint").disabled = !idle || (!info.hintsOver && isOver(view));
  $("solve").hidden = !info.solve;
  $("solve").disabled = !idle || state.playing;
  for (const id of ["prev", "next", "play"]) $(id).hidden = !info.steps;
  $("prev").disabled = !idle || state.history.length === 0;
  $("next").disabled = !idle || state.playing || nextSolutionMove() === null;
  $("play").disabled = !state.playing && (!idle || nextSolutionMove() === null);
  $("play").textContent = state.playing ? "Pause" : "Play";
  for (const button of document.querySelectorAll("[data-action], [data-question]")) {
    button.disabled = !idle;
  }
  document.body.classList.toggle("busy", state.busy);
}

function renderHint() {
  const panel = $("hint-panel");
  const answer = state.hint;
  panel.hidden = !answer;
  const more = $("hint-more");
  more.replaceChildren();
  if (!answer) return;
  $("hint-facts").hidden = true;  // Beleaguered Fortress's moves left and winnable
  boardOf().hint(answer, more);
}

// A line not proven optimal: "wins in at most N (at least M)", M the proven lower bound.
function atMost(moves, atLeast) {
  return `wins in at most ${plural(moves, "move")}` +
    `${atLeast === undefined ? "" : ` (at least ${atLeast})`}`;
}

function renderBeleagueredHint(answer, more) {
  const move = answer.move;
  const bounded = answer.optimal === false && answer.movesLeft !== undefined;
  $("hint-facts").hidden = false;
  $("moves-left-fact").hidden = bounded;
  $("bound").hidden = !bounded;
  $("bound").textContent = bounded ? atMost(answer.movesLeft, answer.atLeast) : "";
  if (bounded) more.append(longerHint("Not proven shortest in the budget", "for the proof"));
  else if (answer.status === "STATUS_UNKNOWN") more.append(longerHint("No line in the budget",
                                                                      "for one"));
  $("hint-move").textContent = move ? hintedMove(move)
    : isOver(state.view) ? "none: the game is won"
      : answer.status === "STATUS_UNSOLVABLE" ? "none: no move wins from here"
        : "unknown: the budget ran out first";
  $("moves-left").textContent = answer.movesLeft ?? "—";
  $("winnable").textContent = answer.winnable === true ? "winnable"
    : answer.winnable === false ? "not winnable" : "unknown";
  $("winnable").className = `fact ${answer.winnable === true ? "good"
    : answer.winnable === false ? "bad" : ""}`;
}

// A hinted move; a run's with its cards and how many they are (the move's `cards`, 1 for
// a single card): "JH tableau:3 → tableau:5 (3 cards: JH TC 9H)".
function hintedMove(move) {
  const text = `${move.card} ${move.source} → ${move.target}`;
  const cards = move.cards ?? 1;
  if (cards < 2) return text;
  const pile = JSON.parse(state.view.positionJson).tableau[Number(move.source.slice(8))] || [];
  return `${text} (${cards} cards: ${pile.slice(-cards).join(" ")})`;
}

// A hint not proven (a quick one has the server's default second): the button that asks
// again with BUDGET, which buys the proof.
function longerHint(said, buys) {
  const button = el("button", {type: "button", "data-testid": "hint-longer",
                               text: `Search ${BUDGET.seconds} s`});
  button.disabled = state.busy;
  button.addEventListener("click", () => hint(true));
  return el("p", {class: "longer"}, `${said}: `, button, ` ${buys}.`);
}

// A duel hint's chance of winning with its action (0 to 1; undefined when the hint gives
// none) as a person reads it; `wins`: proven to win this turn.
function chanceText(chance, wins, short = false) {
  if (wins) return short ? "wins" : "wins this turn";
  if (chance === undefined || chance === null) return "";
  const percent = `${Math.round(chance * 100)} %`;
  return short ? percent : `chance of winning ${percent}`;
}

function renderDuelHint(duel, more) {
  const move = $("hint-move");
  move.textContent = duel.action ? actionText(duel.action) : "unknown: the budget ran out";
  if (duel.action) move.dataset.move = duel.action;  // as the server writes it
  else delete move.dataset.move;
  const chance = chanceText(boardOf().chance(duel), duel.wins);
  if (chance) {
    more.append(el("p", {class: `chance${duel.wins ? " proven" : ""}`, "data-testid": "chance"},
      chance, duel.wins ? null : el("small", {class: "estimated", text: " (estimated)"})));
  }
  const line = duel.wins && (duel.chain || []).length ? duel.chain : duel.plan || [];
  if (line.length > 1) {
    more.append(el("p", {class: "plan", "data-testid": "plan",
      text: `${duel.wins ? "the win" : "the whole turn"}: ${line.map(actionText).join(", ")}`}));
  }
  const runners = duel.runnersUp || [];
  more.append(el("h3", {text: runners.length ? "runners-up" : "no runners-up"}));
  if (runners.length) {
    more.append(el("table", {class: "runners", "data-testid": "runners-up"},
      runners.map((r, i) => el("tr", {},
        el("td", {class: "rank", text: `${i + 2}.`}),
        el("td", {class: "mono", "data-move": r.action, text: actionText(r.action)}),
        // a runner-up's chance is always sent, and proto JSON leaves out a 0
        el("td", {class: "value", text: chanceText(boardOf().chance(r) ?? 0, r.wins, true)})))));
  }
}

function renderSolution() {
  const list = $("solution-moves");
  list.replaceChildren();
  const drawn = boardOf().solution?.(list) ?? false;
  numberWidth(list);
  $("solution-panel").hidden = !drawn;
  const current = list.querySelector(".current");
  if (current) list.scrollTop = current.offsetTop - list.clientHeight / 2;
}

// Beleaguered Fortress: the line Solve found, the moves played so far struck through.
function solutionLine(list) {
  const solution = state.solution;
  if (!solution) return false;
  const summary = {
    STATUS_SOLVED: solution.optimal
      ? `optimal solution: ${plural(solution.moves.length, "move")}`
      : `a solution: ${atMost(solution.moves.length, solution.lowerBound)}`,
    STATUS_UNSOLVABLE: "no solution: this position cannot be won",
  }[solution.status] || "unknown: the budget ran out first";
  const index = state.history.length - solution.start;
  $("solution-summary").textContent = solution.status === "STATUS_SOLVED"
    ? `${summary}, ${Math.min(index, solution.moves.length)} played` : summary;
  solution.moves.forEach((move, i) => {
    const cls = i < index ? "done" : i === index ? "current" : "";
    list.append(el("li", {class: cls, text: move}));
  });
  return true;
}

// A numbered list as wide on the left as its last number (CSS: --digits), so that no
// number loses a digit.
function numberWidth(list) {
  list.style.setProperty("--digits", String(String(list.children.length).length));
}

// A bot by its seat where the duel has several ("bot 2"), else "bot".
function botName(seat) {
  const seats = boardOf().seats?.(JSON.parse(state.view.positionJson)) ?? 2;
  return seats > 2 && seat !== undefined ? `bot ${seat}` : "bot";
}

function renderLog() {
  $("log-panel").hidden = !boardOf().duel || state.log.length === 0;
  const log = $("log");
  log.replaceChildren(...state.log.map((entry) =>
    el("li", {class: entry.who, title: entry.seat === undefined ? null : `seat ${entry.seat}`},
       el("b", {text: entry.who === "you" ? "you" : botName(entry.seat)}),
       ` ${actionText(entry.action)}`)));
  numberWidth(log);
  log.scrollTop = log.scrollHeight;
}

// The legal actions of the duels as buttons: plays first, then the rest; ffk's many
// discards of two or three cards fold away.
function actionButtons(moves, hinted) {
  const button = (move) => el("button", {
    type: "button", class: `action ${actionClass(move)}${move === hinted ? " hinted" : ""}`,
    "data-testid": "action", "data-action": move, text: actionText(move),
    disabled: state.busy});
  const plays = moves.filter((m) => m.startsWith("play "));
  const discards = moves.filter((m) => m.startsWith("discard "));
  const single = discards.filter((m) => m.split(" ").length === 2);
  const several = discards.filter((m) => m.split(" ").length > 2);
  const others = moves.filter((m) => !plays.includes(m) && !discards.includes(m));
  const panel = el("section", {class: "actions", "aria-label": "your actions"},
    el("h3", {text: moves.length ? "Your actions" : "No actions"}),
    el("div", {class: "row"}, plays.map(button), others.map(button)));
  if (single.length) panel.append(el("div", {class: "row"}, single.map(button)));
  if (several.length) {
    panel.append(el("details", {class: "more", open: several.includes(hinted)},
      el("summary", {text: `discard two or three cards (${several.length})`}),
      el("div", {class: "row"}, several.map(button))));
  }
  return panel;
}

function actionClass(move) {
  const words = move.split(" ");
  return boardOf().actionClass?.(words) ?? words[0];
}

// ------------------------------------------------------------------ Beleaguered Fortress

const RANKS = "A23456789TJQK";
const SUITS = {C: "♣", D: "♦", H: "♥", S: "♠"};
const SUIT_NAMES = {C: "clubs", D: "diamonds", H: "hearts", S: "spades"};

// The position's own layout: its piles, its reserve and its free cells where its variant
// has them (the JSON has "reserve" and "cells" keys only then).
function renderBeleaguered(board) {
  const position = JSON.parse(state.view.positionJson);
  board.append(
    el("div", {class: "bf-top"},
      position.reserve ? reserveEl(position.reserve) : null,
      position.cells ? cellsEl(position.cells) : null,
      foundationsEl(position.foundations)),
    legendEl(),
    tableauEl(position.tableau, kingsOnly(position)),
    el("details", {class: "picture"}, el("summary", {text: "as text"}),
      el("pre", {text: state.view.picture})));
  markBeleaguered(board);
}

// The empty piles that take only a king (as in Eight Off), by the variant's rules as the
// server's GameInfo sends them.
function kingsOnly(position) {
  const rules = state.variants.get(position.variant || DEFAULT_VARIANT);
  if (rules?.empty !== "kings") return new Set();
  return new Set(position.tableau.flatMap((pile, i) => (pile.length === 0 ? [i] : [])));
}

// Eight piles as ever; more sit closer (ten fit beside the side panel), and more than ten
// on narrower cards. `kings`: the empty piles that take only a king.
function tableauEl(piles, kings) {
  const count = piles.length;
  const cls = count === 8 ? "tableau" : `tableau piles${count > 8 ? " wide" : ""}${
    count > 10 ? " many" : ""}`;
  return el("div", {class: cls, "data-piles": String(count),
                    style: count === 8 ? null : {"--piles": String(Math.max(count, 1))}},
  piles.map((cards, i) => pileEl(cards, i, kings.has(i))));
}

// A card's face, named as a person reads it ("10 of clubs").
function cardFace(card, attrs = {}) {
  const rank = card[0] === "T" ? "10" : card[0];
  const suit = card[1];
  return el("div", {class: `card ${suit === "H" || suit === "D" ? "red" : "black"}`,
                    "aria-label": `${rank} of ${SUIT_NAMES[suit]}`, ...attrs},
  el("span", {class: "corner"}, el("b", {text: rank}), SUITS[suit]),
  el("span", {class: "pip", text: SUITS[suit]}));
}

function cardEl(card, place) {
  return cardFace(card, {"data-card": card, "data-place": place, role: "button", tabindex: "0",
                         title: `${card} (${place})`});
}

const KINGS_ONLY = "only a king may fill this pile";

function pileEl(cards, index, kings) {
  const place = `tableau:${index}`;
  const pile = el("div", {class: "pile", "data-target": place,
                          style: {"--cards": String(Math.max(cards.length, 1))}},
  el("span", {class: "label", text: String(index)}));
  if (cards.length === 0) {
    pile.append(kings
      ? el("div", {class: "slot kings", tabindex: "0", "data-testid": "kings-only",
                   title: KINGS_ONLY, "aria-label": KINGS_ONLY, text: "K"})
      : el("div", {class: "slot", tabindex: "0", text: "empty"}));
  }
  cards.forEach((card, i) => {
    const node = cardEl(card, place);
    node.style.setProperty("--i", String(i));  // its place in the fan (CSS: --fan)
    pile.append(node);
  });
  return pile;
}

function reserveEl(reserve) {
  return el("section", {class: "reserve", "aria-label": "reserve"},
    el("h3", {text: "Reserve"}),
    el("div", {class: "slots"}, reserve.map((card, slot) => card
      ? cardEl(card, `reserve:${slot}`)
      : el("div", {class: "slot", title: `reserve:${slot}`, text: String(slot)}))));
}

// Free cells: one card each, any card enters; each cell is a target of its own.
function cellsEl(cells) {
  return el("section", {class: "cells", "aria-label": "free cells", "data-testid": "cells"},
    el("h3", {text: "Free cells"}),
    el("div", {class: "slots"}, cells.map((card, k) => {
      const place = `cell:${k}`;
      return el("div", {class: "cell", "data-target": place, title: place},
        card ? cardEl(card, place)
          : el("div", {class: "slot", tabindex: "0", text: `cell ${k}`}));
    })));
}

function foundationsEl(foundations) {
  return el("section", {class: "foundations", "data-target": "foundation",
                        "aria-label": "foundations"},
  el("h3", {text: "Foundations"}),
  el("div", {class: "slots"}, Object.keys(SUITS).map((suit) => {
    const height = foundations[suit] || 0;
    const top = height > 0 ? cardEl(RANKS[height - 1] + suit, "foundation")
      : el("div", {class: `slot suit ${suit === "H" || suit === "D" ? "red" : "black"}`,
                   tabindex: "0", text: SUITS[suit]});
    return el("div", {class: "home", "data-suit": suit}, top);
  })));
}

// The cards that may move (draggable); the selected card, the run it carries and where
// it may go, each target graded once the server has; the hinted card (or run) and its
// target.
function markBeleaguered(board) {
  const cardNode = (card) => board.querySelector(`[data-card="${card}"]`);
  const targetNode = (target, card) => (target === "foundation"
    ? board.querySelector(`.home[data-suit="${card[1]}"]`)
    : board.querySelector(`[data-target="${target}"]`));
  const legal = state.view.legalMoves || [];
  for (const move of legal) cardNode(move.split(" ")[0])?.setAttribute("draggable", "true");
  const selected = state.selected;
  const picked = selected && cardNode(selected.card);
  if (picked) {
    picked.classList.add("selected");
    const prefix = `${selected.card} ${selected.place} `;
    const moves = legal.filter((move) => move.startsWith(prefix));
    // only a legal sequence move carries the cards on it
    if (moves.length) runOf(picked).slice(1).forEach((node) => node.classList.add("carried"));
    const graded = currentGrading()?.moves;
    for (const move of moves) {
      const node = targetNode(move.slice(prefix.length), selected.card);
      if (!node) continue;
      node.classList.add("legal-target");
      if (graded?.has(move)) gradeTarget(node, move, graded.get(move));
    }
  }
  const move = state.hint && state.hint.move;
  if (move) {
    const hinted = cardNode(move.card);
    if (hinted) runOf(hinted).forEach((node) => node.classList.add("hinted"));
    targetNode(move.target, move.card)?.classList.add("hint-target");
  }
}

// A tableau card and the cards on it, up to its pile's top; any other card alone.
function runOf(card) {
  if (!card.dataset.place.startsWith("tableau:")) return [card];
  const cards = [...card.parentElement.querySelectorAll("[data-card]")];
  return cards.slice(cards.indexOf(card));
}

function currentGrading() {
  return state.gradings.get(state.view.positionJson);
}

const OUTCOMES = {MOVE_OUTCOME_WINS: "wins", MOVE_OUTCOME_LOSES: "loses"};

// A target coloured by what its move leads to, with a badge: N when it still wins in N,
// ✓ when it wins in a number of moves not known (a line found, not proven shortest).
function gradeTarget(node, move, graded) {
  const outcome = OUTCOMES[graded.outcome] || "unknown";
  const left = outcome === "wins" ? graded.movesLeft : undefined;
  node.classList.add("graded", `grade-${outcome}`);
  node.dataset.testid = "target-grade";
  node.dataset.outcome = outcome;
  node.dataset.move = move;
  if (left !== undefined) node.dataset.movesLeft = left;
  const [said, badge] = {
    wins: left === undefined ? ["wins", "✓"] : [`wins in ${left}`, left],
    loses: ["loses", "✕"],
  }[outcome] ?? ["unknown: the budget ran out", "?"];
  node.title = `${move}: ${said}`;
  node.append(el("span", {class: "grade-badge", "aria-hidden": "true", text: badge}));
}

// What the targets' colours mean, and how the grading of this position is going.
function legendEl() {
  const grading = state.selected && currentGrading();
  const note = !grading || grading.moves ? ""
    : grading.error ? `no grading: ${grading.error}` : "grading the moves…";
  const key = (outcome, text) => el("span", {class: `key grade-${outcome}`}, text);
  return el("p", {class: "legend", "data-testid": "legend"},
    "A selected card's targets: ", key("wins", "wins in N moves"), key("loses", "loses"),
    key("unknown", "unknown"),
    note ? el("span", {class: "grading", "data-testid": "grading", text: note}) : null);
}

// ------------------------------------------------------------------ Fortress Fight Kingdom

// The resources by their letters (docs/fortress-fight-kingdom.md, §0): the name, the
// rules' German word, the producer that makes them and how many each makes a turn.
const STOCKS = [["Z", "bricks", "Ziegel", "builders", 1],
  ["W", "weapons", "Waffen", "soldiers", 1], ["K", "crystals", "Kristalle", "mages", 1],
  ["G", "gold", null, "markets", 2]];
// each letter's tooltip: "Z: bricks (Ziegel), made by builders"
const STOCK_NAMES = new Map(STOCKS.map(([key, name, german, producer]) =>
  [key, `${key}: ${name}${german ? ` (${german})` : ""}, made by ${producer}`]));

function renderFfk(board) {
  const position = JSON.parse(state.view.positionJson);
  const me = state.seat;
  const hinted = state.hint && state.hint.ffk && state.hint.ffk.action;
  const plays = ffkPlays();
  const deck = position.deck ? position.deck.length : position.deck_size ?? 0;
  const top = position.discard[position.discard.length - 1];
  board.append(...[
    ffkPlayerEl(position, 1 - me, null),
    el("section", {class: "table-info"},
      el("span", {text: `round ${position.round}`}),
      el("span", {text: `deck: ${plural(deck, "card")}`}),
      el("span", {}, `discard: ${plural(position.discard.length, "card")}`,
         top ? el("span", {class: "ffk-card small", text: cardName(top)}) : null),
      replyEl(), stockLegendEl()),
    ffkPlayerEl(position, me, plays),
    yourActions(hinted),
  ].filter(Boolean));
}

// The person's plays: card id -> its one legal move ("play ID"), or null for a card
// played in several ways (Blockade's card types: its buttons say which).
function ffkPlays() {
  const plays = new Map();
  for (const move of state.view.legalMoves || []) {
    if (!move.startsWith("play ")) continue;
    const card = move.slice(5).split(":")[0];
    plays.set(card, plays.has(card) ? null : move);
  }
  return plays;
}

// Fortress Fight Kingdom's card table, asked of the server once (CARD_TABLE); until it
// has come the cards show their ids.
function loadCardTable() {
  if (state.cardTableAsked) return;
  state.cardTableAsked = true;
  fetch(CARD_TABLE)
    .then((response) => (response.ok ? response.json()
      : Promise.reject(new Error(`the card table: HTTP ${response.status}`))))
    .then((table) => {
      state.cardTable = table;
      render();
    }, (error) => {
      state.cardTableAsked = false;
      showError(`cannot read the card table: ${error.message}`);
    });
}

function cardName(id) {
  return state.cardTable?.cards[id]?.name ?? id;
}

// An action in the rules' names: "play Flinker Bote", "play Blockade: magie",
// "discard Angriff, Turm".
function ffkActionText(move) {
  const [verb, ...cards] = move.split(" ");
  const named = cards.map((word) => {
    const [card, choice] = word.split(":");
    return choice ? `${cardName(card)}: ${choice}` : cardName(card);
  });
  return named.length ? `${verb} ${named.join(", ")}` : move;
}

function actionText(move) {
  return boardOf().actionText?.(move) ?? move;
}

// What a card costs this player now: its price in the table, and a producer's
// surcharge for the producer cards played so far.
function cardCost(card, player) {
  const surcharge = state.cardTable.surcharge;
  const played = player.producers_played || {};
  const count = surcharge.scope === "per_type" ? played[card.producer] || 0
    : Object.values(played).reduce((sum, n) => sum + n, 0);
  const extra = card.producer ? surcharge.step * count : 0;
  return Object.entries(card.cost).map(([stock, amount]) => [stock, amount + extra]);
}

// A card of the hand: its name, cost and effect, from the card table; a card with one
// way to play it is played by a click.
function ffkCardEl(id, player, plays) {
  const card = state.cardTable?.cards[id];
  const move = plays.get(id);
  const playable = plays.has(id);
  const hinted = state.hint?.ffk?.action;
  const cls = `ffk-card${playable ? " playable" : ""}${card ? ` hand-card type-${card.type}` : ""}${
    hinted && (hinted === move || hinted.startsWith(`play ${id}:`)) ? " hinted" : ""}`;
  if (!card) return el("span", {class: cls, text: id});
  const clickable = move ? {"data-play": move, role: "button", tabindex: "0",
                            title: `${move}${card.notes.length ? `; ${card.notes.join("; ")}` : ""}`}
    : {title: card.notes.join("; ") || null};
  return el("div", {class: cls, "data-testid": "card", "data-card": id, ...clickable},
    el("span", {class: "card-head"},
      el("b", {class: "card-name", "data-testid": "card-name", text: card.name}),
      el("span", {class: "card-cost", "data-testid": "card-cost"},
        cardCost(card, player).map(([stock, amount]) =>
          el("span", {class: `stock stock-${stock}`, title: `costs ${STOCK_NAMES.get(stock)}`},
             el("b", {text: stock}), ` ${amount}`)))),
    el("span", {class: "card-effect", "data-testid": "card-effect", text: card.effect}),
    card.notes.length ? el("small", {class: "card-notes", text: card.notes.join(" · ")}) : null);
}

// A click on a hand card with one way to play it plays it, as its button would.
function onFfkCardClick(event) {
  const card = event.target.closest("[data-play]");
  if (card) run((current) => playAction(card.dataset.play, current));
}

// The person's seat shows its hand (`plays`: the cards it may play); the others only
// how many cards they hold.
function ffkPlayerEl(position, seat, plays) {
  const player = position.players[seat];
  const handSize = player.hand ? player.hand.length : player.hand_size ?? 9;
  const effects = [
    player.shields ? `${plural(player.shields, "shield")}` : null,
    player.guards ? `${plural(player.guards, "guard")}` : null,
    player.double_next ? "next card acts twice" : null,
    player.locked ? `may not play ${player.locked}` : null,
    ...(player.poison || []).map((t) => `poison ${t.per} × ${t.ticks}`),
    ...(player.heal || []).map((t) => `heal ${t.per} × ${t.ticks}`),
  ].filter(Boolean);
  const hand = plays
    ? el("div", {class: "hand ffk-hand", "data-testid": "hand"},
      player.hand.map((card) => ffkCardEl(card, player, plays)))
    : hiddenHandEl(handSize);
  return seatEl(seat, position,
    el("div", {class: "meters"},
      meterEl("castle", player.castle, 100), meterEl("wall", player.wall, 100)),
    el("div", {class: "stocks"}, STOCKS.map(([key, , , producer, per]) =>
      el("span", {class: `stock stock-${key}`, title: STOCK_NAMES.get(key)},
        el("b", {text: key}), ` ${player[key]} `,
        el("small", {text: `+${per * player[producer]} (${player[producer]} ${producer})`})))),
    effects.length ? el("div", {class: "effects", text: effects.join(" · ")}) : null,
    hand);
}

// What the resources' letters stand for, a letter and its name each.
function stockLegendEl() {
  return el("p", {class: "stock-legend", "data-testid": "stock-legend"},
    STOCKS.map(([key, name]) => el("span", {class: `stock stock-${key}`,
                                            title: STOCK_NAMES.get(key)},
    el("b", {text: key}), ` ${name}`)));
}

// A seat's panel: who it is, whether it is to move or has won, then `parts`.
function seatEl(seat, position, ...parts) {
  const toMove = position.to_move === seat && !isOver(state.view);
  const name = seat === state.seat ? `You (seat ${seat})` : `Greedy bot (seat ${seat})`;
  return el("section", {class: `player${toMove ? " to-move" : ""}`},
    el("h3", {}, name, toMove ? el("span", {class: "badge", text: "to move"}) : null,
       position.winner === seat ? el("span", {class: "badge win", text: "winner",
                                              title: state.view.winReason || null}) : null),
    ...parts);
}

function hiddenHandEl(size) {
  return el("div", {class: "hand", "data-testid": "opponent-hand"},
    el("span", {class: "count", text: `hand: ${plural(size, "card")}`}),
    Array.from({length: size}, () => el("span", {class: "back"})));
}

function yourActions(hinted) {
  const view = state.view;
  return isOver(view) || view.toMove !== state.seat ? null
    : actionButtons(view.legalMoves || [], hinted);
}

function meterEl(label, value, full) {
  const width = Math.min(100, (100 * value) / full);
  return el("div", {class: `meter meter-${label}`},
    el("span", {class: "meter-label", text: `${label} ${value}`}),
    el("span", {class: "meter-bar"}, el("span", {style: {width: `${width}%`}})));
}

// The bots' last replies, each bot's in a run of its own.
function replyEl() {
  const replies = state.view.replies || [];
  if (!replies.length) return null;
  const runs = [];
  replies.forEach((reply, i) => {
    const name = botName(state.view.replySeats?.[i]);
    if (runs.at(-1)?.name !== name) runs.push({name, actions: []});
    runs.at(-1).actions.push(actionText(reply));
  });
  return el("span", {class: "replies", "data-testid": "replies"},
    runs.map((run) => `${run.name} replied: ${run.actions.join(", ")}`).join("; "));
}

// ------------------------------------------------------------------ Farbduell

const FD_RANKS = {draw1: "+1", draw2: "+2", draw4: "+4", draw5: "+5", skip: "⊘",
  reverse: "⇄", joker: "★", bomb: "💣"};

function fdFace(card) {
  const dash = card.indexOf("-");
  return dash < 0 ? {colour: "wild", rank: card}
    : {colour: card.slice(0, dash), rank: card.slice(dash + 1)};
}

function fdCardEl(card, side = "day", size = "") {
  const faces = card.split("/");
  const shown = fdFace(side === "night" && faces[1] ? faces[1] : faces[0]);
  const other = faces.length > 1 ? (side === "night" ? faces[0] : faces[1]) : null;
  return el("span", {class: `fd-card fd-${shown.colour} ${size}`, title: card},
    el("b", {text: FD_RANKS[shown.rank] || shown.rank}),
    el("small", {text: FD_RANKS[shown.rank] ? shown.rank : shown.colour}),
    other ? el("small", {class: "other-face", text: other}) : null);
}

// A table's name as the rules spell it (Farbduell's GameInfo.variants).
function tableTitle(name) {
  const tables = state.games?.get("farbduell")?.variants || [];
  return tables.find((t) => t.name === name)?.title ?? name;
}

function fdActionClass(words) {
  if (words[0] !== "play") return words[0];
  return `fd-${words.length > 2 ? words[words.length - 1] : fdFace(words[1]).colour}`;
}

function renderFarbduell(board) {
  const position = JSON.parse(state.view.positionJson);
  const side = position.side || "day";
  const hinted = state.hint && state.hint.farbduell && state.hint.farbduell.action;
  const top = position.discard[position.discard.length - 1];
  const others = position.hands.map((hand, seat) => (seat === state.seat ? null
    : seatEl(seat, position, hiddenHandEl(hand.length), shieldsEl(position, seat))));
  const pile = el("section", {class: "table-info fd-table"},
    el("span", {class: "pile-top"}, "pile ", top ? fdCardEl(top, side, "big") : "empty"),
    el("span", {}, "colour in force ",
       el("b", {class: `swatch fd-${position.colour || "wild"}`, text: position.colour || "none"})),
    el("span", {text: `draw pile: ${plural((position.draw_pile || []).length, "card")}`}),
    el("span", {text: `direction ${position.direction === -1 ? "↺" : "↻"}`}),
    el("span", {text: `${tableTitle(position.table)}${position.table === "tag_nacht"
      ? `, ${side}` : ""}`}),
    position.pending ? el("span", {class: "warn",
      text: `${position.pending} waiting (${position.pending_kind})`}) : null,
    position.fuse ? el("span", {class: "warn",
      text: `bomb fuse: ${position.fuse.count} handovers, BOOM deals ${position.fuse.size}`})
      : null,
    position.clock ? el("span", {text: `clock: ${position.clock.count} handovers`}) : null,
    position.hunt_colour ? el("span", {text: `hunt: ${position.hunt_colour}`}) : null,
    replyEl());
  const me = seatEl(state.seat, position,
    el("div", {class: "hand", "data-testid": "hand"},
      position.hands[state.seat].map((card) => fdCardEl(card, side))),
    position.drawn ? el("p", {}, "drawn: ", fdCardEl(position.drawn, side)) : null,
    shieldsEl(position, state.seat));
  board.append(...[el("div", {class: "opponents"}, others), pile, me,
    yourActions(hinted)].filter(Boolean));
}

function shieldsEl(position, seat) {
  const shields = (position.shields || [])[seat];
  return shields ? el("p", {class: "effects", text: plural(shields, "shield")}) : null;
}

// ------------------------------------------------------------------ Stronghold

const ROWS = [["S", "Stronghold"], ["I", "Inner Defense"], ["O", "Outer Defense"]];

// From the server's normalised JSON (PlayResponse.position_json): every field is there.
function strongholdFacts(position) {
  const order = position.turn_order;
  const removed = new Set(position.removed);
  const active = ["O", "I", "S"].find((row) => position.grid[row].some((b) => !removed.has(b)));
  return {removed, active, mover: order[(position.turn - 1) % order.length]};
}

function strongholdStatus(position) {
  if (position.winner) return `over: the ${position.winner} won`;
  return `turn ${position.turn}: ${strongholdFacts(position).mover} to move; defender score ` +
    `${position.defender_score}/${position.win_target}`;
}

// The page's grid and base, then the command line's drawing of the same position.
function renderStronghold(board) {
  const position = JSON.parse(state.view.positionJson);
  const facts = strongholdFacts(position);
  const units = position.units;
  const plan = (state.hint && state.hint.stronghold && state.hint.stronghold.moves) || {};
  const targets = new Set(Object.values(plan));
  const order = ["O", "I", "S"];
  const grid = el("table", {class: "sh-grid", "data-testid": "grid"},
    ROWS.map(([row, name]) => el("tr", {},
      el("th", {text: name}),
      position.grid[row].map((id) => {
        const hidden = order.indexOf(row) > order.indexOf(facts.active);
        const removed = facts.removed.has(id);
        const here = units.filter((u) => u.loc === id);
        const owner = position.control[id] || (here[0] && here[0].owner);
        const cls = ["sh-cell", removed ? "removed" : hidden ? "hidden" : "",
          owner ? `owner-${owner === "D" ? "D" : "A"}` : "", targets.has(id) ? "hint-target" : ""];
        return el("td", {class: cls.join(" ")},
          el("b", {text: id}),
          el("span", {class: "controller",
                      text: removed ? "removed" : hidden ? "not revealed" : owner || "nobody"}),
          el("div", {}, here.map((u) => unitEl(u, plan))));
      }))));
  const base = units.filter((u) => u.loc === "base");
  const owners = [...new Set(base.map((u) => u.owner))];
  board.append(grid, el("section", {class: "sh-base"}, el("h3", {text: "Base"}),
    owners.length ? owners.map((owner) => el("p", {}, el("b", {text: `${owner}: `}),
      base.filter((u) => u.owner === owner).map((u) => unitEl(u, plan))))
      : el("p", {text: "nobody"})),
  el("details", {class: "picture", open: true}, el("summary", {text: "as text"}),
    el("pre", {"data-testid": "picture", text: state.view.picture})));
}

function unitEl(unit, plan) {
  const flags = [unit.assault ? `assault ${unit.assault}` : "", unit.shield
    ? `shield ${unit.shield}` : "", unit.tank ? "tank" : "", unit.ganking ? "ganking" : "",
  unit.ready === false ? "exhausted" : ""].filter(Boolean);
  const moving = plan[unit.id];
  return el("span", {class: `unit owner-${unit.owner === "D" ? "D" : "A"}${moving
    ? " hinted" : ""}`, title: flags.join(", ")},
  `${unit.id}:${unit.might}${unit.ready === false ? "*" : ""}`,
  flags.length ? el("small", {text: ` ${flags.join(" ")}`}) : null,
  moving ? el("small", {text: ` → ${moving}`}) : null);
}

function renderStrongholdHint(plan, status, more) {
  const moves = Object.entries(plan.moves || {});
  const mover = strongholdFacts(JSON.parse(state.view.positionJson)).mover;
  $("hint-move").textContent = status === "STATUS_UNKNOWN" ? "unknown: the budget ran out"
    : moves.length ? `${mover} moves: ${moves.map(([u, to]) => `${u} → ${to}`).join(", ")}`
      : `${mover} stays put`;
  const objective = plan.objective;
  if (objective) {
    more.append(el("p", {text: `guaranteed removals ${objective.removals || 0}, ` +
      `controlled ${objective.controlled || 0}, garrison ${objective.garrison || 0}` +
      `${plan.optimal ? " (optimal)" : ` (${plan.cpStatus})`}`}));
  }
  more.append(el("ul", {class: "forecast", "data-testid": "forecast"},
    (plan.battlefields || []).map((b) => el("li", {text: `${b.battlefield}: ` +
      `${b.controller || "nobody"}, garrison ${b.garrison || 0}` +
      `${b.secure ? ", secure" : ""}${b.conquerable ? ", conquerable" : ""}`}))));
}

function strongholdSolution(list) {
  if (!state.strongholdClear) return false;
  renderStrongholdClear(state.strongholdClear, list);
  return true;
}

function renderStrongholdClear(answer, list) {
  const outcome = answer.stronghold || {};
  $("solution-summary").textContent = outcome.winner
    ? `the ${outcome.winner} win on turn ${outcome.turn} (${plural(outcome.rounds, "round")})` +
      `${outcome.proven ? ", proven" : ""}`
    : "unknown: the budget ran out first";
  for (const step of outcome.plan || []) {
    const moves = Object.entries(step.moves || {}).map(([u, to]) => `${u} → ${to}`);
    list.append(el("li", {text: `turn ${step.turn} ${step.player}: ${moves.join(", ") || "—"}`}));
  }
}

// ------------------------------------------------------------------ any other game

// The server's picture of the position, its legal moves as buttons (Play), and its JSON
// in the paste box, to edit and load again.
function renderGeneric(board) {
  const view = state.view;
  if (state.shownJson !== view.positionJson) {  // a new position: what was typed goes
    state.shownJson = view.positionJson;
    $("position-text").value = JSON.stringify(JSON.parse(view.positionJson), null, 1);
  }
  const moves = view.legalMoves || [];
  board.append(...[
    el("pre", {class: "generic-picture", "data-testid": "picture", text: view.picture}),
    moves.length ? el("section", {class: "actions", "aria-label": "legal moves"},
      el("h3", {text: "Legal moves"}),
      el("div", {class: "row"}, moves.map((move) => el("button", {
        type: "button", class: "action", "data-testid": "action", "data-action": move,
        text: move, disabled: state.busy})))) : null,
  ].filter(Boolean));
}

function genericStatus(view) {
  const made = plural(state.history.length, "move");
  const mover = view.toMove === undefined ? "" : `, seat ${view.toMove} to move`;
  if (isOver(view)) {
    return view.toMove === undefined ? `won in ${made}` : `over: seat ${view.winner} won`;
  }
  return `playing: ${made} made${mover}`;
}

// A button for each of the game's questions (GameInfo.questions, each titled by its
// summary), in the controls; none for a game with a board of its own (its Hint and Solve
// ask).
function renderQuestions() {
  const asked = boardOf().questions ? state.games?.get(state.game)?.questions || [] : [];
  $("questions").replaceChildren(...asked.map(({name, summary}) => el("button", {
    type: "button", class: "question", "data-testid": "question", "data-question": name,
    title: `ask the server: ${summary || name}`, text: name, disabled: state.busy})));
}

// The last question's answer: its status, then its JSON pretty-printed.
function renderAnswer() {
  const answer = state.answer;
  $("answer-panel").hidden = !answer;
  if (!answer) return;
  const status = (answer.response.status || "STATUS_UNSPECIFIED").replace(/^STATUS_/, "");
  $("answer-question").textContent = `${answer.question}: ${status.toLowerCase()}`;
  const text = answer.response.answerJson || "";
  let pretty = text;
  try {
    pretty = JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    // shown as it came
  }
  $("answer").textContent = pretty;
}

// ------------------------------------------------------------------ wiring

// Ctrl+Z / Ctrl+Y (Cmd on a Mac; Shift+Ctrl+Z too) undo and redo a move, anywhere but
// in a text field; the arrows walk the solution; Enter or Space on a card clicks it.
function onKey(event) {
  const typing = event.target.closest(
    "textarea, [contenteditable], input:not([type=checkbox]):not([type=radio])");
  if ((event.ctrlKey || event.metaKey) && !event.altKey && !typing && boardOf().steps) {
    const key = event.key.toLowerCase();
    if (key === "z" || key === "y") {
      event.preventDefault();
      if (key === "z" && !event.shiftKey) previous();
      else redo();
      return;
    }
  }
  if (event.target.closest("input, textarea, select, button, summary")) return;
  if ((event.key === "Enter" || event.key === " ") && event.target.closest("[data-card], .slot")) {
    event.preventDefault();  // a focused card or empty slot as if clicked
    onBoardClick(event);
    return;
  }
  if (event.key === "Escape" && state.selected) {
    state.selected = null;
    render();
  } else if (event.key === "ArrowRight" && boardOf().steps) {
    next();
  } else if (event.key === "ArrowLeft" && boardOf().steps) {
    previous();
  }
}

function init() {
  $("game").addEventListener("change", (event) => {
    state.seeds[state.game] = $("deal").value;
    startGame([...state.games.keys()].find((name) => optionOf(name) === event.target.value));
  });
  $("variant").addEventListener("change", () => loadDeal());
  $("table").addEventListener("change", () => loadDeal());
  $("players").addEventListener("change", () => loadDeal());
  $("autoplay").addEventListener("change", switchAutoplay);
  $("deal-form").addEventListener("submit", (event) => {
    event.preventDefault();
    loadDeal();
  });
  $("token-form").addEventListener("submit", (event) => {
    event.preventDefault();
    useToken();
  });
  $("load-pasted").addEventListener("click", () => loadPosition($("position-text").value));
  $("load-example").addEventListener("click", loadExample);
  $("hint").addEventListener("click", () => hint());
  $("solve").addEventListener("click", solve);
  $("next").addEventListener("click", next);
  $("prev").addEventListener("click", previous);
  $("play").addEventListener("click", togglePlay);
  $("questions").addEventListener("click", (event) => {
    const button = event.target.closest("[data-question]");
    if (button && !button.disabled && state.view) ask(button.dataset.question);
  });
  $("board").addEventListener("click", onBoardClick);
  $("board").addEventListener("dragstart", onCardDragStart);
  $("board").addEventListener("dragover", onCardDragOver);
  $("board").addEventListener("drop", onCardDrop);
  document.addEventListener("keydown", onKey);
  $("token-form").hidden = !sessionStorage.getItem(TOKEN_KEY);
  $("autoplay").checked = autoplayOn();
  state.asked = readAddress();
  loadGames();
}

document.addEventListener("DOMContentLoaded", init);
