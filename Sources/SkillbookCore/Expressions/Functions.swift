import Foundation

/// The kinds of value a function argument accepts.
struct ArgumentKinds: OptionSet, Sendable {
    let rawValue: Int

    static let null = ArgumentKinds(rawValue: 1 << 0)
    static let boolean = ArgumentKinds(rawValue: 1 << 1)
    static let integer = ArgumentKinds(rawValue: 1 << 2)
    static let number = ArgumentKinds(rawValue: 1 << 3)
    static let string = ArgumentKinds(rawValue: 1 << 4)
    static let array = ArgumentKinds(rawValue: 1 << 5)
    static let object = ArgumentKinds(rawValue: 1 << 6)
    static let anything: ArgumentKinds = [.null, .boolean, .integer, .number, .string, .array, .object]

    /// `string`, `string, array or object` (null is not mentioned).
    var phrase: String {
        let names: [(ArgumentKinds, String)] = [
            (.boolean, "boolean"), (.integer, "integer"), (.number, "number"), (.string, "string"),
            (.array, "array"), (.object, "object"),
        ]
        let listed = names.filter { contains($0.0) && !($0.0 == .integer && contains(.number)) }.map(\.1)
        guard listed.count > 1 else { return listed.first ?? "null" }
        return listed.dropLast().joined(separator: ", ") + " or " + (listed.last ?? "")
    }

    /// Whether a value of static type `type` may be passed (`.any` may always).
    func accepts(_ type: ExprType) -> Bool {
        switch type {
        case .any: true
        case .null: contains(.null)
        case .boolean: contains(.boolean)
        case .integer: contains(.integer) || contains(.number)
        case .number: contains(.number)
        case .string: contains(.string)
        case .array: contains(.array)
        case .object: contains(.object)
        case .union(let members): members.allSatisfy(accepts)
        }
    }

    /// Whether `value` may be passed (an integral number counts as an integer).
    func accepts(_ value: Value) -> Bool {
        switch value {
        case .null: contains(.null)
        case .bool: contains(.boolean)
        case .int: contains(.integer) || contains(.number)
        case .double: contains(.number) || (contains(.integer) && value.intValue != nil)
        case .string: contains(.string)
        case .array: contains(.array)
        case .object: contains(.object)
        }
    }
}

/// The functions expressions can call. `docs/expressions.md` lists each with its type rule.
enum BuiltinFunction: String, CaseIterable, Sendable {
    case length, `default`, join, split, lower, upper, contains, replace, trim
    case startsWith = "starts_with"
    case endsWith = "ends_with"
    case basename, dirname, `extension`
    case keys, values, first, last, unique, sort, flatten, sum, min, max, round
    case fromJSON = "from_json"
    case toJSON = "to_json"
    /// The older name of `to_json`.
    case json
    case today, now, date
    case addDays = "add_days"
    case formatDate = "format_date"
    /// The value of a secret of `secrets:`, read from its provider when the run starts.
    case secret

    static let names = allCases.map(\.rawValue)

    /// What each argument accepts; the count is the most arguments it takes.
    var parameters: [ArgumentKinds] {
        switch self {
        case .length: [[.string, .array, .object, .null]]
        case .default: [.anything, .anything]
        case .join: [.array, .string]
        case .split, .startsWith, .endsWith: [.string, .string]
        case .lower, .upper, .trim, .basename, .dirname, .extension, .fromJSON, .date, .secret: [.string]
        case .contains: [[.string, .array, .object, .null], .anything]
        case .replace: [.string, .string, .string]
        case .keys, .values: [[.object, .null]]
        case .first, .last: [[.array, .string, .null]]
        case .unique, .sort, .flatten, .sum, .min, .max: [.array]
        case .round: [.number, .integer]
        case .toJSON, .json: [.anything]
        case .today, .now: []
        case .addDays: [.string, .integer]
        case .formatDate: [.string, .string]
        }
    }

    /// How many arguments it needs; the rest of `parameters` are optional.
    var requiredCount: Int { self == .round ? 1 : parameters.count }

    /// `function 'join' takes 2 arguments, got 1`.
    func arityMessage(got: Int) -> String {
        let count = parameters.count
        let takes = requiredCount == count ? "\(count)" : "\(requiredCount) or \(count)"
        return "function '\(rawValue)' takes \(takes) argument\(count == 1 ? "" : "s"), got \(got)"
    }

    func argumentMessage(_ position: Int, got: String) -> String {
        "function '\(rawValue)' expects \(parameters[position].phrase) as argument \(position + 1), got \(got)"
    }

    /// Other names people reach for, from Jinja, Python and JavaScript.
    private static let aliases: [String: BuiltinFunction] = [
        "len": .length, "size": .length, "count": .length, "strip": .trim, "concat": .join, "tojson": .toJSON,
        "fromjson": .fromJSON, "parse_json": .fromJSON, "stringify": .toJSON, "uniq": .unique, "sorted": .sort,
        "ext": .extension, "suffix": .extension, "total": .sum, "startswith": .startsWith, "endswith": .endsWith,
    ]

    /// `did you mean 'upper'?` for `uppercase`: an alias, a near spelling, or the longest
    /// function name (four letters or more) the word contains.
    static func hint(for name: String) -> String? {
        let word = name.lowercased()
        if let alias = aliases[word] { return "did you mean '\(alias.rawValue)'?" }
        if let near = Suggestion.hint(for: name, in: names) { return near }
        let contained = names.filter { $0.count >= 4 && word.contains($0) }.max { $0.count < $1.count }
        return contained.map { "did you mean '\($0)'?" }
    }

    /// `unknown function 'uppercase'; did you mean 'upper'?`
    static func unknownMessage(_ name: String) -> String {
        hint(for: name).map { "unknown function '\(name)'; \($0)" } ?? "unknown function '\(name)'"
    }

    /// A type error beyond the argument kinds (the elements of a list), or `nil`.
    func elementProblem(_ arguments: [ExprType]) -> String? {
        guard case .array(let element)? = arguments.first, element != .any else { return nil }
        switch self {
        case .sum:
            return element.isNumeric ? nil : "function 'sum' expects an array of numbers, got array of \(element)"
        case .min, .max, .sort:
            return element.isNumeric || element == .string
                ? nil : "function '\(rawValue)' expects an array of numbers or of strings, got array of \(element)"
        default:
            return nil
        }
    }

    /// The result type for arguments of these types (already checked against `parameters`).
    func resultType(_ arguments: [ExprType]) -> ExprType {
        let first = arguments.first ?? .any
        var element: ExprType {
            if case .array(let e) = first { return e }
            return .any
        }
        switch self {
        case .length: return .integer
        case .default:
            switch arguments.first {
            case .null?: return arguments.count > 1 ? arguments[1] : .any
            case let first?: return first
            case nil: return .any
            }
        case .join, .lower, .upper, .replace, .trim, .basename, .dirname, .extension, .toJSON, .json, .today, .now,
            .date, .addDays, .formatDate, .secret:
            return .string
        case .split: return .array(.string)
        case .contains, .startsWith, .endsWith: return .boolean
        case .keys: return .array(.string)
        case .values:
            if case .object(let fields?) = first, !fields.isEmpty { return .array(ExprType.union(of: fields.map(\.type))) }
            return .array(.any)
        case .first, .last:
            return first == .string ? .string : element
        case .unique, .sort: return first == .null ? .array(.any) : first
        case .flatten:
            if case .array(let inner) = element { return .array(inner) }
            return .array(element)
        case .sum: return element == .integer ? .integer : element == .any ? .any : .number
        case .min, .max: return element
        case .round: return arguments.count > 1 ? .number : .integer
        case .fromJSON: return .any
        }
    }
}
