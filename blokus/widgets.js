// The browser side of blokus.widgets.Board (an anywidget ES module). It draws the SVG that
// Python renders and reports what the user does; every rule is decided in Python by the engine.
const CELL = 24; // SVG user units per board cell (blokus.render)
const OVERLAYS = {
  none: "no overlay",
  placements: "legal placements",
  attachment: "attachment points",
  territory: "territory",
  mcts: "MCTS visits",
};

function element(tag, className, parent) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (parent) parent.appendChild(node);
  return node;
}

function button(text, title, parent, onClick) {
  const node = element("button", "bk-w-step", parent);
  node.textContent = text;
  node.title = title;
  node.addEventListener("click", onClick);
  return node;
}

// The board cell [row, col] under a mouse event, or null off the board.
function cellAt(svg, event) {
  const board = svg.querySelector(".bk-board");
  const point = svg.createSVGPoint();
  point.x = event.clientX;
  point.y = event.clientY;
  const p = point.matrixTransform(svg.getScreenCTM().inverse());
  const row = Math.floor(p.y / CELL), col = Math.floor(p.x / CELL);
  const rows = board.height.baseVal.value / CELL, cols = board.width.baseVal.value / CELL;
  return row >= 0 && row < rows && col >= 0 && col < cols ? [row, col] : null;
}

// A piece in hand: its squares at 6 units each, in its colour.
function pieceSvg(cells, rgb, name) {
  const ns = "http://www.w3.org/2000/svg", k = 6;
  const rows = 1 + Math.max(0, ...cells.map((c) => c[0])), cols = 1 + Math.max(0, ...cells.map((c) => c[1]));
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("class", "bk-w-piece-in-hand");
  svg.setAttribute("width", cols * k);
  svg.setAttribute("height", rows * k);
  svg.dataset.piece = name;
  const title = document.createElementNS(ns, "title");
  title.textContent = name;
  svg.appendChild(title);
  for (const [r, c] of cells) {
    const square = document.createElementNS(ns, "rect");
    for (const [key, value] of Object.entries({ x: c * k, y: r * k, width: k, height: k, fill: rgb,
      stroke: "#ffffff", "stroke-width": 1 })) square.setAttribute(key, value);
    svg.appendChild(square);
  }
  return svg;
}

function render({ model, el }) {
  const root = element("div", "bk-w", el);
  root.tabIndex = 0; // focusable, for the keys
  // Keep the arrow keys, Home and End from the notebook's own shortcuts (cell navigation in
  // Notebook 7) while the board has the focus: Lumino skips elements carrying this attribute.
  root.dataset.lmSuppressShortcuts = "true";
  const steps = element("div", "bk-w-steps", root);
  const setPly = (ply) => {
    const clamped = Math.max(0, Math.min(model.get("length"), ply));
    if (clamped !== model.get("ply")) {
      model.set("ply", clamped);
      model.save_changes();
    }
  };
  button("|<", "first position (Home)", steps, () => setPly(0));
  button("<", "one move back (left arrow)", steps, () => setPly(model.get("ply") - 1));
  const slider = element("input", "bk-w-slider", steps);
  slider.type = "range";
  slider.min = 0;
  slider.addEventListener("input", () => setPly(Number(slider.value)));
  button(">", "one move on (right arrow)", steps, () => setPly(model.get("ply") + 1));
  button(">|", "last position (End)", steps, () => setPly(model.get("length")));
  const counter = element("span", "bk-w-counter", steps);

  const main = element("div", "bk-w-main", root);
  const left = element("div", "bk-w-left", main);
  const picture = element("div", "bk-w-board", left);
  const curve = element("div", "bk-w-curve", left);
  const hands = element("div", "bk-w-hands", left);
  const side = element("div", "bk-w-side", main);
  const overlay = element("select", "bk-w-overlay", side);
  for (const [value, label] of Object.entries(OVERLAYS)) {
    const option = element("option", "", overlay);
    option.value = value;
    option.textContent = label;
  }
  overlay.addEventListener("change", () => {
    model.set("overlay", overlay.value);
    model.save_changes();
  });
  const piece = element("select", "bk-w-piece", side);
  piece.addEventListener("change", () => {
    model.set("piece", piece.value);
    model.save_changes();
  });
  const hint = element("div", "bk-w-hint", side);
  const list = element("div", "bk-w-candidates", side);
  const load = element("label", "bk-w-load", side);
  load.textContent = "load .blksgf ";
  const file = element("input", "", load);
  file.type = "file";
  file.accept = ".blksgf,.sgf";
  file.addEventListener("change", async () => {
    if (file.files.length) model.send({ event: "load", text: await file.files[0].text() });
    file.value = "";
  });
  const moves = element("ol", "bk-w-moves", side);
  const status = element("div", "bk-w-status", root);

  // A click on the curve (a move's point, or the column of a position) or on the move list
  // goes to the position it names.
  const goTo = (event) => {
    const target = event.target.closest("[data-ply]");
    if (target) setPly(Number(target.dataset.ply));
  };
  curve.addEventListener("click", goTo);
  moves.addEventListener("click", goTo);

  picture.addEventListener("click", (event) => {
    const svg = picture.querySelector("svg");
    const cell = svg && cellAt(svg, event);
    if (!cell) return;
    model.set("cell", cell);
    model.set("preview", -1);
    model.save_changes();
    root.focus();
  });
  root.addEventListener("keydown", (event) => {
    const moves = { ArrowLeft: -1, ArrowRight: 1 };
    if (event.key in moves) setPly(model.get("ply") + moves[event.key]);
    else if (event.key === "Home") setPly(0);
    else if (event.key === "End") setPly(model.get("length"));
    else if (event.key === "Escape") {
      model.set("cell", []);
      model.save_changes();
    } else return;
    event.preventDefault();
  });

  const setPreview = (id) => {
    model.set("preview", id);
    model.save_changes();
  };
  function drawCurve() {
    curve.innerHTML = model.get("curve");
    curve.hidden = !model.get("curve");
    const board = picture.querySelector("svg"), chart = curve.querySelector("svg");
    if (board && chart) { // as wide as the board
      const width = Number(board.getAttribute("width")), box = chart.viewBox.baseVal;
      chart.setAttribute("width", width);
      chart.setAttribute("height", (width * box.height) / box.width);
    }
  }
  function drawHands() {
    hands.replaceChildren();
    const shapes = model.get("shapes");
    for (const hand of model.get("hands")) {
      const line = element("div", "bk-w-hand", hands);
      line.dataset.colour = hand.colour;
      const name = element("span", "bk-w-hand-name", line);
      name.textContent = `${hand.colour_name} ${hand.squares}`;
      name.title = `${hand.colour_name}: ${hand.pieces.length} pieces, ${hand.squares} squares in hand`;
      for (const piece of hand.pieces) line.appendChild(pieceSvg(shapes[piece] || [], hand.rgb, piece));
    }
  }
  function drawMoves() {
    moves.replaceChildren();
    const ply = model.get("ply");
    let current = null;
    for (const m of model.get("moves")) {
      const item = element("li", "bk-w-move", moves);
      item.dataset.ply = m.ply;
      item.textContent = `${m.ply}. ${m.colour_name} ${m.move}`;
      if (m.label) {
        const label = element("span", `bk-w-label bk-w-label-${m.label}`, item);
        label.textContent = m.label;
        item.title = m.label === "best" ? "the engine's choice"
          : `loss ${(100 * m.loss).toFixed(1)}% of win probability; best ${m.best_move}`;
      }
      if (m.ply === ply) {
        item.classList.add("bk-w-current");
        current = item;
      }
    }
    // Keep the current move in sight without scrolling the page, once the list is laid out
    // (the first draw happens before the widget is on the page).
    if (current) requestAnimationFrame(() => {
      const a = current.getBoundingClientRect(), b = moves.getBoundingClientRect();
      if (a.top < b.top || a.bottom > b.bottom) moves.scrollTop += a.top - b.top - b.height / 2;
    });
  }
  function draw() {
    picture.innerHTML = model.get("svg");
    drawCurve();
    drawHands();
    drawMoves();
    slider.max = model.get("length");
    slider.value = model.get("ply");
    counter.textContent = `move ${model.get("ply")} / ${model.get("length")}`;
    overlay.value = model.get("overlay");
    piece.hidden = model.get("overlay") !== "placements";
    piece.replaceChildren();
    for (const name of ["", ...model.get("pieces")]) {
      const option = element("option", "", piece);
      option.value = name;
      option.textContent = name || "any piece";
    }
    piece.value = model.get("piece");
    const cell = model.get("cell");
    const candidates = model.get("candidates");
    list.replaceChildren();
    if (cell.length === 0) hint.textContent = "Click a cell to list the placements that cover it.";
    else hint.textContent = `${candidates.length} legal placement${candidates.length === 1 ? "" : "s"} cover this cell: click one to play it.`;
    for (const c of candidates) {
      const item = button(`${c.piece} ${c.move}`, `placement ${c.id}`, list, () =>
        model.send({ event: "play", id: c.id }));
      item.className = "bk-w-candidate";
      item.dataset.id = c.id;
      item.addEventListener("mouseenter", () => setPreview(c.id));
      item.addEventListener("mouseleave", () => setPreview(-1));
    }
    status.textContent = model.get("status");
  }
  const names = ["svg", "ply", "length", "overlay", "piece", "pieces", "cell", "candidates", "status",
    "curve", "hands", "moves"];
  for (const name of names) model.on(`change:${name}`, draw);
  draw();
  return () => {
    for (const name of names) model.off(`change:${name}`, draw);
  };
}

export default { render };
