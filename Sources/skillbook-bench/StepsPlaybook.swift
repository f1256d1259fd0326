/// The generated 1,000-step playbook shared by the engine and load/check benchmarks.
enum StepsPlaybook {
    static let stepCount = 1_000

    /// `debug.echo` steps, each mapping the previous step's output: `${{ steps.<previous>.output.value }}`.
    static func text(steps: Int = stepCount) -> String {
        var text = """
            name: bench-steps
            description: A chain of echo steps, each reading the one before it.
            inputs:
              seed: { type: string, default: "hello" }
            steps:

            """
        for index in 0..<steps {
            text += "  - id: \(id(index))\n    skill: debug.echo\n    with:\n"
            if index == 0 {
                text += "      value: \"${{ inputs.seed }}\"\n"
            } else {
                text += "      value: \"${{ steps.\(id(index - 1)).output.value }}\"\n"
            }
        }
        text += "outputs:\n  last: \"${{ steps.\(id(steps - 1)).output.value }}\"\n"
        return text
    }

    static func id(_ index: Int) -> String {
        let digits = String(index)
        return "s" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
