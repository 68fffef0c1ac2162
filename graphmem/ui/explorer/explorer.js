// graphmem provenance explorer: search (recall), pick a fact or procedure, see its evidence, episode and
// version timeline as a list and as a graph, move the as-of slider to see which versions were valid then,
// and open the source text. Talks to /graphql with the API key the analyst enters; no external assets.
"use strict";

const $ = (id) => document.getElementById(id);
const state = { nodeId: null, history: [], minTime: 0, maxTime: Date.now() };

$("key").value = localStorage.getItem("graphmem.key") || "";
$("space").value = localStorage.getItem("graphmem.space") || "";

async function gql(query, variables) {
  localStorage.setItem("graphmem.key", $("key").value);
  localStorage.setItem("graphmem.space", $("space").value);
  const reply = await fetch("/graphql", {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer " + $("key").value },
    body: JSON.stringify({ query, variables }),
  });
  const body = await reply.json();
  if (body.errors && body.errors.length) throw new Error(body.errors[0].message);
  return body.data;
}

const RECALL = `query($s: String!, $q: String!) { recall(space: $s, query: $q, first: 10) {
  hits { nodeId kind text score eventAt author status } } }`;
const PROVENANCE = `query($s: String!, $id: String!, $asOf: DateTime) {
  provenance(space: $s, id: $id, asOf: $asOf) { nodeId kind text status validFrom validTo author
    evidence { nodeId text eventAt author episodeId episodeGoal }
    lineage { type sourceId targetId at kind reason by } } }`;
const HISTORY = `query($s: String!, $id: String!) { history(space: $s, id: $id) {
  versions { nodeId text status author validFrom validTo } } }`;

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  Object.entries(attrs || {}).forEach(([k, v]) => (k === "class" ? (node.className = v) : node.setAttribute(k, v)));
  children.forEach((c) => node.append(c));
  return node;
}

const day = (iso) => (iso ? iso.slice(0, 10) : "now");

$("search").addEventListener("submit", async (event) => {
  event.preventDefault();
  $("status").textContent = "Searching…";
  $("hits").replaceChildren();
  try {
    const data = await gql(RECALL, { s: $("space").value, q: $("query").value });
    const hits = data.recall.hits.filter((h) => h.kind !== "episodic");  // provenance starts at a fact or procedure
    $("status").textContent = `${hits.length} results`;
    hits.forEach((hit) => {
      const item = el("li", { "data-id": hit.nodeId, "data-kind": hit.kind },
        el("span", { class: "kind" }, hit.kind), hit.text,
        el("span", { class: "meta" }, `${day(hit.eventAt)} · ${hit.author || "unknown"} · ${hit.status}`));
      item.addEventListener("click", () => openNode(hit.nodeId));
      $("hits").append(item);
    });
  } catch (error) {
    $("status").textContent = "Error: " + error.message;
  }
});

async function openNode(nodeId) {
  state.nodeId = nodeId;
  const history = await gql(HISTORY, { s: $("space").value, id: nodeId });
  state.history = history.history.versions;
  const starts = state.history.map((v) => Date.parse(v.validFrom)).filter((t) => !Number.isNaN(t));
  state.minTime = Math.min(...starts, Date.now()) - 86400000;
  state.maxTime = Date.now();
  $("asof").value = $("asof").max;
  $("detail").hidden = false;
  await render();
}

function asOfTime() {
  const fraction = Number($("asof").value) / Number($("asof").max);
  return new Date(state.minTime + fraction * (state.maxTime - state.minTime));
}

async function render() {
  const asOf = asOfTime();
  $("asof-label").textContent = asOf.toISOString().slice(0, 10);
  const data = await gql(PROVENANCE, { s: $("space").value, id: state.nodeId, asOf: asOf.toISOString() });
  const p = data.provenance;
  $("detail-title").textContent = `${p.kind}: ${p.text}`;
  const validIds = new Set();
  $("versions").replaceChildren(...state.history.map((v) => {
    const from = Date.parse(v.validFrom), to = v.validTo ? Date.parse(v.validTo) : Infinity;
    const valid = from <= asOf.getTime() && asOf.getTime() < to;
    if (valid) validIds.add(v.nodeId);
    const cls = valid ? "valid" : from > asOf.getTime() ? "later" : "";
    return el("li", { class: cls, "data-id": v.nodeId },
      `${day(v.validFrom)} → ${day(v.validTo)} · ${v.author || "unknown"} · ${v.status}: ${v.text}`);
  }));
  $("evidence").replaceChildren(...p.evidence.map((unit) => {
    const item = el("li", { "data-id": unit.nodeId },
      `${day(unit.eventAt)} · ${unit.author || "unknown"}${unit.episodeGoal ? " · " + unit.episodeGoal : ""}`);
    item.addEventListener("click", () => ($("source").textContent = unit.text));
    return item;
  }));
  drawGraph(p, validIds);
}

function drawGraph(p, validIds) {
  const svg = $("graph");
  svg.replaceChildren();
  const ns = "http://www.w3.org/2000/svg";
  const add = (tag, attrs, text) => {
    const node = document.createElementNS(ns, tag);
    Object.entries(attrs).forEach(([k, v]) => node.setAttribute(k, v));
    if (text) node.textContent = text;
    svg.append(node);
    return node;
  };
  const center = { x: 260, y: 160 };
  const place = (items, x) => items.map((item, i) => ({ item, x, y: 40 + (i + 1) * (240 / (items.length + 1)) }));
  const evidence = place(p.evidence, 70), versions = place(state.history, 450);
  [...evidence, ...versions].forEach(({ x, y }) => add("line", { x1: center.x, y1: center.y, x2: x, y2: y }));
  add("circle", { cx: center.x, cy: center.y, r: 14, class: "fact" });
  add("text", { x: center.x - 40, y: center.y + 28 }, p.text.slice(0, 28));
  evidence.forEach(({ item, x, y }) => {
    add("rect", { x: x - 8, y: y - 8, width: 16, height: 16, class: "evidence" });
    add("text", { x: x - 60, y: y + 20 }, (item.author || "") + " " + day(item.eventAt));
  });
  versions.forEach(({ item, x, y }) => {
    add("circle", { cx: x, cy: y, r: 9, class: "version" + (validIds.has(item.nodeId) ? " valid" : "") });
    add("text", { x: x - 30, y: y + 20 }, day(item.validFrom));
  });
}

$("asof").addEventListener("input", () => { if (state.nodeId) render(); });
