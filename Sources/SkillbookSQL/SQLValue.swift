public import Foundation

/// A value bound to a statement parameter or read from a result column.
public enum SQLValue: Sendable, Hashable {
    case null
    case integer(Int)
    case real(Double)
    case text(String)
    case blob(Data)

    public init(_ value: Int?) { self = value.map(SQLValue.integer) ?? .null }
    public init(_ value: Double?) { self = value.map(SQLValue.real) ?? .null }
    public init(_ value: String?) { self = value.map(SQLValue.text) ?? .null }
    public init(_ value: Data?) { self = value.map(SQLValue.blob) ?? .null }

    public var isNull: Bool { self == .null }

    public var intValue: Int? {
        if case .integer(let i) = self { return i }
        return nil
    }

    /// Reals, and integers widened to reals.
    public var doubleValue: Double? {
        switch self {
        case .real(let d): d
        case .integer(let i): Double(i)
        default: nil
        }
    }

    public var stringValue: String? {
        if case .text(let s) = self { return s }
        return nil
    }

    public var dataValue: Data? {
        if case .blob(let d) = self { return d }
        return nil
    }
}

extension SQLValue: ExpressibleByNilLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByStringLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(integerLiteral value: Int) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .real(value) }
    public init(stringLiteral value: String) { self = .text(value) }
}

/// One result row, read by column index or by column name.
public struct Row: Sendable, Hashable {
    public let columns: [String]
    public let values: [SQLValue]

    public init(columns: [String], values: [SQLValue]) {
        self.columns = columns
        self.values = values
    }

    /// The value at a column index; `.null` past the last column.
    public subscript(index: Int) -> SQLValue {
        values.indices.contains(index) ? values[index] : .null
    }

    /// The value of the first column with this name; `nil` when there is no such column.
    public subscript(column: String) -> SQLValue? {
        columns.firstIndex(of: column).map { values[$0] }
    }

    public func int(_ column: String) -> Int? { self[column]?.intValue }
    public func double(_ column: String) -> Double? { self[column]?.doubleValue }
    public func string(_ column: String) -> String? { self[column]?.stringValue }
    public func data(_ column: String) -> Data? { self[column]?.dataValue }
}
