/// `skillbook-playbook(5)`: the playbook format in brief (docs/playbooks.md has it all).
enum PlaybookManual {
    static var page: ManPage {
        var lines = ManPage.header("skillbook-playbook", section: 5, description: "the skillbook playbook format")
        lines += [".Sh DESCRIPTION"]
        lines += ManPage.text("""
            A playbook is a YAML file in the Playbooks/ folder of a workspace that chains skills into a workflow. \
            Each step's parameters are mapped from the playbook's inputs and from earlier steps' outputs with \
            ${{ ... }} expressions, and every mapping is checked against the target skill's parameter schema \
            before anything runs. 'skillbook schema' prints the JSON Schema of the format for editors.
            """)
        lines += [".Ss Keys", ".Bl -tag -width Ds"]
        for (key, meaning) in keys {
            lines += [".It Ic \(key)"] + ManPage.text(meaning)
        }
        lines += [".El", ".Sh EXAMPLES", ".Bd -literal -offset indent"]
        lines += example.split(separator: "\n", omittingEmptySubsequences: false).map { ManPage.escaped(String($0)) }
        lines += [".Ed", ".Sh SEE ALSO"] + ManPage.seeAlso([("skillbook", 1), ("skillbook-run", 1), ("skillbook-validate", 1)])
        return ManPage(name: "skillbook-playbook", section: 5, text: lines.joined(separator: "\n") + "\n")
    }

    static let keys: [(String, String)] = [
        ("name", "Lowercase letters, digits and -; the file's name without .yaml."),
        ("description", "What it does, for people and for the agent."),
        ("triggers", "Phrases that route a request of 'skillbook ask' to this playbook."),
        ("inputs", "Name to JSON Schema (2020-12, written in YAML); an input without a default is required."),
        ("env", "The environment variables it may read."),
        ("steps", """
            The steps in order: id, skill (or playbook: for a sub-playbook), with (the parameters), and optionally \
            when, foreach with concurrency, batch, retry, timeout, on_failure, confirm: false and rollback (steps \
            that undo this one).
            """),
        ("outputs", "Name to value, usually ${{ steps.ID.output.FIELD }}."),
        ("on_failure", "rollback (the default: completed steps are undone in reverse order), stop or continue."),
        ("timeout", "The longest the whole run may take, such as 10m."),
        ("schedule", "When 'skillbook daemon' or 'skillbook schedule tick' starts it: a cron expression or an interval, in a time zone."),
    ]

    static let example = """
        name: hello-notes
        description: Greets someone and saves the greeting as a note.
        inputs:
          name: { type: string, default: world }
        steps:
          - id: greet
            skill: text.template
            with:
              template: "Hello, {{name}}!"
              values: { name: "${{ inputs.name }}" }
          - id: save
            skill: notes.create
            with:
              title: "${{ steps.greet.output.text }}"
        outputs:
          text: "${{ steps.greet.output.text }}"
        """
}
