/// Parsed arguments of one command, read by typed option keys (see `Option`).
struct ParsedArguments: Sendable {
    var positionals: [String] = []
    private var values: [String: [String]] = [:]
    private var flags: Set<String> = []
    /// The keys of the options the command declares; reading another is a programming error.
    private let declared: Set<String>

    init(declared: [OptionSpec]) {
        self.declared = Set(declared.map(\.key))
    }

    subscript(option: Option<Bool>) -> Bool {
        flags.contains(checked(option.spec))
    }

    /// The value given (the last, should the option be repeatable).
    subscript(option: Option<String>) -> String? {
        values[checked(option.spec)]?.last
    }

    /// Every value given, in order.
    subscript(option: Option<[String]>) -> [String] {
        values[checked(option.spec)] ?? []
    }

    mutating func add(_ option: OptionSpec, value: String?) {
        if let value {
            values[option.key, default: []].append(value)
        } else {
            flags.insert(option.key)
        }
    }

    func count(_ option: OptionSpec) -> Int { values[option.key]?.count ?? 0 }

    private func checked(_ spec: OptionSpec) -> String {
        assert(declared.contains(spec.key), "option '\(spec.names.last!)' is read but not declared by the command")
        return spec.key
    }
}
