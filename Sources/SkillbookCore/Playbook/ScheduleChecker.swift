public import Foundation

/// Checks a playbook's `schedule:` entries against the rest of the playbook: every input a
/// scheduled run needs has a value, given inputs exist and fit their schemas, and — as a warning —
/// a fixed time of day that falls into a DST change of its zone within a year of `now` (it is
/// skipped that day and fires at the end of the gap, or it is repeated and fires once).
public struct ScheduleChecker: Sendable {
    /// Where the look-ahead for DST changes starts.
    public var now: Date
    /// How far it looks, in seconds.
    public var horizon: Double
    /// The zone of entries without `timezone`: the one given, else the machine's, read only
    /// when an entry needs it (most playbooks have no schedule, and reading it is not free).
    public var machineZone: TimeZone {
        get { givenZone ?? .current }
        set { givenZone = newValue }
    }
    private var givenZone: TimeZone?

    public init(now: Date = Date(), horizon: Double = 366 * 86_400, machineZone: TimeZone? = nil) {
        self.now = now
        self.horizon = horizon
        self.givenZone = machineZone
    }

    public func check(_ playbook: Playbook) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for entry in playbook.schedule {
            checkInputs(entry, playbook, &diagnostics)
            if case .cron(let expression) = entry.trigger, expression.hasFixedTime {
                let zone = entry.timezone.flatMap(TimeZone.init(identifier:)) ?? machineZone
                warnAboutDST(expression, zone: zone, entry: entry, &diagnostics)
            }
        }
        return diagnostics
    }

    private func checkInputs(_ entry: ScheduleEntry, _ playbook: Playbook, _ diagnostics: inout [Diagnostic]) {
        let path = "\(entry.path).inputs"
        for input in entry.inputs {
            guard let declared = playbook.inputs.first(where: { $0.name == input.name }) else {
                let suggestion = Suggestion.closest(to: input.name, in: playbook.inputs.map(\.name))
                    .map { "; did you mean '\($0)'?" } ?? ""
                diagnostics.append(
                    .error("\(path): the playbook has no input '\(input.name)'\(suggestion)", at: input.location))
                continue
            }
            for violation in SchemaValidator.validate(input.value, against: declared.schema) {
                let place = ([PathComponent.key(input.name)] + violation.path).rendered(root: path)
                diagnostics.append(.error("\(place) \(violation.predicate)", at: input.location))
            }
        }
        for input in playbook.inputs where input.isRequired && !entry.inputs.contains(where: { $0.name == input.name }) {
            diagnostics.append(
                .error(
                    "\(entry.path): the required input '\(input.name)' has no value in a scheduled run; give it under \(path)",
                    at: entry.location))
        }
    }

    private func warnAboutDST(
        _ expression: CronExpression, zone: TimeZone, entry: ScheduleEntry, _ diagnostics: inout [Diagnostic]
    ) {
        let times = expression.fixedTimes
        var warned: Set<Bool> = []
        for transition in ZoneTransition.between(now, now.addingTimeInterval(horizon), in: zone) {
            let instant = Int64(transition.instant.timeIntervalSince1970.rounded(.down))
            let low = instant + Int64(min(transition.offsetBefore, transition.offsetAfter))
            let high = instant + Int64(max(transition.offsetBefore, transition.offsetAfter))
            guard !warned.contains(transition.isGap) else { continue }
            let firstDay = Int(low.floorDivided(by: 86_400))
            let lastDay = Int((high - 1).floorDivided(by: 86_400))
            search: for day in firstDay...lastDay {
                let (year, month, dayOfMonth) = CivilTime.civil(fromDays: day)
                guard expression.matchesDay(day: dayOfMonth, month: month, weekday: CivilTime.weekday(days: day)) else {
                    continue
                }
                for time in times {
                    let wall = Int64(day) * 86_400 + Int64(time.hour * 3600 + time.minute * 60)
                    guard wall >= low, wall < high else { continue }
                    let local = CivilTime(year: year, month: month, day: dayOfMonth, hour: time.hour, minute: time.minute)
                    let clock = String(local.description.dropFirst(11).prefix(5))
                    let date = String(local.description.prefix(10))
                    let effect: String
                    if transition.isGap {
                        let after = CivilTime(wallSeconds: instant + Int64(transition.offsetAfter)).description
                        effect = "that time does not exist; it fires once at \(after.dropFirst(11).prefix(5)) instead"
                    } else {
                        effect = "that time happens twice; it fires once, at the first"
                    }
                    diagnostics.append(
                        .warning(
                            "\(entry.path).cron: \(clock) falls in the DST change of \(zone.identifier) on \(date): \(effect)",
                            at: entry.triggerLocation))
                    warned.insert(transition.isGap)
                    break search
                }
            }
        }
    }
}
