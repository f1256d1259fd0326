/// The secret names a playbook's `from:` and `secret('NAME')` may use: its own `secrets:` list when
/// it has one, else the workspace's (`nil`: not known, not checked).
struct KnownSecrets {
    var names: [String]?
    /// The names are the playbook's `secrets:` list.
    var listedByPlaybook: Bool

    /// "unknown secret 'X'", with "did you mean" when a known name is close, else where to name it.
    static func unknown(_ message: String, _ name: String, _ known: [String], listedByPlaybook: Bool) -> String {
        let hinted = TypeChecker.withHint(message, name, known)
        guard hinted == message else { return hinted }
        if listedByPlaybook { return message + "; list it under the playbook's 'secrets:'" }
        return known.isEmpty ? message + "; name it under 'secrets:' in skillbook.yaml" : message
    }
}

extension PlaybookChecker {
    /// Each name of the playbook's `secrets:` is a secret of the workspace (when the workspace's
    /// are known) and is read somewhere (a warning otherwise); the names the rest may use.
    func checkDeclaredSecrets(_ playbook: Playbook, _ diagnostics: inout [Diagnostic]) -> KnownSecrets {
        guard let declared = playbook.secrets else { return KnownSecrets(names: secretNames, listedByPlaybook: false) }
        if let workspace = secretNames {
            for secret in declared where !workspace.contains(secret.name) {
                let message = "secret '\(secret.name)' is not under 'secrets:' in skillbook.yaml"
                let hinted = TypeChecker.withHint(message, secret.name, workspace)
                diagnostics.append(
                    .error(hinted == message ? message + "; name its provider there" : hinted, at: secret.location))
            }
        }
        var used = playbook.inputs.compactMap(\.schema.secretFrom)
        var withoutSubPlaybooks = playbook
        withoutSubPlaybooks.subPlaybooks = [:]
        used += withoutSubPlaybooks.secretNames
        for secret in declared where !used.contains(secret.name) {
            diagnostics.append(.warning("secret '\(secret.name)' is listed under 'secrets:' but nothing reads it", at: secret.location))
        }
        return KnownSecrets(names: declared.map(\.name), listedByPlaybook: true)
    }
}
