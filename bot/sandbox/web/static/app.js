// Quiz Tutor sandbox: the chat page. Bot text arrives as a tree of nodes and is drawn with
// DOM nodes and textContent only: nothing here sets HTML markup.
"use strict";

const state = { people: [], group: null, channel: null, bot: null, chats: {}, person: null, where: "private", errors: {} };
const $ = (id) => document.getElementById(id);

const SUGGESTIONS = {
  private: ["/start", "/quizzes", "/quiz model-pipeline-parallelism", "/progress", "/review", "/language", "/help"],
  group: ["/groupquiz model-pipeline-parallelism 30", "/groupquiz model-pipeline-parallelism 30 poll", "/skip", "/stopquiz", "/leaderboard", "/help"],
  channel: ["/groupquiz model-pipeline-parallelism 30"],
  admin: ["/import", "/export model-pipeline-parallelism", "/stats", "/push model-pipeline-parallelism", "/addquestion model-pipeline-parallelism"],
};

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (name === "class") node.className = value;
    else if (name === "text") node.textContent = value;
    else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value);
  }
  for (const child of children) if (child != null) node.append(child);
  return node;
}

function person() { return state.people.find((p) => p.key === state.person); }
function chatId() {
  if (state.where === "group") return state.group.id;
  if (state.where === "channel") return state.channel.id;
  return person().id;
}

// a deep link of this bot opens its private chat inside the page, as Telegram's apps do
function ownStartLink(url) {
  if (!state.bot || !state.bot.username || typeof url !== "string") return false;
  return url.startsWith(`https://t.me/${state.bot.username}?start=`) || url === `https://t.me/${state.bot.username}`;
}

async function openOwnLink(url) {
  if (state.where !== "private") { state.where = "private"; $("chat-private").checked = true; drawChat(); }
  await post("/api/open", { person: state.person, url });
}

function linkTo(url, text) {
  if (ownStartLink(url)) {
    const a = el("a", { href: url, text });
    a.addEventListener("click", (e) => { e.preventDefault(); openOwnLink(url); });
    return a;
  }
  return el("a", { href: url, target: "_blank", rel: "noopener noreferrer", text });
}

// --- drawing Telegram's formatting from the node tree

const TAGS = { b: "b", i: "i", u: "u", s: "s", code: "code", blockquote: "blockquote" };
const SAFE_LINK = /^(https?:|tg:|mailto:)/i;

function drawNodes(nodes, parent) {
  for (const node of nodes || []) {
    if (typeof node === "string") { parent.append(document.createTextNode(node)); continue; }
    let made;
    if (node.tag === "pre") {
      made = el("pre", node.language ? { "data-language": node.language } : {});
    } else if (node.tag === "a" && typeof node.href === "string" && SAFE_LINK.test(node.href)) {
      made = linkTo(node.href, "");
    } else if (node.tag === "spoiler") {
      made = el("span", { class: "spoiler", tabindex: "0", role: "button", "aria-label": "spoiler: press to show" });
      const show = () => { made.classList.add("shown"); made.removeAttribute("aria-label"); };
      made.addEventListener("click", show);
      made.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); show(); } });
    } else if (node.tag === "blockquote" && node.expandable) {
      // as the Telegram app shows an expandable block quote: its first lines, a tap opens it
      made = el("blockquote", { class: "expandable", tabindex: "0", role: "button", "aria-expanded": "false" });
      const toggle = () => {
        const open = made.classList.toggle("open");
        made.setAttribute("aria-expanded", String(open));
      };
      made.addEventListener("click", toggle);
      made.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); toggle(); } });
    } else if (Object.hasOwn(TAGS, node.tag)) {
      made = el(TAGS[node.tag]);
    } else {
      made = el("span");
    }
    drawNodes(node.children, made);
    parent.append(made);
  }
}

// --- messages

function drawMessage(m) {
  const mine = m.from === state.person;
  const item = el("li", { class: "message" + (mine ? " mine" : "") + (m.from === "bot" ? " bot" : ""), id: `m-${m.chat_id}-${m.message_id}`, "data-message-id": String(m.message_id) });
  const bubble = el("div", { class: "bubble" });
  if (!mine) bubble.append(el("span", { class: "sender", text: m.from_name }));
  if (m.photo) {
    bubble.append(el("div", { class: "photo" }, el("img", { src: `/api/files/${encodeURIComponent(m.photo.file_id)}?view=1`, alt: "photo" })));
  }
  if (m.document) {
    const size = m.document.size != null ? ` (${formatSize(m.document.size)})` : "";
    bubble.append(el("div", { class: "document" }, el("a", { href: `/api/files/${encodeURIComponent(m.document.file_id)}`, download: m.document.file_name },
      "📄 ", el("span", { text: m.document.file_name + size }))));
  }
  if (m.text && m.text.length) { const body = el("div", { class: "text" }); drawNodes(m.text, body); bubble.append(body); }
  if (m.chat_shared) bubble.append(el("div", { class: "text shared", text: `👉 Picked: ${m.chat_shared.title || m.chat_shared.chat_id}` }));
  if (m.caption && m.caption.length) { const body = el("div", { class: "caption" }); drawNodes(m.caption, body); bubble.append(body); }
  if (m.poll) bubble.append(drawPoll(m));
  const time = new Date(m.date * 1000).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  bubble.append(el("div", { class: "meta", text: (m.edited ? "edited · " : "") + time }));
  item.append(bubble);
  if (m.buttons && m.buttons.length) item.append(drawKeyboard(m));
  return item;
}

function drawKeyboard(m) {
  const keyboard = el("div", { class: "keyboard", role: "group", "aria-label": "buttons" });
  for (const row of m.buttons) {
    const line = el("div", { class: "row" });
    for (const button of row) {
      if (button.web_app) {
        const b = el("button", { type: "button", class: "web-app", text: button.text });
        b.addEventListener("click", () => openMiniApp(m, button.web_app, b));
        line.append(b);
      } else if (button.url && SAFE_LINK.test(button.url)) {
        line.append(linkTo(button.url, button.text));
      } else if (button.data != null) {
        const b = el("button", { type: "button", text: button.text });
        b.addEventListener("click", () => tap(m, button.data, b));
        line.append(b);
      }
    }
    keyboard.append(line);
  }
  return keyboard;
}

function drawPoll(m) {
  const poll = m.poll;
  const mine = poll.votes ? poll.votes[state.person] : undefined;
  const revealed = poll.closed || mine !== undefined;
  const box = el("fieldset", { class: "poll" });
  const kind = (poll.anonymous ? "Anonymous " : "") + (poll.type === "quiz" ? "quiz" : "poll") + (poll.multiple ? " · several answers" : "") + (poll.closed ? " · closed" : "");
  box.append(el("legend", {}, el("span", { class: "kind", text: kind }), el("span", { text: poll.question })));
  const picked = new Set();
  poll.options.forEach((option, index) => {
    if (revealed) {
      const percent = poll.total ? Math.round((100 * option.voters) / poll.total) : 0;
      const chose = (mine || []).includes(index);
      let mark = "";
      let cls = "result";
      if (poll.type === "quiz" && poll.correct.includes(index)) { mark = "✅ "; cls += " correct"; }
      else if (chose) { mark = "❌ "; cls += " chosen-wrong"; }
      const chosen = chose ? " (your vote)" : "";
      box.append(el("div", { class: cls }, el("span", { text: mark + option.text + chosen }), el("span", { text: `${percent}% · ${option.voters}` })));
    } else if (poll.multiple) {
      const id = `poll-${m.chat_id}-${m.message_id}-${index}`;
      const tick = el("input", { type: "checkbox", id });
      tick.addEventListener("change", () => { if (tick.checked) picked.add(index); else picked.delete(index); });
      box.append(el("label", { class: "pick", for: id }, tick, el("span", { text: option.text })));
    } else {
      const b = el("button", { type: "button", text: option.text });
      b.addEventListener("click", () => vote(m, [index]));
      box.append(b);
    }
  });
  if (!revealed && poll.multiple) {
    const send = el("button", { type: "button", class: "vote", text: "Vote" });
    send.addEventListener("click", () => { if (picked.size) vote(m, [...picked].sort()); });
    box.append(send);
  }
  box.append(el("div", { class: "meta", text: `${poll.total} vote${poll.total === 1 ? "" : "s"}` }));
  if (revealed && poll.explanation) box.append(el("div", { class: "explanation", text: "💡 " + poll.explanation }));
  return box;
}

function formatSize(bytes) {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function drawChat() {
  const list = $("messages");
  const nearBottom = isNearBottom();
  list.replaceChildren(...(state.chats[chatId()] || []).map(drawMessage));
  const titles = {
    group: `${state.group.title} (a group, id ${state.group.id}): ${person().name}'s view`,
    channel: `${state.channel.title} (a channel, id ${state.channel.id}): ${person().name}'s view`,
    private: `${person().name} ↔ Quiz Tutor (private chat, id ${person().id})`,
  };
  $("chat-title").textContent = titles[state.where];
  drawSuggestions();
  drawReplyKeyboard();
  if (nearBottom) scrollDown();
}

function isNearBottom() { const main = document.querySelector("main"); return main.scrollHeight - main.scrollTop - main.clientHeight < 120; }
function scrollDown() { const main = document.querySelector("main"); main.scrollTop = main.scrollHeight; }

function drawSuggestions() {
  const box = $("suggestions");
  const commands = [...SUGGESTIONS[state.where]];
  if (state.where === "private" && person().role === "bot admin") commands.push(...SUGGESTIONS.admin);
  box.replaceChildren(...commands.map((command) => {
    const b = el("button", { type: "button", text: command, title: "Put this command in the message field" });
    b.addEventListener("click", () => { $("text").value = command; $("text").focus(); });
    return b;
  }));
}

// --- the reply keyboard under the message field (a private chat's), and the chat picker

function currentReplyKeyboard() {
  if (state.where !== "private") return null;
  const list = state.chats[chatId()] || [];
  for (let i = list.length - 1; i >= 0; i--) {
    const m = list[i];
    if (m.from !== "bot") continue;
    if (m.remove_keyboard) return null;
    if (m.reply_keyboard) return m.reply_keyboard;
  }
  return null;
}

function drawReplyKeyboard() {
  const box = $("reply-keyboard");
  const rows = currentReplyKeyboard();
  box.hidden = !rows;
  box.replaceChildren();
  for (const row of rows || []) {
    const line = el("div", { class: "row" });
    for (const button of row) {
      const b = el("button", { type: "button", text: button.text });
      if (button.request_id != null) b.addEventListener("click", () => openPicker(button));
      else b.addEventListener("click", () => post("/api/send", { person: state.person, chat_id: chatId(), text: button.text }));
      line.append(b);
    }
    box.append(line);
  }
}

async function openPicker(button) {
  const query = new URLSearchParams({ person: state.person, request_id: String(button.request_id) });
  const response = await fetch(`/api/pickable?${query}`);
  if (!response.ok) { toast({ person: state.person, text: (await response.json()).error, alert: false }); return; }
  const { chats } = await response.json();
  const list = $("picker-chats");
  $("picker-title").textContent = button.channel ? "Choose a channel" : "Choose a group";
  list.replaceChildren();
  if (!chats.length) list.append(el("li", { class: "none", text: button.channel ? "No channel of yours fits." : "No group of yours fits." }));
  for (const chat of chats) {
    const b = el("button", { type: "button" }, el("span", { class: "title", text: chat.title }), el("span", { class: "id", text: `id ${chat.id}` }));
    b.addEventListener("click", async () => {
      $("picker").close();
      await post("/api/pick", { person: state.person, request_id: button.request_id, chat_id: chat.id });
    });
    list.append(el("li", {}, b));
  }
  $("picker").showModal();
}

function upsert(m) {
  const list = (state.chats[m.chat_id] ||= []);
  const at = list.findIndex((x) => x.message_id === m.message_id);
  if (at >= 0) list[at] = m; else { list.push(m); list.sort((a, b) => a.message_id - b.message_id); }
  if (m.chat_id !== chatId()) return;
  drawReplyKeyboard();
  const nearBottom = isNearBottom();
  const old = $(`m-${m.chat_id}-${m.message_id}`);
  const drawn = drawMessage(m);
  if (old) {
    const focused = old.contains(document.activeElement) ? [...old.querySelectorAll("button")].indexOf(document.activeElement) : -1;
    old.replaceWith(drawn);
    if (focused >= 0) { const again = drawn.querySelectorAll("button")[focused]; if (again) again.focus(); }
  } else {
    $("messages").append(drawn);
  }
  if (nearBottom || (at < 0 && m.from === state.person)) scrollDown();
}

function remove(chat, messageId) {
  const list = state.chats[chat] || [];
  state.chats[chat] = list.filter((x) => x.message_id !== messageId);
  const old = $(`m-${chat}-${messageId}`);
  if (old) old.remove();
}

function toast(event) {
  if (!event.text) return;
  const who = state.people.find((p) => p.key === event.person);
  if (event.alert && event.person === state.person) {
    $("alert-text").textContent = event.text;
    $("alert").showModal();
    return;
  }
  const label = event.person === state.person ? (event.alert ? "alert" : "") : `${who ? who.name : event.person} sees${event.alert ? " (alert)" : ""}`;
  const box = el("div", { class: "toast" }, label ? el("span", { class: "who", text: label }) : null, el("span", { text: event.text }));
  $("toasts").append(box);
  setTimeout(() => box.remove(), 4000 + 40 * event.text.length);
}

function showContentErrors(errors) {
  state.errors = errors || {};
  const box = $("content-errors");
  const files = Object.keys(state.errors);
  box.hidden = files.length === 0;
  box.replaceChildren();
  if (!files.length) return;
  box.append(el("h2", { text: `${files.length} bank${files.length === 1 ? "" : "s"} refused (the others are loaded):` }));
  for (const file of files) {
    box.append(el("strong", { text: file }));
    box.append(el("ul", {}, ...state.errors[file].map((e) => el("li", { text: e }))));
  }
}

// --- acting

async function post(path, body) {
  const options = { method: "POST" };
  if (body instanceof FormData) options.body = body;
  else { options.body = JSON.stringify(body); options.headers = { "Content-Type": "application/json" }; }
  const response = await fetch(path, options);
  if (!response.ok) {
    let message = `${response.status}`;
    try { message = (await response.json()).error || message; } catch (_) { /* not JSON */ }
    toast({ person: state.person, text: message, alert: false });
    return null;
  }
  return response.json();
}

async function tap(m, data, button) {
  button.disabled = true;
  try { await post("/api/tap", { person: state.person, chat_id: m.chat_id, message_id: m.message_id, data }); }
  finally { button.disabled = false; }
}

// --- a Mini App (a web_app button): opened in a phone-sized frame, as a Telegram client opens
// it, at the address the server gives: the button's URL with initData signed for this person

let miniAppOpener = null;

async function openMiniApp(m, url, button) {
  const theme = new URLSearchParams(location.search).get("theme") === "dark" ? "dark" : "light";
  const opened = await post("/api/web_app", { person: state.person, chat_id: m.chat_id, message_id: m.message_id, url, theme });
  if (!opened) return;
  miniAppOpener = button;
  $("mini-app-title").textContent = button.textContent;
  $("mini-app-frame").src = opened.url;
  $("mini-app").hidden = false;
  $("mini-app-frame").focus();
}

// Telegram's script inside the frame (when it could be loaded) talks to its client through
// postMessage: the Back button it asks for is drawn in the panel's bar, and pressing it is
// sent back as Telegram's client sends it
function fromMiniApp(event) {
  const frame = $("mini-app-frame");
  if (event.source !== frame.contentWindow || event.origin !== location.origin) return;
  let message;
  try { message = JSON.parse(event.data); } catch (_) { return; }
  if (!message || typeof message.eventType !== "string") return;
  if (message.eventType === "web_app_setup_back_button") {
    $("mini-app-back").hidden = !(message.eventData && message.eventData.is_visible);
  } else if (message.eventType === "web_app_close") {
    closeMiniApp();
  }
}

function backInMiniApp() {
  const frame = $("mini-app-frame");
  frame.contentWindow.postMessage(JSON.stringify({ eventType: "back_button_pressed" }), location.origin);
}

function closeMiniApp() {
  if ($("mini-app").hidden) return;
  $("mini-app").hidden = true;
  $("mini-app-back").hidden = true;
  $("mini-app-frame").src = "about:blank";
  if (miniAppOpener && miniAppOpener.isConnected) miniAppOpener.focus();
}

function vote(m, options) { return post("/api/vote", { person: state.person, chat_id: m.chat_id, message_id: m.message_id, options }); }

async function send(event) {
  event.preventDefault();
  const input = $("text");
  const file = $("attach").files[0];
  if (file) {
    const form = new FormData();
    form.append("person", state.person);
    form.append("chat_id", String(chatId()));
    form.append("caption", input.value);
    form.append("file", file, file.name);
    if (await post("/api/upload", form)) { input.value = ""; clearAttachment(); }
    return;
  }
  if (!input.value.trim()) return;
  if (await post("/api/send", { person: state.person, chat_id: chatId(), text: input.value })) input.value = "";
}

function clearAttachment() { $("attach").value = ""; showAttachment(); }
function showAttachment() {
  const file = $("attach").files[0];
  const box = $("attached");
  box.hidden = !file;
  box.replaceChildren();
  if (file) {
    const drop = el("button", { type: "button", text: "Remove" });
    drop.addEventListener("click", clearAttachment);
    box.append(el("span", { text: `📄 ${file.name} will be sent; the text becomes its caption (e.g. /import).` }), drop);
  }
}

// --- the event stream

function connect() {
  const source = new EventSource("/api/events");
  source.onopen = () => { $("connection").hidden = true; };
  source.onerror = () => { $("connection").hidden = false; };
  source.onmessage = (message) => {
    const event = JSON.parse(message.data);
    if (event.kind === "state") {
      state.people = event.people; state.group = event.group; state.channel = event.channel; state.bot = event.bot; state.chats = event.chats;
      $("group-label").textContent = event.group.title;
      $("channel-label").textContent = event.channel.title;
      fillPeople();
      showContentErrors(event.content_errors);
      drawChat();
      document.body.dataset.ready = "1";
    } else if (event.kind === "message" || event.kind === "edit") {
      upsert(event.message);
    } else if (event.kind === "delete") {
      remove(event.chat_id, event.message_id);
    } else if (event.kind === "toast") {
      toast(event);
    } else if (event.kind === "content") {
      showContentErrors(event.errors);
    }
  };
}

function fillPeople() {
  const select = $("person");
  if (!state.person || !state.people.some((p) => p.key === state.person)) {
    state.person = new URLSearchParams(location.search).get("as") || state.people[1].key;
  }
  select.replaceChildren(...state.people.map((p) => el("option", { value: p.key, text: `${p.name} (${p.role})` })));
  select.value = state.person;
}

document.addEventListener("DOMContentLoaded", () => {
  $("person").addEventListener("change", (e) => { state.person = e.target.value; drawChat(); });
  for (const radio of document.querySelectorAll("input[name=chat]")) {
    radio.addEventListener("change", (e) => { state.where = e.target.value; drawChat(); scrollDown(); });
  }
  const where = new URLSearchParams(location.search).get("chat");
  if (where === "group" || where === "channel") { state.where = where; $(`chat-${where}`).checked = true; }
  $("compose").addEventListener("submit", send);
  $("attach").addEventListener("change", showAttachment);
  $("mini-app-close").addEventListener("click", closeMiniApp);
  $("mini-app-back").addEventListener("click", backInMiniApp);
  window.addEventListener("message", fromMiniApp);
  document.addEventListener("keydown", (e) => { if (e.key === "Escape") closeMiniApp(); });
  connect();
});
