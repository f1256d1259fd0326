import Foundation
import SkillbookCore

extension PlaybookHost {
    /// The providers of this host's `secrets:`.
    var secretResolver: SecretResolver {
        SecretResolver(
            declarations: configuration.secrets, environment: configuration.environment,
            root: configuration.workspaceRoot ?? configuration.currentDirectory, processes: processRunner)
    }

    /// The secrets `playbook` reads, each read from its provider now (at the start of a run, of a
    /// resume, on the worker that claims it), and the values of its inputs that say `from:` and
    /// are not among `given`. Nothing here is written anywhere.
    func provideSecrets(for playbook: Playbook, given: Set<String>) async throws(HostError) -> ProvidedSecrets {
        let skipped = playbook.inputs.filter { given.contains($0.name) }.map(\.name)
        let needed = skipped.isEmpty ? playbook.secretNames : playbook.secretNames(exceptInputs: Set(skipped))
        let secrets = try await secretResolver.values(of: needed)
        var inputs = ValueObject()
        for input in playbook.inputs where !given.contains(input.name) {
            if let name = input.schema.secretFrom, let value = secrets[name] { inputs[input.name] = .string(value) }
        }
        return ProvidedSecrets(inputs: inputs, values: secrets)
    }
}

/// What `provideSecrets` read: the inputs it fills, and every secret by name.
struct ProvidedSecrets: Sendable {
    var inputs: ValueObject
    var values: [String: String]
}

extension Playbook {
    /// `secretNames` without the `from:` of the inputs in `names`.
    func secretNames(exceptInputs names: Set<String>) -> [String] {
        var copy = self
        copy.inputs.removeAll { names.contains($0.name) }
        return copy.secretNames
    }
}

extension ProvidedSecrets {
    /// `***` for every input that says `from:` and is not among `given`: a run for the queue.
    static func placeholders(for playbook: Playbook, given: Set<String>) -> ProvidedSecrets {
        var inputs = ValueObject()
        for input in playbook.inputs where input.schema.secretFrom != nil && !given.contains(input.name) {
            inputs[input.name] = .string(Redactor.mask)
        }
        return ProvidedSecrets(inputs: inputs, values: [:])
    }
}
