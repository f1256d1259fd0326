/// `skills.js`: a card per skill — title, summary, kind, confirmation, availability, parameters.
enum SkillsScript {
    static let text = #"""
    import { h } from "/assets/dom.js";
    import { get } from "/assets/api.js";

    export async function renderSkills(main) {
      const { skills } = await get("skills");
      const filter = h("input", { type: "search", id: "skill-filter", placeholder: "Filter skills", "aria-label": "Filter skills" });
      const list = h("ul.cards");
      function draw() {
        const needle = filter.value.trim().toLowerCase();
        list.replaceChildren(...skills.filter((s) => !needle || (s.id + " " + s.title + " " + s.summary).toLowerCase().includes(needle)).map(card));
      }
      filter.addEventListener("input", draw);
      main.append(h("h1", {}, "Skills"), filter, list);
      draw();
    }

    function card(skill) {
      const properties = Object.entries((skill.parameters && skill.parameters.properties) || {});
      const required = new Set((skill.parameters && skill.parameters.required) || []);
      return h("li.card", { "data-skill": skill.id },
        h("h2", {}, skill.title, " ", h("code.muted", {}, skill.id)),
        h("p", {},
          h(`span.badge.k-${skill.kind}`, {}, skill.kind),
          skill.confirm ? h("span.badge.s-succeeded_with_errors", {}, "asks to confirm") : null,
          skill.reversible ? h("span.badge", {}, "undoable") : null,
          skill.available ? null : h("span.badge.s-failed", { title: skill.unavailable }, "unavailable")),
        skill.available ? null : h("p.error", {}, skill.unavailable),
        h("p.summary", {}, skill.summary),
        properties.length ? h("details", {}, h("summary", {}, `Parameters (${properties.length})`), h("table.params", {},
          h("thead", {}, h("tr", {}, ["Parameter", "Type", "About"].map((t) => h("th", { scope: "col" }, t)))),
          h("tbody", {}, properties.map(([name, schema]) => h("tr", {},
            h("td", {}, h("code", {}, name), required.has(name) ? " *" : ""),
            h("td", {}, typeLabel(schema)),
            h("td", {}, schema.description || "")))))) : h("p.muted", {}, "No parameters."));
    }

    function typeLabel(schema) {
      if (!schema || typeof schema !== "object") return "any";
      const type = Array.isArray(schema.type) ? schema.type.join(" | ") : schema.type || "any";
      if (type === "array" && schema.items) return typeLabel(schema.items) + "[]";
      return type + (schema.format ? ` (${schema.format})` : "") + (schema.enum ? ": " + schema.enum.join(", ") : "");
    }
    """#
}
