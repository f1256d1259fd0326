import Foundation
import SkillbookCore
import SkillbookSkills
import Testing

@Suite struct BuiltinSkillsTests {
    @Test func registersExactlyTheBuiltinSkills() async throws {
        try await withHarness { harness in
            #expect(
                harness.registry.ids
                    == [
                        "data.filter", "data.pick", "data.sort", "debug.echo", "debug.fail", "debug.sleep",
                        "files.copy", "files.delete", "files.list", "files.mkdir", "files.move", "files.read",
                        "files.write", "mail.send", "notes.create", "notes.create_many", "notes.delete", "notes.list",
                        "notify.send", "reminders.complete", "reminders.create", "reminders.delete", "reminders.list",
                        "shell.run", "text.extract", "text.join", "text.template", "web.fetch", "web.request",
                        "web.summary",
                    ])
        }
    }

    @Test func everyDescriptorIsComplete() async throws {
        try await withHarness { harness in
            for descriptor in harness.registry.descriptors {
                let id = descriptor.id
                #expect(SkillDescriptor.isValidID(id), "\(id)")
                #expect(!descriptor.title.isEmpty && descriptor.title != id, "\(id) has no title")
                #expect(descriptor.summary.count >= 30, "\(id) summary too short")
                #expect(descriptor.summary.hasSuffix("."), "\(id) summary is not a sentence")
                #expect(descriptor.examples.count >= 3, "\(id) needs example phrases")
                #expect(
                    descriptor.examples.allSatisfy { !$0.isEmpty && $0 == $0.trimmingCharacters(in: .whitespaces) },
                    "\(id) examples should read like typed phrases")
                #expect(!descriptor.tags.isEmpty, "\(id) has no tags")
                #expect(descriptor.timeout > 0, "\(id)")
                #expect(descriptor.availability == .available, "\(id)")
                let writes = [
                    "notes.create", "notes.create_many", "notes.delete", "files.write", "files.move", "files.copy",
                    "files.delete", "files.mkdir", "reminders.create", "reminders.complete", "reminders.delete",
                ].contains(id)
                let domain = String(id.prefix { $0 != "." })
                // shell.run is reversible per call (with `undo`); see ShellRunSkill.
                let runsCommands = id == "shell.run"
                #expect(descriptor.reversible == (writes || runsCommands), "\(id)")
                #expect(descriptor.resources == (writes ? [domain] : []), "\(id)")
                // Actions whose effect is elsewhere (another machine, the user's eyes): nothing to undo here.
                let irreversibleAction = ["web.request", "notify.send", "mail.send"].contains(id)
                #expect(descriptor.kind == (writes || runsCommands || irreversibleAction ? .action : .query), "\(id)")
                #expect(
                    descriptor.confirm
                        == ["notes.delete", "files.delete", "reminders.delete", "shell.run", "web.request", "mail.send"].contains(id),
                    "\(id)")
            }
        }
    }

    @Test func examplePhrasesAreUniqueAcrossSkills() async throws {
        try await withHarness { harness in
            let all = harness.registry.descriptors.flatMap(\.examples).map { $0.lowercased() }
            #expect(Set(all).count == all.count)
        }
    }

    @Test func schemasAreClosedObjectsWhoseDefaultsValidate() async throws {
        try await withHarness { harness in
            for descriptor in harness.registry.descriptors {
                for (name, schema) in [("parameters", descriptor.parameters), ("output", descriptor.output)] {
                    #expect(schema.type == .object, "\(descriptor.id) \(name)")
                    #expect(schema.additionalProperties == false, "\(descriptor.id) \(name)")
                    for required in schema.required {
                        #expect(schema.property(required) != nil, "\(descriptor.id) \(name) requires undeclared \(required)")
                    }
                }
                for (name, property) in descriptor.parameters.properties {
                    #expect(property.description?.isEmpty == false, "\(descriptor.id).\(name) has no description")
                    if let value = property.defaultValue {
                        #expect(
                            SchemaValidator.validate(value, against: property).isEmpty,
                            "\(descriptor.id).\(name) default breaks its schema")
                    }
                }
            }
        }
    }

    @Test func queriesAreIdempotent() async throws {
        try await withHarness { harness in
            for descriptor in harness.registry.descriptors where descriptor.kind == .query {
                #expect(descriptor.idempotent, "\(descriptor.id)")
            }
        }
    }
}
