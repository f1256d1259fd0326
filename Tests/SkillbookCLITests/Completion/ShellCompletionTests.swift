import Foundation
import SkillbookTesting
import Testing

/// The scripts of `skillbook completion SHELL` in the real shells: bash through bash-completion's
/// machinery, zsh through its completion system in a pseudo-terminal (zpty), fish through
/// `complete -C`. Each asks the built `skillbook` (on PATH) for the words.
@Suite struct ShellCompletionTests {
    /// The folder of the built executable first on PATH, so the scripts call it as `skillbook`.
    private func environment() throws -> [String: String] {
        ["PATH": try builtExecutable().deletingLastPathComponent().path + ":/usr/bin:/bin"]
    }

    /// The candidates bash offers for `line` (the cursor at its end).
    private func bash(_ line: String, in directory: TemporaryDirectory) async throws -> [String] {
        let script = """
            source /usr/share/bash-completion/bash_completion
            source <(skillbook completion bash)
            COMP_LINE="$1"; COMP_POINT=${#COMP_LINE}
            read -r -a COMP_WORDS <<< "$1"
            [[ $1 == *" " ]] && COMP_WORDS+=("")
            COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
            _skillbook skillbook "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let run = try await runTool("bash", ["-c", script, "bash", line], in: directory.url, environment: try environment())
        #expect(run.err.isEmpty, "\(run.err)")
        return run.out.split(separator: "\n").map(String.init)
    }

    /// What fish lists for `line`: `word<TAB>description` lines, words only.
    private func fish(_ line: String, in directory: TemporaryDirectory) async throws -> [String] {
        let script = "skillbook completion fish | source; complete -C \(quoted(line))"
        let run = try await runTool("fish", ["--no-config", "-c", script], in: directory.url, environment: try environment())
        #expect(run.err.isEmpty, "\(run.err)")
        return run.out.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
    }

    private func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "\\'") + "'" }

    @Test func bashCompletesCommandsOptionsValuesAndWorkspaceWords() async throws {
        let directory = completionWorkspace()
        #expect(try await bash("skillbook ru", in: directory) == ["run", "runs"])
        #expect(try await bash("skillbook runs ", in: directory) == ["show", "prune"])
        #expect(try await bash("skillbook mcp --tools ", in: directory) == ["playbooks", "skills", "all"])
        #expect(try await bash("skillbook run ", in: directory) == ["goodbye", "greet"])
        #expect(try await bash("skillbook run greet --dr", in: directory) == ["--dry-run"])
        #expect(try await bash("skillbook run greet -i ", in: directory) == ["name=", "loud="])
        #expect(try await bash("skillbook run greet --playbooks Pl", in: directory) == ["Playbooks"])
    }

    @Test func fishCompletesCommandsOptionsValuesAndWorkspaceWords() async throws {
        let directory = completionWorkspace()
        #expect(try await fish("skillbook ru", in: directory) == ["run", "runs"])
        #expect(try await fish("skillbook runs ", in: directory) == ["prune", "show"])
        #expect(try await fish("skillbook mcp --tools ", in: directory) == ["all", "playbooks", "skills"])
        #expect(try await fish("skillbook run ", in: directory) == ["goodbye", "greet"])
        #expect(try await fish("skillbook run greet -i ", in: directory) == ["loud=", "name="])
        #expect(try await fish("skillbook run greet --playbooks Pl", in: directory) == ["Playbooks/"])
    }

    @Test func zshCompletesCommandsOptionsValuesAndWorkspaceWords() async throws {
        let directory = completionWorkspace()
        #expect(try await ZshCapture.candidates("skillbook ru", in: directory, environment: try environment()) == ["run", "runs"])
        #expect(try await ZshCapture.candidates("skillbook mcp --tools ", in: directory, environment: try environment()) == ["all", "playbooks", "skills"])
        #expect(try await ZshCapture.candidates("skillbook run ", in: directory, environment: try environment()) == ["goodbye", "greet"])
        #expect(try await ZshCapture.candidates("skillbook run greet -i ", in: directory, environment: try environment()) == ["loud=", "name="])
    }
}

/// Drives an interactive `zsh -f` in a pseudo-terminal (zsh/zpty): compinit, the script from
/// `skillbook completion zsh` on `fpath`, a TAB after the line; `compadd` is wrapped to print
/// every match it adds, between two marker lines.
enum ZshCapture {
    static let setup = #"""
        PROMPT=
        fpath=("$CAPTURE_DIR" $fpath)
        autoload -U compinit && compinit -u -D
        bindkey '^I' complete-word
        zstyle ':completion:*' list-grouped false
        zstyle ':completion:*' insert-tab false
        marker() { print -r -- '<<<capture>>>' }
        compprefuncs=(marker)
        comppostfuncs=(marker exit)
        compadd() {
            if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then builtin compadd "$@"; return $?; fi
            local -a __hits
            builtin compadd -A __hits "$@"
            local hit
            for hit in $__hits; do print -r -- "match:$hit"; done
        }
        print -r -- '<<<ready>>>'
        """#

    static let driver = #"""
        zmodload zsh/zpty
        zpty z zsh -f -i
        zpty -w z "source $CAPTURE_DIR/setup.zsh"
        local line
        while zpty -r z line; do [[ $line == '<<<ready>>>'* ]] && break; done
        zpty -w -n z "$1"$'\t'
        integer seen=0
        while zpty -r z line; do
            line=${line%$'\r'}
            line=${line%$'\n'}
            line=${line%$'\r'}
            if [[ $line == *'<<<capture>>>'* ]]; then (( seen++ )) && break; continue; fi
            (( seen )) && [[ $line == match:* ]] && print -r -- ${line#match:}
        done
        zpty -d z
        """#

    static func candidates(_ line: String, in directory: TemporaryDirectory, environment: [String: String]) async throws -> [String] {
        let folder = directory.url.appendingPathComponent(".zsh-capture")
        let script = try await runTool("bash", ["-c", "skillbook completion zsh"], in: directory.url, environment: environment)
        directory.write(".zsh-capture/_skillbook", script.out)
        directory.write(".zsh-capture/setup.zsh", setup)
        directory.write(".zsh-capture/driver.zsh", driver)
        var environment = environment
        environment["CAPTURE_DIR"] = folder.path
        let run = try await runTool("zsh", ["-f", folder.appendingPathComponent("driver.zsh").path, line], in: directory.url, environment: environment, seconds: 30)
        return run.out.split(separator: "\n").map(String.init).sorted()
    }
}
