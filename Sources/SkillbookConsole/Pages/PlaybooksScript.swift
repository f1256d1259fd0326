/// `playbooks.js`: the playbooks with their validity; one playbook with its diagnostics, steps,
/// source, and a run form generated from its inputs' JSON Schema.
enum PlaybooksScript {
    static let text = #"""
    import { h, clear, statusBadge, longText } from "/assets/dom.js";
    import { get, post } from "/assets/api.js";
    import { go } from "/assets/app.js";

    export async function renderPlaybooks(main) {
      const { playbooks } = await get("playbooks");
      main.append(h("h1", {}, "Playbooks"));
      if (playbooks.length === 0) { main.append(h("p.muted", {}, "No playbooks in this workspace's Playbooks folder.")); return; }
      main.append(h("ul.cards", {}, playbooks.map((p) => h("li.card", { "data-playbook": p.name },
        h("h2", {}, h("a", { href: "/playbooks/" + encodeURIComponent(p.name) }, p.name)),
        h("p", {}, p.valid ? h("span.badge.s-succeeded", {}, "valid") : h("span.badge.s-failed", {}, `${p.errors} error${p.errors === 1 ? "" : "s"}`),
          p.warnings ? h("span.badge.s-succeeded_with_errors", {}, `${p.warnings} warning${p.warnings === 1 ? "" : "s"}`) : null,
          p.schedule ? h("span.badge", {}, "scheduled") : null),
        h("p.summary", {}, p.description || ""),
        h("p.muted.mono", {}, p.file)))));
    }

    export async function renderPlaybook(main, name) {
      const playbook = await get("playbooks/" + encodeURIComponent(name));
      // Through h(), which skips a missing part (append() would write "null").
      main.append(h("div", {},
        h("h1", {}, playbook.name),
        playbook.description ? h("p.summary", {}, playbook.description) : null,
        h("p.muted.mono", {}, playbook.file)));
      const diagnosticsBox = h("div");
      const drawDiagnostics = (diagnostics) => {
        clear(diagnosticsBox);
        if (!diagnostics.length) return;
        diagnosticsBox.append(h("h2", {}, "Diagnostics"), h("ul.diagnostics", {}, diagnostics.map((d) =>
          h(`li.d-${d.severity}`, {}, `${d.file ?? ""}${d.line ? ":" + d.line + ":" + d.column : ""}: ${d.severity}: ${d.message}`,
            d.fix ? h("span.muted", {}, " — " + d.fix) : null))));
      };
      drawDiagnostics(playbook.diagnostics);
      main.append(diagnosticsBox);
      if (playbook.valid) {
        main.append(h("h2", {}, "Run"), runForm(playbook));
        main.append(h("h2", {}, "Steps"), stepGraph(playbook.graph));
      }
      const sourceBox = h("div.source-box", {}, source(playbook.source, playbook.diagnostics));
      const edit = h("button", { type: "button", "data-action": "edit" }, "Edit");
      edit.addEventListener("click", () => {
        edit.hidden = true;
        clear(sourceBox).append(editor(playbook, () => { edit.hidden = false; clear(sourceBox).append(source(playbook.source, playbook.diagnostics)); },
          drawDiagnostics));
        sourceBox.querySelector("textarea").focus();
      });
      main.append(h("div.heading-row", {}, h("h2", {}, "Source"), edit), sourceBox);
    }

    // The step graph: a box per step (sub-playbooks linked), arrows for the data each step takes
    // from an earlier one (${{ steps.x }}). Every label is a text node.
    const SVG = "http://www.w3.org/2000/svg";
    function svg(tag, attributes = {}, ...children) {
      const element = document.createElementNS(SVG, tag);
      for (const [name, value] of Object.entries(attributes)) if (value !== undefined && value !== null) element.setAttribute(name, String(value));
      for (const child of children) element.append(typeof child === "string" ? document.createTextNode(child) : child);
      return element;
    }

    function stepGraph(graph) {
      const nodes = graph.nodes;
      if (!nodes.length) return h("p.muted", {}, "No steps.");
      const width = 300, height = 46, gap = 30, left = 70;
      const index = new Map(nodes.map((n, i) => [n.id, i]));
      const y = (i) => 10 + i * (height + gap);
      const total = y(nodes.length) - gap + 10;
      const edges = graph.edges.filter((e) => index.has(e.from) && index.has(e.to));
      const picture = svg("svg", { class: "graph", viewBox: `0 0 ${left + width + 40 + edges.length * 14} ${total}`, width: left + width + 40 + edges.length * 14,
        height: total, role: "img", "aria-label": `Step graph: ${nodes.length} steps, ${edges.length} data edges` });
      picture.append(svg("defs", {}, svg("marker", { id: "arrow", viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: "auto-start-reverse" },
        svg("path", { d: "M 0 0 L 10 5 L 0 10 z", class: "arrow-head" }))));
      for (let i = 0; i + 1 < nodes.length; i++) {
        picture.append(svg("line", { class: "order", x1: left + width / 2, y1: y(i) + height, x2: left + width / 2, y2: y(i + 1) }));
      }
      edges.forEach((e, k) => {
        const from = index.get(e.from), to = index.get(e.to);
        const x = left + width, bend = x + 18 + k * 14;
        picture.append(svg("path", { class: "data", "data-from": e.from, "data-to": e.to, "marker-end": "url(#arrow)",
          d: `M ${x} ${y(from) + height / 2} C ${bend} ${y(from) + height / 2}, ${bend} ${y(to) + height / 2}, ${x + 2} ${y(to) + height / 2}` },
          svg("title", {}, `${e.to} uses the output of ${e.from}`)));
      });
      nodes.forEach((n, i) => {
        const group = svg("g", { class: "node " + n.kind, "data-step": n.id });
        group.append(svg("rect", { x: left, y: y(i), width, height, rx: 8 }),
          svg("text", { x: left + 12, y: y(i) + 19, class: "node-id" }, n.id + (n.foreach ? "  (foreach)" : "") + (n.when ? "  (when)" : "")),
          svg("text", { x: left + 12, y: y(i) + 37, class: "node-target" }, (n.kind === "playbook" ? "playbook " : "") + n.target),
          svg("text", { x: left - 10, y: y(i) + 28, class: "node-line", "text-anchor": "end" }, "line " + n.line));
        if (n.kind === "playbook") {
          const link = svg("a", { href: "/playbooks/" + encodeURIComponent(n.target) });
          link.append(group);
          picture.append(link);
        } else picture.append(group);
      });
      return h("div.graph-box", {}, picture);
    }

    // The editor: every change is validated (debounced) through the validate endpoint, its
    // diagnostics shown at their lines; only a valid text can be saved.
    function editor(playbook, onClose, onSaved) {
      const area = h("textarea.code", { id: "editor", spellcheck: "false", wrap: "off", autocomplete: "off",
        "aria-label": "Source of " + playbook.name, "aria-describedby": "editor-status" });
      area.value = playbook.source;
      const gutter = h("ol.gutter", { "aria-hidden": "true" });
      const status = h("p.editor-status", { id: "editor-status", role: "status", "aria-live": "polite" });
      const list = h("ul.diagnostics.editor-diagnostics", { "aria-label": "Diagnostics" });
      const save = h("button.primary", { type: "button", "data-action": "save" }, "Save");
      const close = h("button", { type: "button" }, "Close");
      let diagnostics = playbook.diagnostics, valid = playbook.valid, checked = playbook.source, saved = playbook.source;
      let timer = null, sequence = 0;
      const resize = () => { area.rows = Math.min(40, Math.max(8, area.value.split("\n").length + 1)); };
      const goTo = (line, column) => {
        const lines = area.value.split("\n");
        let offset = 0;
        for (let i = 0; i < line - 1 && i < lines.length; i++) offset += lines[i].length + 1;
        offset += Math.max(0, (column || 1) - 1);
        area.focus();
        area.setSelectionRange(offset, offset);
      };
      const draw = () => {
        const byLine = new Map();
        for (const d of diagnostics) if (d.line) byLine.set(d.line, [...(byLine.get(d.line) || []), d]);
        const count = area.value.split("\n").length;
        gutter.replaceChildren(...Array.from({ length: count }, (_, i) => {
          const found = byLine.get(i + 1) || [];
          const worst = found.some((d) => d.severity === "error") ? "error" : "warning";
          return h("li" + (found.length ? `.flagged.d-${worst}` : ""), { "data-line": i + 1, title: found.map((d) => d.message).join("\n") || null }, String(i + 1));
        }));
        gutter.scrollTop = area.scrollTop;
        list.replaceChildren(...diagnostics.map((d) => h(`li.d-${d.severity}`, { "data-line": d.line || "" },
          d.line ? h("button.link", { type: "button", onclick: () => goTo(d.line, d.column) }, `line ${d.line}:${d.column}`) : "file",
          `: ${d.severity}: ${d.message}`, d.fix ? h("span.muted", {}, " — " + d.fix) : null)));
        const errors = diagnostics.filter((d) => d.severity === "error").length;
        const pending = area.value !== checked;
        status.textContent = pending ? "Checking…" : !valid ? `${errors} error${errors === 1 ? "" : "s"}: fix ${errors === 1 ? "it" : "them"} to save`
          : area.value === saved ? "Valid; no unsaved changes" : "Valid: ready to save";
        status.dataset.state = pending ? "checking" : valid ? "valid" : "invalid";
        save.disabled = pending || !valid || area.value === saved;
      };
      const check = async () => {
        const text = area.value;
        const mine = ++sequence;
        try {
          const answer = await post("validate", { source: text, name: playbook.name });
          if (mine !== sequence) return;
          checked = text; diagnostics = answer.diagnostics; valid = answer.valid;
        } catch (error) { if (mine === sequence) status.textContent = error.message; return; }
        draw();
      };
      area.addEventListener("input", () => { resize(); draw(); clearTimeout(timer); timer = setTimeout(check, 250); });
      area.addEventListener("scroll", () => { gutter.scrollTop = area.scrollTop; });
      area.addEventListener("keydown", (event) => {
        if (event.key === "Tab" && !event.shiftKey && !event.ctrlKey && !event.altKey) {
          // Two spaces (YAML has no tabs); Escape then Tab leaves the editor.
          if (area.dataset.escaped === "1") { area.dataset.escaped = ""; return; }
          event.preventDefault();
          area.setRangeText("  ", area.selectionStart, area.selectionEnd, "end");
          area.dispatchEvent(new Event("input"));
        } else if (event.key === "Escape") area.dataset.escaped = "1";
        else if ((event.ctrlKey || event.metaKey) && event.key === "s") { event.preventDefault(); if (!save.disabled) save.click(); }
      });
      save.addEventListener("click", async () => {
        save.disabled = true;
        try {
          const answer = await post("playbooks/" + encodeURIComponent(playbook.name) + "/save", { source: area.value });
          saved = area.value;
          playbook.source = saved; playbook.diagnostics = answer.diagnostics;
          onSaved(answer.diagnostics);
          draw();
          status.textContent = "Saved to " + answer.saved;
        } catch (error) {
          if (error.body && error.body.diagnostics) { diagnostics = error.body.diagnostics; valid = false; draw(); }
          status.textContent = error.message;
        }
      });
      close.addEventListener("click", () => { if (area.value === saved || confirmClose()) onClose(); });
      const confirmClose = () => { status.textContent = "Unsaved changes: save them, or press Close again to drop them."; close.onclick = onClose; return false; };
      resize();
      draw();
      return h("div.editor-box", {}, h("div.editor", {}, gutter, area), status, list, h("div.choices", {}, save, close));
    }

    function source(text, diagnostics) {
      const byLine = new Map();
      for (const d of diagnostics) if (d.line) byLine.set(d.line, [...(byLine.get(d.line) || []), d]);
      const lines = text.split("\n");
      return h("ol.source", { "aria-label": "Source" }, lines.map((line, index) => {
        const found = byLine.get(index + 1) || [];
        return h("li" + (found.length ? ".flagged" : ""), {},
          h("code", {}, line || " "),
          found.map((d) => h(`div.d-${d.severity}`, {}, `${d.severity}: ${d.message}`)));
      }));
    }

    // One field per input, from its JSON Schema: enums as selects, dates as date pickers, secrets
    // as password fields, numbers with their bounds, lists one item per line.
    function runForm(playbook) {
      const schema = playbook.inputs;
      const required = new Set(schema.required || []);
      const fields = [];
      for (const name of schema["x-order"] || Object.keys(schema.properties)) {
        const property = schema.properties[name];
        fields.push(field(name, property, required.has(name)));
      }
      const result = h("div.result", { role: "status", "aria-live": "polite" });
      const button = h("button.primary", { type: "submit" }, "Run " + playbook.name);
      const dry = h("button", { type: "button", "data-action": "dry-run" }, "Dry run");
      const planBox = h("section.plan", { "aria-label": "Dry-run plan", "aria-live": "polite" });
      const form = h("form.run-form", { novalidate: false }, fields.map((f) => f.element),
        fields.length === 0 ? h("p.muted", {}, "This playbook takes no inputs.") : null, h("div.choices", {}, button, dry), result);
      const readInputs = () => {
        const inputs = {};
        for (const f of fields) { const value = f.value(); if (value !== undefined) inputs[f.name] = value; }
        return inputs;
      };
      dry.addEventListener("click", async () => {
        clear(result);
        clear(planBox).append(h("p.muted", {}, "Planning…"));
        let inputs;
        try { inputs = readInputs(); } catch (error) { clear(planBox); result.append(h("p.error", { role: "alert" }, error.message)); return; }
        dry.disabled = true;
        try {
          const answer = await post("playbooks/" + encodeURIComponent(playbook.name) + "/dry-run", { inputs });
          clear(planBox).append(planView(answer));
        } catch (error) {
          clear(planBox);
          result.append(h("p.error", { role: "alert" }, error.message));
          for (const d of (error.body && error.body.diagnostics) || []) result.append(h("p.error", {}, d.message));
        } finally { dry.disabled = false; }
      });
      form.addEventListener("submit", async (event) => {
        event.preventDefault();
        clear(result);
        let inputs;
        try { inputs = readInputs(); } catch (error) { result.append(h("p.error", { role: "alert" }, error.message)); return; }
        button.disabled = true;
        try {
          const started = await post("playbooks/" + encodeURIComponent(playbook.name) + "/run", { inputs });
          go("/runs/" + encodeURIComponent(started.run));
        } catch (error) {
          button.disabled = false;
          result.append(h("p.error", { role: "alert" }, error.message));
          for (const d of (error.body && error.body.diagnostics) || []) result.append(h("p.error", {}, d.message));
        }
      });
      return h("div", {}, form, planBox);
    }

    // A dry run's plan: one row per step with its calls, batches, confirmation, unknowns and undo.
    function planView(answer) {
      const rows = answer.plan.map((p) => {
        const facts = [];
        if (p.ran) facts.push("ran (read-only)");
        if (p.iterations !== undefined) facts.push(`${p.iterations} iteration${p.iterations === 1 ? "" : "s"}`);
        if (p.batches !== undefined) facts.push(`${p.batches} batch${p.batches === 1 ? "" : "es"}`);
        if (p.unknown_from) facts.push("parameters unknown until " + p.unknown_from.join(", ") + " run" + (p.unknown_from.length === 1 ? "s" : ""));
        if (p.confirm) facts.push("asks for confirmation");
        if (p.kind === "action") facts.push(p.reversible ? "can be rolled back" : "cannot be rolled back");
        return h("tr", { "data-step": p.step },
          h("td.mono", {}, p.step), h("td", {}, p.skill), h("td", {}, p.kind), h("td", {}, facts.join(" · ")),
          h("td", {}, p.parameters && !p.unknown_from ? longText(p.parameters, 200) : h("span.muted", {}, p.unknown_from ? "unknown" : "")));
      });
      return h("div", {},
        h("h3", {}, "Dry-run plan"),
        answer.status === "succeeded" ? null
          : h("p.error", {}, "The run would end ", statusBadge(answer.status), answer.error ? ": " + answer.error : ""),
        rows.length ? h("table.plan-table", {}, h("thead", {}, h("tr", {}, ["Step", "Skill", "Kind", "Plan", "Parameters"].map((t) => h("th", {}, t)))), h("tbody", {}, rows))
          : h("p.muted", {}, "No step planned."),
        answer.unknown_outputs && answer.unknown_outputs.length ? h("p.muted", {}, "Outputs unknown until the actions run: " + answer.unknown_outputs.join(", ")) : null,
        (answer.warnings || []).map((w) => h("p.d-warning", {}, w)),
        h("p.muted", {}, "Nothing was recorded and no action ran."));
    }

    function field(name, property, required) {
      const id = "input-" + name;
      const type = Array.isArray(property.type) ? property.type[0] : property.type;
      const hasDefault = property.default !== undefined || property["x-default-expression"];
      let control;
      let read;
      if (property.enum) {
        control = h("select", { id, name },
          required ? null : h("option", { value: "" }, hasDefault ? "(default)" : "(none)"),
          property.enum.map((v) => h("option", { value: JSON.stringify(v), selected: property.default === v }, String(v))));
        read = () => control.value === "" ? undefined : JSON.parse(control.value);
      } else if (type === "boolean") {
        control = h("input", { id, name, type: "checkbox", checked: property.default === true });
        read = () => control.checked;
      } else if (type === "integer" || type === "number") {
        control = h("input", { id, name, type: "number", step: type === "integer" ? "1" : "any", min: property.minimum, max: property.maximum,
          value: property.default, required: required && !hasDefault });
        read = () => control.value === "" ? undefined : Number(control.value);
      } else if (type === "array" || type === "object") {
        const initial = property.default === undefined ? "" : type === "array" && property.default.every((v) => typeof v === "string")
          ? property.default.join("\n") : JSON.stringify(property.default, null, 2);
        control = h("textarea", { id, name, rows: 3, required: required && !hasDefault });
        control.value = initial;
        read = () => {
          const text = control.value.trim();
          if (text === "") return undefined;
          if (text.startsWith("[") || text.startsWith("{")) {
            try { return JSON.parse(text); } catch { throw new Error(`${name}: not valid JSON`); }
          }
          return type === "array" ? text.split("\n").map((s) => s.trim()).filter(Boolean) : text;
        };
      } else {
        const kind = property.secret ? "password" : property.format === "date" ? "date" : property.format === "date-time" ? "datetime-local"
          : property.format === "email" ? "email" : property.format === "uri" ? "url" : "text";
        control = h("input", { id, name, type: kind, autocomplete: property.secret ? "off" : null,
          minlength: property.minLength, maxlength: property.maxLength, required: required && !hasDefault });
        if (typeof property.default === "string" && !property.secret) control.value = property.default;
        read = () => control.value === "" ? undefined : control.value;
      }
      const range = property.minimum !== undefined || property.maximum !== undefined
        ? `from ${property.minimum ?? "…"} to ${property.maximum ?? "…"}` : null;
      const hint = [property.description, range, hasDefault && property.default === undefined ? "default computed at run time" : null,
        property.secret ? "secret: masked in the journal and the console" : null].filter(Boolean).join(" · ");
      const element = h("div.field", {},
        h("label", { for: id }, name, required && !hasDefault ? h("span.required", { "aria-hidden": "true" }, " *") : null),
        control,
        hint ? h("small.muted", {}, hint) : null);
      return { name, element, value: read };
    }
    """#
}
