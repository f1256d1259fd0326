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
      if (playbook.diagnostics.length) {
        main.append(h("h2", {}, "Diagnostics"), h("ul.diagnostics", {}, playbook.diagnostics.map((d) =>
          h(`li.d-${d.severity}`, {}, `${d.file ?? ""}${d.line ? ":" + d.line + ":" + d.column : ""}: ${d.severity}: ${d.message}`,
            d.fix ? h("span.muted", {}, " — " + d.fix) : null))));
      }
      if (playbook.valid) {
        main.append(h("h2", {}, "Run"), runForm(playbook));
        main.append(h("h2", {}, "Steps"), h("ol.steps", {}, playbook.steps.map((s) =>
          h("li", {}, h("strong", {}, s.id), " ", h("span.muted", {}, s.playbook ? "playbook " + s.playbook : s.skill)))));
      }
      main.append(h("h2", {}, "Source"), source(playbook.source, playbook.diagnostics));
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
