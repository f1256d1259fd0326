/// `run.js`: one run — its facts, inputs (secrets arrive masked), outputs, and a timeline of its
/// steps with every call's parameters, output and error; redrawn live while it runs. Its cancel,
/// resume and roll back buttons follow the rules the API reports (disabled with the reason), roll
/// back shows the preview (undo / keep) before anything happens, and every click ends in a visible
/// result or error.
enum RunScript {
    static let text = #"""
    import { h, clear, statusBadge, time, duration, longText, show } from "/assets/dom.js";
    import { get, post, events } from "/assets/api.js";

    export async function renderRun(main, id) {
      const head = h("div");
      const buttons = h("div.action-buttons");
      // The preview, a choice, or the outcome of the last click: kept across redraws.
      const panel = h("div.action-panel", { role: "status", "aria-live": "polite" });
      const container = h("div");
      main.append(head, h("section.actions", { "aria-label": "Actions" }, buttons, panel), container);
      // What the engine reported of steps the journal does not show yet (a read-only call is
      // written a moment after it starts): step → { status, skill, parameters }.
      const live = new Map();
      let status = null;
      async function draw() {
        const run = await get("runs/" + encodeURIComponent(id));
        status = run.status;
        // A click that started work (resume, rollback, cancel) says when that work ended.
        if (panel.dataset.pending && run.status !== "running") {
          say(panel, "ok", `Done: its status is now ${run.status.replaceAll("_", " ")}.`);
        }
        clear(head).appendChild(heading(run));
        clear(buttons).append(...actionButtons(run, panel, () => draw()));
        clear(container).appendChild(view(run, live));
        return run;
      }
      await draw();
      let pending = null;
      const redraw = () => {
        if (pending) return;
        pending = setTimeout(async () => { pending = null; await draw(); }, 150);
      };
      const stop = events(id, (event) => {
        if (event.step) {
          const known = live.get(event.step) || {};
          if (event.type === "step.started") live.set(event.step, { status: "running", skill: event.skill, parameters: event.parameters });
          else if (event.type === "step.succeeded") live.set(event.step, { ...known, status: "succeeded", output: event.output });
          else if (event.type === "step.failed") live.set(event.step, { ...known, status: "failed", error: event.error });
        }
        redraw();
      }, redraw);
      // A safety net while it runs: the journal read again every few seconds.
      const timer = setInterval(() => { if (status === "running") redraw(); }, 3000);
      return () => { stop(); clearInterval(timer); if (pending) clearTimeout(pending); };
    }

    function heading(run) {
      const facts = h("dl.facts", {},
        fact("Status", statusBadge(run.status)),
        fact("Playbook", h("a", { href: "/playbooks/" + encodeURIComponent(run.playbook) }, run.playbook)),
        fact("Run", h("span.mono", {}, run.id)),
        fact("Trigger", run.trigger),
        fact("Started", time(run.started)),
        fact("Duration", run.status === "running" ? "running…" : duration(run.duration)));
      return h("div", {}, h("h1", {}, "Run of ", run.playbook), facts);
    }

    function view(run, live) {
      const parts = [];
      if (run.error) parts.push(h("p.error", { role: "alert" }, run.error));
      if (run.interruption) parts.push(h("p.error", {}, "Interrupted: ", run.interruption));
      parts.push(h("h2", {}, "Inputs"), keyValues(run.inputs));
      if (run.outputs && Object.keys(run.outputs).length) parts.push(h("h2", {}, "Outputs"), keyValues(run.outputs));
      parts.push(h("h2", {}, "Steps"), timeline(run, live));
      return h("div.run", { "data-status": run.status }, parts);
    }

    // One button per action; a refused one is disabled and says why, next to it.
    function actionButtons(run, panel, redraw) {
      const actions = run.actions || {};
      const make = (name, label, onClick) => {
        const rule = actions[name] || { allowed: false, reason: "unknown" };
        const button = h("button" + (name === "rollback" ? ".danger" : ""), { type: "button", "data-action": name,
          disabled: !rule.allowed, "aria-describedby": rule.allowed ? null : "why-" + name }, label);
        button.addEventListener("click", () => onClick(button));
        return h("span.action", {}, button, rule.allowed ? null : h("small.muted", { id: "why-" + name }, rule.reason));
      };
      const busy = async (button, work) => {
        button.disabled = true;
        try { await work(); } catch (error) { say(panel, "error", error.message, error.body); }
        finally { await redraw(); }
      };
      return [
        make("cancel", "Cancel", (button) => busy(button, async () => {
          await post(`runs/${encodeURIComponent(run.id)}/cancel`, {});
          say(panel, "ok", "Cancelling: the run stops and rolls back what it completed.", null, true);
        })),
        make("resume", "Resume", (button) => busy(button, () => resume(run, panel, {}, redraw))),
        make("rollback", "Roll back…", (button) => busy(button, () => preview(run, panel, redraw))),
      ];
    }

    // Writes the outcome of a click in the panel; `pending`: work goes on, and the next read of the
    // run that finds it ended says so.
    function say(panel, kind, message, body, pending = false) {
      if (pending) panel.dataset.pending = "1"; else delete panel.dataset.pending;
      clear(panel).append(h(kind === "error" ? "p.error" : "p.notice", kind === "error" ? { role: "alert" } : {}, message));
      for (const d of (body && body.diagnostics) || []) panel.append(h("p.error", {}, d.message));
    }

    // Resume; when the run has calls with no recorded result, or secrets to give again, asks first.
    async function resume(run, panel, choice, redraw) {
      try {
        await post(`runs/${encodeURIComponent(run.id)}/resume`, choice);
        say(panel, "ok", "Resumed: the run goes on from where it stopped.", null, true);
      } catch (error) {
        const body = error.body || {};
        if (error.status === 409 && body.uncertain) { uncertainChoice(run, panel, body, choice, redraw); return; }
        if (error.status === 409 && body.secrets) { secretsForm(run, panel, body, choice, redraw); return; }
        throw error;
      }
    }

    function uncertainChoice(run, panel, body, choice, redraw) {
      const go = (uncertain) => async () => {
        try { await resume(run, panel, { ...choice, uncertain }, redraw); } catch (error) { say(panel, "error", error.message, error.body); }
        await redraw();
      };
      clear(panel).append(h("div.preview", { "data-panel": "uncertain" },
        h("h3", {}, "Calls with no recorded result"),
        h("p", {}, body.uncertain.length === 1
          ? "This call started, but its process stopped before recording a result: it may or may not have taken effect, and running it again could do it twice."
          : "These calls started, but their process stopped before recording a result: they may or may not have taken effect, and running them again could do them twice."),
        h("ul", {}, body.uncertain.map((c) => h("li", {}, h("span.mono", {}, c.key), ` · ${c.skill} · started ${time(c.started)}`))),
        h("p.muted", {}, "Check whether it took effect, then choose."),
        h("div.choices", {},
          h("button", { type: "button", "data-choice": "rerun", onclick: go("rerun") }, "Run them again"),
          h("button", { type: "button", "data-choice": "skip", onclick: go("skip") }, "Count them as done"),
          h("button.link", { type: "button", onclick: () => say(panel, "ok", "Not resumed; nothing was run.") }, "Do nothing"))));
    }

    function secretsForm(run, panel, body, choice, redraw) {
      const fields = body.secrets.map((name) => ({ name, input: h("input", { type: "password", id: "secret-" + name, autocomplete: "off" }) }));
      const form = h("form.preview", { "data-panel": "secrets" }, h("p", {}, body.error),
        fields.map((f) => h("div.field", {}, h("label", { for: "secret-" + f.name }, f.name), f.input)),
        h("button", { type: "submit" }, "Resume"));
      form.addEventListener("submit", async (event) => {
        event.preventDefault();
        const secrets = {};
        for (const f of fields) secrets[f.name] = f.input.value;
        try { await resume(run, panel, { ...choice, secrets }, redraw); } catch (error) { say(panel, "error", error.message, error.body); }
        await redraw();
      });
      clear(panel).append(form);
    }

    // The preview of a rollback: what will be undone, what stays done; nothing happens until "Undo".
    async function preview(run, panel, redraw) {
      const plan = await get(`runs/${encodeURIComponent(run.id)}/rollback`);
      const list = (items, empty) => items.length
        ? h("ul", {}, items.map((i) => h("li", {}, h("span.mono", {}, i.key), " · ", i.skill, i.by_rollback_steps ? " (its rollback steps)" : "")))
        : h("p.muted", {}, empty);
      const undo = h("button.danger", { type: "button", "data-choice": "undo" }, "Undo");
      const keep = h("button", { type: "button", "data-choice": "keep" }, "Keep");
      clear(panel).append(h("div.preview", { "data-panel": "rollback" },
        h("h3", {}, "Roll back this run?"),
        plan.needs_approval ? h("p", {}, `It ${plan.run.status.replaceAll("_", " ")}: undoing it is a new decision.`) : null,
        h("h4", {}, "Will be undone (newest first)"), list(plan.undo, "Nothing to undo."),
        h("h4", {}, "Kept: cannot be undone"), list(plan.keep, "Nothing."),
        plan.uncertain.length ? [h("h4", {}, "Unknown: the result was never recorded"),
          h("ul", {}, plan.uncertain.map((c) => h("li.mono", {}, c.described)))] : null,
        h("div.choices", {}, undo, keep)));
      keep.addEventListener("click", () => say(panel, "ok", "Kept: nothing was undone."));
      undo.addEventListener("click", async () => {
        undo.disabled = true; keep.disabled = true;
        try {
          await post(`runs/${encodeURIComponent(run.id)}/rollback`, { approve: true });
          say(panel, "ok", "Rolling back: each completed call is undone, newest first.", null, true);
        } catch (error) { say(panel, "error", error.message, error.body); }
        await redraw();
      });
    }

    function fact(name, value) {
      return [h("dt", {}, name), h("dd", {}, value)];
    }

    function keyValues(object) {
      const entries = Object.entries(object || {});
      if (entries.length === 0) return h("p.muted", {}, "none");
      return h("dl.values", {}, entries.map(([key, value]) => [h("dt", {}, key), h("dd", {}, longText(value))]));
    }

    // Steps in the order they first appear, each with its calls (attempts, batches, items) and end.
    function timeline(run, live) {
      const order = [];
      const steps = new Map();
      const entry = (name) => {
        if (!steps.has(name)) { steps.set(name, { name, calls: [], ends: [], compensations: [] }); order.push(name); }
        return steps.get(name);
      };
      for (const call of run.calls) entry(call.step).calls.push(call);
      // A big run's items beyond the first of each step, counted by the server, not listed.
      for (const left of run.calls_left_out || []) entry(left.step).leftOut = left;
      for (const end of run.steps) entry(end.step).ends.push(end);
      for (const compensation of run.compensations) entry(compensation.step).compensations.push(compensation);
      for (const [name, reported] of live) entry(name).live = reported;
      if (order.length === 0) return h("p.muted", {}, run.status === "running" ? "Starting…" : "No step ran.");
      return h("ol.timeline", {}, order.map((name) => step(steps.get(name), run.status === "running", run.id)));
    }

    // A call with no result is in progress while its run goes on; after that, its process stopped
    // during it (resume decides what to do with it).
    function step(item, going, runID) {
      const end = item.ends[item.ends.length - 1];
      const unfinished = !end && item.calls.some((c) => !c.finished);
      const running = unfinished && going;
      const reported = item.live;
      // A call with no result in a run that stopped: its process stopped during it.
      const status = end ? end.status : running ? "running" : unfinished ? "interrupted" : reported ? reported.status : "pending";
      const skill = item.calls.length ? item.calls[0].skill : reported && reported.skill;
      const total = item.calls.length + (item.leftOut ? item.leftOut.count : 0);
      const summary = h("summary", {},
        statusBadge(status), " ",
        h("strong", {}, item.name),
        skill ? h("span.muted", {}, ` · ${skill}`) : null,
        total ? h("span.muted", {}, ` · ${total} call${total === 1 ? "" : "s"}`) : null,
        item.compensations.length ? [" ", h("span.badge.s-rolled_back", {}, "undone")] : null);
      const body = [];
      for (const call of item.calls) {
        // A step's single first call needs no heading of its own.
        const plain = item.calls.length === 1 && call.key === item.name && call.attempt === 1 && !call.compensated && (!call.uncertain || going);
        const label = call.key + (call.attempt > 1 ? ` · attempt ${call.attempt}` : "");
        body.push(h("div.call" + (plain ? ".plain" : ""), { "data-key": call.key },
          plain ? null : h("h4", {}, label, call.compensated ? " · undone" : "", call.uncertain ? (going ? " · in progress…" : " · no result (process stopped)") : ""),
          h("h5", {}, "Parameters"), longText(call.parameters),
          call.output !== null ? [h("h5", {}, "Output"), longText(call.output)] : null,
          call.error ? [h("h5", {}, "Error"), h("pre.value.error", {}, call.error)] : null));
      }
      if (item.leftOut) {
        const left = item.leftOut;
        const outcomes = [["succeeded", left.succeeded], ["failed", left.failed], ["with no result", left.uncertain]]
          .filter(([, n]) => n > 0).map(([what, n]) => `${n} ${what}`).join(", ");
        body.push(h("p.muted", { "data-left-out": String(left.count) },
          `${left.count} more (${left.first} … ${left.last}): ${outcomes}. `, h("span.mono", {}, `skillbook runs show ${runID} --json`), " lists every one."));
      }
      if (item.calls.length === 0 && reported) {
        // Not in the journal yet: what the engine reported.
        if (reported.parameters) body.push(h("h5", {}, "Parameters"), longText(reported.parameters));
        if (reported.output !== undefined) body.push(h("h5", {}, "Output"), longText(reported.output));
        if (reported.error) body.push(h("h5", {}, "Error"), h("pre.value.error", {}, reported.error));
      }
      if (end && end.error && !item.calls.some((c) => c.error === end.error)) body.push(h("pre.value.error", {}, end.error));
      for (const compensation of item.compensations) {
        body.push(compensation.error
          ? h("p.error", {}, `Undoing ${compensation.key} failed: ${compensation.error}`)
          : h("p.muted", {}, `${compensation.key} undone at ${time(compensation.finished)}`));
      }
      return h("li.step", { "data-step": item.name, "data-status": status },
        h("details", { open: status === "failed" || status === "running" || item.calls.length <= 2 }, summary, body));
    }
    """#
}
