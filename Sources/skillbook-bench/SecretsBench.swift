import Foundation
import SkillbookCore
import SkillbookRuntime

/// `secrets_step_plain`, `secrets_step_secret`: `Engine.run` per step of the 1,000-step chain whose
/// steps each make `lower(…)` of the one before (a derivation the taint looks at), with the seed an
/// ordinary input and then a secret one — what taint and masking cost a step whose values all
/// derive from a secret (every output, parameter and event masked, every derivation checked).
/// `secrets_redact_1mb`: masking one secret (and its forms) in a 1 MiB skill output that holds it
/// 64 times, as the engine does before an output is journaled.
struct SecretsBench {
    var registry: SkillRegistry
    var runs = 7

    static let seed = "Tok3n-Bench-Value"

    func run() async throws -> [Figure] {
        let plain = try await perStep(secret: false)
        let secret = try await perStep(secret: true)
        return [
            Figure(name: "secrets_step_plain", value: plain, unit: "us/step"),
            Figure(name: "secrets_step_secret", value: secret, unit: "us/step"),
            Figure(name: "secrets_redact_1mb", value: try await redactOneMebibyte(), unit: "ms"),
        ]
    }

    func perStep(secret: Bool) async throws -> Double {
        let steps = StepsPlaybook.stepCount
        let text = Self.playbook(steps: steps, secret: secret)
        let loaded = PlaybookLoader(registry: registry).load(text, file: "bench-secrets.yaml")
        guard let playbook = loaded.playbook else {
            throw BenchError("the secrets playbook does not load: \(loaded.diagnostics.map(\.description))")
        }
        let engine = Engine(registry: registry)
        let inputs: ValueObject = ["seed": .string(Self.seed)]
        let expected: Value = secret ? .string(Redactor.mask) : .string(Self.seed.lowercased())
        let seconds = try await Measure.best(runs: runs) {
            let result = await engine.run(playbook, inputs: inputs, onEvent: { _ in })
            guard result.status == .succeeded, result.outputs["last"] == expected else {
                throw BenchError("the secrets run ended \(result.status.rawValue) with \(result.outputs): \(result.error ?? "")")
            }
        }
        return seconds * 1e6 / Double(steps)
    }

    static func playbook(steps: Int, secret: Bool) -> String {
        var text = """
            name: bench-secrets
            inputs:
              seed: { type: string\(secret ? ", secret: true" : "") }
            steps:

            """
        for index in 0..<steps {
            let previous = index == 0 ? "inputs.seed" : "steps.\(StepsPlaybook.id(index - 1)).output.value"
            text += "  - id: \(StepsPlaybook.id(index))\n    skill: debug.echo\n    with:\n      value: \"${{ lower(\(previous)) }}\"\n"
        }
        text += "outputs:\n  last: \"${{ steps.\(StepsPlaybook.id(steps - 1)).output.value }}\"\n"
        return text
    }

    func redactOneMebibyte() async throws -> Double {
        let redactor = Redactor(secrets: [Self.seed])
        let filler = String(repeating: "lorem ipsum dolor sit amet ", count: 16_384 / 27 + 1).prefix(16_384 - Self.seed.count)
        let output = Value.object(["text": .string(String(repeating: filler + Self.seed, count: 64))])
        var masked = Value.null
        let seconds = await Measure.best(runs: runs) { masked = redactor.redact(output) }
        guard case .string(let text)? = masked["text"], !text.contains(Self.seed), text.components(separatedBy: Redactor.mask).count == 65
        else { throw BenchError("the 1 MiB output was not masked 64 times") }
        return seconds * 1e3
    }
}
