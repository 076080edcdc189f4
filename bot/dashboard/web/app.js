// The teacher's dashboard: classes, a class at a glance, the learner × question grid.
// Every text is put in as text (never as HTML). Telegram's script gives initData, the theme
// and the Back button; without it (a plain browser), they are read from the page's address,
// as Telegram passes them, and the page's own Back button is used.
"use strict";

const tg = window.Telegram && window.Telegram.WebApp;
const launch = new URLSearchParams(location.hash.slice(1));
const initData = (tg && tg.initData) || launch.get("tgWebAppData") || "";
let language = "";
let strings = {};
let bankFormats = [];  // the bank's formats, for a bot admin (none for anyone else)
const history = [];

function t(key) {
  return strings[key] || key;
}

function node(tag, attributes, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes || {})) {
    if (name === "class") element.className = value;
    else if (name.startsWith("on")) element.addEventListener(name.slice(2), value);
    else element.setAttribute(name, value);
  }
  for (const child of children) {
    if (child === null || child === undefined) continue;
    element.append(typeof child === "string" ? document.createTextNode(child) : child);
  }
  return element;
}

async function api(path, method) {
  const separator = path.includes("?") ? "&" : "?";
  const url = "api/" + path + (language ? separator + "lang=" + encodeURIComponent(language) : "");
  const response = await fetch(url, { method: method || "GET", headers: { Authorization: "tma " + initData } });
  if (!response.ok) {
    const error = new Error(String(response.status));
    error.status = response.status;
    throw error;
  }
  return response.json();
}

let focusHeading = false;  // a view opened by the person: the keyboard starts at its heading

function show(title, ...content) {
  const heading = document.getElementById("heading");
  heading.textContent = title;
  document.getElementById("main").replaceChildren(...content.filter((part) => part !== null));
  window.scrollTo(0, 0);  // a view starts at its top, not where the last one was scrolled
  if (focusHeading) heading.focus({ preventScroll: true });
  focusHeading = false;
  document.getElementById("back").setAttribute("aria-label", t("app_back"));
  const canGoBack = history.length > 1;
  document.getElementById("back").hidden = !canGoBack || Boolean(tg && tg.BackButton);
  if (tg && tg.BackButton) {
    if (canGoBack) tg.BackButton.show();
    else tg.BackButton.hide();
  }
}

function open(view) {
  history.push(view);
  focusHeading = history.length > 1;
  return render();
}

function back() {
  if (history.length > 1) {
    history.pop();
    focusHeading = true;
    render();
  }
}

async function render() {
  const view = history[history.length - 1];
  try {
    await view();
  } catch (error) {
    const key = error.status === 401 ? "app_error_signed" : error.status === 403 ? "app_error_forbidden" : "app_error";
    show(t("app_title"), node("p", { class: "error", role: "alert" }, t(key)));
  }
}

function date(seconds) {
  return new Date(seconds * 1000).toLocaleString(language || undefined, {
    dateStyle: "medium",
    timeStyle: "short",
  });
}

async function classes() {
  const chats = await api("chats");
  if (!chats.length) {
    show(t("app_title"), node("p", { class: "muted" }, t("app_no_classes")));
    return;
  }
  const items = chats.map((chat) =>
    node("li", {}, node("button", { type: "button", onclick: () => open(() => classView(chat.id)) },
      node("span", {}, chat.title || String(chat.id)),
      node("span", { class: "chevron", "aria-hidden": "true" }, "›"))));
  show(t("app_title"), node("h2", {}, t("app_my_classes")), node("ul", { class: "list" }, ...items));
}

async function classView(chatId) {
  const [data, weeks] = await Promise.all([api("chats/" + chatId), api("chats/" + chatId + "/weeks")]);
  const homework = data.homework.map((item) =>
    node("li", {}, node("button", { type: "button", onclick: () => open(() => gridView(chatId, "homework=" + item.id)) },
      node("span", {}, item.title),
      node("span", { class: "meta" },
        (item.exam ? t("app_exam") + " · " : "") +
        (item.open ? t("app_open") : t("app_closed")) + " · " + t("app_done") + " " + item.done +
        "/" + item.opened + " · " + date(item.deadline)))));
  const sessions = data.sessions.map((item) =>
    node("li", {}, node("button", { type: "button", onclick: () => open(() => gridView(chatId, "session=" + item.id)) },
      node("span", {}, item.title),
      node("span", { class: "meta" }, (item.running ? t("app_running") + " · " : "") + date(item.started_at)))));
  show(data.title || String(chatId),
    node("h2", {}, t("app_homework")),
    homework.length ? node("ul", { class: "list" }, ...homework) : node("p", { class: "muted" }, t("app_none")),
    node("h2", {}, t("app_group_quizzes")),
    sessions.length ? node("ul", { class: "list" }, ...sessions) : node("p", { class: "muted" }, t("app_none")),
    hardestView(data.hardest),
    leechesView(data.leeches),
    weeksView(weeks));
}

function hardestView(hardest) {
  if (!hardest.length) return null;
  return node("section", { "aria-labelledby": "hardest-heading" },
    node("h2", { id: "hardest-heading" }, t("app_hardest")),
    node("p", { class: "muted small" }, t("app_hardest_hint")),
    node("ul", { class: "facts" }, ...hardest.map((item) =>
      node("li", {},
        node("span", { class: "fact-text" }, item.number + ". " + item.text),
        node("span", { class: "meta" }, item.right + "% " + t("app_right") + " · " + item.answered + " " + t("app_answered") + " · " + item.title)))));
}

function leechesView(leeches) {
  if (!leeches.length) return null;
  return node("section", { "aria-labelledby": "leeches-heading" },
    node("h2", { id: "leeches-heading" }, t("app_leeches")),
    node("p", { class: "muted small" }, t("app_leeches_hint")),
    node("ul", { class: "facts" }, ...leeches.map((item) =>
      node("li", {},
        node("span", { class: "fact-text" }, node("b", {}, item.name), " · " + item.number + ". " + item.text),
        node("span", { class: "meta" }, item.lapses + " " + t("app_lapses") + " · " + item.title)))));
}

// --- the class week by week: an SVG chart (bars: answers; dots and a line: right %) with its
// numbers in a table beside it, for screen readers and for reading exact figures

const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attributes, ...children) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes || {})) element.setAttribute(name, String(value));
  for (const child of children) element.append(typeof child === "string" ? document.createTextNode(child) : child);
  return element;
}

function shortDate(seconds) {
  return new Date(seconds * 1000).toLocaleDateString(language || undefined, { day: "numeric", month: "short", timeZone: "UTC" });
}

function weeksView(data) {
  const weeks = data.weeks, summary = data.summary;
  const heading = node("h2", { id: "weeks-heading" }, t("app_weeks"));
  if (!weeks.some((week) => week.answers > 0)) return node("section", {}, heading, node("p", { class: "muted" }, t("app_none")));
  const width = 360, height = 156, top = 16, bottom = 22, step = width / weeks.length;
  const most = Math.max(...weeks.map((week) => week.answers));
  const y = (share) => top + (height - top - bottom) * (1 - share);
  const chart = svg("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", "aria-labelledby": "weeks-title weeks-desc", class: "chart" },
    svg("title", { id: "weeks-title" }, t("app_weeks")),
    svg("desc", { id: "weeks-desc" }, summary),
    svg("line", { x1: 0, x2: width, y1: y(0), y2: y(0), class: "axis" }),
    ...[0.5, 1].flatMap((share) => [
      svg("line", { x1: 0, x2: width, y1: y(share), y2: y(share), class: "grid-line" }),
      svg("text", { x: 2, y: y(share) - 3, class: "tick" }, share * 100 + "%")]));
  const points = [];
  weeks.forEach((week, index) => {
    const x = index * step;
    if (week.answers) {
      chart.append(svg("rect", { x: x + step * 0.2, width: step * 0.6, y: y(week.answers / most), height: y(0) - y(week.answers / most), class: "bar" }));
      if (week.answers === most) {
        chart.append(svg("text", { x: x + step / 2, y: y(1) + 10, "text-anchor": "middle", class: "tick count" }, String(most)));
      }
    }
    if (week.right !== null) points.push([x + step / 2, y(week.right / 100)]);
    if (index % 3 === weeks.length % 3 - 1 || index === weeks.length - 1) {
      const last = index === weeks.length - 1;
      chart.append(svg("text", { x: last ? width : x + step / 2, y: height - 6, "text-anchor": last ? "end" : "middle", class: "tick" }, shortDate(week.starts_at)));
    }
  });
  if (points.length > 1) chart.append(svg("polyline", { points: points.map((p) => p.join(",")).join(" "), class: "line" }));
  for (const [x, py] of points) chart.append(svg("circle", { cx: x, cy: py, r: 3.5, class: "dot" }));
  const legend = node("p", { class: "legend" },
    node("span", {}, node("span", { class: "key bar-key" }), " ", t("app_answers")),
    node("span", {}, node("span", { class: "key dot-key" }), " ", t("app_right_pct")));
  const rows = weeks.filter((week) => week.answers).map((week) =>
    node("tr", {}, node("th", { scope: "row" }, shortDate(week.starts_at)),
      node("td", {}, String(week.answers)), node("td", {}, String(week.learners)),
      node("td", {}, week.right === null ? "–" : week.right + "%")));
  const table = node("table", { class: "numbers" },
    node("thead", {}, node("tr", {}, node("th", { scope: "col" }, t("app_week")), node("th", { scope: "col" }, t("app_answers")),
      node("th", { scope: "col" }, t("app_learners_col")), node("th", { scope: "col" }, t("app_right_pct")))),
    node("tbody", {}, ...rows));
  return node("section", { "aria-labelledby": "weeks-heading" }, heading,
    node("p", { class: "muted" }, summary), chart, legend,
    node("details", {}, node("summary", {}, t("app_as_table")), table));
}

const MARKS = {
  right: { symbol: "✓", key: "app_right", sample: 1 },
  wrong: { symbol: "✗", key: "app_wrong", sample: 0 },
  part: { symbol: "½", key: "app_partly", sample: 0.5 },
  none: { symbol: "·", key: "app_unanswered", sample: null },
};

// a mark is the credit the answer was given, as in the report's file: 1 right, 0 wrong, a part
// between, below 0 a wrong answer a weight marks down; null not answered
function markKind(mark) {
  if (mark === null) return "none";
  if (mark >= 1) return "right";
  if (mark <= 0) return "wrong";
  return "part";
}

function markCell(mark) {
  const kind = markKind(mark);
  const counted = kind === "part" || (kind === "wrong" && mark < 0);
  const label = t(MARKS[kind].key) + (counted ? " " + Math.round(mark * 100) + "%" : "");
  return node("span", { class: "m " + kind, title: label, "aria-label": label }, MARKS[kind].symbol);
}

function share(grid, column) {
  const marks = grid.learners.map((learner) => learner.marks[column]).filter((mark) => mark !== null);
  return marks.length ? Math.round((100 * marks.reduce((sum, mark) => sum + mark, 0)) / marks.length) + "%" : "–";
}

async function gridView(chatId, query) {
  const grid = await api("chats/" + chatId + "/grid?" + query);
  if (grid.hidden) {
    const done = grid.learners.map((learner) =>
      node("li", {}, node("span", {}, learner.name),
        node("span", { class: learner.done ? "meta done" : "meta" }, learner.done ? "✓ " + t("app_done") : t("app_not_done"))));
    show(grid.title,
      node("p", { class: "muted" }, t("app_exam") + " · " + t("app_deadline") + " " + date(grid.deadline)),
      node("p", { class: "notice" }, t("app_exam_hidden")),
      done.length ? node("ul", { class: "facts done-list" }, ...done) : node("p", { class: "muted" }, t("app_none")));
    return;
  }
  const fared = await api("chats/" + chatId + "/questions?" + query);
  let order = { by: "total", column: -1, descending: true };
  const table = node("table", {});
  const wrap = node("div", { class: "grid-wrap", tabindex: "0", role: "region", "aria-label": grid.title }, table);

  function sortedLearners() {
    const rows = grid.learners.slice();
    const value = (learner) =>
      order.by === "name" ? learner.name.toLocaleLowerCase() :
      order.by === "total" ? learner.total :
      (learner.marks[order.column] === null ? -1 : learner.marks[order.column]);
    rows.sort((a, b) => {
      const x = value(a), y = value(b);
      const result = x < y ? -1 : x > y ? 1 : a.name.localeCompare(b.name);
      return order.descending ? -result : result;
    });
    return rows;
  }

  function sortBy(by, column, place) {
    const same = order.by === by && order.column === column;
    order = { by, column, descending: same ? !order.descending : by !== "name" };
    draw();
    // the header is drawn anew: the keyboard stays on the button it pressed
    table.querySelectorAll("thead th button")[place].focus();
  }

  function header(label, sub, by, column, describe, place) {
    const active = order.by === by && order.column === column;
    return node("th", { scope: "col", "aria-sort": active ? (order.descending ? "descending" : "ascending") : "none" },
      node("button", { type: "button", title: describe, onclick: () => sortBy(by, column, place) }, label,
        sub === null ? null : node("span", { class: "pct" }, sub)));
  }

  function draw() {
    const head = node("tr", {},
      header(t("app_learner"), null, "name", -1, t("app_sort"), 0),
      ...grid.questions.map((question, index) =>
        header(String(question.number), share(grid, index), "question", index, question.text, index + 1)),
      header(t("app_total"), null, "total", -1, t("app_sort"), grid.questions.length + 1));
    const body = sortedLearners().map((learner) =>
      node("tr", {},
        node("th", { scope: "row" }, learner.name),
        ...learner.marks.map((mark) => node("td", {}, markCell(mark))),
        node("td", { class: "total" }, String(Math.round(learner.total * 10) / 10))));
    table.replaceChildren(node("thead", {}, head), node("tbody", {}, ...body));
  }

  draw();
  const legend = node("p", { class: "legend" },
    ...Object.values(MARKS).map((mark) => node("span", {}, markCell(mark.sample), " ", t(mark.key))));
  show(grid.title,
    node("p", { class: "muted" }, grid.counted + (grid.kind === "homework" ? " · " + t("app_deadline") + " " + date(grid.deadline) : "")),
    legend,
    grid.learners.length ? wrap : node("p", { class: "muted" }, t("app_none")),
    questionsView(fared.questions),
    grid.kind === "session" ? exportView(chatId, grid.session) : null,
    bankFormats.length ? bankView(grid.quiz) : null);
}

// each question: its right %, how many answered, the median time; opened, the question, the
// most common wrong answers and the explanation
function questionsView(questions) {
  const items = questions.map((question) => {
    const figures = question.answered
      ? [question.right + "% " + t("app_right"), question.answered + " " + t("app_answered")]
      : [t("app_unanswered")];
    if (question.seconds !== null) figures.push(t("app_median_time") + " " + question.seconds + " s");
    const wrong = question.wrong.length
      ? node("ul", { class: "wrong" }, ...question.wrong.map((answer) =>
        node("li", {}, node("span", {}, answer.answer), node("span", { class: "count" }, "×" + answer.count))))
      : node("p", { class: "muted" }, t("app_no_wrong"));
    return node("li", {}, node("details", { class: "question" },
      node("summary", {},
        node("span", { class: "q-line" }, node("b", {}, question.number + ". "), question.text),
        node("span", { class: "meta" }, figures.join(" · "))),
      node("div", { class: "q-body" },
        node("h3", {}, t("app_wrong_answers")), wrong,
        question.explanation ? node("h3", {}, t("app_explanation")) : null,
        question.explanation ? node("p", { class: "q-text" }, question.explanation) : null)));
  });
  return node("section", { "aria-labelledby": "questions-heading" },
    node("h2", { id: "questions-heading" }, t("app_questions")),
    node("p", { class: "muted small" }, t("app_questions_hint")),
    node("ul", { class: "questions" }, ...items));
}

// a file in each of its formats: sent into the person's chat, or downloaded from a link;
// `path(action, form)` is the API's path for it
function filesView(id, heading, hint, forms, path, fileName) {
  const status = node("p", { class: "muted", role: "status" });
  const rows = forms.map((form) =>
    node("div", { class: "export" },
      node("span", { class: "form" }, form.toUpperCase()),
      node("button", { type: "button", onclick: () => sendFile(path("send", form), status) }, t("app_send_to_chat")),
      node("button", { type: "button", onclick: () => downloadFile(path("link", form), fileName(form), status) }, t("app_download"))));
  return node("section", { "aria-labelledby": id },
    node("h2", { id }, heading), hint ? node("p", { class: "muted small" }, hint) : null, ...rows, status);
}

function exportView(chatId, sessionId) {
  return filesView("export-heading", t("app_report_file"), null, ["csv", "xlsx"],
    (action, form) => "chats/" + chatId + "/sessions/" + sessionId + "/" + action + "?format=" + form,
    (form) => "report." + form);
}

// the bank's files, as /export gives them: offered to the bot's admins alone
function bankView(quizId) {
  return filesView("bank-heading", t("app_bank_files"), t("app_bank_hint"), bankFormats,
    (action, form) => "banks/" + action + "?quiz=" + encodeURIComponent(quizId) + "&format=" + form,
    (form) => quizId + "." + form);
}

async function sendFile(path, status) {
  status.textContent = "…";
  try {
    await api(path, "POST");
    status.textContent = t("app_sent");
  } catch (error) {
    status.textContent = t(error.status === 409 ? "app_start_first" : "app_error");
  }
}

async function downloadFile(path, fileName, status) {
  status.textContent = "…";
  let made;
  try {
    made = await api(path, "POST");
  } catch (error) {
    status.textContent = t("app_error");
    return;
  }
  // the link is good once, for a few minutes: opened at once
  const url = new URL(made.url, location.href).href;
  status.textContent = "";
  if (tg && tg.isVersionAtLeast && tg.isVersionAtLeast("8.0") && tg.downloadFile) {
    tg.downloadFile({ url, file_name: fileName });
  } else if (tg && tg.openLink) {
    tg.openLink(url);
  } else {
    const link = node("a", { href: url, download: "" });
    document.body.append(link);
    link.click();
    link.remove();
  }
}

async function start() {
  if (tg) {
    tg.ready();
    tg.expand();
    tg.BackButton.onClick(back);
    if (tg.setHeaderColor) tg.setHeaderColor("bg_color");
  } else {
    const theme = launch.get("tgWebAppThemeParams");
    if (theme) {
      try {
        for (const [key, value] of Object.entries(JSON.parse(theme))) {
          if (/^[a-z_]+$/.test(key) && /^#[0-9a-fA-F]{3,8}$/.test(String(value))) {
            document.documentElement.style.setProperty("--tg-theme-" + key.replaceAll("_", "-"), value);
          }
        }
      } catch (error) {
        // a theme that does not parse leaves the page's own colours
      }
    }
  }
  document.getElementById("back").addEventListener("click", back);
  // Escape goes back too: a keyboard on a desktop client reaches Telegram's Back button
  // only through its own window
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && history.length > 1) back();
  });
  const select = document.getElementById("language");
  select.addEventListener("change", async () => {
    language = select.value;
    await loadStrings();
    render();
  });
  if (!initData) {
    show("Quiz Tutor", node("p", { class: "error", role: "alert" }, "Open this page from the bot's /dashboard button in Telegram."));
    return;
  }
  try {
    await loadStrings();
  } catch (error) {
    show("Quiz Tutor", node("p", { class: "error", role: "alert" }, "This link has expired: open the dashboard again from the bot."));
    return;
  }
  open(classes);
}

async function loadStrings() {
  const me = await api("me");
  language = me.language;
  strings = me.strings;
  bankFormats = me.bank_formats;
  document.documentElement.lang = language;
  const select = document.getElementById("language");
  select.replaceChildren(...me.languages.map((item) => {
    const option = node("option", { value: item.code }, item.name);
    option.selected = item.code === language;
    return option;
  }));
  document.getElementById("language-name").textContent = t("app_language");
}

start();
