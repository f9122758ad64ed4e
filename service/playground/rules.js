/* A game's rules, drawn for reading: the rules page the server serves as Markdown
 * (GET /docs/NAME.md, service/rules_routes.py), NAME.md from the address's `page`.
 *
 * The Markdown of docs/ is drawn node by node (headings, paragraphs, lists, tables, code,
 * quotes; code spans, bold, italics and links inside them): no text of the file ever
 * reaches the page as markup. A link to another rules page opens it here; a link into the
 * repository (source files, tests) is shown as its text.
 */
"use strict";

const BLOCK_START = /^(#{1,6}\s|```|\s*([-*]|\d+\.)\s|\||>|<!--)/;

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  node.append(...children.flat());
  return node;
}

// A heading's anchor, as GitHub makes it: lower case, punctuation dropped, spaces to dashes.
function slug(text) {
  return text.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "").trim().replace(/\s/g, "-");
}

// Where a link goes from here: another rules page, an anchor, a web address; else null.
function target(href) {
  const page = /^(?:\.\/)?([a-z-]+\.md)(#.*)?$/.exec(href);
  if (page) return `rules.html?page=${page[1]}${page[2] || ""}`;
  return /^(#|https?:\/\/)/.test(href) ? href : null;
}

// A line's code spans, bold, italics and links, as nodes.
function inline(text) {
  const nodes = [];
  const token = /`([^`]+)`|\*\*(.+?)\*\*|\*([^*\s][^*]*?)\*|!?\[([^\]]+)\]\(([^)\s]+)\)/g;
  let last = 0;
  for (const match of text.matchAll(token)) {
    nodes.push(text.slice(last, match.index));
    const [whole, code, bold, italic, label, href] = match;
    if (code !== undefined) nodes.push(el("code", {}, code));
    else if (bold !== undefined) nodes.push(el("strong", {}, inline(bold)));
    else if (italic !== undefined) nodes.push(el("em", {}, inline(italic)));
    else if (whole.startsWith("!")) nodes.push(label);
    else {
      const to = target(href);
      nodes.push(to ? el("a", {href: to}, inline(label)) : el("span", {title: href}, inline(label)));
    }
    last = match.index + whole.length;
  }
  nodes.push(text.slice(last));
  return nodes;
}

function cells(line) {
  return line.trim().replace(/^\||\|$/g, "").split("|").map((cell) => cell.trim());
}

// A list from lines[at] on: its items (a deeper indent is a list inside the item).
function list(lines, at) {
  const indent = lines[at].search(/\S/);
  const ordered = /^\s*\d+\./.test(lines[at]);
  const items = [];
  let i = at;
  while (i < lines.length && lines[i].trim()) {
    const item = /^(\s*)([-*]|\d+\.)\s+(.*)$/.exec(lines[i]);
    const depth = lines[i].search(/\S/);
    if (item && depth === indent) {
      items.push({text: item[3], nested: []});
      i += 1;
    } else if (item && depth > indent && items.length) {
      const [inner, next] = list(lines, i);
      items[items.length - 1].nested.push(inner);
      i = next;
    } else if (!item && depth > indent && items.length) {
      items[items.length - 1].text += ` ${lines[i].trim()}`;
      i += 1;
    } else {
      break;
    }
  }
  const node = el(ordered ? "ol" : "ul", {},
    items.map((item) => el("li", {}, inline(item.text), item.nested)));
  return [node, i];
}

// The page's blocks, in order.
function blocks(text) {
  const lines = text.replace(/\r\n/g, "\n").split("\n");
  const out = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (!line.trim()) {
      i += 1;
    } else if (line.startsWith("<!--")) {
      while (i < lines.length && !lines[i].includes("-->")) i += 1;
      i += 1;
    } else if (line.startsWith("```")) {
      const body = [];
      for (i += 1; i < lines.length && !lines[i].startsWith("```"); i += 1) body.push(lines[i]);
      out.push(el("pre", {}, el("code", {}, body.join("\n"))));
      i += 1;
    } else if (/^#{1,6}\s/.test(line)) {
      const [, hashes, title] = /^(#+)\s+(.*)$/.exec(line);
      out.push(el(`h${hashes.length}`, {id: slug(title)}, inline(title)));
      i += 1;
    } else if (line.startsWith("|") && /^\|?[\s:|-]+$/.test(lines[i + 1] || "")) {
      const head = el("tr", {}, cells(line).map((cell) => el("th", {}, inline(cell))));
      const rows = [];
      for (i += 2; i < lines.length && lines[i].startsWith("|"); i += 1) {
        rows.push(el("tr", {}, cells(lines[i]).map((cell) => el("td", {}, inline(cell)))));
      }
      out.push(el("div", {class: "table"}, el("table", {}, el("thead", {}, head),
        el("tbody", {}, rows))));
    } else if (/^\s*([-*]|\d+\.)\s/.test(line)) {
      const [node, next] = list(lines, i);
      out.push(node);
      i = next;
    } else {
      const quote = line.startsWith(">");
      const body = [];
      do {
        body.push(lines[i].replace(/^>\s?/, ""));
        i += 1;
      } while (i < lines.length && lines[i].trim() && !BLOCK_START.test(lines[i])
               || (quote && i < lines.length && lines[i].startsWith(">")));
      const paragraph = el("p", {}, inline(body.join(" ")));
      out.push(quote ? el("blockquote", {}, paragraph) : paragraph);
    }
  }
  return out;
}

async function show() {
  const name = new URLSearchParams(location.search).get("page") || "";
  const article = document.getElementById("rules");
  let response;
  try {
    response = await fetch(`/docs/${encodeURIComponent(name)}`);
  } catch (error) {
    article.replaceChildren(el("p", {class: "error"}, `cannot reach the server: ${error.message}`));
    return;
  }
  const text = await response.text();
  if (!response.ok) {
    article.replaceChildren(el("p", {class: "error"}, text.trim()));
    return;
  }
  article.replaceChildren(...blocks(text));
  document.title = `${article.querySelector("h1")?.textContent || name}: rules`;
  document.getElementById("source").href = `/docs/${name}`;
  if (location.hash) document.getElementById(decodeURIComponent(location.hash.slice(1)))?.scrollIntoView();
}

document.addEventListener("DOMContentLoaded", show);
