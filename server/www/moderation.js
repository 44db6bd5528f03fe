// @ts-check
// Keeping the community: the #/moderation page for moderators and admins (open reports with
// the reported chat, bans and mutes in force, rooms live, players online, the moderation log,
// and a form to act on an account), the report and block buttons of the table and the profile,
// and the notice a banned or muted player gets.

import { byId, el, fill } from "./dom.js";
import { say } from "./session.js";
import { request } from "./requests.js";
import { backLinks, playerLink } from "./links.js";
import { pageTurn } from "./shown.js";
/** @typedef {import("./session.js").Table} Table */

/** @param {number | null} at */
const when = (at) => (at === null ? "for good" : new Date(at * 1000).toLocaleString());

/** @param {unknown} error */
const reason = (error) => (error instanceof Error ? error.message : String(error));

/** Tell the player they are banned or muted (they stay told until the page reloads).
 * @param {MugginsServer.Sanctioned} msg */
export function sanctioned(msg) {
  const box = byId("sanction");
  box.textContent = msg.text;
  box.hidden = msg.kind === "mute" && msg.until !== null && msg.until <= 0;
  if (msg.text === "You may chat again") box.hidden = true;
  say(msg.text);
}

/** Send one moderation message; the sentence of its answer (or of its refusal).
 * @param {Table} t @param {MugginsClient.Message} message @returns {Promise<string>} */
async function act(t, message) {
  try {
    const reply = await request(t.link, message);
    return reply.type === "moderated" ? reply.text : "Done";
  } catch (error) {
    return reason(error);
  }
}

/** A "Report" button that opens a small form for the reason, then sends the report.
 * @param {Table} t @param {string} name @param {{room?: string, line?: string, game?: string}} where
 * @param {string} label */
export function reportButton(t, name, where, label = "Report") {
  const status = el("span", { class: "small", role: "status" });
  const input = el("input", { maxlength: 500, "aria-label": `Why report ${name}`, class: "report-reason" });
  const form = el("form", { class: "report-form", hidden: "" }, input, " ",
    el("button", { type: "submit" }, "Send the report"));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const text = /** @type {HTMLInputElement} */ (input).value.trim();
    if (!text) return;
    status.textContent = await act(t, { type: "report", name, reason: text, ...where });
    form.hidden = true;
  });
  const open = el("button", { type: "button", class: "report", "aria-label": `Report ${name}` }, label);
  open.addEventListener("click", () => { form.hidden = false; /** @type {HTMLInputElement} */ (input).focus(); });
  return el("span", { class: "report-box" }, open, form, " ", status);
}

/** "Block" (never paired by the queue) and "Hide chat" for a registered player.
 * @param {Table} t @param {string} name */
export function blockButtons(t, name) {
  const status = el("span", { class: "small", role: "status" });
  const button = (/** @type {"block" | "hide_chat"} */ what, /** @type {string} */ label) => {
    const b = el("button", { type: "button", class: what === "block" ? "block" : "hide-chat" }, label);
    b.addEventListener("click", async () => {
      status.textContent = await act(t, { type: "block", name, what });
    });
    return b;
  };
  return el("span", { class: "block-box" }, button("block", `Block ${name}`), " ",
    button("hide_chat", `Hide ${name}'s chat`), " ", status);
}

/** The table's report/block row, for the opponent (drawn again only when they change, so a
 * report being written survives the game's redraws). @param {Table} t */
export function tableModeration(t) {
  const row = byId("table-moderation");
  const room = t.s.room;
  const me = room?.you;
  const other = room && me !== null && me !== undefined ? room.seats[1 - me] : null;
  const key = room && other && other.kind === "human" && other.name ? `${room.code}|${other.name}` : "";
  if (row.dataset.key === key) return;
  row.dataset.key = key;
  if (!room || !other || !key) return fill("table-moderation");
  fill("table-moderation", reportButton(t, other.name, { room: room.code }, `Report ${other.name}`), " ",
    blockButtons(t, other.name));
}

/** @param {MugginsServer.ReportItem} r @param {Table} t */
function reportRow(r, t) {
  return el("li", { "data-report": r.id },
    el("time", {}, when(r.at)), " ", el("strong", {}, r.by), " reports ", playerLink(r.name),
    r.room ? ` in room ${r.room}` : "", `: ${r.reason}`,
    r.line ? el("blockquote", { class: "reported-line" }, `${r.line.sender}: ${r.line.text}`) : null,
    r.chat.length ? el("details", {}, el("summary", {}, `The room's chat (${r.chat.length} lines)`),
      el("ul", {}, ...r.chat.map((line) => el("li", {}, el("strong", {}, line.sender), `: ${line.text}`)))) : null,
    el("button", { type: "button", class: "close-report", onclick: async () => {
      say(await act(t, { type: "moderate", action: "close_report", report: r.id }));
      t.render();
    } }, "Close the report"));
}

/** The form acting on an account. @param {Table} t */
function actionForm(t) {
  const field = (/** @type {string} */ id, /** @type {string} */ label, /** @type {Record<string, string | number>} */ attrs = {}) =>
    el("p", {}, el("label", { for: id }, label), " ", el("input", { id, ...attrs }));
  const action = el("select", { id: "mod-action" },
    ...["ban", "unban", "mute", "unmute", "rename", "void", "close_room"].map((a) => el("option", { value: a }, a.replace("_", " "))));
  const status = el("p", { id: "mod-status", role: "status" });
  const form = el("form", { id: "mod-form" },
    el("p", {}, el("label", { for: "mod-action" }, "Action"), " ", action),
    field("mod-name", "Account", { maxlength: 64, autocomplete: "off" }),
    field("mod-minutes", "Minutes (empty: for good)", { type: "number", min: 1 }),
    el("p", {}, el("label", {}, el("input", { type: "checkbox", id: "mod-address" }), " its address too (ban)")),
    field("mod-new-name", "New name (rename)", { maxlength: 24, autocomplete: "off" }),
    field("mod-target", "Game or room (void, close room)", { maxlength: 40, autocomplete: "off" }),
    field("mod-reason", "Reason", { maxlength: 500, autocomplete: "off" }),
    el("button", { type: "submit", id: "mod-submit", class: "primary" }, "Do it"), status);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const value = (/** @type {string} */ id) => /** @type {HTMLInputElement} */ (byId(id)).value.trim();
    const kind = /** @type {HTMLSelectElement} */ (action).value;
    const minutes = Number(value("mod-minutes"));
    /** @type {Record<string, unknown>} */
    const message = { type: "moderate", action: kind, reason: value("mod-reason") };
    if (value("mod-name")) message.name = value("mod-name");
    if (minutes > 0) message.minutes = Math.round(minutes);
    if (/** @type {HTMLInputElement} */ (byId("mod-address")).checked) message.address = true;
    if (value("mod-new-name")) message.new_name = value("mod-new-name");
    if (kind === "void") message.game = value("mod-target");
    if (kind === "close_room") message.room = value("mod-target");
    const text = await act(t, /** @type {MugginsClient.Message} */ (/** @type {unknown} */ (message)));
    status.textContent = text;
    say(text);
    await moderationPage(t, text);
  });
  return form;
}

/** Draw the moderation page. @param {Table} t @param {string} [done] what was just done */
export async function moderationPage(t, done = "") {
  const turn = pageTurn();
  let view;
  try {
    view = await request(t.link, { type: "moderation" });
  } catch (error) {
    if (turn !== pageTurn()) return;
    fill("page-body", el("h2", { id: "page-title", tabindex: "-1" }, "Moderation"),
      el("p", { class: "error", role: "alert", id: "mod-refused" }, reason(error)), backLinks());
    return;
  }
  if (turn !== pageTurn() || view.type !== "moderation") return;
  fill("page-body",
    el("h2", { id: "page-title", tabindex: "-1" }, "Moderation"),
    done ? el("p", { id: "mod-done", role: "status" }, done) : null,
    el("h3", {}, `Open reports (${view.reports.length}), oldest first`),
    view.reports.length ? el("ol", { id: "reports" }, ...view.reports.map((r) => reportRow(r, t))) : el("p", { id: "reports-none" }, "No open reports."),
    el("h3", {}, "Act on an account"),
    actionForm(t),
    el("h3", {}, "Bans and mutes in force"),
    el("ul", { id: "sanctions" }, ...view.sanctions.map((s) => el("li", { "data-name": s.name, "data-kind": s.kind },
      `${s.kind === "ban" ? "Banned" : "Muted"}: `, playerLink(s.name), ` until ${when(s.until)} by ${s.by}${s.reason ? ": " + s.reason : ""}${s.address ? " (and the address)" : ""}`))),
    el("h3", {}, "Rooms live"),
    el("ul", { id: "live-rooms" }, ...view.rooms.map((r) => el("li", { "data-room": r.code },
      `${r.code}: ${r.names[0]} v ${r.names[1]}, ${r.status}${r.rated ? ", rated" : ""}`))),
    el("h3", {}, "Players online"),
    el("p", { id: "online" }, view.online.join(", ") || "nobody"),
    el("h3", {}, "The moderation log, newest first"),
    el("ol", { id: "mod-log" }, ...view.log.map((e) => el("li", {},
      el("time", {}, when(e.at)), ` ${e.by}: ${e.action} ${e.target}${e.reason ? " (" + e.reason + ")" : ""}`))),
    backLinks());
  byId("page-title").focus();
}
