/// `run.js`: one run — its facts, inputs (secrets arrive masked), outputs, and a timeline of its
/// steps with every call's parameters, output and error; redrawn live while it runs.
enum RunScript {
    static let text = #"""
    import { h, clear, statusBadge, time, duration, longText, show } from "/assets/dom.js";
    import { get, events } from "/assets/api.js";

    export async function renderRun(main, id) {
      const container = h("div");
      main.appendChild(container);
      // What the engine reported of steps the journal does not show yet (a read-only call is
      // written a moment after it starts): step → { status, skill, parameters }.
      const live = new Map();
      let status = null;
      async function draw() {
        const run = await get("runs/" + encodeURIComponent(id));
        status = run.status;
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

    function view(run, live) {
      const facts = h("dl.facts", {},
        fact("Status", statusBadge(run.status)),
        fact("Playbook", h("a", { href: "/playbooks/" + encodeURIComponent(run.playbook) }, run.playbook)),
        fact("Run", h("span.mono", {}, run.id)),
        fact("Trigger", run.trigger),
        fact("Started", time(run.started)),
        fact("Duration", run.status === "running" ? "running…" : duration(run.duration)));
      const parts = [h("h1", {}, "Run of ", run.playbook), facts];
      if (run.error) parts.push(h("p.error", { role: "alert" }, run.error));
      if (run.interruption) parts.push(h("p.error", {}, "Interrupted: ", run.interruption));
      parts.push(h("h2", {}, "Inputs"), keyValues(run.inputs));
      if (run.outputs && Object.keys(run.outputs).length) parts.push(h("h2", {}, "Outputs"), keyValues(run.outputs));
      parts.push(h("h2", {}, "Steps"), timeline(run, live));
      return h("div.run", { "data-status": run.status }, parts);
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
      for (const end of run.steps) entry(end.step).ends.push(end);
      for (const compensation of run.compensations) entry(compensation.step).compensations.push(compensation);
      for (const [name, reported] of live) entry(name).live = reported;
      if (order.length === 0) return h("p.muted", {}, run.status === "running" ? "Starting…" : "No step ran.");
      return h("ol.timeline", {}, order.map((name) => step(steps.get(name), run.status === "running")));
    }

    // A call with no result is in progress while its run goes on; after that, its process stopped
    // during it (resume decides what to do with it).
    function step(item, going) {
      const end = item.ends[item.ends.length - 1];
      const running = !end && item.calls.some((c) => !c.finished);
      const reported = item.live;
      const status = end ? end.status : running ? "running" : reported ? reported.status : "pending";
      const skill = item.calls.length ? item.calls[0].skill : reported && reported.skill;
      const summary = h("summary", {},
        statusBadge(status), " ",
        h("strong", {}, item.name),
        skill ? h("span.muted", {}, ` · ${skill}`) : null,
        item.calls.length ? h("span.muted", {}, ` · ${item.calls.length} call${item.calls.length === 1 ? "" : "s"}`) : null,
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
