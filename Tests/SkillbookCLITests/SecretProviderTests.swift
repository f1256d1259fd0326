import Foundation
import SkillbookCore
import SkillbookSQLite
import SkillbookTesting
import Testing

/// `secrets:` in `skillbook.yaml`: each provider read when the run starts, its value masked
/// wherever the run is recorded or shown, a failure naming the provider and never a value.
@Suite struct SecretProviderTests {
    static let playbook = """
        name: provided
        inputs:
          token: { type: string, secret: true, from: api }
        steps:
          - { id: use, skill: text.template, with: { template: "{{a}} {{b}}", values: { a: "${{ 'k=' + inputs.token }}", b: "${{ upper(secret('api')) }}" } } }
        outputs:
          shown: "${{ steps.use.output.text }}"

        """

    /// A workspace whose `api` secret comes from `provider` (YAML flow text).
    static func workspace(_ provider: String) -> TemporaryDirectory {
        let directory = TemporaryDirectory()
        directory.write("skillbook.yaml", "secrets:\n  api: \(provider)\n")
        directory.write("Playbooks/provided.yaml", playbook)
        return directory
    }

    static func expectMasked(_ run: CLIRun, secret: String, in directory: TemporaryDirectory) throws {
        #expect(run.code == 0, "\(run.err)")
        #expect(run.out.contains("\"shown\": \"k=*** ***\""), "\(run.out)")
        #expect(!run.out.contains(secret) && !run.err.contains(secret) && !run.out.contains(secret.uppercased()))
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.state.path) {
            let bytes = try Data(contentsOf: directory.state.appendingPathComponent(name))
            #expect(bytes.range(of: Data(secret.utf8)) == nil, "\(name)")
            #expect(bytes.range(of: Data(secret.uppercased().utf8)) == nil, "\(name)")
        }
    }

    static func expectRefused(_ run: CLIRun, saying message: String, in directory: TemporaryDirectory) throws {
        #expect(run.code == 2, "\(run.out)\(run.err)")
        #expect(run.err.contains("error: the secret 'api' could not be read: \(message); nothing was run"), "\(run.err)")
        let runs = FileManager.default.fileExists(atPath: directory.state.path) ? try SQLiteJournal(stateDirectory: directory.state).runs() : []
        #expect(runs.isEmpty, "no run was recorded")
    }

    @Test func anEnvironmentVariable() async throws {
        let directory = Self.workspace("{ env: API_TOKEN }")
        let run = await skillbook(["run", "provided"], in: directory, environment: ["API_TOKEN": "env-t0ken-77"])
        try Self.expectMasked(run, secret: "env-t0ken-77", in: directory)
        let bare = Self.workspace("{ env: API_TOKEN }")
        let missing = await skillbook(["run", "provided"], in: bare, environment: [:])
        try Self.expectRefused(missing, saying: "the environment variable API_TOKEN is not set", in: bare)
    }

    @Test func aFileOnlyItsOwnerCanRead() async throws {
        let directory = Self.workspace("{ file: token.txt }")
        let file = directory.write("token.txt", "file-t0ken-88\n")
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        let run = await skillbook(["run", "provided"], in: directory)
        try Self.expectMasked(run, secret: "file-t0ken-88", in: directory)
    }

    /// `~/` is `$HOME` (it had been the account's home from the password database, whatever
    /// `HOME` said).
    @Test func aFileInTheHomeFolderIsTheOneHOMENames() async throws {
        let directory = Self.workspace("{ file: ~/token.txt }")
        let file = directory.write("home/token.txt", "home-t0ken-77\n")
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        let run = await skillbook(["run", "provided"], in: directory, environment: ["HOME": directory.url.appendingPathComponent("home").path])
        try Self.expectMasked(run, secret: "home-t0ken-77", in: directory)
    }

    @Test func aFileOthersMayReadIsRefused() async throws {
        let directory = Self.workspace("{ file: token.txt }")
        let file = directory.write("token.txt", "file-t0ken-99\n")
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file.path)
        let run = await skillbook(["run", "provided"], in: directory)
        try Self.expectRefused(run, saying: "the file \(file.path) may be read by others (mode 644); chmod 600 it", in: directory)
        #expect(!run.err.contains("file-t0ken-99"))
    }

    @Test func aCommandThatPrintsTheSecret() async throws {
        let directory = Self.workspace("{ command: [printf, '%s\\n', cmd-t0ken-55] }")
        let run = await skillbook(["run", "provided"], in: directory)
        try Self.expectMasked(run, secret: "cmd-t0ken-55", in: directory)
    }

    @Test func aCommandThatFailsIsNamedWithoutItsOutput() async throws {
        let directory = Self.workspace("{ command: [python3, -c, \"print('half-t0ken-11'); raise SystemExit(3)\"] }")
        let run = await skillbook(["run", "provided"], in: directory)
        try Self.expectRefused(
            run, saying: "the command 'python3 -c print('half-t0ken-11'); raise SystemExit(3)' failed: it exited with code 3", in: directory)
    }

    @Test func aCommandThatPrintsNothing() async throws {
        let directory = Self.workspace("{ command: [\"true\"] }")
        let run = await skillbook(["run", "provided"], in: directory)
        try Self.expectRefused(run, saying: "the command 'true' gave an empty value", in: directory)
    }

    @Test func anUnknownSecretIsAnErrorWhereItIsNamed() async throws {
        let directory = Self.workspace("{ env: API_TOKEN }")
        directory.write("Playbooks/provided.yaml", Self.playbook.replacingOccurrences(of: "secret('api')", with: "secret('apj')")
            .replacingOccurrences(of: "from: api", with: "from: aip"))
        let run = await skillbook(["validate", "Playbooks/provided.yaml"], in: directory, environment: ["API_TOKEN": "x-y-z-w"])
        #expect(run.code == 2, "\(run.err)")
        #expect(run.err.contains("provided.yaml:3:46: error: input 'token': unknown secret 'aip'; did you mean 'api'?"), "\(run.err)")
        #expect(run.err.contains("provided.yaml:5:135: error: unknown secret 'apj'; did you mean 'api'?"), "\(run.err)")
    }

    /// A playbook's own `secrets:` (names only): each a secret of `skillbook.yaml`, and the only
    /// names its `from:` and `secret('…')` may use.
    @Test func aPlaybooksSecretsListIsCheckedAtLoad() async throws {
        let directory = Self.workspace("{ env: API_TOKEN }")
        directory.write("skillbook.yaml", "secrets:\n  api: { env: A }\n  smtp: { env: S }\n  deploy: { env: D }\n  unused: { env: U }\n")
        directory.write(
            "Playbooks/listed.yaml",
            """
            name: listed
            secrets: [api, stmp, unused]
            inputs:
              token: { type: string, secret: true, from: api }
              key: { type: string, secret: true, from: deploy }
            steps:
              - { id: use, skill: text.template, with: { template: "{{a}}", values: { a: "${{ secret('apj') + inputs.token + inputs.key }}" } } }

            """)
        let run = await skillbook(["validate", "Playbooks/listed.yaml"], in: directory)
        #expect(run.code == 2, "\(run.err)")
        for line in [
            "listed.yaml:2:16: error: secret 'stmp' is not under 'secrets:' in skillbook.yaml; did you mean 'smtp'?",
            "listed.yaml:2:22: warning: secret 'unused' is listed under 'secrets:' but nothing reads it",
            "listed.yaml:5:44: error: input 'key': unknown secret 'deploy'; list it under the playbook's 'secrets:'",
            "listed.yaml:7:90: error: unknown secret 'apj'; did you mean 'api'?",
        ] {
            #expect(run.err.contains(line), "\(line)\n\(run.err)")
        }
        directory.write("Playbooks/listed.yaml", "name: listed\nsecrets: { api: { env: A } }\nsteps: []\n")
        let providers = await skillbook(["validate", "Playbooks/listed.yaml"], in: directory)
        #expect(providers.err.contains(
            "listed.yaml:2:10: error: 'secrets' must be a list of secret names; providers ({ env: … }) belong under 'secrets:' in skillbook.yaml"),
            "\(providers.err)")
    }

    @Test func aSecretFlowingToAPlaceThatShowsItIsWarnedAtLoad() async throws {
        let directory = Self.workspace("{ env: API_TOKEN }")
        directory.write(
            "Playbooks/flows.yaml",
            """
            name: flows
            inputs:
              token: { type: string, secret: true, from: api }
            steps:
              - { id: shout, skill: debug.echo, with: { value: "${{ upper(inputs.token) }}" } }
              - { id: save, skill: notes.create, with: { title: "${{ steps.shout.output.value }}" } }
              - { id: maybe, skill: debug.echo, when: "${{ starts_with(secret('api'), 'a') }}", with: { value: 1 } }
            outputs:
              token: "${{ steps.shout.output.value }}"

            """)
        let run = await skillbook(["validate", "Playbooks/flows.yaml"], in: directory)
        #expect(run.err.contains(
            "flows.yaml:5:52: warning: a secret flows into debug.echo (inputs.token → step 'shout' 'value'), which only shows it"),
            "\(run.err)")
        #expect(run.err.contains(
            "flows.yaml:6:53: warning: a secret flows into a note's title (inputs.token → step 'shout' → steps.shout.output → step 'save' notes.create 'title')"),
            "\(run.err)")
        #expect(run.err.contains("flows.yaml:7:43: warning: step 'maybe' decides 'when' on a secret (secret('api') → when)"), "\(run.err)")
        #expect(run.err.contains(
            "flows.yaml:9:10: warning: a secret flows into the playbook's output 'token' (inputs.token → step 'shout' → steps.shout.output → outputs.token)"),
            "\(run.err)")
    }
}

/// A provider command that does not finish is stopped after its timeout (waits on the wall clock).
@Suite struct SecretProviderTimeoutTests {
    @Test func aCommandThatHangsIsStoppedAfterItsTimeout() async throws {
        // (a duration as everywhere else: `500ms`; a bare number is seconds)
        let directory = SecretProviderTests.workspace("{ command: [sleep, \"30\"], timeout: 500ms }")
        let started = Date()
        let run = await skillbook(["run", "provided"], in: directory)
        #expect(Date().timeIntervalSince(started) < 25, "stopped after 0.5 s and the 2 s grace, not after the 30 s sleep")
        try SecretProviderTests.expectRefused(run, saying: "the command 'sleep 30' did not finish within 0.5 s", in: directory)
    }
}

/// Providers are read again by `resume` and by a scheduled run, never taken from the journal.
@Suite struct SecretProviderRereadTests {
    /// Writes the token it is given to `out`, once a file `go` is next to it (until then it fails).
    static let keeper = """
        id: probe.keep
        summary: Writes the token it is given to a file, once a file named go is next to it.
        kind: action
        parameters:
          type: object
          properties:
            out: { type: string, format: path, access: write }
            token: { type: string, secret: true }
          required: [out, token]
        run:
          - python3
          - -c
          - "import sys, os\\nif not os.path.exists(os.path.join(os.path.dirname(sys.argv[1]), 'go')): sys.exit('not yet')\\nopen(sys.argv[1], 'w').write(sys.argv[2])"
          - "${{ params.out }}"
          - "${{ params.token }}"

        """

    static let playbook = """
        name: kept
        on_failure: stop
        secrets: [api]
        inputs:
          token: { type: string, secret: true, from: api }
        steps:
          - { id: keep, skill: probe.keep, with: { out: seen.txt, token: "${{ inputs.token + '/' + secret('api') }}" } }

        """

    @Test func resumeReadsTheProviderAgain() async throws {
        let directory = SecretProviderTests.workspace("{ env: API_TOKEN }")
        directory.write("Skills/keep.yaml", Self.keeper)
        directory.write("Playbooks/kept.yaml", Self.playbook)
        let first = await skillbook(["run", "kept", "--json"], in: directory, environment: ["API_TOKEN": "first-v4lue-AA"])
        #expect(first.code == 1, "\(first.err)")
        let runID = try #require(SecretLeakTests.firstRun(in: first.out), "\(first.out)")
        directory.write("go", "")

        let bare = await skillbook(["resume", runID], in: directory, environment: [:])
        #expect(bare.code == 2, "\(bare.out)\(bare.err)")
        #expect(bare.err.contains("the secret 'api' could not be read: the environment variable API_TOKEN is not set"), "\(bare.err)")
        #expect(!FileManager.default.fileExists(atPath: directory.path + "/seen.txt"), "nothing ran")

        let resumed = await skillbook(["resume", runID], in: directory, environment: ["API_TOKEN": "second-v4lue-BB"])
        #expect(resumed.code == 0, "\(resumed.err)")
        let seen = try String(contentsOfFile: directory.path + "/seen.txt", encoding: .utf8)
        #expect(seen == "second-v4lue-BB/second-v4lue-BB", "the step got the value read at resume: \(seen)")
        for secret in ["first-v4lue-AA", "second-v4lue-BB"] {
            #expect(!first.out.contains(secret) && !resumed.out.contains(secret) && !resumed.err.contains(secret))
            for name in try FileManager.default.contentsOfDirectory(atPath: directory.state.path) {
                let bytes = try Data(contentsOf: directory.state.appendingPathComponent(name))
                #expect(bytes.range(of: Data(secret.utf8)) == nil, "\(secret) in \(name)")
            }
        }
    }

    /// A sub-playbook's input that says `from:` need not be mapped: it takes the run's value.
    @Test func aSubPlaybookInputFromAProviderNeedNotBeMapped() async throws {
        let directory = SecretProviderTests.workspace("{ env: API_TOKEN }")
        directory.write(
            "Playbooks/outer.yaml",
            "name: outer\nsteps:\n  - { id: inner, playbook: provided }\noutputs:\n  shown: \"${{ steps.inner.output.shown }}\"\n")
        let run = await skillbook(["run", "outer"], in: directory, environment: ["API_TOKEN": "sub-t0ken-44"])
        #expect(run.code == 0, "\(run.err)")
        #expect(run.out.contains("\"shown\": \"k=*** ***\""), "\(run.out)")
        #expect(!run.out.contains("sub-t0ken-44") && !run.err.contains("sub-t0ken-44"))
    }

    @Test func aScheduledRunReadsItsProvider() async throws {
        let directory = SecretProviderTests.workspace("{ env: API_TOKEN }")
        directory.write(
            "Playbooks/provided.yaml",
            SecretProviderTests.playbook.replacingOccurrences(of: "name: provided\n", with: "name: provided\nschedule: { every: 1h }\n"))
        let tick = await skillbook(["schedule", "tick"], in: directory, environment: ["API_TOKEN": "tick-t0ken-33"])
        #expect(tick.code == 0, "\(tick.err)")
        let runs = try SQLiteJournal(stateDirectory: directory.state).runs()
        #expect(runs.map(\.status) == [.succeeded], "\(tick.err)")
        #expect(runs.first?.outputs?["shown"] == "k=*** ***")
        #expect(runs.first?.trigger == .schedule)
        #expect(!tick.out.contains("tick-t0ken-33") && !tick.err.contains("tick-t0ken-33"))
    }
}
