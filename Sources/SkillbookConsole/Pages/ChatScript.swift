/// `chat.js`: the agent chat — messages, the decision card (layer, target, inputs, confidence), the
/// plan card with approve / decline, the run's live progress, and "save as playbook".
enum ChatScript {
    static let text = #"""
    import { h, clear, show, statusBadge } from "/assets/dom.js";
    import { get, post, events } from "/assets/api.js";

    const BUSY = new Set(["understanding", "planning", "running"]);

    export async function renderChat(main) {
      const log = h("ol.chat-log", { "aria-label": "Conversation", "aria-live": "polite" });
      const cards = h("div.chat-cards");
      const progress = h("section.chat-progress", { "aria-label": "Run", "aria-live": "polite" });
      const input = h("textarea", { id: "chat-input", rows: 2, maxlength: 4000, autocomplete: "off",
        placeholder: "Say what you want, e.g. “say hello to Ada” or “list my notes”" });
      const send = h("button.primary", { type: "submit" }, "Send");
      const fresh = h("button", { type: "button", "data-action": "reset" }, "New chat");
      const note = h("p.muted", { role: "status" });
      const form = h("form.chat-form", {}, h("label", { for: "chat-input" }, "Message"), input, h("div.choices", {}, send, fresh), note);
      main.append(h("h1", {}, "Chat"), h("div.chat", {}, log, cards, progress, form));

      let stopped = false;
      let timer = null;
      let followed = null;
      let loaded = null;
      let stopEvents = null;
      const steps = new Map();

      const draw = (state) => {
        clear(log).append(...state.messages.map((m) => h(`li.msg.${m.role}`, {},
          h("span.who", {}, m.role === "user" ? "You" : "Agent"), h("div.text", {}, m.text))));
        if (!state.messages.length) log.append(h("li.muted", {}, "Nothing said yet. Ask for something a playbook or skill here can do."));
        clear(cards);
        if (state.decision) cards.append(decisionCard(state.decision));
        if (state.plan) cards.append(planCard(state, act));
        if (state.can_save && !state.busy) cards.append(saveCard(note));
        drawRun(state);
        note.textContent = state.busy ? phaseText(state.phase) : "";
        send.disabled = state.busy;
        input.placeholder = state.phase === "awaiting_input" ? `Answer: ${(state.missing || [])[0] || ""}` : input.placeholder;
        clearTimeout(timer);
        if (!stopped && (state.busy || BUSY.has(state.phase))) timer = setTimeout(refresh, 600);
      };

      const drawRun = (state) => {
        if (!state.run) { clear(progress); return; }
        if (followed !== state.run) {
          followed = state.run;
          loaded = null;
          steps.clear();
          if (stopEvents) stopEvents();
          stopEvents = events(state.run, onEvent, () => {});
        }
        // Once the run has ended, its steps as the journal holds them (a quick run may end before
        // its event stream opened).
        if (!state.busy && loaded !== state.run) {
          loaded = state.run;
          get("runs/" + encodeURIComponent(state.run)).then((record) => {
            for (const s of record.steps) {
              const entry = steps.get(s.step) || {};
              steps.set(s.step, { ...entry, status: s.status, error: s.error || entry.error });
            }
            for (const c of record.calls) { const entry = steps.get(c.step); if (entry && !entry.skill) entry.skill = c.skill; }
            drawRun(state);
          }).catch(() => {});
        }
        const done = state.progress ? state.progress.completed : null;
        const total = state.progress ? state.progress.total : null;
        clear(progress).append(
          h("h2", {}, "Run ", h("a.mono", { href: "/runs/" + encodeURIComponent(state.run) }, state.run.slice(0, 8))),
          state.phase === "running"
            ? h("p", {}, h("progress", { max: total || 1, value: done || 0, "aria-label": "Steps completed" }), ` ${done ?? 0} of ${total ?? "?"} steps`)
            : h("p", {}, statusBadge(state.phase === "finished" ? "succeeded" : state.phase === "rolled_back" ? "rolled_back" : state.phase === "failed" ? "failed" : "running")),
          h("ol.chat-steps", {}, [...steps.entries()].map(([id, s]) => h("li", { "data-step": id, "data-status": s.status },
            h("strong", {}, id), " ", h("span.muted", {}, s.skill || ""), " ", statusBadge(s.status), s.error ? h("span.error", {}, " " + s.error) : null))));
      };

      const onEvent = (event) => {
        if (event.step) {
          const entry = steps.get(event.step) || { status: "pending" };
          if (event.type === "step.started") { entry.status = "running"; entry.skill = event.skill; }
          if (event.type === "step.succeeded") entry.status = "succeeded";
          if (event.type === "step.failed") { entry.status = "failed"; entry.error = event.error; }
          if (event.type === "compensation.succeeded") entry.status = "rolled_back";
          steps.set(event.step, entry);
        }
        refresh();
      };

      const refresh = async () => {
        if (stopped) return;
        try { draw(await get("chat")); } catch (error) { note.textContent = error.message; }
      };

      const act = async (path, payload = {}) => {
        note.textContent = "";
        try { draw(await post(path, payload)); } catch (error) { note.textContent = error.message; refresh(); }
      };

      form.addEventListener("submit", async (event) => {
        event.preventDefault();
        const message = input.value.trim();
        if (!message) return;
        input.value = "";
        send.disabled = true;
        note.textContent = "Thinking…";
        await act("chat", { message });
        input.focus();
      });
      input.addEventListener("keydown", (event) => {
        if (event.key === "Enter" && !event.shiftKey) { event.preventDefault(); form.requestSubmit(); }
      });
      fresh.addEventListener("click", async () => {
        try { await post("chat/reset", {}); } catch (error) { note.textContent = error.message; }
        followed = null;
        if (stopEvents) { stopEvents(); stopEvents = null; }
        refresh();
      });

      await refresh();
      input.focus();
      return () => { stopped = true; clearTimeout(timer); if (stopEvents) stopEvents(); };
    }

    function phaseText(phase) {
      return { understanding: "Understanding…", planning: "The model is planning…", running: "Running…" }[phase] || "Working…";
    }

    function values(object) {
      const entries = Object.entries(object || {});
      if (!entries.length) return h("p.muted", {}, "no inputs");
      return h("dl.values", {}, entries.map(([k, v]) => [h("dt", {}, k), h("dd", {}, h("code", {}, show(v)))]));
    }

    function decisionCard(d) {
      const percent = Math.round((d.confidence || 0) * 100);
      return h("section.card.decision", { "aria-label": "Decision" },
        h("h2", {}, "Decision"),
        h("dl.facts", {},
          h("dt", {}, "Layer"), h("dd", {}, { playbook: "1 · playbook trigger", skill: "2 · skill example", plan: "3 · model plan", none: "no match" }[d.layer] || d.layer),
          h("dt", {}, "Target"), h("dd", {}, d.target ? h("code", {}, d.target) : h("span.muted", {}, d.layer === "plan" ? "a plan of several steps" : "none")),
          h("dt", {}, "Confidence"), h("dd", {}, h("meter", { min: 0, max: 1, value: d.confidence || 0, "aria-label": "Confidence" }), ` ${percent} %`),
          d.missing && d.missing.length ? [h("dt", {}, "Missing"), h("dd", {}, d.missing.join(", "))] : null),
        h("h3", {}, "Inputs"), values(d.inputs),
        d.candidates && d.candidates.length > 1
          ? h("p.muted", {}, "Also considered: ", d.candidates.slice(1).map((c) => `${c.target} (${Math.round(c.confidence * 100)} %)`).join(", ")) : null);
    }

    function planCard(state, act) {
      const plan = state.plan;
      const waiting = state.phase === "awaiting_approval" || (state.phase === "idle" && !state.busy);
      const actions = plan.steps.filter((s) => s.action).length;
      return h("section.card.plan-card", { "aria-label": "Plan" },
        h("h2", {}, plan.from_model ? "Plan from the model" : "What would run"),
        h("ol.plan-steps", {}, plan.steps.map((s) => h("li", { "data-step": s.id },
          h("strong", {}, s.id), " ", h("code", {}, s.target), s.title ? h("span.muted", {}, " " + s.title) : null, " ",
          s.action ? h("span.badge.k-action", {}, "changes something") : h("span.badge.k-query", {}, "read-only"),
          values(s.with)))),
        plan.warnings.map((w) => h("p.d-warning", {}, w)),
        waiting && !state.run ? h("div.choices", {},
          h("button.primary", { type: "button", "data-action": "approve", onclick: () => act("chat/approve") },
            actions ? `Approve and run (${actions} step${actions === 1 ? " changes" : "s change"} something)` : "Run"),
          state.phase === "awaiting_approval" ? h("button", { type: "button", "data-action": "decline", onclick: () => act("chat/decline") }, "Decline") : null)
          : null);
    }

    function saveCard(note) {
      const name = h("input", { id: "save-name", type: "text", pattern: "[A-Za-z0-9][A-Za-z0-9_\\-]*", required: true, placeholder: "my-playbook" });
      const result = h("p", { role: "status" });
      const form = h("form.save-form", {}, h("label", { for: "save-name" }, "Save as playbook"), name,
        h("button", { type: "submit" }, "Save"), result);
      form.addEventListener("submit", async (event) => {
        event.preventDefault();
        clear(result);
        try {
          const saved = await post("chat/save", { name: name.value.trim() });
          result.append("Saved as ", h("a", { href: saved.url }, saved.saved), ".");
        } catch (error) {
          result.append(h("span.error", {}, error.message));
          for (const d of (error.body && error.body.diagnostics) || []) result.append(h("span.error", {}, " " + d.message));
        }
      });
      return h("section.card", { "aria-label": "Save as playbook" }, form);
    }
    """#
}
