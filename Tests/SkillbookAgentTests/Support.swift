import Foundation
import SkillbookAgent
import SkillbookCore
import SkillbookSkills
import SkillbookTesting

/// The package root (three folders above this file).
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// The shipped skills: built-in ones and the manifests in `Skills/`.
let shippedSkills: [any Skill] = {
    let state = FileManager.default.temporaryDirectory.appendingPathComponent("skillbook-agent-tests")
    let builtin = BuiltinSkills.all(environment: SkillEnvironment(stateDirectory: state))
    let manifests = ManifestLoader().load(directory: packageRoot.appendingPathComponent("Skills")).skills
    return builtin + manifests
}()

let shippedRegistry: SkillRegistry = try! SkillRegistry(shippedSkills)

/// The shipped playbooks, loaded and checked.
let shippedPlaybooks: [Playbook] = {
    let folder = packageRoot.appendingPathComponent("Playbooks")
    let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".yaml") }.sorted()
    return names.compactMap { name in
        let url = folder.appendingPathComponent(name)
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return nil }
        return PlaybookLoader(registry: shippedRegistry).load(text, file: url.path).playbook
    }
}()

/// Every shipped playbook and skill as a route target.
let shippedTargets: [RouteTarget] =
    shippedPlaybooks.map(RouteTarget.init(playbook:)) + shippedRegistry.descriptors.map(RouteTarget.init(skill:))

let shippedMatcher = Matcher(targets: shippedTargets)

/// Tuesday 2026-12-01 09:15 in Berlin (UTC+1): "tomorrow" is 2026-12-02.
let berlinClock = Matcher.ReferenceTime(
    now: Date(timeIntervalSince1970: 1_796_112_900), timeZone: TimeZone(identifier: "Europe/Berlin")!)

/// Whether `request` holds a CJK ideograph (the request sets count their Chinese rows by it).
func isChinese(_ request: String) -> Bool {
    request.unicodeScalars.contains { (0x4E00...0x9FFF).contains($0.value) }
}
