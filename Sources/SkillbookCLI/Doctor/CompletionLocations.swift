import Foundation
import SkillbookHost

/// Where bash, zsh and fish look for skillbook's completion: the folders `make install` and the
/// Debian package write to (beside the binary's `bin/`, under `/usr/local` and `/usr`), and each
/// user's own.
struct CompletionLocations {
    var environment: [String: String]
    /// The folder of the running binary's `bin/`'s parent (`/usr/local` for `/usr/local/bin/skillbook`).
    var prefix: URL? = Bundle.main.executableURL?.resolvingSymlinksInPath().deletingLastPathComponent().deletingLastPathComponent()

    /// For each shell, the files that would complete `skillbook`, first the ones nearest the user.
    var candidates: [(shell: String, files: [String])] {
        let home = HostConfiguration.home(environment)
        let data = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? "\(home)/.local/share"
        let config = environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? "\(home)/.config"
        let prefixes = ([prefix?.path].compactMap { $0 } + ["/usr/local", "/usr"]).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        return [
            ("bash", ["\(data)/bash-completion/completions/skillbook"] + prefixes.map { "\($0)/share/bash-completion/completions/skillbook" }),
            ("zsh", prefixes.flatMap { ["\($0)/share/zsh/site-functions/_skillbook", "\($0)/share/zsh/vendor-completions/_skillbook"] }),
            ("fish", ["\(config)/fish/completions/skillbook.fish"] + prefixes.map { "\($0)/share/fish/vendor_completions.d/skillbook.fish" }),
        ]
    }

    func check() -> DoctorCheck {
        let found = candidates.filter { $0.files.contains { FileManager.default.fileExists(atPath: $0) } }.map(\.shell)
        if found.isEmpty {
            return DoctorCheck(
                "completion", .warning, "no shell completion installed for bash, zsh or fish",
                fix: "make install does it; or for bash alone: mkdir -p ~/.local/share/bash-completion/completions && "
                    + "skillbook completion bash > ~/.local/share/bash-completion/completions/skillbook")
        }
        return DoctorCheck("completion", .ok, "installed for \(found.joined(separator: ", "))")
    }
}
